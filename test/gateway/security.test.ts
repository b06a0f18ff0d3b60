// The gateway's guards, with raw HTTP requests and the SDK client: the secret (401, logged
// without it), Host and Origin against DNS rebinding (403), the body cap (413), per-server
// endpoints and sessions (404), nothing while the workspace is untrusted (503), 127.0.0.1 only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { GATEWAY_SECRET_HEADER } from '../../src/gateway';
import { StdioTransport } from '../../src/transport/stdio';
import { fixture, waitFor } from '../client/support';
import { TestGateway, openGateway, send, sdkClient } from './support';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('gateway security', () => {
  let a: McpClient;
  let b: McpClient;
  let gw: TestGateway;
  let trusted = true;
  let secretHeaders: Record<string, string>;

  before(async () => {
    const start = async () => {
      const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
      await client.connect(new StdioTransport({ command: process.execPath, args: [fixture('eras.mjs')], closeGraceMs: 500, termGraceMs: 500 }));
      return client;
    };
    [a, b] = await Promise.all([start(), start()]);
    gw = await openGateway({ a: { name: 'A', client: a }, b: { name: 'B', client: b } }, { trusted: () => trusted, maxBodyBytes: 64 * 1024, refusalLogWindowMs: 1000 });
    secretHeaders = { ...gw.gateway.headers };
  });

  after(async () => {
    await gw?.close();
    await Promise.all([a?.close(), b?.close()]);
  });

  test('it listens on 127.0.0.1 only, with a secret of 256 bits', () => {
    assert.match(gw.endpoint('a').url, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/a$/);
    assert.equal(Buffer.from(secretHeaders[GATEWAY_SECRET_HEADER], 'base64url').length, 32);
  });

  test('without the secret, or with a wrong one: 401, and a log line that never holds the secret', async () => {
    const url = gw.endpoint('a').url;
    assert.equal((await send(url, { body: JSON.stringify(INIT) })).status, 401);
    assert.equal((await send(url, { headers: { [GATEWAY_SECRET_HEADER]: 'guess' }, body: JSON.stringify(INIT) })).status, 401);
    const wrongSameLength = secretHeaders[GATEWAY_SECRET_HEADER].replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    assert.equal((await send(url, { headers: { [GATEWAY_SECRET_HEADER]: wrongSameLength }, body: JSON.stringify(INIT) })).status, 401);
    // The first is logged in full; the next two, within the rate limit's window, are counted in one line.
    assert.equal(gw.logs.filter((l) => / 401: /.test(l)).length, 1);
    await waitFor(() => gw.logs.find((l) => /refused 2 more requests in 1 s \(401 ×2\)/.test(l)), 5000, 'the summary line');
    for (const line of gw.logs) assert.ok(!line.includes(secretHeaders[GATEWAY_SECRET_HEADER]), line);
    const sdkError = await sdkClient({ url, headers: {} }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(sdkError, 'the SDK client cannot connect without the headers');
  });

  test('the secret as a bearer token: the SDK client sending only Authorization connects; a wrong token is 401; neither is logged', async () => {
    const url = gw.endpoint('a').url;
    const secret = secretHeaders[GATEWAY_SECRET_HEADER];
    const client = await sdkClient({ url, headers: { authorization: `Bearer ${secret}` } }, 'bearer-only');
    try {
      assert.ok((await client.listTools()).tools.length > 0);
    } finally {
      await client.close();
    }
    const wrong = secret.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    assert.equal((await send(url, { headers: { authorization: `Bearer ${wrong}` }, body: JSON.stringify(INIT) })).status, 401);
    assert.equal((await send(url, { headers: { authorization: `Basic ${secret}` }, body: JSON.stringify(INIT) })).status, 401);
    // Only the bearer scheme: the secret's bytes elsewhere in the header do not pass.
    assert.equal((await send(url, { headers: { authorization: `Bearer x ${secret}` }, body: JSON.stringify(INIT) })).status, 401);
    await new Promise((r) => setTimeout(r, 1100));
    for (const line of gw.logs) {
      assert.ok(!line.includes(secret), line);
      assert.ok(!line.includes(wrong), line);
    }
  });

  test('a Host other than the loopback address (DNS rebinding): 403 even with the secret', async () => {
    const url = gw.endpoint('a').url;
    const res = await send(url, { headers: { ...secretHeaders, host: `evil.example:${gw.gateway.port}` }, body: JSON.stringify(INIT) });
    assert.equal(res.status, 403);
    assert.match(res.body, /Host/);
    assert.equal((await send(url, { headers: { ...secretHeaders, host: `localhost:${gw.gateway.port}` }, body: JSON.stringify(INIT) })).status, 200);
  });

  test('a foreign Origin: 403 even with the secret', async () => {
    const url = gw.endpoint('a').url;
    const res = await send(url, { headers: { ...secretHeaders, origin: 'http://evil.example' }, body: JSON.stringify(INIT) });
    assert.equal(res.status, 403);
    assert.match(res.body, /Origin/);
    assert.equal((await send(url, { headers: { ...secretHeaders, origin: `http://127.0.0.1:${gw.gateway.port}` }, body: JSON.stringify(INIT) })).status, 200);
  });

  test('a body over the cap: 413, by Content-Length and when streamed without one', async () => {
    const url = gw.endpoint('a').url;
    const big = JSON.stringify({ ...INIT, params: { ...INIT.params, pad: 'x'.repeat(100 * 1024) } });
    assert.equal((await send(url, { headers: secretHeaders, body: big })).status, 413);
    assert.equal((await send(url, { headers: { ...secretHeaders, 'transfer-encoding': 'chunked' }, body: big })).status, 413);
    assert.equal((await send(url, { headers: secretHeaders, body: JSON.stringify(INIT) })).status, 200, 'the gateway still serves');
  });

  test('per-server endpoints: an unknown server 404s, and a session of one server is unknown at another', async () => {
    assert.equal((await send(gw.gateway.endpoint({ key: 'c', name: 'C' }).url, { headers: secretHeaders, body: JSON.stringify(INIT) })).status, 404);
    const init = await send(gw.endpoint('a').url, { headers: secretHeaders, body: JSON.stringify(INIT) });
    const session = String(init.headers['mcp-session-id']);
    assert.ok(session.length > 20);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const atA = await send(gw.endpoint('a').url, { headers: { ...secretHeaders, 'mcp-session-id': session }, body: list });
    assert.equal(atA.status, 200);
    assert.ok(JSON.parse(atA.body).result.tools.length > 0);
    assert.equal((await send(gw.endpoint('b').url, { headers: { ...secretHeaders, 'mcp-session-id': session }, body: list })).status, 404);
    assert.equal((await send(gw.endpoint('a').url, { headers: secretHeaders, body: list })).status, 400, 'no session id');
    assert.equal((await send(gw.endpoint('a').url, { method: 'DELETE', headers: { ...secretHeaders, 'mcp-session-id': session } })).status, 200);
    assert.equal((await send(gw.endpoint('a').url, { headers: { ...secretHeaders, 'mcp-session-id': session }, body: list })).status, 404, 'a deleted session is gone');
  });

  test('malformed bodies get a JSON-RPC error, not a crash', async () => {
    const url = gw.endpoint('a').url;
    assert.equal((await send(url, { headers: secretHeaders, body: '{not json' })).status, 400);
    assert.equal((await send(url, { headers: secretHeaders, body: JSON.stringify([INIT]) })).status, 400);
    assert.equal((await send(url, { headers: secretHeaders, body: JSON.stringify({ jsonrpc: '1.0' }) })).status, 400);
    assert.equal((await send(url, { headers: { ...secretHeaders, 'mcp-protocol-version': '1999-01-01' }, body: JSON.stringify(INIT) })).status, 400);
  });

  test('nothing is served while the workspace is untrusted', async () => {
    trusted = false;
    try {
      const res = await send(gw.endpoint('a').url, { headers: secretHeaders, body: JSON.stringify(INIT) });
      assert.equal(res.status, 503);
      assert.match(res.body, /not trusted/);
    } finally {
      trusted = true;
    }
  });
});
