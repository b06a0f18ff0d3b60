// The bubblewrap (`bwrap`) command line that runs a stdio server inside its sandbox policy.
// A plain function of the policy and the launch (no processes, no `vscode`), so unit tests read
// the exact argument list. What it builds, in mount order (later mounts sit on top of earlier):
//   the whole file system read-only; a fresh /dev, /proc (of a new PID namespace) and /tmp;
//   an empty tmpfs over $HOME, /home, /root and /var/tmp; then read-only binds of what the server
//   needs to start (its command's directory, PATH entries that were hidden, its working
//   directory), the workspace folders and `allowRead`; writable binds of `allowWrite` (and the
//   workspace when `workspace: "write"`); `denyWrite` read-only again; `denyRead` hidden again.
// The environment is cleared and only named variables are set. Every namespace is unshared
// (network too, unless the policy allows all of it); `--die-with-parent` and the PID namespace
// mean the whole tree ends when bwrap does. A list of hosts adds the filtering proxy's socket and
// runs the server under the in-sandbox forwarder (sandboxForwarder.ts).
import * as path from 'node:path';
import { existsSync, realpathSync, statSync } from 'node:fs';
import type { SandboxConfig } from '../config/types';
import { forwarderCommand, proxyEnvironment, SANDBOX_PROXY_SOCKET, SandboxProxy } from './sandboxForwarder';

/** One server start, after its command was found on PATH. */
export interface SandboxedCommand {
  /** The absolute path of the executable. */
  readonly file: string;
  readonly args: readonly string[];
  /** The absolute working directory. */
  readonly cwd: string;
  /** The full environment the server would get without a sandbox: the values of the names that pass are read from it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Variables that pass whatever the policy says: those the entry sets itself (`env`), the process tag. */
  readonly passEnv: readonly string[];
}

/** Where the sandbox is: the user's home and workspace folders, and how to look at the disk. */
export interface SandboxPlace {
  readonly home: string;
  /** The workspace folders (absolute); relative policy paths resolve against the first. */
  readonly workspaceFolders: readonly string[];
  /** Whether a path exists (tests may pass their own); default fs.existsSync. */
  readonly exists?: (p: string) => boolean;
  /** Whether a path is a directory (tests may pass their own); default fs.statSync. */
  readonly isDirectory?: (p: string) => boolean;
  /** The real path of a file (symlinks resolved); default fs.realpathSync, or the path itself when that fails. */
  readonly realPath?: (p: string) => string;
}

/** Variables a server needs to behave normally, passed when this process has them. */
export const BASE_SANDBOX_ENV = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TZ'];

/** Directories whose content is hidden behind an empty tmpfs (besides $HOME). */
const HIDDEN_ROOTS = ['/home', '/root', '/var/tmp'];

/** The `bwrap` arguments for `command` under `policy` (ending with `-- command args`); `proxy` for a list of hosts. */
export function bwrapArgs(policy: Omit<SandboxConfig, 'enabled'>, command: SandboxedCommand, place: SandboxPlace, proxy?: SandboxProxy): string[] {
  const exists = place.exists ?? existsSync;
  const realPath = place.realPath ?? safeRealPath;
  const directory = place.isDirectory ?? isDirectory;
  const home = path.resolve(place.home);
  const base = place.workspaceFolders[0] ?? command.cwd;
  const expand = (p: string): string => (p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : path.resolve(base, p));

  const hidden = [...new Set([...HIDDEN_ROOTS, home])].filter((dir) => dir !== '/' && exists(dir));
  const isHidden = (p: string): boolean => p === '/tmp' || p.startsWith('/tmp/') || hidden.some((dir) => p === dir || p.startsWith(dir + '/'));

  const args = ['--die-with-parent', '--new-session', '--unshare-all', '--unshare-pid'];
  if (policy.network === 'all') args.push('--share-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const dir of hidden) args.push('--tmpfs', dir);
  // $HOME exists (empty, writable, discarded) so programs that write caches there still start.
  args.push('--dir', home);

  // What must be readable for the server to start at all, when it sits in a hidden place.
  const executables = proxy ? [command.file, proxy.node] : [command.file];
  const startNeeds = [...executables.flatMap((file) => [path.dirname(realPath(file)), path.dirname(file)]), command.cwd, ...pathEntries(command.env)].filter(isHidden);
  const reads = [...startNeeds, ...place.workspaceFolders, ...policy.filesystem.allowRead.map(expand)];
  const writes = [...policy.filesystem.allowWrite.map(expand), ...(policy.filesystem.workspace === 'write' ? place.workspaceFolders : [])];
  const writable = new Set(writes);
  // Parents before children, so a child's bind is not covered by its parent's.
  for (const p of sortedUnique([...reads.filter((r) => !writable.has(r) && isHidden(r)), ...writes])) {
    args.push(writable.has(p) ? '--bind-try' : '--ro-bind-try', p, p);
  }
  for (const p of sortedUnique(policy.filesystem.denyWrite.map(expand))) args.push('--ro-bind-try', p, p);
  for (const p of sortedUnique(policy.filesystem.denyRead.map(expand))) {
    if (!exists(p)) continue;
    // A directory is covered by an empty one; a file by an empty file.
    args.push(...(directory(p) ? ['--tmpfs', p] : ['--ro-bind', '/dev/null', p]));
  }

  if (proxy) args.push('--bind', proxy.hostSocket, SANDBOX_PROXY_SOCKET);

  args.push('--clearenv');
  const names = new Set([...BASE_SANDBOX_ENV, ...command.passEnv, ...policy.allowEnv]);
  for (const name of names) {
    const value = command.env[name];
    if (value !== undefined) args.push('--setenv', name, value);
  }
  args.push('--setenv', 'HOME', home, '--setenv', 'TMPDIR', '/tmp');
  for (const [name, value] of Object.entries(proxy ? proxyEnvironment(proxy) : {})) args.push('--setenv', name, value);
  const run = proxy ? forwarderCommand(proxy, command.file, command.args) : { file: command.file, args: [...command.args] };
  args.push('--chdir', command.cwd, '--', run.file, ...run.args);
  return args;
}

/** Absolute directories of an environment's PATH. */
function pathEntries(env: Readonly<Record<string, string | undefined>>): string[] {
  return (env.PATH ?? '').split(':').filter((dir) => path.isAbsolute(dir));
}

function sortedUnique(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => path.resolve(p)))].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
}

function depth(p: string): number {
  return p.split('/').length;
}

function safeRealPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
