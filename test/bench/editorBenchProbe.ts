// The editor benchmark's view of the extension host (test/bench/editorBench.ts): the host probe, the command pinger, CPU and allocation profiles.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, waitUntil } from '../e2e/harness';
import type { PingSample } from './commandPinger';
import { mib } from './editorBenchReport';

export interface HostStats {
  readonly heapUsed: number;
  /** Memory of ArrayBuffers and Buffers, outside the heap (the timeline keeps its ticks' texts there). */
  readonly arrayBuffers: number;
  readonly rss: number;
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly peakHeapUsed: number;
  readonly peakRss: number;
  readonly loopDelayMaxMs: number;
  readonly loopDelayP99Ms: number;
  /** Garbage collection pauses since /reset: the longest and the total. */
  readonly gcMaxMs: number;
  readonly gcTotalMs: number;
  readonly gcKinds: Record<string, { count: number; maxMs: number; totalMs: number }>;
  /** Since /reset, the main thread's time runnable but waiting for a CPU (Linux schedstat; NaN elsewhere): in all, and the most between two of the probe's 25 ms samples. */
  readonly cpuWaitMs: number;
  readonly cpuWaitLongestMs: number;
}

export class HostProbe {
  private constructor(
    private readonly base: string,
    private readonly secret: string,
  ) {}

  static async connect(file: string): Promise<HostProbe> {
    const { port, secret } = await waitUntil(async () => existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { port: number; secret: string }), 60_000, 'the host probe to listen');
    return new HostProbe(`http://127.0.0.1:${port}`, secret);
  }

  private async request<T>(path: string, method = 'GET'): Promise<{ body: T; roundTripMs: number }> {
    const started = performance.now();
    const res = await fetch(this.base + path, { method, headers: { authorization: `Bearer ${this.secret}` }, signal: AbortSignal.timeout(60_000) });
    const body = (await res.json()) as T;
    if (!res.ok) throw new Error(`host probe ${path}: ${res.status} ${JSON.stringify(body)}`);
    return { body, roundTripMs: performance.now() - started };
  }

  /** The extension host's figures; `gc` collects first, so the heap is what is kept. */
  async stats(gc = false): Promise<HostStats> {
    return (await this.request<HostStats>(`/stats${gc ? '?gc=1' : ''}`)).body;
  }

  /** A new window for the peaks and the event-loop delay. */
  async reset(): Promise<void> {
    await this.request('/reset', 'POST');
  }

  /** Starts a CPU profile of the extension host. */
  async startProfile(): Promise<void> {
    await this.request('/profile/start', 'POST');
  }

  /** Stops a profile (`path`), saves its answer as test-results/bench-editor-<file> and returns it. */
  private async saveProfile<T>(path: string, file: string): Promise<{ body: T; file: string }> {
    const { body } = await this.request<T>(path, 'POST');
    mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
    const saved = join(repoRoot, 'test-results', `bench-editor-${file}`);
    writeFileSync(saved, JSON.stringify(body));
    return { body, file: saved };
  }

  /** Stops it: saves test-results/bench-editor-<name>.cpuprofile and prints where the time went. */
  async stopProfile(name: string): Promise<void> {
    const { body, file } = await this.saveProfile<CpuProfile>('/profile/stop', `${name}.cpuprofile`);
    console.log(`    extension host profile (${file}), most self time:`);
    for (const [where, ms] of topSelfTime(body, 8)) console.log(`      ${ms.toFixed(0).padStart(6)} ms  ${where}`);
  }

  /** Starts a sampling profile of the extension host's allocations. */
  async startAllocations(): Promise<void> {
    await this.request('/alloc/start', 'POST');
  }

  /** Stops it: saves test-results/bench-editor-<name>.heapprofile and prints the sites that allocated most. */
  async stopAllocations(name: string): Promise<void> {
    const { body, file } = await this.saveProfile<AllocationProfile>('/alloc/stop', `${name}.heapprofile`);
    const bySite = new Map<string, number>();
    const walk = (node: AllocationNode): void => {
      const f = node.callFrame;
      const where = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(extensions|out)\//, '$1/')}:${f.lineNumber + 1}`;
      bySite.set(where, (bySite.get(where) ?? 0) + node.selfSize);
      node.children.forEach(walk);
    };
    walk(body.head);
    console.log(`    extension host allocations (${file}), most bytes:`);
    for (const [where, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`      ${mib(bytes).padStart(10)}  ${where}`);
  }

  /** What test/bench/commandPinger needs to reach the probe. */
  pingerEnv(): Record<string, string> {
    return { MCP_HOST_PROBE_URL: this.base, MCP_HOST_PROBE_SECRET: this.secret };
  }

  /** Runs a command in the extension host: its own time, and the round trip from here. */
  async command(id: string): Promise<{ ms: number; roundTripMs: number }> {
    const { body, roundTripMs } = await this.request<{ ms: number }>(`/command?id=${encodeURIComponent(id)}`);
    return { ms: body.ms, roundTripMs };
  }
}

/** test/bench/commandPinger: a command asked for every 100 ms from a process of its own. */
export class CommandPinger {
  private constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  static start(probe: HostProbe): CommandPinger {
    const child = spawn(process.execPath, [join(__dirname, 'commandPinger.js')], { env: { ...process.env, ...probe.pingerEnv(), MCP_HOST_PING_MS: '100' } });
    return new CommandPinger(child);
  }

  /** Stops it and returns its samples. */
  async stop(): Promise<PingSample[]> {
    let out = '';
    let err = '';
    this.child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    this.child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => this.child.on('exit', resolve));
    this.child.stdin.end();
    const code = await exited;
    if (code !== 0) throw new Error(`the command pinger failed (${code}): ${err}`);
    return JSON.parse(out) as PingSample[];
  }
}

export interface AllocationNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly AllocationNode[];
}

export interface AllocationProfile {
  readonly head: AllocationNode;
}

export interface CpuProfile {
  readonly nodes: ReadonlyArray<{ readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number } }>;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The functions (name, file and line) with the most self time in a profile, heaviest first. */
export function topSelfTime(profile: CpuProfile, count: number): Array<[string, number]> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const where = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(extensions|out)\//, '$1/')}:${frame.lineNumber + 1}`;
    self.set(where, (self.get(where) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
}

export function cpuMs(a: HostStats, b: HostStats): number {
  return b.cpuUserMs + b.cpuSystemMs - (a.cpuUserMs + a.cpuSystemMs);
}
