import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, afterEach, before } from 'node:test';
import { Interrupted, runCli as runInProcess } from '../../src/cli/run';

/** The repository root (this file runs from out/test/cli/). */
export const ROOT = resolve(__dirname, '..', '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
export const EVERYTHING = ['node', join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
export const FILESYSTEM = ['node', join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')];

/** Every server these tests start inherits this variable, so leftovers can be found by it. */
export const MARKER = `MCP_HOST_CLI_TEST=${randomUUID()}`;

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return newest;
}

/** Builds dist/cli.js when it is missing or older than the sources (npm test has built it already). */
export function ensureBuilt(): void {
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newestMtime(join(ROOT, 'src'))) return;
  // Other bundles may fail while their sources are being edited; only the CLI matters here.
  spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  if (!existsSync(CLI)) throw new Error(`could not build ${CLI}`);
}

/**
 * Runs `node dist/cli.js ...args` and collects its output. Killed (and the test fails on the
 * result) after `timeoutMs`. `onStderr` sees stderr as it arrives, for signalling mid-run;
 * `env` adds variables to this process's environment.
 */
export function runCli(args: readonly string[], options: { timeoutMs?: number; onStderr?: (soFar: string, pid: number) => void; env?: Readonly<Record<string, string>>; cwd?: string } = {}): Promise<CliRun> {
  const [key, value] = MARKER.split('=');
  const started = Date.now();
  const env = { ...process.env, XDG_CACHE_HOME: freshCacheDir(), ...options.env, [key]: value };
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    options.onStderr?.(stderr, child.pid!);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** True while runCliInProcess runs: its runs share this process's environment and working directory. */
let inProcessRun = false;

/**
 * Runs `mcp-host ...args` in this process: src/cli/run.ts's runCli, as main.ts calls it with
 * stdout and stderr piped (no terminal: no progress line, no question asked). For tests of what
 * the CLI prints and returns; a test of the process around it (signals, the exit status the shell
 * sees, what reaches the real stdout and stderr) runs it with runCli. `env` (with a fresh cache
 * directory and MARKER, as runCli gives) and `cwd` are this process's for the run, so runs do not
 * overlap. After `timeoutMs` the run is interrupted as by Ctrl-C twice.
 */
export async function runCliInProcess(args: readonly string[], options: { timeoutMs?: number; env?: Readonly<Record<string, string>>; cwd?: string } = {}): Promise<CliRun> {
  assert.ok(!inProcessRun, 'in-process CLI runs share process.env and the working directory: one at a time');
  inProcessRun = true;
  const [key, value] = MARKER.split('=');
  const env: Record<string, string> = { XDG_CACHE_HOME: freshCacheDir(), ...options.env, [key]: value };
  const saved = new Map(Object.keys(env).map((name) => [name, process.env[name]]));
  const cwd = process.cwd();
  Object.assign(process.env, env);
  process.chdir(options.cwd ?? ROOT);
  const interrupt = new AbortController();
  const force = new AbortController();
  const timer = setTimeout(() => {
    interrupt.abort(new Interrupted(`the test's ${options.timeoutMs ?? 20_000} ms ran out`));
    force.abort();
  }, options.timeoutMs ?? 20_000);
  const started = Date.now();
  let stdout = '';
  let stderr = '';
  try {
    // main.ts's widths when stdout and stderr are pipes.
    const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), stdoutColumns: Number(process.env.COLUMNS) || 80 };
    const code = await runInProcess(args, io, { interrupt: interrupt.signal, force: force.signal });
    return { code, signal: null, stdout, stderr, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
    process.chdir(cwd);
    for (const [name, was] of saved) {
      if (was === undefined) delete process.env[name];
      else process.env[name] = was;
    }
    inProcessRun = false;
  }
}

let cacheRoot: string | undefined;

/**
 * A cache directory of its own for one run ($XDG_CACHE_HOME): the era the CLI remembers of a
 * server never leaks from one test into another, nor into the user's cache. A test that means
 * to share one across runs passes its own (`env: { XDG_CACHE_HOME: freshCacheDir() }`).
 */
export function freshCacheDir(): string {
  if (!cacheRoot) {
    const root = (cacheRoot = mkdtempSync(join(tmpdir(), 'mcp-host-cli-cache-')));
    process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  return mkdtempSync(join(cacheRoot, 'run-'));
}

/** Processes (Linux: from /proc) whose environment carries MARKER; empty elsewhere. */
export function leftoverProcesses(): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, 'latin1');
      if (env.split('\0').includes(MARKER)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Waits until no marked process is left, or `ms` passed; returns what is left. */
export async function waitForNoLeftovers(ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = leftoverProcesses();
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** True while `pid` runs; a zombie (exited, not yet reaped: PID 1 of a container may never reap it) is not alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    // The state follows the parenthesised command name: "pid (comm) S ...".
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Runs each command line and checks it is a usage error: exit 2, `mcp-host: …` matching its
 * pattern, then the hint to --help, and no stack trace. Returns the runs for further checks.
 * `run` is the CLI as a process (runCli, the default: the exit status the shell sees) or in this
 * process (runCliInProcess: what the CLI says and returns, without a node start per case).
 */
export async function expectUsageErrors(cases: readonly (readonly [string[], RegExp])[], run: (args: readonly string[]) => Promise<CliRun> = runCli): Promise<CliRun[]> {
  const runs: CliRun[] = [];
  for (const [args, message] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(' '));
    const lines = r.stderr.trimEnd().split('\n');
    assert.match(lines[0], new RegExp(`^mcp-host: .*${message.source}`), args.join(' '));
    assert.equal(lines[1], "Run 'mcp-host --help' for usage.");
    assert.doesNotMatch(r.stderr, /^\s+at .+:\d+/m, `stack trace in stderr:\n${r.stderr}`);
    runs.push(r);
  }
  return runs;
}

/**
 * The hooks of a file of CLI tests: builds the CLI first, checks after each test that no server
 * process is left (killing any), and gives a temporary directory removed at the end.
 */
export function cliTestHooks(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cliProcessHooks();
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The hooks of a file of CLI tests without a temporary directory: the CLI built first, no server process left after each test. */
export function cliProcessHooks(): void {
  before(() => ensureBuilt());
  afterEach(async () => {
    const left = await waitForNoLeftovers();
    for (const pid of left) killQuietly(pid);
    assert.deepEqual(left, [], 'a server process was left running');
  });
}
