// Drives a fixture server (test/fixtures/servers/*.mjs) over raw NDJSON, for tests that need to
// see the exact lines a server writes, without any client code in between.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

/** `<repo>/test/fixtures/servers`, computed from `<repo>/out/test/support/`. */
export const FIXTURE_SERVERS_DIR = path.resolve(__dirname, '../../../test/fixtures/servers');

/** The absolute path of a fixture server script, e.g. `fixturePath('counter.mjs')`. */
export function fixturePath(script: string): string {
  return path.join(FIXTURE_SERVERS_DIR, script);
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

type Waiter = { accept: (value: unknown) => boolean; resolve: (value: unknown) => void };

/**
 * How long a just-spawned fixture may take to write its first byte: node's start and the SDK's
 * import, 0.3 s on a quiet machine, 2.3–5.3 s seen in CI at load 4–10. A wait's own bound counts
 * from that first output (or the exit), so a slow start does not eat a bound meant for one answer.
 */
export const START_MS = 30_000;

const running = new Set<FixtureProcess>();

/** Kills every fixture process still running; call it from `after()`. */
export async function killAllFixtures(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill()));
}

/** One running fixture server, with its stdout parsed into messages and stderr into lines. */
export class FixtureProcess {
  /** Every parsed stdout message (objects and batch arrays), in arrival order. */
  readonly messages: unknown[] = [];
  /** Stdout lines that were not JSON. */
  readonly noise: string[] = [];
  readonly stderrLines: string[] = [];
  /** The byte length of every stdout line, in arrival order (noise included). */
  readonly lineLengths: number[] = [];

  private readonly child: ChildProcess;
  private readonly exited: Promise<ExitStatus>;
  private exitStatus: ExitStatus | undefined;
  private messageWaiters: Waiter[] = [];
  private stderrWaiters: Waiter[] = [];
  private readonly taken = new Set<number>();
  /** Set once the process wrote anything or exited; until then each wait's clock has not started. */
  private spoke = false;
  /** Waits armed before the process spoke: each re-arms its own bound when it does. */
  private startingClocks: Array<() => void> = [];

