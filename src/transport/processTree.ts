import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';

/** One process seen in a snapshot of the process table. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** Process group id. */
  readonly pgid: number;
  /** Session id (Linux); a process that called setsid() leads a session of its own. */
  readonly sid?: number;
  /** Linux: start time in clock ticks since boot; tells a process apart from a later one that reused its pid. */
  readonly startTime?: string;
}

/**
 * The processes a server started, so that shutdown can reach all of them.
 *
 * A server launched through `npx` or `sh -c` leaves children behind when only the direct child
 * is killed. The root is spawned as the leader of its own session and process group, which one
 * `kill(-pid)` reaches; children that called `setpgid` left the group but not the session, and
 * are found by their session id. Children that called `setsid` left both, so they are found in
 * two more ways:
 * - through parent links, which only work while the parents are alive: once a parent dies its
 *   children are reparented (to init or a subreaper). So the tree is walked at every snapshot
 *   and, while the server runs, every few seconds (`watch`), and processes once seen are
 *   remembered until they are gone;
 * - on Linux, by a marker variable in their environment (`tag`), which children inherit: this
 *   finds a double-forked daemon and the worker of a server that crashed, whatever their parents.
 *
 * What cannot be found: a process that both dropped the marker from its environment (or runs
 * where `/proc/<pid>/environ` cannot be read: another user, after setuid) and left the session
 * between two scans (e.g. `env -i setsid daemon`, double-forked at once); processes started
 * through another service (a container runtime, systemd, a terminal multiplexer's server); and
 * anything at all when the host itself is killed with SIGKILL. macOS and other POSIX systems use
 * `ps` (group and parent links at shutdown only: no session, marker or periodic scan); on
 * Windows `taskkill /T` walks the live tree.
 */
export class ProcessTree {
  /** Descendants and group members seen so far, by pid; never the root itself. */
  private readonly known = new Map<number, ProcessInfo>();
  private watchTimer: NodeJS.Timeout | undefined;
  private scanning = false;

  constructor(
    /** The pid of the spawned process, also its process group and session id on POSIX. */
    readonly rootPid: number,
    private readonly platform: NodeJS.Platform = process.platform,
    /** A variable set in the root's environment, with a value unique to it (Linux: searched in `/proc/<pid>/environ`). */
    private readonly tag?: { readonly name: string; readonly value: string },
  ) {}

  /** Pids of the known descendants and group members. */
  get knownPids(): number[] {
    return [...this.known.keys()];
  }

  /**
   * Records the root's current descendants, the descendants of every known process, and the
   * members of the root's process group. Adds to earlier snapshots. Call it before signalling.
   * `rootAlive` false means the root has exited: its pid may already belong to someone else.
   */
  async snapshot(rootAlive: boolean): Promise<void> {
    if (this.platform === 'win32') return;
    const table = await listProcesses(this.platform);
    if (!table) return;
    const children = new Map<number, ProcessInfo[]>();
    for (const p of table) {
      const siblings = children.get(p.ppid);
      if (siblings) siblings.push(p);
      else children.set(p.ppid, [p]);
    }
    const isSeed = (p: ProcessInfo) => (this.known.has(p.pid) && this.known.get(p.pid)!.startTime === p.startTime) || p.pgid === this.rootPid || p.sid === this.rootPid;
    const seeds = table.filter(isSeed).map((p) => p.pid);
    if (this.tag && this.platform === 'linux') for (const pid of await carrying(this.tag, table.filter((p) => !isSeed(p) && p.pid !== this.rootPid && p.pid !== process.pid))) seeds.push(pid);
    const queue = rootAlive ? [this.rootPid, ...seeds] : seeds;
    const seen = new Set<number>();
    while (queue.length > 0) {
      const pid = queue.pop()!;
      if (seen.has(pid)) continue;
      seen.add(pid);
      for (const child of children.get(pid) ?? []) queue.push(child.pid);
    }
    for (const p of table) {
      if (p.pid !== this.rootPid && seen.has(p.pid) && p.pid !== process.pid) this.known.set(p.pid, p);
    }
  }

  /**
   * While the root runs, records its descendants every `intervalMs` (Linux, through
   * `/proc/<pid>/task/<tid>/children` of the root and the known processes: a few reads, not a
   * scan of the process table), so a child that calls setsid() is known before its parent can
   * die. The timer does not keep the host alive. Call `unwatch()` as soon as the root exits: its
   * pid may then be reused.
   */
  watch(intervalMs: number): void {
    if (this.platform !== 'linux' || this.watchTimer) return;
    this.watchTimer = setInterval(() => void this.scanChildren(), intervalMs);
    this.watchTimer.unref();
  }

  unwatch(): void {
    if (this.watchTimer) clearInterval(this.watchTimer);
    this.watchTimer = undefined;
  }

  private async scanChildren(): Promise<void> {
    if (this.scanning) return;
    this.scanning = true;
    try {
      const queue = [this.rootPid, ...this.known.keys()];
      const visited = new Set<number>();
      while (queue.length > 0 && this.watchTimer) {
        const pid = queue.pop()!;
        if (visited.has(pid)) continue;
        visited.add(pid);
        const known = this.known.get(pid);
        // A known pid that now belongs to another process must not lend us its children.
        if (known && (await currentProcess(known, this.platform)) === undefined) continue;
        for (const child of await childrenOf(pid)) {
          if (child === process.pid || this.known.has(child)) {
            queue.push(child);
            continue;
          }
          const stat = await readProcStat(child);
          if (!stat || stat.ppid !== pid || !this.watchTimer) continue;
          this.known.set(child, stat);
          queue.push(child);
        }
      }
    } finally {
      this.scanning = false;
    }
  }

