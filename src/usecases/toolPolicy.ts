// When the editor asks before calling a tool. Annotations are hints from the server, never
// guarantees; the MCP defaults apply to what a tool leaves out (readOnlyHint false,
// destructiveHint true), so a tool without annotations counts as possibly destructive.
import type { Tool } from '../client/schemas';

/** True when a call needs the user's confirmation (with `mcpHost.confirmDestructiveTools` on). */
export function needsConfirmation(tool: Pick<Tool, 'annotations'>): boolean {
  const a = tool.annotations ?? {};
  return a.readOnlyHint !== true && a.destructiveHint !== false;
}

/** Why MCP Host asks, as whole sentences for the confirmation dialog. */
export function confirmationReason(tool: Pick<Tool, 'annotations'>): string {
  const a = tool.annotations;
  const hint = 'Servers describe their tools themselves; MCP Host cannot check this.';
  if (a?.destructiveHint === true) return `The server says this tool may delete or overwrite things. ${hint}`;
  if (!a || (a.readOnlyHint === undefined && a.destructiveHint === undefined)) return 'The server does not say whether this tool only reads or also changes things, so MCP Host treats it as one that may change them.';
  return `The server does not say that this tool only reads, nor that its changes are harmless. ${hint}`;
}
