// StreamableHttpTransport in the 2026-07-28 era against a server on the official SDK 2.x
// (test/fixtures/servers/http/modernHttpServer.mjs, modern only). The SDK checks the request
// headers itself and answers a missing or wrong one with 400 and -32020, so a call that succeeds
// proves the headers; the fixture's record of the mcp-* headers it received shows them raw. The
// requests carry the per-request `_meta` a modern client sends (the client's handshake builds it;
// here the test does, so the transport is what is under test).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { describeSkippedItem, SkippedListItem } from '../../src/client/schemas';
import { JsonRpcConnection } from '../../src/protocol/connection';
import { ResponseError } from '../../src/protocol/errors';
import { ToolHeaderDeclaration, validateToolHeaders } from '../../src/protocol/httpHeaders';
import { TransportLog } from '../../src/protocol/transport';
import { DeferredTransport } from '../../src/transport/deferredTransport';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { StreamableHttpTransport } from '../../src/transport/streamableHttp';
import { HttpPeer, startEverything, startFixture } from './httpPeers';

const MODERN = '2026-07-28';

interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

interface ListedTool {
  name: string;
  inputSchema: unknown;
}

const open: Array<{ connection: { close(): Promise<void> }; peer: HttpPeer }> = [];

afterEach(async () => {
  for (const { connection, peer } of open.splice(0)) {
    await connection.close().catch(() => {});
    await peer.close();
  }
});

