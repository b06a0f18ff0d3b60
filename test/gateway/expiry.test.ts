// Idle gateway sessions expire: a session with nothing in flight and no GET stream for the idle
// time is closed, its subscription freed upstream, and its next request gets 404 (the Streamable
// HTTP answer that makes a client initialize again); a session in use never expires; DELETE frees
// the same way. Real peers: server-everything (stdio) upstream, raw HTTP and the SDK 1.x client.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { DEFAULT_SESSION_IDLE_MS } from '../../src/gateway/httpGateway';
import { StdioTransport } from '../../src/transport/stdio';
import { EVERYTHING, WireRecorder, waitFor } from '../client/support';
import { TestGateway, openGateway, sdkClient } from './support';

// Long enough that a client on a busy machine gets from initialize to its next request (the SDK
// client sends notifications/initialized after the answer), short beside the 2 s call below.
const IDLE_MS = 1_000;
const RESOURCE = 'demo://resource/static/document/architecture.md';

interface Answer {
  readonly status: number;
  readonly session: string | undefined;
  readonly body: string;
}

describe('gateway session expiry', () => {
  let upstream: McpClient;
  let wire: WireRecorder;
  let gw: TestGateway;

  /** One POST of `message` with the gateway's secret (and `session`, when given). */
  function post(message: unknown, session?: string): Promise<Answer> {
    const endpoint = gw.endpoint('everything');
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...endpoint.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      if (session) headers['mcp-session-id'] = session;
      const req = request(endpoint.url, { method: 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, session: res.headers['mcp-session-id'] as string | undefined, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(message));
    });
  }

  async function initialize(name: string): Promise<string> {
    const answer = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } });
    assert.equal(answer.status, 200);
    assert.ok(answer.session);
    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, answer.session)).status, 202);
    return answer.session;
  }

  const count = () => gw.gateway.sessionCounts().everything ?? 0;

  before(async () => {
    upstream = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    wire = new WireRecorder(upstream);
    await upstream.connect(new StdioTransport({ command: process.execPath, args: EVERYTHING, closeGraceMs: 500, termGraceMs: 500 }));
    // A legacy server: a freed subscription shows as resources/unsubscribe on the wire.
    assert.equal(upstream.era, 'legacy');
    gw = await openGateway({ everything: { name: 'Everything', client: upstream } }, { sessionIdleMs: IDLE_MS });
  });

  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  test('the default idle time is 30 minutes', () => {
    assert.equal(DEFAULT_SESSION_IDLE_MS, 30 * 60_000);
  });

  test('an idle session expires: closed, logged, and its next request gets 404', async () => {
    const session = await initialize('idle-client');
    assert.equal((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, session)).status, 200);
    const before = count();
    assert.ok(before >= 1);
    await waitFor(() => gw.logs.some((l) => l.includes('idle-client disconnected') && /session expired/.test(l)), 10_000, 'the expiry log line');
    const answer = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, session);
    assert.equal(answer.status, 404);
    assert.equal(JSON.parse(answer.body).error.code, -32600);
    assert.equal(count(), before - 1);
    // What a client does on that 404: initialize again, and go on.
    const again = await initialize('idle-client');
    assert.notEqual(again, session);
    const listed = await post({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, again);
    assert.equal(listed.status, 200);
    assert.ok(JSON.parse(listed.body).result.tools.some((t: { name: string }) => t.name === 'echo'));
  });

  test('expiry frees the session\'s subscription upstream', async () => {
    const session = await initialize('subscriber');
    const subscribed = await post({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: RESOURCE } }, session);
    assert.equal(subscribed.status, 200, subscribed.body);
    assert.ok(wire.sent('resources/subscribe').some((m) => m.params?.uri === RESOURCE));
    assert.equal(wire.sent('resources/unsubscribe').length, 0);
    await waitFor(() => gw.logs.some((l) => l.includes('subscriber disconnected') && /session expired/.test(l)), 10_000, 'the expiry');
    await waitFor(() => wire.sent('resources/unsubscribe').some((m) => m.params?.uri === RESOURCE), 5000, 'resources/unsubscribe upstream');
  });

  test('a session with a call in flight, or with its GET stream open, does not expire', async () => {
    // The SDK client holds the GET stream open for as long as it is connected.
    const held = await sdkClient(gw.endpoint('everything'), 'stream-holder');
    try {
      const session = await initialize('busy-client');
      const call = post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 2 } } }, session);
      const answer = await call;
      assert.equal(answer.status, 200, 'the call outlived the idle time and was answered');
      assert.ok(!gw.logs.some((l) => l.includes('busy-client disconnected')), 'not expired while the call ran');
      assert.ok(!gw.logs.some((l) => l.includes('stream-holder disconnected')), 'not expired with its GET stream open');
      const tools = await held.listTools();
      assert.ok(tools.tools.length > 0);
      await waitFor(() => gw.logs.some((l) => l.includes('busy-client disconnected')), 10_000, 'the busy client\'s expiry once idle');
    } finally {
      await held.close();
    }
  });

  test('DELETE frees the session at once', async () => {
    const session = await initialize('deleting-client');
    const before = count();
    const endpoint = gw.endpoint('everything');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(endpoint.url, { method: 'DELETE', headers: { ...endpoint.headers, 'mcp-session-id': session } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 200);
    assert.equal(count(), before - 1);
    assert.equal((await post({ jsonrpc: '2.0', id: 5, method: 'ping' }, session)).status, 404);
  });
});
