// The gateway's cost, for `npm run bench` (`--only gateway`): the official SDK's Streamable HTTP
// client against counter.mjs --http directly and through `mcp-host gateway` (a process of its own,
// as a user runs it): 2,000 pipelined tools/call (throughput ratio, target ≥ 0.8× direct), the
// latency one sequential call adds (median, p95), and the gateway's memory with 50 clients.
import { ChildProcess, spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

type SdkClient = import('@modelcontextprotocol/sdk/client/index.js', { with: { 'resolution-mode': 'import' } }).Client;

const PIPELINED = 2000;
const RUNS = 5;
const SEQUENTIAL = 300;
const CONCURRENT_CLIENTS = 50;
const TARGET_RATIO = 0.8;

export interface HttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `fetch` for the SDK's client. Its transport hands every request the one AbortSignal it keeps for
 * its life, and Node's fetch adds an abort listener to that signal per request (dropped only when
 * the request is garbage-collected), after raising the signal's limit to 1,500 when it is at the
 * default: 2,000 calls in flight then print a MaxListenersExceededWarning with a stack per request
 * past 1,500, in the benchmark's own process. An unlimited signal (0) is one fetch leaves alone.
 * (MCP Host's own HTTP client gives each request its own AbortController.)
 */
export const sdkFetch: typeof fetch = (input, init) => {
  if (init?.signal) setMaxListeners(0, init.signal);
  return fetch(input, init);
};

async function connect(url: string, headers: Record<string, string>, name: string): Promise<SdkClient> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: sdkFetch }));
  return client;
}

async function echo(client: SdkClient, i: number): Promise<void> {
  const text = `hello ${i}`;
  const result = (await client.callTool({ name: 'echo', arguments: { text } })) as { content: Array<{ text?: string }> };
  if (result.content[0]?.text !== text) throw new Error('wrong echo result');
}

async function pipelined(client: SdkClient): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: PIPELINED }, (_, i) => echo(client, i)));
  return performance.now() - started;
}

async function sequential(client: SdkClient): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const started = performance.now();
    await echo(client, i);
    times.push(performance.now() - started);
  }
  return times;
}

function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** The resident set of a process now (Linux: /proc), in MiB; NaN elsewhere. */
function rssMiB(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** CPU time a process has used (Linux: /proc, user + system), in ms; NaN elsewhere. */
function cpuMs(pid: number): number {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 Hz).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** `mcp-host gateway --json --url URL` (ending with the bench: its stdin closes when the bench dies); resolves with its first line and the process. */
async function startGateway(url: string): Promise<{ child: ChildProcess; endpoint: { url: string; headers: Record<string, string> } }> {
  // BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the gateway process alone.
  const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter((a) => a.length > 0);
  const child = spawn(process.execPath, [...nodeArgs, join(__dirname, 'cli.js'), 'gateway', '--json', '--exit-on-stdin-close', '--transport', 'http', '--url', url], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`mcp-host gateway exited with ${code}`)));
  });
  const { servers } = JSON.parse(line) as { servers: Array<{ url: string; headers: Record<string, string> }> };
  return { child, endpoint: servers[0] };
}

/** Runs the measurements; resolves with the report's lines and the targets missed (see reportMiss). */
export async function gatewayBench(startHttpServer: () => Promise<HttpServer>): Promise<{ lines: string[]; misses: string[] }> {
  const server = await startHttpServer();
  const gateway = await startGateway(server.url);
  const clients: SdkClient[] = [];
  try {
    const direct = await connect(server.url, {}, 'bench-direct');
    const through = await connect(gateway.endpoint.url, gateway.endpoint.headers, 'bench-gateway');
    clients.push(direct, through);
    // Warm-up: connections pooled, code compiled on both paths.
    await pipelined(direct);
    await pipelined(through);
    const directMs: number[] = [];
    const gatewayMs: number[] = [];
    // The gateway's own CPU per relayed call: what it adds to the client's and the server's work, whatever the load.
    const gatewayCpuMs: number[] = [];
    const clientCpuMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      directMs.push(await pipelined(direct));
      const cpuBefore = cpuMs(gateway.child.pid!);
      const clientBefore = process.cpuUsage();
      gatewayMs.push(await pipelined(through));
      const client = process.cpuUsage(clientBefore);
      clientCpuMs.push((client.user + client.system) / 1000);
      gatewayCpuMs.push(cpuMs(gateway.child.pid!) - cpuBefore);
    }
    const perCall = (xs: readonly number[]) => ((quantile(xs, 0.5) * 1000) / PIPELINED).toFixed(0);
    const directRate = PIPELINED / (quantile(directMs, 0.5) / 1000);
    const gatewayRate = PIPELINED / (quantile(gatewayMs, 0.5) / 1000);
    const ratio = gatewayRate / directRate;

    const directLatency = await sequential(direct);
    const gatewayLatency = await sequential(through);

    const rssBefore = rssMiB(gateway.child.pid!);
    const many = await Promise.all(Array.from({ length: CONCURRENT_CLIENTS }, (_, i) => connect(gateway.endpoint.url, gateway.endpoint.headers, `bench-client-${i}`)));
    clients.push(...many);
    await Promise.all(many.map((c, i) => Promise.all(Array.from({ length: 10 }, (_, j) => echo(c, i * 100 + j)))));
    const rssWith = rssMiB(gateway.child.pid!);

    const ms = (x: number) => `${x.toFixed(2)} ms`;
    const lines = [
      `Gateway (mcp-host gateway --url, its own process) vs direct, the SDK's StreamableHTTPClientTransport against counter.mjs --http; median of ${RUNS} runs after a warm-up:`,
      `  ${PIPELINED.toLocaleString('en-US')} pipelined tools/call   direct ${Math.round(directRate).toLocaleString('en-US')} calls/s   through the gateway ${Math.round(gatewayRate).toLocaleString('en-US')} calls/s   ratio ${ratio.toFixed(2)}× (target ≥ ${TARGET_RATIO}×) ${ratio >= TARGET_RATIO ? 'PASS' : 'MISS'}   CPU a relayed call (median): the gateway ${perCall(gatewayCpuMs)} µs, the SDK client ${perCall(clientCpuMs)} µs`,
      `  ${SEQUENTIAL} sequential tools/call    direct median ${ms(quantile(directLatency, 0.5))}, p95 ${ms(quantile(directLatency, 0.95))}   gateway median ${ms(quantile(gatewayLatency, 0.5))}, p95 ${ms(quantile(gatewayLatency, 0.95))}   added: median ${ms(quantile(gatewayLatency, 0.5) - quantile(directLatency, 0.5))}, p95 ${ms(quantile(gatewayLatency, 0.95) - quantile(directLatency, 0.95))}`,
      `  gateway process RSS: ${rssBefore.toFixed(1)} MiB with 2 clients, ${rssWith.toFixed(1)} MiB with ${CONCURRENT_CLIENTS} more connected clients (10 calls each): ${(((rssWith - rssBefore) * 1024) / CONCURRENT_CLIENTS).toFixed(0)} KiB per client`,
    ];
    return { lines, misses: ratio >= TARGET_RATIO ? [] : [`gateway: 2,000 pipelined calls through the gateway at ${ratio.toFixed(2)}× direct (target ≥ ${TARGET_RATIO}×)`] };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    gateway.child.kill('SIGINT');
    await new Promise<void>((resolve) => (gateway.child.exitCode !== null ? resolve() : gateway.child.once('exit', () => resolve())));
    await server.close();
  }
}