async function connectModern(version = MODERN) {
  const peer = await startFixture('modernHttpServer.mjs');
  const transport = new StreamableHttpTransport({ url: peer.url, reconnectDelayMs: 50 });
  const logs: TransportLog[] = [];
  transport.onLog((l) => logs.push(l));
  const connection = new JsonRpcConnection(transport, { defaultTimeoutMs: 20_000 });
  open.push({ connection, peer });
  transport.setProtocolVersion(version);
  await transport.start();
  const meta = { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': { name: 'mcp-host-tests', version: '0.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const request = (method: string, params: Record<string, unknown> = {}) => connection.request<Record<string, unknown>>(method, { ...params, _meta: meta });
  const requests = async (): Promise<SeenRequest[]> => (await fetch(new URL('/control/requests', peer.url))).json() as Promise<SeenRequest[]>;
  return { peer, transport, connection, request, requests, logs };
}

/** What the client's tools/list hook hands the transport: the declarations of the valid tools. */
function declarationsOf(tools: readonly ListedTool[]): Map<string, readonly ToolHeaderDeclaration[]> {
  const map = new Map<string, readonly ToolHeaderDeclaration[]>();
  for (const tool of tools) {
    const check = validateToolHeaders(tool);
    if (check.ok && check.declarations.length > 0) map.set(tool.name, check.declarations);
  }
  return map;
}

const text = (r: Record<string, unknown>) => (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
const base64 = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;

describe('StreamableHttpTransport in the 2026-07-28 era against the official SDK 2.x', () => {
  test('every POST carries MCP-Protocol-Version and Mcp-Method, Mcp-Name where the method names a target; no session, GET or DELETE', async () => {
    const { transport, connection, request, requests } = await connectModern();
    assert.equal(transport.mirrorsToolHeaders, true);
    const listed = (await request('tools/list')).tools as ListedTool[];
    assert.ok(listed.some((t) => t.name === 'echo'));
    assert.equal(text(await request('tools/call', { name: 'echo', arguments: { text: 'hi' } })), 'hi');
    const prompt = await request('prompts/get', { name: 'greet', arguments: { name: 'Ada' } });
    assert.match(JSON.stringify(prompt.messages), /Hello Ada/);
    const read = await request('resources/read', { uri: 'fixture://note' });
    assert.match(JSON.stringify(read.contents), /a note/);
    await request('resources/list');
    await connection.close();

    const seen = await requests();
    assert.deepEqual(
      seen.map((r) => r.method),
      ['POST', 'POST', 'POST', 'POST', 'POST'],
      'only POSTs: no GET stream after the first request, no DELETE on close',
    );
    assert.deepEqual(
      seen.map((r) => [r.headers['mcp-method'], r.headers['mcp-name']]),
      [
        ['tools/list', undefined],
        ['tools/call', 'echo'],
        ['prompts/get', 'greet'],
        ['resources/read', 'fixture://note'],
        ['resources/list', undefined],
      ],
    );
    for (const r of seen) {
      assert.equal(r.headers['mcp-protocol-version'], MODERN);
      assert.equal(r.headers['mcp-session-id'], undefined, 'no session id is ever sent');
    }
    assert.equal(transport.sessionId, undefined);
  });

  test('Mcp-Param-* headers from x-mcp-header arguments: plain ASCII as it is, other values Base64, absent and null ones omitted', async () => {
    const { transport, request, requests } = await connectModern();
    const listed = (await request('tools/list')).tools as ListedTool[];
    transport.setToolHeaders(declarationsOf(listed));
    const note = ' Grüße, 世界';
    const answer = await request('tools/call', { name: 'route', arguments: { region: 'eu-west1', priority: 7, dryRun: false, note, query: 'SELECT 1' } });
    assert.match(text(answer), /^routed /, 'the SDK accepted the mirrored headers');
    await request('tools/call', { name: 'route', arguments: { region: 'us east 2', note: null } });

    const calls = (await requests()).filter((r) => r.headers['mcp-method'] === 'tools/call');
    const params = calls.map((r) => Object.fromEntries(Object.entries(r.headers).filter(([name]) => name.startsWith('mcp-param-'))));
    assert.deepEqual(params, [
      { 'mcp-param-region': 'eu-west1', 'mcp-param-priority': '7', 'mcp-param-dry-run': 'false', 'mcp-param-note': base64(note) },
      { 'mcp-param-region': 'us east 2' },
    ]);
  });

  test('a JSON-RPC error answered with HTTP 400 is that request’s error response, and the transport stays open', async () => {
    const { request, logs } = await connectModern();
    // Without the declarations the transport sends no Mcp-Param-Region: the SDK refuses the call.
    const mismatch = await request('tools/call', { name: 'route', arguments: { region: 'eu' } }).then(
      () => assert.fail('expected a header mismatch'),
      (error: unknown) => error,
    );
    assert.ok(mismatch instanceof ResponseError, `a wire error, not a transport failure: ${String(mismatch)}`);
    assert.equal(mismatch.code, -32020);
    assert.match(mismatch.wireMessage, /Mcp-Param-Region/);
    assert.equal(text(await request('tools/call', { name: 'echo', arguments: { text: 'still open' } })), 'still open');
    assert.ok(logs.some((l) => /→ 400: JSON-RPC error -32020, delivered as the answer/.test(l.text)));
  });

  test('an unsupported modern version is answered -32022 with the supported ones, for the client to retry with', async () => {
    const { request } = await connectModern('2099-01-01');
    const error = await request('tools/list').then(
      () => assert.fail('expected -32022'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ResponseError, String(error));
    assert.equal(error.code, -32022);
    assert.deepEqual((error.data as { supported?: unknown }).supported, [MODERN]);
  });

  test('the tools a conforming client must drop are the ones whose declarations validateToolHeaders rejects', async () => {
    const { request } = await connectModern();
    const listed = (await request('tools/list')).tools as ListedTool[];
    const verdicts = Object.fromEntries(listed.map((t) => [t.name, validateToolHeaders(t)]));
    assert.deepEqual(Object.keys(verdicts).sort(), ['bad_nested', 'bad_number', 'echo', 'route']);
    assert.equal(verdicts.echo.ok, true);
    assert.equal(verdicts.route.ok, true);
    assert.match((verdicts.bad_number as { reason: string }).reason, /property score needs a string, integer or boolean property, not "number"/);
    assert.match((verdicts.bad_nested as { reason: string }).reason, /list\.<items>/);
  });

  test('a cancelled request ends its POST; no notifications/cancelled is sent', async () => {
    const { request, requests, connection } = await connectModern();
    const aborter = new AbortController();
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const call = connection.request('tools/list', { _meta: meta }, undefined, { signal: aborter.signal });
    aborter.abort();
    await assert.rejects(call);
    await request('tools/list');
    assert.ok((await requests()).every((r) => r.headers['mcp-method'] !== 'notifications/cancelled'));
  });
});

describe('DeferredTransport (the HTTP transports loaded on start) in the 2026-07-28 era', () => {
  test('the protocol version and tool headers set before it loads reach the loaded transport; events, stats and mirrorsToolHeaders are its own', async () => {
    // The declarations, as the client would hand them over after a listing.
    const first = await connectModern();
    const declarations = declarationsOf((await first.request('tools/list')).tools as ListedTool[]);
    const peer = await startFixture('modernHttpServer.mjs');
    let loads = 0;
    const transport = new DeferredTransport(async () => (loads++, createHttpTransport({ url: peer.url, mode: 'http' })));
    const logs: TransportLog[] = [];
    transport.onLog((l) => logs.push(l));
    transport.setProtocolVersion(MODERN);
    transport.setToolHeaders(declarations);
    assert.equal(loads, 0, 'nothing loads before start');
    assert.equal(transport.mirrorsToolHeaders, false);
    assert.equal(transport.stats().messagesSent, 0);
    const connection = new JsonRpcConnection(transport, { defaultTimeoutMs: 20_000 });
    open.push({ connection, peer });
    await transport.start();
    assert.equal(loads, 1);
    assert.equal(transport.mirrorsToolHeaders, true, 'the version set before loading switched the loaded transport to the modern era');
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'mcp-host-tests', version: '0.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const answer = await connection.request<Record<string, unknown>>('tools/call', { name: 'route', arguments: { region: 'eu-west1' }, _meta: meta });
    assert.match(text(answer), /^routed /, 'the SDK accepted the Mcp-Param-* headers from the declarations set before loading');
    assert.equal(transport.stats().messagesSent, 1);
    assert.equal(transport.stats().messagesReceived, 1);
    assert.ok(logs.length > 0, 'the loaded transport’s log lines are relayed');
    const closed = new Promise((resolve) => transport.onClose(resolve));
    await connection.close();
    await closed;
  });
});

describe('McpClient over Streamable HTTP to a modern-only server (official SDK 2.x)', () => {
  test('finds the modern era, drops the tools with invalid x-mcp-header (reported with the reason), and mirrors arguments of the others', async () => {
    const peer = await startFixture('modernHttpServer.mjs');
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    open.push({ connection: client, peer });
    const transport = new StreamableHttpTransport({ url: peer.url });
    await client.connect(transport);
    assert.equal(client.era, 'modern');
    assert.equal(client.protocolVersion, MODERN);

    let skipped: readonly SkippedListItem[] = [];
    const tools = await client.listTools({ onSkipped: (items) => (skipped = items) });
    assert.deepEqual(tools.map((t) => t.name).sort(), ['echo', 'route'], 'the two invalid tools are left out');
    assert.deepEqual(
      skipped.map(describeSkippedItem),
      [
        'tools[2]: invalid x-mcp-header: x-mcp-header "Score" on property score needs a string, integer or boolean property, not "number" ("bad_number")',
        'tools[3]: invalid x-mcp-header: x-mcp-header on property list.<items> is not reached through "properties" alone (it may not sit under items, a composition, a condition, $defs or the root) ("bad_nested")',
      ],
    );
    const answer = await client.callTool('route', { region: 'ap-south', priority: -3, dryRun: true, note: 'naïve' });
    assert.match(text(answer as unknown as Record<string, unknown>), /^routed /, 'the SDK accepted the Mcp-Param-* headers');
    await client.close();

    const seen = (await (await fetch(new URL('/control/requests', peer.url))).json()) as SeenRequest[];
    assert.ok(seen.every((r) => r.method === 'POST' && r.headers['mcp-session-id'] === undefined), 'POSTs only, no session');
    assert.equal(seen[0].headers['mcp-method'], 'server/discover');
    const call = seen.find((r) => r.headers['mcp-name'] === 'route')!;
    assert.deepEqual(
      Object.fromEntries(Object.entries(call.headers).filter(([name]) => name.startsWith('mcp-param-'))),
      { 'mcp-param-region': 'ap-south', 'mcp-param-priority': '-3', 'mcp-param-dry-run': 'true', 'mcp-param-note': base64('naïve') },
    );
  });
});

describe('the era probe through the auto HTTP transport (Streamable HTTP, falling back to HTTP+SSE)', () => {
  test('a legacy HTTP+SSE server refuses the probe, initialize falls back to HTTP+SSE, and the session works', async () => {
    const peer = await startEverything('sse');
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    open.push({ connection: client, peer });
    const logs: TransportLog[] = [];
    client.onTransportLog((l) => logs.push(l));
    await client.connect(createHttpTransport({ url: peer.url, mode: 'auto' }));
    assert.equal(client.era, 'legacy');
    assert.equal(client.stats()?.http?.transport, 'sse');
    assert.ok(logs.some((l) => /POST initialize answered 40\d: falling back to the HTTP\+SSE transport/.test(l.text)), logs.map((l) => l.text).join('\n'));
    assert.ok((await client.listTools()).some((t) => t.name === 'echo'));
  });

  test('a modern server through the auto transport: modern era, and invalid tools are dropped there too', async () => {
    const peer = await startFixture('modernHttpServer.mjs');
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    open.push({ connection: client, peer });
    await client.connect(createHttpTransport({ url: peer.url, mode: 'auto' }));
    assert.equal(client.era, 'modern');
    assert.deepEqual((await client.listTools()).map((t) => t.name).sort(), ['echo', 'route']);
    assert.match(text((await client.callTool('route', { region: 'x', note: '→' })) as unknown as Record<string, unknown>), /^routed /);
  });
});
