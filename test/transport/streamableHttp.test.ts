// StreamableHttpTransport against fixture servers on the official SDK's server transport
// (test/fixtures/servers/http/sdkServer.mjs): SSE answers with priming events and `retry`, a
// stream dropped mid-answer and resumed with Last-Event-ID, JSON-only answers, the GET stream
// (and its 405), session expiry, a stateless server. What went over HTTP is checked through the
// fixture's own record of the requests it received.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { McpClient, McpLocalError, TransportCloseInfo, TransportLog } from '../../src/client';
import { StreamableHttpTransport } from '../../src/transport/streamableHttp';
import { waitFor } from '../client/support';
import { HttpPeer, startFixture } from './httpPeers';

interface SeenRequest {
  method: string;
  path: string;
  at: number;
  sessionId?: string;
  protocolVersion?: string;
  lastEventId?: string;
  accept?: string;
  authorization: boolean;
}

const SECRET = 'Bearer sk-live-SECRET-9f8e7d';
const open: Array<{ client: McpClient; peer: HttpPeer }> = [];

afterEach(async () => {
  for (const { client, peer } of open.splice(0)) {
    await client.close().catch(() => {});
    await peer.close();
  }
});

async function connect(args: string[], options: { roots?: string; maxConcurrentRequests?: number } = {}) {
  const peer = await startFixture('sdkServer.mjs', args);
  const client = new McpClient({
    clientInfo: { name: 'mcp-host-tests', version: '0.0.0' },
    ...(options.roots ? { roots: { listRoots: () => [{ uri: options.roots!, name: 'work' }] } } : {}),
  });
  open.push({ client, peer });
  const logs: TransportLog[] = [];
  const closes: TransportCloseInfo[] = [];
  client.onTransportLog((l) => logs.push(l));
  client.onClose((c) => closes.push(c));
  const transport = new StreamableHttpTransport({ url: peer.url, headers: { Authorization: SECRET }, reconnectDelayMs: 50, ...(options.maxConcurrentRequests ? { maxConcurrentRequests: options.maxConcurrentRequests } : {}) });
  await client.connect(transport);
  const requests = async (): Promise<SeenRequest[]> => (await fetch(new URL('/control/requests', peer.url))).json() as Promise<SeenRequest[]>;
  return { peer, client, transport, logs, closes, requests };
}

const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text ?? '').join('');

