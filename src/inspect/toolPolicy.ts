// When the editor asks before calling a tool. Annotations are hints from the server, never
// guarantees; the MCP defaults apply to what a tool leaves out (readOnlyHint false,
// destructiveHint true), so a tool without annotations counts as possibly destructive.
import type { Tool } from '../client/schemas';

/** True when a call needs the user's confirmation (with `mcpHost.confirmDestructiveTools` on). */
export function needsConfirmation(tool: Pick<Tool, 'annotations'>): boolean {
  const a = tool.annotations ?? {};
  return a.readOnlyHint !== true && a.destructiveHint !== false;
}

/** Why, in words, for the confirmation dialog. */
export function confirmationReason(tool: Pick<Tool, 'annotations'>): string {
  const a = tool.annotations;
  if (a?.destructiveHint === true) return 'The server marks it as destructive';
  if (!a || (a.readOnlyHint === undefined && a.destructiveHint === undefined)) return 'The server does not say whether it changes anything, so it may';
  return 'The server does not mark it as read-only or non-destructive';
}
