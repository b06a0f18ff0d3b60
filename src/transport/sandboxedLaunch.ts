// Starting a stdio server inside its bubblewrap sandbox: finds `bwrap`, checks once that it can
// build namespaces here (its exit code and stderr say why not), and turns the server's command
// into the `bwrap … -- command args` line (src/sandbox/bwrapArgs.ts). Every failure is an error
// that says the fix; nothing here falls back to running the server unsandboxed. A policy with a
// list of hosts starts the filtering proxy (src/sandbox/filteringProxy.ts) for this launch; the
// caller stops it when the process ends (`dispose`).
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import type { SandboxConfig } from '../config/types';
import { McpLocalError } from '../protocol/errors';
import { bwrapArgs, SandboxedCommand, SandboxPlace } from '../sandbox/bwrapArgs';
import { bwrapFailedMessage, bwrapMissingMessage, sandboxSupported, unsupportedPlatformMessage } from '../sandbox/startProblems';
import { startFilteringProxy } from '../sandbox/filteringProxy';
import type { SandboxProxy } from '../sandbox/sandboxForwarder';
import { ProcessEnv, resolveCommand, searchPath } from './commandResolver';

/** The sandbox a StdioTransport starts its server in. */
export interface StdioSandbox {
  readonly policy: Omit<SandboxConfig, 'enabled'>;
  readonly place: SandboxPlace;
  /** Variables that pass whatever the policy says (those the entry sets in `env`). */
  readonly passEnv: readonly string[];
  readonly platform?: NodeJS.Platform;
}

/** How long the check that bwrap works may take. */
const PROBE_TIMEOUT_MS = 5000;
/** bwrap binaries that built a sandbox in this process (a failure is checked again next start: the user may have fixed it). */
const working = new Set<string>();

/** The file and arguments that run `command` in `sandbox`; rejects with McpLocalError('spawn') saying the fix. */
export async function sandboxedLaunch(sandbox: StdioSandbox, command: SandboxedCommand & { readonly name: string; readonly env: ProcessEnv }): Promise<{ file: string; args: string[]; dispose?: () => Promise<void> }> {
  const platform = sandbox.platform ?? process.platform;
  if (!sandboxSupported(platform)) throw new McpLocalError('spawn', unsupportedPlatformMessage(command.name, platform), { command: command.name, sandbox: 'unsupported-platform' });
  let bwrap: string;
  try {
    bwrap = await resolveCommand('bwrap', { env: command.env, cwd: command.cwd, platform });
  } catch {
    const searched = searchPath(command.env, command.cwd, platform).join(':') || '(PATH is empty)';
    throw new McpLocalError('spawn', bwrapMissingMessage(command.name, searched), { command: command.name, sandbox: 'bwrap-missing' });
  }
  if (!working.has(bwrap)) {
    const probe = await runProbe(bwrap, sandbox.policy.network === 'all');
    if (probe.code !== 0) throw new McpLocalError('spawn', bwrapFailedMessage(command.name, probe.code, probe.stderr), { command: command.name, sandbox: 'bwrap-failed', exitCode: probe.code });
    working.add(bwrap);
  }
  if (sandbox.policy.network !== 'hosts') return { file: bwrap, args: bwrapArgs(sandbox.policy, command, sandbox.place) };
  const proxy = await startFilteringProxy(sandbox.policy.allowedDomains ?? []);
  // Any port will do: the sandbox's loopback is its own; a random one is not guessed by habit.
  const through: SandboxProxy = { hostSocket: proxy.socketPath, port: 20000 + randomInt(40000), secret: proxy.secret, node: process.execPath, electron: process.versions.electron !== undefined };
  return { file: bwrap, args: bwrapArgs(sandbox.policy, command, sandbox.place, through), dispose: () => proxy.close() };
}

/** Runs `bwrap` with the namespaces a server gets and `true` inside: exit code and stderr. */
function runProbe(bwrap: string, shareNet: boolean): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const args = ['--die-with-parent', '--unshare-all', ...(shareNet ? ['--share-net'] : []), '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', 'true'];
    const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    timer.unref();
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stderr: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
