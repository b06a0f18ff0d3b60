import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient } from '../../src/client';
import { TransportLog } from '../../src/protocol/transport';
import { StdioTransport } from '../../src/transport/stdio';
import { fixture, waitFor } from './support';

/** A client on a fixture server, with the transport's logs kept (no frame recorder: it would keep every frame). */
async function connect(script: string, ...args: string[]) {
  const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
  const logs: TransportLog[] = [];
  client.onTransportLog((l) => logs.push(l));
  const transport = new StdioTransport({ command: process.execPath, args: [fixture(script), ...args], closeGraceMs: 300, termGraceMs: 300 });
  await client.connect(transport);
  return { client, transport, logs };
}

const MiB = 1024 * 1024;
/** How far the host's RSS may grow while the flood runs. Without a bound it grows ~1.5 KB a ping (1.45 GB for 1M). */
const RSS_BUDGET = 150 * MiB;

describe('a server that floods requests and never reads its stdin', () => {
  test('memory stays bounded: its output is no longer read, and another server keeps answering pings', { timeout: 60_000 }, async (t) => {
    const healthy = await connect('pingControl.mjs');
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    const flood = await connect('flood.mjs');
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const pingTimes: number[] = [];
    let pingsBeforePause = 0;
    try {
      // Each of our answers to its pings is queued for a stdin nobody reads, until back-pressure stops reading.
      const paused = () => flood.logs.find((l) => l.kind === 'lifecycle' && /not reading its stdin/.test(l.text));
      await waitFor(
        async () => {
          assert.ok(peak - baseline < RSS_BUDGET, `RSS grew by ${Math.round((peak - baseline) / MiB)} MiB before the flood was stopped`);
          pingTimes.push(await healthy.client.ping({ timeoutMs: 5000 }));
          return paused();
        },
        30_000,
        'reading from the flooding server to pause',
      );
      const receivedAtPause = flood.transport.stats().messagesReceived;
      pingsBeforePause = pingTimes.length;
      // The flood goes on trying; nothing more is read, and the other server answers meanwhile.
      for (let i = 0; i < 50; i++) pingTimes.push(await healthy.client.ping({ timeoutMs: 5000 }));
      const receivedLater = flood.transport.stats().messagesReceived;
      assert.ok(receivedLater - receivedAtPause < 5000, `read ${receivedLater - receivedAtPause} more messages after pausing`);
      assert.ok(peak - baseline < RSS_BUDGET, `RSS grew by ${Math.round((peak - baseline) / MiB)} MiB`);
      const steady = pingTimes.slice(pingsBeforePause);
      // Every ping of the other server was answered (their times are in the diagnostic, not asserted).
      assert.equal(steady.length, 50);
      assert.equal(flood.client.state.kind, 'ready', 'the flooding server is held back, not disconnected');
      t.diagnostic(`RSS grew by ${Math.round((peak - baseline) / MiB)} MiB; ${receivedLater} pings read; other server's ping max ${Math.round(Math.max(...pingTimes.slice(0, pingsBeforePause)))} ms until the pause, ${Math.round(Math.max(...steady))} ms after (${steady.length} pings)`);
    } finally {
      clearInterval(sampler);
      await Promise.all([flood.client.close(), healthy.client.close()]);
    }
    // Closing still works while the server blocks on its full stdout and ignores stdin's end.
    assert.equal(flood.client.state.kind, 'closed');
    assert.match(flood.logs.map((l) => l.text).join('\n'), /reading the server's output again: the server exited/);
  });
});
