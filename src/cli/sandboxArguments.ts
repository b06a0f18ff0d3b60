// `--sandbox` and its policy flags: the CLI's way to write an entry's `sandboxEnabled` and
// `sandbox` block (src/config/sandboxBlock.ts) for a server command given after `--`. The flags
// are turned into that block and read by the config layer's own reader, so the CLI accepts and
// refuses exactly what an mcp.json would. With `--config`, `--sandbox` requires the sandbox for
// every stdio entry of the file (each keeps its own block, else the default policy), as the
// editor's `mcpHost.sandbox.requireForWorkspaceServers` does; the policy flags do not apply there.
import { parseConfigText } from '../config/parse';
import type { StdioServerConfig } from '../config/types';
import type { SandboxPolicy } from '../sandbox/policy';
import type { TransportFactoryOptions } from '../transport/transportFactory';
import { UsageError } from './usageError';

export const SANDBOX_FLAG = '--sandbox';
/** Each policy flag, repeatable, and where it goes in the `sandbox` block. */
const POLICY_FLAGS = {
  '--sandbox-allow-read': ['filesystem', 'allowRead'],
  '--sandbox-allow-write': ['filesystem', 'allowWrite'],
  '--sandbox-deny-read': ['filesystem', 'denyRead'],
  '--sandbox-deny-write': ['filesystem', 'denyWrite'],
  '--sandbox-allow-domain': ['network', 'allowedDomains'],
  '--sandbox-allow-env': ['allowEnv'],
} as const;
const WORKSPACE_FLAG = '--sandbox-workspace';
export const SANDBOX_VALUE_FLAGS = [WORKSPACE_FLAG, ...(Object.keys(POLICY_FLAGS) as (keyof typeof POLICY_FLAGS)[])] as const;
export const SANDBOX_REPEATABLE_FLAGS: readonly string[] = Object.keys(POLICY_FLAGS);

export const SANDBOX_USAGE = `Sandbox (stdio servers, Linux with bubblewrap; the flags write an entry's "sandbox" block):
  --sandbox                run the server in a bubblewrap sandbox: $HOME hidden, the current
                           directory (the workspace) read-only, /tmp private, no network, only
                           PATH and locale variables; with --config, every stdio server of the
                           file runs sandboxed (its own "sandbox" block, else this default)
  --sandbox-workspace read|write
                           the current directory read-only (default) or writable
  --sandbox-allow-read PATH, --sandbox-allow-write PATH
                           also readable / writable (repeatable; ~/ and relative paths allowed)
  --sandbox-deny-read PATH, --sandbox-deny-write PATH
                           hidden / kept read-only even where visible or writable (repeatable)
  --sandbox-allow-domain HOST
                           reach this host through the sandbox's filtering proxy (repeatable;
                           *.example.com for its subdomains; "*" for the whole network)
  --sandbox-allow-env NAME pass this environment variable in (repeatable)`;

/** What the sandbox flags asked: a policy for a command after `--`, or the sandbox required for a config's servers. */
export type CliSandbox = { readonly kind: 'command'; readonly policy: SandboxPolicy } | { readonly kind: 'config' };

/**
 * The sandbox the flags describe for a server of `serverKind`, or undefined without `--sandbox`.
 * Throws UsageError for a policy flag without `--sandbox`, the sandbox for a `--url` server, policy
 * flags with `--config`, and anything the config's own reader refuses.
 */
export function parseSandboxFlags(serverKind: 'stdio' | 'remote' | 'config', values: ReadonlyMap<string, string>, repeated: Readonly<Record<string, readonly string[]>>, booleans: ReadonlySet<string>): CliSandbox | undefined {
  const given = SANDBOX_VALUE_FLAGS.filter((flag) => values.has(flag) || repeated[flag]?.length);
  if (!booleans.has(SANDBOX_FLAG)) {
    if (given.length) throw new UsageError(`${given[0]} only applies with ${SANDBOX_FLAG}`);
    return undefined;
  }
  if (serverKind === 'remote') throw new UsageError(`${SANDBOX_FLAG} runs a stdio server in a sandbox; it does not apply with --url`);
  if (serverKind === 'config') {
    if (given.length) throw new UsageError(`${given[0]} does not apply with --config: each entry says its policy in its "sandbox" block (--sandbox requires one for every stdio server)`);
    return { kind: 'config' };
  }
  const block: Record<string, Record<string, string[]> | string[]> = {};
  for (const [flag, where] of Object.entries(POLICY_FLAGS)) {
    const list = repeated[flag];
    if (!list?.length) continue;
    if (where.length === 1) block[where[0]] = [...list];
    else ((block[where[0]] ??= {}) as Record<string, string[]>)[where[1]] = [...list];
  }
  const workspace = values.get(WORKSPACE_FLAG);
  if (workspace !== undefined) ((block.filesystem ??= {}) as Record<string, unknown>).workspace = workspace;
  // The config layer reads the block, so a flag means what its key means in mcp.json.
  const entry = { command: 'server', sandboxEnabled: true, sandbox: block };
  const loaded = parseConfigText(JSON.stringify({ servers: { command: entry } }), { kind: 'vscode-mcp-json', label: 'the command line', workspaceDefined: false });
  const problem = loaded.problems.find((p) => p.severity === 'error');
  if (problem) throw new UsageError(`the sandbox flags: ${problem.message.replace(/^server "command": /, '')}${flagHint(problem.message)}`);
  const sandbox = (loaded.servers[0]?.config as StdioServerConfig | undefined)?.sandbox;
  if (!sandbox) throw new UsageError('the sandbox flags could not be read');
  const { enabled: _enabled, ...policy } = sandbox;
  return { kind: 'command', policy };
}

/** Which flag a problem of the block came from, for the message. */
function flagHint(message: string): string {
  if (message.includes('filesystem.workspace')) return ` (${WORKSPACE_FLAG})`;
  const flag = Object.entries(POLICY_FLAGS).find(([, where]) => message.includes(`${where.join('.')}`));
  return flag ? ` (${flag[0]})` : '';
}

/** The transport factory's sandbox options for a target: the policy of `--sandbox`, or the sandbox required for a config's entries. */
export function cliSandboxOptions(target: { readonly sandbox?: SandboxPolicy | 'required' }): Pick<TransportFactoryOptions, 'commandSandbox' | 'sandboxRequirement' | 'workspaceFolders'> {
  if (target.sandbox === undefined) return {};
  if (target.sandbox === 'required') return { sandboxRequirement: () => ({ requireForWorkspaceServers: true }) };
  // A command after `--` has the current directory as its workspace.
  const cwd = process.cwd();
  return { commandSandbox: target.sandbox, workspaceFolders: () => [cwd] };
}
