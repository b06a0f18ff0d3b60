// Which servers' annotations @mcp believes (`mcpHost.chat.trustedServers`), decided from the
// user's own settings only: the VS Code layer hands in the user-level value (never a workspace's,
// which a cloned repository controls), and an entry names a server *defined in the user's own
// configuration*. A workspace can define a server under any name, so a name never lends trust to
// a workspace-defined server, whatever the settings say.
import type { ApprovalSettings } from './approval';

/** What the decision knows of a server. */
export interface TrustCandidate {
  readonly name: string;
  /** Defined by a workspace (its files or settings), not by the user's own configuration. */
  readonly workspaceDefined: boolean;
}

const UNTRUSTED: ApprovalSettings = { serverTrusted: false, autoApproveReadOnly: false };

/** The approval settings of `server` under the user-level value of `mcpHost.chat.trustedServers` (anything else reads as none). */
export function trustedServerApproval(userValue: unknown, server: TrustCandidate): ApprovalSettings {
  if (server.workspaceDefined || !userValue || typeof userValue !== 'object' || Array.isArray(userValue)) return UNTRUSTED;
  if (!Object.prototype.hasOwnProperty.call(userValue, server.name)) return UNTRUSTED;
  const entry: unknown = (userValue as Record<string, unknown>)[server.name];
  if (!entry || typeof entry !== 'object') return UNTRUSTED;
  return { serverTrusted: true, autoApproveReadOnly: (entry as { autoApproveReadOnly?: unknown }).autoApproveReadOnly === true };
}
