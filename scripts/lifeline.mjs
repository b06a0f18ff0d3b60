// Ties a process's life to its parent's, however the parent ends (Ctrl-C, a crashed terminal, a
// SIGKILL): the parent starts the process through this wrapper with a pipe as the wrapper's stdin;
// the pipe closes when the parent dies, and the wrapper then ends the process's whole tree: its
// process group (the wrapper leads it), and the processes that left the group but carry the
// marker in their environment. `npm run demo` starts code-server this way (issue 38 #23).
//
//   node scripts/lifeline.mjs <MARKER_VAR=value> <command> [args…]   (stdin: a pipe from the parent)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How long the tree gets to end after SIGTERM before SIGKILL. */
const GRACE_MS = 5_000;

/** Pids of the processes whose environment carries `name=value` (they may have left the group). */
export function markedProcesses(name, value) {
  if (process.platform !== 'linux') return [];
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`${name}=${value}`)) pids.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

export function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/**
 * Starts `command` through the wrapper, in a process group of its own (the wrapper's), with
 * `name=value` in its environment. The returned child is the wrapper: it exits with the command's
 * status; signalling its group signals the command's tree. Keep the child's stdin open: its end
 * is what ends the tree.
 */
export function startTied(command, args, { marker: [name, value], env = process.env, cwd, output = 'ignore' }) {
  return spawn(process.execPath, [fileURLToPath(import.meta.url), `${name}=${value}`, command, ...args], {
    detached: true,
    stdio: ['pipe', output, output],
    env: { ...env, [name]: value },
    cwd,
  });
}

function main() {
  const [markerArg, command, ...args] = process.argv.slice(2);
  const at = markerArg?.indexOf('=') ?? -1;
  if (at <= 0 || !command) {
    console.error('usage: node scripts/lifeline.mjs <MARKER_VAR=value> <command> [args…]');
    process.exit(2);
  }
  const [name, value] = [markerArg.slice(0, at), markerArg.slice(at + 1)];
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  let ending = false;
  const endTree = async () => {
    if (ending) return;
    ending = true;
    signal(-process.pid, 'SIGTERM');
    for (const pid of markedProcesses(name, value)) signal(pid, 'SIGTERM');
    const deadline = Date.now() + GRACE_MS;
    while (Date.now() < deadline && (child.exitCode === null && child.signalCode === null || markedProcesses(name, value).length > 0)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const pid of markedProcesses(name, value)) signal(pid, 'SIGKILL');
    // Last: the group holds this wrapper too.
    signal(-process.pid, 'SIGKILL');
  };
  // The parent's end of the pipe closed: it is gone (or let go on purpose).
  process.stdin.on('end', () => void endTree());
  process.stdin.on('error', () => void endTree());
  process.stdin.resume();
  // A SIGTERM to the group (the parent stopping it) reaches the command too; the wrapper stays to
  // see the tree end.
  process.on('SIGTERM', () => void endTree());
  process.on('SIGINT', () => void endTree());
  process.on('SIGHUP', () => void endTree());
  child.on('exit', (code, sig) => {
    if (!ending) process.exit(code ?? (sig ? 1 : 0));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
