// What the bubblewrap sandbox adds to a stdio server's start, for `npm run bench` (`--only
// sandbox`): McpClient + StdioTransport starting counter.mjs and getting its first tools/call
// answered, without a sandbox, in the default sandbox, and in a sandbox whose network is a list of
// hosts (the filtering proxy and the in-sandbox forwarder). Runs alternate between the three, so a
// change in the machine's load touches each alike; the medians are compared (target: the sandbox
// adds < 50 ms). The first sandboxed start of a process also runs the one-time check that bwrap
// works here; it is shown apart. Linux with a working bwrap only.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { reportMiss } from './misses';
import { bwrapWorks } from '../sandbox/bwrapAvailable';

const SERVER = join(__dirname, '..', 'test', 'fixtures', 'servers', 'counter.mjs');
const RUNS = 11;
const TARGET_ADDED_MS = 50;

type Variant = 'plain' | 'sandbox' | 'hosts';
const LABEL: Record<Variant, string> = {
  plain: 'no sandbox',
  sandbox: 'bubblewrap sandbox (default policy)',
  hosts: 'sandbox with a list of hosts (filtering proxy)',
};

/** Milliseconds from creating the transport to the first tools/call answered, then the server is closed. */
async function startOnce(variant: Variant): Promise<number> {
  const { McpClient } = require('../../src/client/client') as typeof import('../../src/client/client');
  const { StdioTransport } = require('../../src/transport/stdio') as typeof import('../../src/transport/stdio');
  const { DEFAULT_SANDBOX } = require('../../src/config/sandboxBlock') as typeof import('../../src/config/sandboxBlock');
  const policy = variant === 'hosts' ? { ...DEFAULT_SANDBOX, network: 'hosts' as const, allowedDomains: ['127.0.0.1'] } : DEFAULT_SANDBOX;
  const sandbox = variant === 'plain' ? {} : { sandbox: { policy, place: { home: homedir(), workspaceFolders: [process.cwd()] }, passEnv: [] } };
  const started = performance.now();
  const client = new McpClient({ clientInfo: { name: 'mcp-host-bench', version: '0.0.0' } });
  await client.connect(new StdioTransport({ command: process.execPath, args: [SERVER], ...sandbox }));
  await client.callTool('echo', { text: 'x' });
  const ms = performance.now() - started;
  await client.close();
  return ms;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The sandbox section's lines; a miss is reported when the sandbox adds 50 ms or more. */
export async function sandboxStartTimes(): Promise<string[]> {
  if (!bwrapWorks) return ['Sandbox start cost: not measured (needs Linux with a working bwrap)'];
  // The first start of each kind warms Node's caches; the first sandboxed one also checks bwrap.
  await startOnce('plain');
  const firstSandboxed = await startOnce('sandbox');
  await startOnce('hosts');
  const runs: Record<Variant, number[]> = { plain: [], sandbox: [], hosts: [] };
  for (let i = 0; i < RUNS; i++) for (const variant of ['plain', 'sandbox', 'hosts'] as const) runs[variant].push(await startOnce(variant));
  const base = median(runs.plain);
  const lines = [`Sandbox start cost (McpClient + StdioTransport starting counter.mjs until its first tools/call is answered; median of ${RUNS}, alternating):`];
  for (const variant of ['plain', 'sandbox', 'hosts'] as const) {
    const m = median(runs[variant]);
    const versus = variant === 'plain' ? '' : `  ${(m / base).toFixed(2)}x, ${m - base >= 0 ? '+' : ''}${(m - base).toFixed(0)} ms${variant === 'sandbox' ? ` (target < +${TARGET_ADDED_MS} ms)` : ''}`;
    lines.push(`  ${LABEL[variant].padEnd(48)} ${m.toFixed(0).padStart(5)} ms${versus}`);
  }
  lines.push(`  first sandboxed start of a process (with the one-time bwrap check): ${firstSandboxed.toFixed(0)} ms`);
  const added = median(runs.sandbox) - base;
  if (added >= TARGET_ADDED_MS) reportMiss(`sandbox: the bubblewrap sandbox adds ${added.toFixed(0)} ms to a server's start (target < ${TARGET_ADDED_MS} ms)`);
  return lines;
}