describe('StreamableHttpTransport against SDK fixture servers', () => {
  test('SSE answers: headers on every request, progress, session kept, DELETE on close, no secret in any log', async () => {
    const { client, transport, logs, requests } = await connect(['--resumable']);
    assert.equal(text(await client.callTool('echo', { text: 'grüß dich' })), 'grüß dich');
    const progress: number[] = [];
    assert.equal(text(await client.callTool('progress', { steps: 3 }, { onProgress: (p) => progress.push(p.progress) })), 'done');
    assert.deepEqual(progress, [1, 2, 3]);
    const sessionId = transport.sessionId;
    assert.ok(sessionId);
    assert.equal(client.stats()?.http?.sessionId, sessionId);
    await client.close();

    const seen = await requests();
    const posts = seen.filter((r) => r.method === 'POST');
    assert.ok(posts.every((r) => r.accept === 'application/json, text/event-stream' && r.authorization));
    // The modern probe (server/discover) comes first; this 1.x server refuses it, and initialize follows.
    assert.deepEqual([posts[0].protocolVersion, posts[0].sessionId], ['2026-07-28', undefined], 'the probe carries the modern version and no session');
    assert.equal(posts[1].sessionId, undefined, 'initialize carries no session');
    assert.equal(posts[1].protocolVersion, '2025-11-25', 'but the version it offers');
    assert.ok(posts.slice(2).every((r) => r.sessionId === sessionId && r.protocolVersion === '2025-11-25'), JSON.stringify(posts));
    assert.ok(seen.some((r) => r.method === 'GET' && r.sessionId === sessionId), 'the GET stream was opened');
    const deletes = seen.filter((r) => r.method === 'DELETE');
    assert.equal(deletes.length, 1);
    assert.equal(deletes[0].sessionId, sessionId);
    assert.ok(logs.some((l) => l.kind === 'http' && /headers: Authorization/.test(l.text)), 'header names are logged');
    assert.ok(!JSON.stringify(logs).includes('SECRET'), 'the Authorization value never reaches a log');
  });

  test('a response stream dropped mid-answer resumes with Last-Event-ID after the retry, and the call succeeds', async () => {
    const { client, logs, requests } = await connect(['--resumable', '--retry', '400']);
    const progress: number[] = [];
    const result = await client.callTool('drop', {}, { onProgress: (p) => progress.push(p.progress) });
    assert.equal(text(result), 'survived');
    assert.deepEqual(progress, [1], 'what came before the drop was delivered once');
    const seen = await requests();
    const call = seen.filter((r) => r.method === 'POST').at(-1)!;
    const resumed = seen.filter((r) => r.method === 'GET' && r.lastEventId !== undefined);
    assert.equal(resumed.length, 1, 'one GET with Last-Event-ID');
    assert.ok(resumed[0].at - call.at >= 350, `the server's retry of 400 ms was waited for (${resumed[0].at - call.at} ms)`);
    assert.ok(client.stats()!.http!.streamResumptions >= 1);
    assert.ok(logs.some((l) => /resumed the response stream of tools\/call/.test(l.text)), JSON.stringify(logs));
    assert.equal(client.stats()!.cancelled, 0, 'a dropped stream is not a cancellation');
  });

  test('JSON-only answers (enableJsonResponse) work for lists and calls', async () => {
    const { client, requests } = await connect(['--json']);
    assert.deepEqual((await client.listTools()).map((t) => t.name).sort(), ['announce', 'drop', 'echo', 'progress', 'roots']);
    assert.equal(text(await client.callTool('echo', { text: 'plain json' })), 'plain json');
    assert.ok((await requests()).some((r) => r.method === 'POST'));
    assert.ok(client.stats()!.bytesReceived > 0);
  });

  test('server-initiated messages arrive on the GET stream; a server request (roots/list) on a response stream is answered by POST', async () => {
    const { client, logs } = await connect([], { roots: 'file:///work/project' });
    await waitFor(() => logs.some((l) => l.text === 'GET stream opened'), 5000, 'the GET stream');
    const changed = new Promise<void>((resolve) => client.onToolsListChanged(() => resolve()));
    await client.callTool('announce', {});
    await changed;
    const roots = JSON.parse(text(await client.callTool('roots', {})));
    assert.deepEqual(roots.roots, [{ uri: 'file:///work/project', name: 'work' }]);
  });

  test('GET answered 405: logged, and everything else works', async () => {
    const { client, logs } = await connect(['--no-get']);
    await waitFor(() => logs.some((l) => /offers no stream for server-initiated messages \(GET answered 405\)/.test(l.text)), 5000, 'the 405 log line');
    assert.equal(text(await client.callTool('echo', { text: 'still here' })), 'still here');
  });

  test('a stateless server: no session id is sent, no DELETE on close', async () => {
    const { client, transport, requests } = await connect(['--stateless', '--json']);
    assert.equal(text(await client.callTool('echo', { text: 'no session' })), 'no session');
    assert.equal(transport.sessionId, undefined);
    await client.close();
    const seen = await requests();
    assert.ok(seen.every((r) => r.sessionId === undefined));
    assert.ok(!seen.some((r) => r.method === 'DELETE'));
  });

  test('many requests, sequential and pipelined: sockets are reused, none accumulate', { timeout: 60_000 }, async () => {
    const { client } = await connect(['--json']);
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    for (let i = 0; i < 20; i++) await client.callTool('echo', { text: String(i) });
    const warm = sockets();
    for (let i = 0; i < 150; i++) await client.callTool('echo', { text: String(i) });
    assert.ok(sockets() <= warm + 1, `sequential: ${warm} sockets after warm-up, ${sockets()} after 150 calls`);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => client.callTool('echo', { text: `p${i}` })));
    assert.deepEqual(results.map(text), Array.from({ length: 100 }, (_, i) => `p${i}`));
    // The burst opened more connections; once idle, keep-alive lets them go.
    await waitFor(() => sockets() <= warm + 1, 15_000, `the sockets of the burst to be released (${sockets()} open, ${warm} after warm-up)`);
    assert.equal(client.stats()!.inFlight, 0);
    // initialize, the GET stream, then every call.
    assert.equal(client.stats()!.http!.statusCounts['200'], 2 + 20 + 150 + 100);
  });

  test('past the cap of POSTs at once, requests wait in order; one cancelled while waiting is never POSTed', async () => {
    const { client, requests } = await connect(['--json'], { maxConcurrentRequests: 1 });
    const postsBefore = (await requests()).filter((r) => r.method === 'POST').length;
    const order: string[] = [];
    const first = client.callTool('progress', { steps: 3 }).then((r) => (order.push('first'), r));
    const cancel = new AbortController();
    const waiting = client.callTool('echo', { text: 'never sent' }, { signal: cancel.signal });
    const third = client.callTool('echo', { text: 'third' }).then((r) => (order.push('third'), r));
    cancel.abort();
    await assert.rejects(waiting, (e: unknown) => McpLocalError.is(e, 'cancelled'));
    assert.equal(text(await first), 'done');
    assert.equal(text(await third), 'third');
    assert.deepEqual(order, ['first', 'third']);
    // The first call, the cancellation (a notification: it never waits) and the third call.
    assert.equal((await requests()).filter((r) => r.method === 'POST').length - postsBefore, 3);
    assert.equal(client.stats()!.inFlight, 0);
  });

  test('session expiry: a 404 for the session closes with session-expired; a new transport and client start a new session', async () => {
    const { peer, client, transport, closes } = await connect(['--resumable']);
    const first = transport.sessionId;
    await fetch(new URL('/control/expire', peer.url), { method: 'POST' });
    await assert.rejects(client.callTool('echo', { text: 'lost' }), (e: unknown) => {
      assert.ok(McpLocalError.is(e, 'transport'), String(e));
      assert.match(e.message, /ended the session \(HTTP 404 at http:\/\/127\.0\.0\.1:\d+\/mcp\)/);
      assert.doesNotMatch(e.message, /\n\s+at /, 'no stack trace');
      return true;
    });
    assert.equal(closes.length, 1);
    assert.equal(closes[0].reason.kind, 'session-expired');

    const again = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    open.push({ client: again, peer });
    const next = new StreamableHttpTransport({ url: peer.url });
    await again.connect(next);
    assert.ok(next.sessionId && next.sessionId !== first);
    assert.equal(text(await again.callTool('echo', { text: 'new session' })), 'new session');
  });
});