  /**
   * Sends `signal` to the root's process group, and to every known process outside it that is
   * still the same process (pid reuse is checked where the OS tells start times). `rootAlive`
   * says whether the root itself may be signalled (its owner knows it has not exited).
   * Never throws: a process that is already gone is what we want.
   */
  async signal(signal: NodeJS.Signals, rootAlive: boolean): Promise<void> {
    if (this.platform === 'win32') {
      // Windows has no signals for console processes; terminate the whole tree.
      if (rootAlive) await taskkillTree(this.rootPid);
      return;
    }
    const alive = await this.alive();
    // The group id stays reserved while any member exists, so it is safe to signal while the
    // root or a known member is still around. Members are then not signalled twice.
    const groupSignalled = (rootAlive || alive.some((p) => p.pgid === this.rootPid)) && trySignal(-this.rootPid, signal);
    if (rootAlive && !groupSignalled) trySignal(this.rootPid, signal);
    for (const p of alive) {
      if (!groupSignalled || p.pgid !== this.rootPid) trySignal(p.pid, signal);
    }
  }

  /**
   * Known processes that are still running, with their current group; zombies count as gone
   * (they hold nothing but a pid). Forgets the ones that are gone.
   */
  async alive(): Promise<ProcessInfo[]> {
    const result: ProcessInfo[] = [];
    for (const known of this.known.values()) {
      const current = await currentProcess(known, this.platform);
      if (current) result.push(current);
      else this.known.delete(known.pid);
    }
    return result;
  }
}

/** True when `pid` is running and not a zombie. Linux reads `/proc`; elsewhere `kill(pid, 0)`. */
export async function isPidAlive(pid: number, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  if (platform === 'linux') {
    const stat = await readProcStat(pid);
    return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
  }
  return trySignal(pid, 0);
}

/** The process as it is now, or undefined when it exited or its pid now belongs to another process. */
async function currentProcess(p: ProcessInfo, platform: NodeJS.Platform): Promise<ProcessInfo | undefined> {
  if (platform === 'linux') {
    const stat = await readProcStat(p.pid);
    return stat && stat.state !== 'Z' && stat.state !== 'X' && stat.startTime === p.startTime ? stat : undefined;
  }
  return trySignal(p.pid, 0) ? p : undefined;
}

/** Sends a signal; false when the target does not exist. EPERM means it exists but is not ours. */
function trySignal(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface ProcStat extends ProcessInfo {
  readonly state: string;
}

/** Parses `/proc/<pid>/stat`. The command name may hold spaces and parentheses, so fields are read after the last `)`. */
async function readProcStat(pid: number): Promise<ProcStat | undefined> {
  let text: string;
  try {
    text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 of proc(5): state; then ppid (4), pgrp (5), session (6); starttime is field 22.
  return { pid, state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]), startTime: fields[19] };
}

/** The pids of a process's children, from `/proc/<pid>/task/<tid>/children` of each of its threads (Linux). */
async function childrenOf(pid: number): Promise<number[]> {
  let tasks: string[];
  try {
    tasks = await fs.readdir(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const lists = await Promise.all(tasks.map((tid) => fs.readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch(() => '')));
  return lists.flatMap((text) => text.split(' ').filter(Boolean).map(Number));
}

/** The pids among `candidates` whose environment holds `tag` (Linux; unreadable environments are skipped). */
async function carrying(tag: { readonly name: string; readonly value: string }, candidates: readonly ProcessInfo[]): Promise<number[]> {
  const needle = Buffer.from(`${tag.name}=${tag.value}\0`);
  const found: number[] = [];
  // Batches keep the number of open files bounded, as in listProcesses.
  for (let i = 0; i < candidates.length; i += 64) {
    const batch = candidates.slice(i, i + 64);
    const environs = await Promise.all(batch.map((p) => fs.readFile(`/proc/${p.pid}/environ`).catch(() => undefined)));
    environs.forEach((environ, j) => {
      if (environ?.includes(needle)) found.push(batch[j].pid);
    });
  }
  return found;
}

/** The process table, or undefined when it cannot be read. */
async function listProcesses(platform: NodeJS.Platform): Promise<ProcessInfo[] | undefined> {
  if (platform === 'linux') {
    let entries: string[];
    try {
      entries = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name));
    } catch {
      return undefined;
    }
    const result: ProcessInfo[] = [];
    // Batches keep the number of open files bounded on machines with many processes.
    for (let i = 0; i < entries.length; i += 64) {
      const stats = await Promise.all(entries.slice(i, i + 64).map((name) => readProcStat(Number(name))));
      for (const s of stats) if (s && s.state !== 'Z' && s.state !== 'X') result.push(s);
    }
    return result;
  }
  const out = await run('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'pgid=']);
  if (out === undefined) return undefined;
  const result: ProcessInfo[] = [];
  for (const line of out.split('\n')) {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    if (Number.isInteger(pid) && Number.isInteger(ppid) && Number.isInteger(pgid)) result.push({ pid, ppid, pgid });
  }
  return result;
}

async function taskkillTree(pid: number): Promise<void> {
  await run('taskkill', ['/pid', String(pid), '/T', '/F']);
}

function run(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { windowsHide: true, timeout: 5000 }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}
