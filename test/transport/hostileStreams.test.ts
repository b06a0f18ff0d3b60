// Streams that end at once with `retry: 0`, a response stream that never carries its answer, and a
// 100 MiB error body, through the real Streamable HTTP transport and client against the hostile
// fixture (test/fixtures/servers/http/hostileStreams.mjs). Requests are counted by the fixture:
// the bound is a number of GETs, not a time.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { McpLocalError } from '../../src/protocol/errors';
import { TransportLog } from '../../src/protocol/transport';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { HttpPeer, startFixture } from './httpPeers';

interface Stats {
  posts: number;
  streamGets: number;
  resumeGets: number;
}

async function stats(peer: HttpPeer): Promise<Stats> {
  return (await (await fetch(new URL('/control/stats', peer.url))).json()) as Stats;
}

describe('hostile streams: reconnects are bounded, a lost answer ends in an error', { timeout: 120_000 }, () => {
  const peers: HttpPeer[] = [];
  after(async () => Promise.all(peers.map((p) => p.close())));

  async function connect(mode: string): Promise<{ peer: HttpPeer; client: McpClient; logs: TransportLog[] }> {
    const peer = await startFixture('hostileStreams.mjs', ['--mode', mode]);
    peers.push(peer);
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, protocol: 'legacy' });
    const logs: TransportLog[] = [];
    client.onTransportLog((l) => logs.push(l));
    // The bounds are counts: a floor of 50 ms under the server's `retry: 0` instead of the
    // default 500 ms, doubled per attempt, spares 7.5 s of waiting per test (the CLI's own
    // test of a lost answer, test/cli/streams.test.ts, runs with the defaults).
    await client.connect(createHttpTransport({ url: peer.url, mode: 'http', minReconnectDelayMs: 50 }));
    return { peer, client, logs };
  }

  test('a GET stream answered `retry: 0` and ended at once is given up after the capped attempts', async () => {
    const { peer, client, logs } = await connect('get-storm');
    await new Promise<void>((resolve) => {
      const check = () => (logs.some((l) => /GET stream given up/.test(l.text)) ? resolve() : setTimeout(check, 100));
      check();
    });
    const seen = await stats(peer);
    // Five attempts in a row that ended without a message, then nothing more.
    assert.equal(seen.streamGets + seen.resumeGets, 5, JSON.stringify(seen));
    assert.match(logs.map((l) => l.text).join('\n'), /GET stream given up after 5 attempts in a row failed or ended without a message/);
    // The connection itself still works.
    assert.equal((await client.listTools()).length, 1);
    assert.equal((await stats(peer)).streamGets + (await stats(peer)).resumeGets, 5, 'no GET after giving up');
    await client.close();
  });

  test('a response stream that never carries its answer: capped resumes, then an error that says so', async () => {
    const { peer, client } = await connect('lost-answer');
    const error = await client.listTools().then(
      () => assert.fail('tools/list cannot be answered'),
      (e: unknown) => e,
    );
    assert.ok(McpLocalError.is(error, 'transport'), String(error));
    assert.match(error.message, /^tools\/list: no answer can come: 5 attempts in a row to resume its response stream from http:\/\/127\.0\.0\.1:\d+\/mcp failed or ended without a message$/);
    const seen = await stats(peer);
    assert.equal(seen.resumeGets, 4, JSON.stringify(seen));
    await client.close();
  });

  test('a 100 MiB error body is read once, within the cap', async () => {
    const peer = await startFixture('hostileStreams.mjs', ['--mode', 'big-error']);
    peers.push(peer);
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    const transport = createHttpTransport({ url: peer.url, mode: 'http' });
    const error = await client.connect(transport).then(
      () => assert.fail('every POST is refused'),
      (e: unknown) => e,
    );
    assert.ok(McpLocalError.is(error, 'transport'), String(error));
    assert.match(error.message, /answered HTTP 400/);
    // The modern probe read at most 1 MiB of its error, initialize at most 16 KiB: far from 100 MiB.
    const received = transport.stats().bytesReceived;
    assert.ok(received < 3 * 1024 * 1024, `read ${received} bytes of the error bodies`);
    await client.close();
  });
});
