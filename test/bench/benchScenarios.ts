// The benchmark's clients and scenarios (test/bench/bench.ts): what each run sends and must get back.
import { join } from 'node:path';

/** Present when the worker runs with --expose-gc (the parent starts it so). */
export const gc = (globalThis as { gc?: () => void }).gc;
export const SERVER = join(__dirname, '..', 'test', 'fixtures', 'servers', 'counter.mjs');
export const MiB = 1024 * 1024;

export type ClientName = 'ours' | 'sdk' | 'floor';
export type TransportName = 'stdio' | 'http';
export type ScenarioName = 'pipelined' | 'sequential' | 'blob9' | 'blob100' | 'http-pipelined' | 'http-sequential' | 'http-blob9';
export const CLIENTS: readonly ClientName[] = ['ours', 'sdk', 'floor'];
export const CLIENT_LABEL: Record<TransportName, Record<ClientName, string>> = {
  stdio: { ours: 'ours (McpClient+StdioTransport)', sdk: 'SDK Client+StdioClientTransport', floor: 'raw pipe (floor)' },
  http: { ours: 'ours (McpClient+StreamableHttpTransport)', sdk: 'SDK Client+StreamableHTTPClientTransport', floor: 'keep-alive fetch (floor)' },
};

export interface Scenario {
  readonly name: ScenarioName;
  readonly transport: TransportName;
  readonly label: string;
  /** Measured runs after the warm-up. */
  readonly reps: number;
  /** Per-call timeout: the SDK's stdio client fails on large messages, it must not hang the run. */
  readonly callTimeoutMs: number;
  /** Payload in bytes, for the large-result scenarios. */
  readonly payload?: number;
  /** Requests per run, for the throughput scenarios. */
  readonly requests?: number;
  run(driver: Driver): Promise<void>;
}

/** The one operation every client must offer: a tools/call that resolves with the result. */
export interface Driver {
  call(name: string, args: Record<string, unknown>, timeoutMs: number): Promise<CallResult>;
  close(): Promise<void>;
}
export interface CallResult {
  content: Array<{ type: string; text?: string }>;
}

export function expectText(result: CallResult, check: (text: string) => boolean, what: string): void {
  const text = result.content?.[0]?.text;
  if (typeof text !== 'string' || !check(text)) throw new Error(`wrong result for ${what}`);
}

// The three kinds of scenario, each run over both transports.

/** `requests` echo calls, all sent at once (pipelined) or each after the previous answer. */
export function echoCalls(name: ScenarioName, transport: TransportName, mode: 'pipelined' | 'sequential', requests: number, reps: number): Scenario {
  return {
    name,
    transport,
    label: `${requests.toLocaleString('en-US')} ${mode} tools/call`,
    reps,
    callTimeoutMs: 60_000,
    requests,
    async run(d) {
      const call = (i: number) => {
        const text = `hello ${i}`;
        return d.call('echo', { text }, this.callTimeoutMs).then((r) => expectText(r, (t) => t === text, 'echo'));
      };
      if (mode === 'sequential') {
        for (let i = 0; i < requests; i++) await call(i);
      } else {
        const calls: Promise<void>[] = [];
        for (let i = 0; i < requests; i++) calls.push(call(i));
        await Promise.all(calls);
      }
    },
  };
}

export function blob(name: ScenarioName, transport: TransportName, mebibytes: number, reps: number): Scenario {
  return {
    name,
    transport,
    label: `one ${mebibytes} MiB result`,
    reps,
    callTimeoutMs: 30_000,
    payload: mebibytes * MiB,
    async run(d) {
      expectText(await d.call('blob', { bytes: this.payload }, this.callTimeoutMs), (t) => t.length === this.payload, 'blob');
    },
  };
}

export const SCENARIOS: readonly Scenario[] = [
  echoCalls('pipelined', 'stdio', 'pipelined', 5000, 9),
  echoCalls('sequential', 'stdio', 'sequential', 2000, 5),
  blob('blob9', 'stdio', 9, 7),
  blob('blob100', 'stdio', 100, 3),
  echoCalls('http-pipelined', 'http', 'pipelined', 2000, 9),
  echoCalls('http-sequential', 'http', 'sequential', 500, 5),
  blob('http-blob9', 'http', 9, 7),
];
