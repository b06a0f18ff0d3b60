// How a stdio server starts under a debugger (dev mode's `dev.debug`, and a Debug run of saved
// tests): Node servers with Node's inspector on a free loopback port, announced on stderr;
// Python servers under debugpy listening on a loopback port chosen beforehand. Pure: the VS Code
// layer (extension/dev/devMode.ts) checks what is installed and attaches.
import * as path from 'node:path';
import type { ResolvedServer, ResolvedStdioServer } from './variables';

/** The debuggers dev mode starts servers under. */
export type DebugType = 'node' | 'debugpy';

/** `dev.debug.type` as written: "python" is another name for debugpy (VS Code's older debug type). */
export function debugTypeOf(type: string | undefined): DebugType | undefined {
  if (type === 'node') return 'node';
  if (type === 'debugpy' || type === 'python') return 'debugpy';
  return undefined;
}

/** The inspector flag a Node server gets: a free port on the loopback interface only. */
export const NODE_INSPECT_OPTION = '--inspect=127.0.0.1:0';

/**
 * A Node server with the inspector on: through NODE_OPTIONS, so a wrapper (`npx`, a shell
 * script) passes it on to the node process that runs the server. Remote servers are as they are.
 */
export function nodeInspectorLaunch(resolved: ResolvedServer): ResolvedServer {
  if (resolved.type !== 'stdio') return resolved;
  const current = resolved.env.NODE_OPTIONS ?? '';
  if (current.split(/\s+/).some((o) => o.startsWith('--inspect'))) return resolved;
  return { ...resolved, env: { ...resolved.env, NODE_OPTIONS: [current, NODE_INSPECT_OPTION].filter(Boolean).join(' ') } };
}

/** `python`, `python3`, `python3.12`, `pythonw`, `py` (and `.exe`): a command that is a Python interpreter. */
export function isPythonCommand(command: string): boolean {
  return /^(python(\d+(\.\d+)?)?w?|py)(\.exe)?$/i.test(path.basename(command.replace(/\\/g, '/')));
}

/** Interpreter options that take the next argument as their value (`-X dev`, `-W ignore`). */
const OPTIONS_WITH_VALUE = new Set(['-X', '-W', '-Q']);

export type DebugpyLaunch =
  | { readonly kind: 'ok'; readonly resolved: ResolvedStdioServer; readonly python: string; readonly port: number }
  | { readonly kind: 'unsupported'; readonly reason: string };

/**
 * A Python server under debugpy: `python [interpreter options] -m debugpy --listen
 * 127.0.0.1:PORT <the rest>` (a script, `-m module` or `-c code`, with its arguments). Only an
 * entry whose command is the interpreter itself can be started so; a launcher (`uv`, `uvx`,
 * `pipx`) is named in the reason.
 */
export function debugpyLaunch(resolved: ResolvedServer, port: number): DebugpyLaunch {
  if (resolved.type !== 'stdio') return { kind: 'unsupported', reason: 'only a stdio server (a process MCP Host starts) can run under debugpy' };
  if (!isPythonCommand(resolved.command)) {
    return { kind: 'unsupported', reason: `its command (${path.basename(resolved.command)}) is not a Python interpreter; make "command" the interpreter (e.g. ".venv/bin/python") and "args" the script or "-m module"` };
  }
  const args = resolved.args;
  if (args.some((a, i) => a === '-m' && args[i + 1] === 'debugpy')) return { kind: 'ok', resolved, python: resolved.command, port };
  let at = 0;
  while (at < args.length && args[at].startsWith('-') && args[at] !== '-m' && args[at] !== '-c' && args[at] !== '-') at += OPTIONS_WITH_VALUE.has(args[at]) ? 2 : 1;
  const debugged = [...args.slice(0, at), '-m', 'debugpy', '--listen', `127.0.0.1:${port}`, ...args.slice(at)];
  return { kind: 'ok', resolved: { ...resolved, args: debugged }, python: resolved.command, port };
}

/** The arguments that ask an interpreter whether debugpy is importable (exit 0 when it is). */
export const DEBUGPY_IMPORT_CHECK = ['-c', 'import debugpy'];
