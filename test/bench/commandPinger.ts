// Test-only: asks the extension host (through the host probe) to run a command every INTERVAL ms,
// in a process of its own, so that the editor benchmark's own work (Playwright, polling the page)
// does not delay the asking. Each sample is the time from asking to the extension host's answer
// (the probe stamps it; both processes read the same clock) and the whole round trip.
// Started by test/bench/editorBench.ts with MCP_HOST_PROBE_URL, MCP_HOST_PROBE_SECRET and
// MCP_HOST_PING_MS in its environment; it stops when its stdin closes and prints its samples as JSON.
import http from 'node:http';

const base = new URL(process.env.MCP_HOST_PROBE_URL ?? '');
const secret = process.env.MCP_HOST_PROBE_SECRET ?? '';
const intervalMs = Number(process.env.MCP_HOST_PING_MS ?? 100);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const now = (): number => performance.timeOrigin + performance.now();

export interface PingSample {
  /** From asking to the extension host's answer (the command run). */
  readonly answerMs: number;
  /** From asking to the answer read here. */
  readonly roundTripMs: number;
  /** Epoch ms of the asking. */
  readonly at: number;
}

function ping(): Promise<PingSample> {
  const at = now();
  return new Promise((resolve, reject) => {
    const req = http.get({ host: base.hostname, port: base.port, path: `/command?id=hostProbe.noop`, agent, headers: { authorization: `Bearer ${secret}` }, timeout: 60_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        const roundTripMs = now() - at;
        if (res.statusCode !== 200) return reject(new Error(`host probe /command: ${res.statusCode} ${body}`));
        const { answeredAt } = JSON.parse(body) as { answeredAt: number };
        resolve({ answerMs: answeredAt - at, roundTripMs, at });
      });
    });
    req.on('timeout', () => req.destroy(new Error('host probe /command: no answer in 60 s')));
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  const samples: PingSample[] = [];
  let stopped = false;
  process.stdin.on('end', () => (stopped = true)).resume();
  while (!stopped) {
    samples.push(await ping());
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  agent.destroy();
  process.stdout.write(JSON.stringify(samples));
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
