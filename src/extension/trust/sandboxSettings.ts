// The sandbox settings as the rest of the extension asks for them: whether workspace servers must
// run sandboxed, and whether a sandboxed server's tools run without asking. Both are user-level
// (`scope: application`, and restricted in untrusted workspaces): a workspace cannot loosen them.
import type { ServerEntry } from '../../config/types';
import { sandboxPolicyOf, SandboxRequirement } from '../../sandbox/policy';
import { mcpHostSetting } from './restrictedSettings';

/** `mcpHost.sandbox.requireForWorkspaceServers`. */
export function sandboxRequirement(): SandboxRequirement {
  return { requireForWorkspaceServers: mcpHostSetting<boolean>('sandbox.requireForWorkspaceServers', false) === true };
}

/** Whether `entry` starts in a sandbox (its own, or one the setting requires). */
export function runsSandboxed(entry: Pick<ServerEntry, 'config' | 'source'>): boolean {
  return sandboxPolicyOf(entry, sandboxRequirement()) !== undefined;
}

/** Whether calls of `entry`'s tools skip the approval because it is sandboxed and the user opted in (`mcpHost.sandbox.autoApproveTools`). */
export function sandboxedAutoApprove(entry: Pick<ServerEntry, 'config' | 'source'> | undefined): boolean {
  return entry !== undefined && mcpHostSetting<boolean>('sandbox.autoApproveTools', false) === true && runsSandboxed(entry);
}
