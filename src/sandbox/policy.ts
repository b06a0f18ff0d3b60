// Which sandbox a server runs in, if any: the one its entry enables (`sandboxEnabled`), or the
// default one when a setting requires a sandbox for it (every workspace-defined server under
// `mcpHost.sandbox.requireForWorkspaceServers`). One decision, read by the transport factory,
// the consent text and the tree, so what the user is shown is what runs.
import { DEFAULT_SANDBOX, type SandboxConfig, type ServerEntry } from '../config/types';

/** The policy a server must run under, or undefined to run it unsandboxed. */
export type SandboxPolicy = Omit<SandboxConfig, 'enabled'>;

/** Whether a sandbox is required for every workspace-defined server. */
export interface SandboxRequirement {
  readonly requireForWorkspaceServers: boolean;
}

/** The policy `entry` runs under: its own when enabled or required, the default when required without one. */
export function sandboxPolicyOf(entry: Pick<ServerEntry, 'config' | 'source'>, requirement: SandboxRequirement = { requireForWorkspaceServers: false }): SandboxPolicy | undefined {
  if (entry.config.type !== 'stdio') return undefined;
  const own = entry.config.sandbox;
  const required = requirement.requireForWorkspaceServers && entry.source.workspaceDefined;
  if (!own?.enabled && !required) return undefined;
  const { filesystem, network, allowedDomains, allowEnv } = own ?? { ...DEFAULT_SANDBOX };
  return { filesystem, network, ...(allowedDomains ? { allowedDomains } : {}), allowEnv };
}

/** What of the user's environment passes into the sandbox besides the entry's own variables. */
export function sandboxPassedEnvironment(policy: SandboxPolicy): string[] {
  return ['PATH', 'locale', ...policy.allowEnv];
}

/**
 * The policy in a few plain lines, for consent and Server Details. `environment: false` leaves out
 * the environment line, for a caller that states the environment in one line of its own (consent).
 */
export function describeSandbox(policy: SandboxPolicy | undefined, options: { readonly environment?: boolean } = {}): string[] {
  if (!policy) return ['No sandbox: full access to your files and network.'];
  const fsp = policy.filesystem;
  const lines = [
    `Sandboxed (bubblewrap): your home folder is hidden; the workspace is ${fsp.workspace === 'write' ? 'readable and writable' : 'read-only'}; /tmp is private.`,
    policy.network === 'all' ? 'Network: all hosts.' : policy.network === 'hosts' ? `Network: only ${(policy.allowedDomains ?? []).join(', ')} (through a filtering proxy).` : 'Network: none.',
  ];
  if (fsp.allowRead.length) lines.push(`Also readable: ${fsp.allowRead.join(', ')}.`);
  if (fsp.allowWrite.length) lines.push(`Writable: ${fsp.allowWrite.join(', ')}.`);
  if (fsp.denyRead.length) lines.push(`Hidden: ${fsp.denyRead.join(', ')}.`);
  if (fsp.denyWrite.length) lines.push(`Read-only: ${fsp.denyWrite.join(', ')}.`);
  if (options.environment !== false) lines.push(policy.allowEnv.length ? `Environment: only PATH, locale, the entry's own variables and ${policy.allowEnv.join(', ')}.` : "Environment: only PATH, locale and the entry's own variables.");
  return lines;
}
