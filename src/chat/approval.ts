// When a call the model asks for needs the user's approval. Annotations are the server's own
// claims: they count only for a server the user marked trusted, and then only to skip asking for
// a read-only tool when the user turned that on. A tool that says it is destructive always asks,
// and so does one whose definition changed since the user approved it, and every call of a
// request an MCP App view wrote.
import type { Tool } from '../client/schemas';

/** What the user answered. */
export type ApprovalDecision = 'once' | 'session' | 'deny';

export interface ApprovalSettings {
  /** The user marked this server trusted (its annotations are believed). */
  readonly serverTrusted: boolean;
  /** Calls of `readOnlyHint` tools of a trusted server run without asking. */
  readonly autoApproveReadOnly: boolean;
  /** The server runs in its sandbox and the user opted in to `mcpHost.sandbox.autoApproveTools`: its calls run without asking. */
  readonly sandboxedAutoApprove?: boolean;
}

/** Whether to ask, and why (shown with the question, or logged when not asking). */
export type ApprovalNeed = { readonly ask: true; readonly reason: string } | { readonly ask: false; readonly reason: string };

/** Grants "Allow for this session" gave, by server and tool. */
export class SessionGrants {
  private readonly granted = new Set<string>();
  private key(serverId: string, tool: string): string {
    return JSON.stringify([serverId, tool]);
  }
  grant(serverId: string, tool: string): void {
    this.granted.add(this.key(serverId, tool));
  }
  has(serverId: string, tool: string): boolean {
    return this.granted.has(this.key(serverId, tool));
  }
  /** Forgets a tool's grant (its definition changed). */
  revoke(serverId: string, tool: string): void {
    this.granted.delete(this.key(serverId, tool));
  }
}

/**
 * Decides whether a call of `tool` on `serverId` asks first. `writtenByApp` names the app view
 * that wrote the request being answered: such a turn gets no session grant and no trusted-server
 * auto-approval (an app's server must not spend the user's grants on other servers' tools).
 */
export function approvalNeed(serverId: string, tool: Pick<Tool, 'name' | 'annotations'>, settings: ApprovalSettings, grants: SessionGrants, changedSinceApproval: boolean, writtenByApp?: string): ApprovalNeed {
  if (changedSinceApproval) return { ask: true, reason: 'The tool changed since you approved it.' };
  if (tool.annotations?.destructiveHint === true) return { ask: true, reason: 'The server says this tool may delete or overwrite things: it always asks.' };
  if (writtenByApp !== undefined) return { ask: true, reason: `This request was written by ${writtenByApp}, not by you: every call it leads to asks (session grants and trusted servers do not count).` };
  if (grants.has(serverId, tool.name)) return { ask: false, reason: 'allowed for this session' };
  if (settings.sandboxedAutoApprove === true) return { ask: false, reason: 'a tool of a sandboxed server (mcpHost.sandbox.autoApproveTools)' };
  if (settings.serverTrusted && settings.autoApproveReadOnly && tool.annotations?.readOnlyHint === true) return { ask: false, reason: 'a read-only tool of a trusted server' };
  if (!settings.serverTrusted && tool.annotations?.readOnlyHint === true) return { ask: true, reason: 'The server says this tool only reads, but the server is not marked trusted, so MCP Host does not rely on it.' };
  return { ask: true, reason: 'A language model asks to run this tool.' };
}

/** Argument names whose values are shown masked in the approval. */
const SECRET_NAME = /pass(word)?|secret|token|api[-_]?key|auth|credential|cookie/i;

/** The arguments as shown for approval: values of secret-looking names masked, nested too. */
export function maskedArguments(value: unknown, name = ''): unknown {
  if (name && SECRET_NAME.test(name) && (typeof value === 'string' || typeof value === 'number')) return '••••••';
  if (Array.isArray(value)) return value.map((v) => maskedArguments(v));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskedArguments(v, k)]));
  return value;
}