  private constructor(script: string, args: readonly string[]) {
    this.child = spawn(process.execPath, [fixturePath(script), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(this);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.hasSpoken();
        this.exitStatus = { code, signal };
        running.delete(this);
        resolve(this.exitStatus);
      });
    });
    // Writes after the child exited would otherwise surface as unhandled EPIPE errors.
    this.child.stdin!.on('error', () => {});
    for (const stream of [this.child.stdout!, this.child.stderr!]) stream.once('data', () => this.hasSpoken());
    splitLines(this.child.stdout!, (line) => this.onStdoutLine(line));
    splitLines(this.child.stderr!, (line) => this.onStderrLine(line.toString('utf8')));
  }

  /** Spawns `node <fixtures>/<script> ...args`. */
  static start(script: string, args: readonly string[] = []): FixtureProcess {
    return new FixtureProcess(script, args);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitStatus !== undefined;
  }

  /** Writes one message as one line. */
  send(message: unknown): void {
    this.child.stdin!.write(JSON.stringify(message) + '\n');
  }

  /** Sends a request and resolves with the first response carrying its id. */
  async request(id: string | number, method: string, params?: unknown, timeoutMs = 5000): Promise<Record<string, unknown>> {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return (await this.nextMessage((m) => isObject(m) && m.id === id && !('method' in m), timeoutMs)) as Record<string, unknown>;
  }

  /** `initialize` offering `protocolVersion`, then `notifications/initialized`; resolves with the result. */
  async initialize(protocolVersion = '2025-06-18', capabilities: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const response = await this.request(0, 'initialize', {
      protocolVersion,
      capabilities,
      clientInfo: { name: 'fixture-test', version: '0.0.1' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response.result as Record<string, unknown>;
  }

  /**
   * Resolves with the earliest message not yet taken by this method that matches `accept`
   * (already received or future), and marks it taken. Rejects after `timeoutMs`.
   */
  nextMessage(accept: (message: unknown) => boolean = () => true, timeoutMs = 5000): Promise<unknown> {
    const index = this.messages.findIndex((m, i) => !this.taken.has(i) && accept(m));
    if (index >= 0) {
      this.taken.add(index);
      return Promise.resolve(this.messages[index]);
    }
    return this.wait(this.messageWaiters, accept, timeoutMs, 'a matching message');
  }

  /** Resolves with the first stderr line (already seen or future) matching `pattern`. */
  waitForStderr(pattern: RegExp, timeoutMs = 5000): Promise<string> {
    const seen = this.stderrLines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return this.wait(this.stderrWaiters, (line) => pattern.test(line as string), timeoutMs, `stderr ${pattern}`) as Promise<string>;
  }

  /** Ends stdin (the polite way to stop a stdio server). */
  endInput(): void {
    this.child.stdin!.end();
  }

  /** Resolves when the process exits; rejects `timeoutMs` after it spoke (see START_MS). */
  waitForExit(timeoutMs = 5000): Promise<ExitStatus> {
    return new Promise<ExitStatus>((resolve, reject) => {
      const stop = this.deadline(timeoutMs, 'process exit', reject);
      void this.exited.then((status) => {
        stop();
        resolve(status);
      });
    });
  }

  /** SIGKILLs the process if it still runs, and waits for it to be gone. */
  async kill(): Promise<ExitStatus> {
    if (!this.exitStatus) this.child.kill('SIGKILL');
    return this.exited;
  }

  private onStdoutLine(line: Buffer): void {
    this.lineLengths.push(line.length);
    if (line.length === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(line.toString('utf8'));
    } catch {
      this.noise.push(line.toString('utf8'));
      return;
    }
    this.messages.push(message);
    const waiter = this.messageWaiters.find((w) => w.accept(message));
    if (waiter) {
      this.messageWaiters = this.messageWaiters.filter((w) => w !== waiter);
      this.taken.add(this.messages.length - 1);
      waiter.resolve(message);
    }
  }

  private onStderrLine(line: string): void {
    this.stderrLines.push(line);
    const matching = this.stderrWaiters.filter((w) => w.accept(line));
    this.stderrWaiters = this.stderrWaiters.filter((w) => !matching.includes(w));
    for (const w of matching) w.resolve(line);
  }

  private wait(list: Waiter[], accept: (value: unknown) => boolean, timeoutMs: number, what: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      // A timed-out waiter is removed, so it cannot take a message meant for a later one.
      const stop = this.deadline(timeoutMs, what, (error) => {
        const index = list.indexOf(waiter);
        if (index >= 0) list.splice(index, 1);
        reject(error);
      });
      const waiter: Waiter = {
        accept,
        resolve: (value) => {
          stop();
          resolve(value);
        },
      };
      list.push(waiter);
    });
  }

  /**
   * Calls `fail` `timeoutMs` after the process spoke (now, if it has): before its first output
   * the clock waits, up to START_MS, for node to start. Returns what stops the clock.
   */
  private deadline(timeoutMs: number, what: string, fail: (error: Error) => void): () => void {
    const expire = (bound: number, silent: boolean) => () => {
      const stderr = this.stderrLines.slice(-10).join('\n');
      fail(new Error(`timed out after ${bound} ms waiting for ${what}${silent ? ' (the process wrote nothing since its start)' : ''}${stderr ? `; stderr:\n${stderr}` : ''}`));
    };
    const started = () => setTimeout(expire(timeoutMs, false), timeoutMs);
    if (this.spoke) {
      const timer = started();
      return () => clearTimeout(timer);
    }
    const startBound = Math.max(START_MS, timeoutMs);
    let timer = setTimeout(expire(startBound, true), startBound);
    const restart = () => {
      clearTimeout(timer);
      timer = started();
    };
    this.startingClocks.push(restart);
    return () => {
      clearTimeout(timer);
      this.startingClocks = this.startingClocks.filter((c) => c !== restart);
    };
  }

  private hasSpoken(): void {
    if (this.spoke) return;
    this.spoke = true;
    for (const restart of this.startingClocks.splice(0)) restart();
  }
}

/** Splits a stream into `\n`-terminated lines; joins chunks once per line (linear in bytes). */
function splitLines(stream: NodeJS.ReadableStream, onLine: (line: Buffer) => void): void {
  let pending: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) {
        if (start < chunk.length) pending.push(chunk.subarray(start));
        return;
      }
      let line = chunk.subarray(start, nl);
      if (pending.length > 0) {
        pending.push(line);
        line = Buffer.concat(pending);
        pending = [];
      }
      start = nl + 1;
      if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
      onLine(line);
    }
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
