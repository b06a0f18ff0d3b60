// Both eras against real peers: servers on the official SDK 2.x (test/fixtures/servers/eras.mjs,
// modern-only and both eras) and on SDK 1.x (legacy only). The feature tests the suite runs
// against server-everything, on a modern server; multi round-trip input answered by the same
// handlers that answer a legacy server's requests; every frame checked against 2026-07-28.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EraMemory, McpClient, McpClientOptions, McpLocalError, isRetriedResult } from '../../src/client';
import { StdioTransport } from '../../src/transport/stdio';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { startFixture } from '../transport/httpPeers';
import { WireRecorder, fixture, waitFor } from './support';
import { serverOffersTasks } from '../../src/client/modernTasks';

const ERAS = fixture('eras.mjs');
const CLIENT_INFO = { name: 'mcp-host-tests', version: '0.0.0' };

/** Answers as a host would: the same functions serve legacy requests and modern input requests. */
function handlers(calls: string[]): McpClientOptions['handlers'] {
  return {
    'sampling/createMessage': (params) => {
      calls.push('sampling/createMessage');
      const text = ((params?.messages as any[])?.[0]?.content?.text as string) ?? '';
      return { role: 'assistant', content: { type: 'text', text: `model says hi to "${text}"` }, model: 'test-model', stopReason: 'endTurn' };
    },
    'elicitation/create': () => {
      calls.push('elicitation/create');
      return { action: 'accept', content: { name: 'Ada' } };
    },
  };
}

function start(args: string[], options: Partial<McpClientOptions> = {}) {
  const calls: string[] = [];
  const client = new McpClient({
    clientInfo: CLIENT_INFO,
    capabilities: { sampling: {}, elicitation: { form: {} } },
    roots: { listRoots: () => [{ uri: 'file:///work/project', name: 'project' }] },
    handlers: handlers(calls),
    ...options,
  });
  const wire = new WireRecorder(client);
  const stderr: string[] = [];
  client.onTransportLog((l) => l.kind === 'stderr' && stderr.push(l.text));
  const transport = new StdioTransport({ command: process.execPath, args: [ERAS, ...args], closeGraceMs: 500, termGraceMs: 500 });
  return { client, wire, transport, calls, stderr };
}

function textOf(result: { content: any[] }): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('a modern-only server (SDK 2.x, legacy rejected) over stdio', () => {
  let t: ReturnType<typeof start>;
  before(async () => {
    t = start(['--modern-only']);
    await t.client.connect(t.transport);
  });
  after(async () => {
    await t.client.close();
    assert.deepEqual(t.wire.problems('2026-07-28'), [], 'every frame, both ways, is valid 2026-07-28');
  });

  test('the handshake is server/discover with the _meta envelope; no initialize, no initialized', () => {
    assert.equal(t.client.era, 'modern');
    assert.equal(t.client.protocolVersion, '2026-07-28');
    assert.equal(t.client.serverInfo?.name, 'eras-modern');
    assert.equal(t.client.instructions, 'A fixture that speaks both eras.');
    assert.deepEqual(t.client.discoverResult?.supportedVersions, ['2026-07-28']);
    const sent = t.wire.sent();
    assert.equal(sent[0].method, 'server/discover');
    assert.equal(t.wire.sent('initialize').length, 0);
    assert.equal(t.wire.sent('notifications/initialized').length, 0);
    assert.equal(serverOffersTasks(t.client), false, 'a modern server without the tasks extension runs no tasks');
  });

  test('every request carries protocolVersion, clientCapabilities and clientInfo in _meta', async () => {
    await t.client.listTools();
    const requests = t.wire.sent().filter((m) => m.id !== undefined && m.method);
    assert.ok(requests.length >= 2);
    for (const r of requests) {
      const meta = r.params?._meta;
      assert.equal(meta?.['io.modelcontextprotocol/protocolVersion'], '2026-07-28', r.method);
      assert.deepEqual(meta?.['io.modelcontextprotocol/clientInfo'], CLIENT_INFO, r.method);
      assert.deepEqual(meta?.['io.modelcontextprotocol/clientCapabilities'], { sampling: {}, elicitation: { form: {} }, roots: {} }, r.method);
    }
  });

  test('lists tools, resources, templates and prompts, with the cache hints the server gave', async () => {
    let hint: unknown;
    const tools = (await t.client.listTools({ onCacheHint: (h) => (hint = h) })).map((x) => x.name);
    for (const name of ['echo', 'image', 'audio', 'link', 'embedded', 'add', 'progress', 'ask-sample']) assert.ok(tools.includes(name), name);
    assert.deepEqual(hint, { ttlMs: 30_000, cacheScope: 'public' });
    const resources = await t.client.listResources({ onCacheHint: (h) => (hint = h) });
    assert.ok(resources.some((r) => r.uri === 'eras://hello'));
    assert.deepEqual(hint, { ttlMs: 0, cacheScope: 'private' }, 'the SDK default: stale at once');
    assert.ok((await t.client.listResourceTemplates()).some((x) => x.uriTemplate === 'eras://items/{id}'));
    assert.ok((await t.client.listPrompts()).some((p) => p.name === 'greet'));
  });

  test('tool calls return each content type', async () => {
    assert.equal(textOf(await t.client.callTool('echo', { text: 'héllo 🌍' })), 'héllo 🌍');
    assert.equal((await t.client.callTool('image')).content[0].type, 'image');
    assert.equal((await t.client.callTool('audio')).content[0].type, 'audio');
    assert.equal((await t.client.callTool('link')).content[0].type, 'resource_link');
    assert.equal((await t.client.callTool('embedded')).content[0].type, 'resource');
    const add = await t.client.callTool('add', { a: 2, b: 3 });
    assert.deepEqual(add.structuredContent, { sum: 5 });
  });

  test('progress arrives for its request', async () => {
    const seen: number[] = [];
    const result = await t.client.callTool('progress', { steps: 3 }, { onProgress: (p) => seen.push(p.progress) });
    assert.equal(textOf(result), 'done 3');
    await waitFor(() => seen.length === 3, 2000, 'three progress notifications');
    assert.deepEqual(seen, [1, 2, 3]);
  });

  test('cancellation reaches the server', async () => {
    const abort = new AbortController();
    const call = t.client.callTool('slow', { ms: 30_000 }, { signal: abort.signal });
    setTimeout(() => abort.abort('the user gave up'), 200);
    await assert.rejects(call, (e: unknown) => McpLocalError.is(e, 'cancelled'));
    await waitFor(() => t.stderr.includes('slow: cancelled'), 5000, 'the server saw the cancellation');
  });

  test('resources read, prompts get, completion completes', async () => {
    const read = await t.client.readResource('eras://hello');
    assert.equal((read.contents[0] as any).text, 'hello from eras');
    assert.equal((await t.client.readResource('eras://items/2')).contents[0].uri, 'eras://items/2');
    const prompt = await t.client.getPrompt('greet', { name: 'Ada' });
    assert.equal((prompt.messages[0].content as any).text, 'Hello, Ada!');
    const names = await t.client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'A' });
    assert.deepEqual(names.completion.values, ['Ada', 'Alan']);
    const ids = await t.client.complete({ type: 'ref/resource', uri: 'eras://items/{id}' }, { name: 'id', value: '' });
    assert.deepEqual(ids.completion.values, ['1', '2', '3']);
  });

  test('sampling, elicitation and roots arrive as input requests and are answered by the handlers; the call is retried', async () => {
    const rounds: Array<{ waiting: boolean; requests: Record<string, string> }> = [];
    const listening = t.client.onInputRound((r) => rounds.push({ waiting: r.waiting, requests: { ...r.requests } }));
    const before = t.calls.length;
    const result = await t.client.callTool('ask-all');
    listening.dispose();
    const views = JSON.parse(textOf(result));
    assert.equal(views.sample.kind, 'sampling');
    assert.match(views.sample.result.content.text, /model says hi to "Say hi"/);
    assert.deepEqual(views.name, { kind: 'elicit', action: 'accept', content: { name: 'Ada' } });
    assert.deepEqual(views.roots, { kind: 'roots', roots: [{ uri: 'file:///work/project', name: 'project' }] });
    assert.deepEqual(t.calls.slice(before).sort(), ['elicitation/create', 'sampling/createMessage']);
    assert.deepEqual(rounds, [
      { waiting: true, requests: { sample: 'sampling/createMessage', name: 'elicitation/create', roots: 'roots/list' } },
      { waiting: false, requests: { sample: 'sampling/createMessage', name: 'elicitation/create', roots: 'roots/list' } },
    ]);
    const calls = t.wire.sent('tools/call').filter((m) => m.params.name === 'ask-all');
    assert.equal(calls.length, 2, 'the original request and one retry');
    assert.notEqual(calls[0].id, calls[1].id, 'the retry has a new id');
    assert.equal(calls[0].params.inputResponses, undefined);
    assert.deepEqual(Object.keys(calls[1].params.inputResponses).sort(), ['name', 'roots', 'sample']);
    assert.equal(calls[1].params.requestState, undefined, 'no state was given, so none is sent');
    assert.equal(isRetriedResult(result), true, 'a result reached through input is never cached');
  });

  test('requestState is echoed back unchanged', async () => {
    const result = await t.client.callTool('ask-name');
    assert.equal(textOf(result), 'elicited: accept {"name":"Ada"} state=round-1');
    const retry = t.wire.sent('tools/call').filter((m) => m.params.name === 'ask-name')[1];
    assert.equal(retry.params.requestState, 'round-1');
  });

  test('input rounds are bounded', async () => {
    await assert.rejects(t.client.callTool('ask-forever'), (e: unknown) => McpLocalError.is(e, 'invalid-result') && /after 8 rounds/.test((e as Error).message));
    assert.equal(t.wire.sent('tools/call').filter((m) => m.params.name === 'ask-forever').length, 9, 'the request and 8 retries');
  });

  test('the log level goes in _meta; no logging/setLevel, ping or roots/list_changed goes to a modern server', async () => {
    const logs: string[] = [];
    t.client.onLogMessage((m) => logs.push(`${m.level} ${String(m.data)}`));
    await t.client.callTool('log', { level: 'info', text: 'unheard' });
    await t.client.setLoggingLevel('info');
    const call = t.client.callTool('log', { level: 'info', text: 'heard' });
    await call;
    await waitFor(() => logs.includes('info heard'), 2000, 'the log message');
    assert.ok(!logs.includes('info unheard'), 'without a level the server sends no log messages');
    const last = t.wire.sent('tools/call').at(-1);
    assert.equal(last.params._meta['io.modelcontextprotocol/logLevel'], 'info');
    const rtt = await t.client.ping();
    assert.ok(rtt >= 0);
    await t.client.rootsChanged();
    for (const gone of ['logging/setLevel', 'ping', 'notifications/roots/list_changed']) assert.equal(t.wire.sent(gone).length, 0, gone);
  });

  test('subscriptions/listen carries list changes and resource updates, told apart by subscriptionId', async () => {
    const listen = t.wire.sent('subscriptions/listen')[0];
    assert.deepEqual(listen.params.notifications, { toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true });
    const updated: string[] = [];
    t.client.onResourceUpdated((uri) => updated.push(uri));
    await t.client.subscribeResource('eras://hello', { timeoutMs: 5000 });
    const latest = t.wire.sent('subscriptions/listen').at(-1);
    assert.deepEqual(latest.params.notifications.resourceSubscriptions, ['eras://hello']);
    await t.client.callTool('touch', { uri: 'eras://hello' });
    await waitFor(() => updated.includes('eras://hello'), 3000, 'the update');
    const note = t.wire.received('notifications/resources/updated').at(-1);
    assert.equal(note.params._meta['io.modelcontextprotocol/subscriptionId'], latest.id);
    let toolsChanged = 0;
    t.client.onToolsListChanged(() => toolsChanged++);
    await t.client.callTool('add-tool');
    await waitFor(() => toolsChanged > 0, 3000, 'tools/list_changed');
    assert.equal(t.wire.sent('resources/subscribe').length, 0);
    await t.client.unsubscribeResource('eras://hello', { timeoutMs: 5000 });
    assert.equal(t.wire.sent('subscriptions/listen').at(-1).params.notifications.resourceSubscriptions, undefined);
  });
});

describe('era negotiation', () => {
  test('a server of both eras pinned to legacy: initialize, and its server-to-client requests reach the same handlers', async () => {
    const t = start([], { protocol: 'legacy' });
    try {
      await t.client.connect(t.transport);
      assert.equal(t.client.era, 'legacy');
      assert.equal(t.client.protocolVersion, '2025-11-25');
      assert.equal(t.wire.sent('server/discover').length, 0);
      const result = await t.client.callTool('ask-name');
      assert.match(textOf(result), /^elicited: accept \{"name":"Ada"\}/);
      assert.ok(t.calls.includes('elicitation/create'));
      assert.equal(t.wire.received('elicitation/create').length, 1, 'a real server-to-client request');
      assert.deepEqual(t.wire.problems('2025-11-25'), []);
    } finally {
      await t.client.close();
    }
  });

  test('auto against a legacy-only server (SDK 1.x): the probe is refused, initialize follows, and the era is remembered', async () => {
    const memory = new EraMemory();
    const connect = async () => {
      const client = new McpClient({ clientInfo: CLIENT_INFO, eraMemory: { memory, key: 'stdio:versioned' } });
      const wire = new WireRecorder(client);
      await client.connect(new StdioTransport({ command: process.execPath, args: [fixture('versioned.mjs'), '--version', '2025-06-18'], closeGraceMs: 500, termGraceMs: 500 }));
      return { client, wire };
    };
    const first = await connect();
    try {
      assert.equal(first.client.era, 'legacy');
      assert.deepEqual(first.wire.sent().slice(0, 2).map((m) => m.method), ['server/discover', 'initialize']);
      assert.deepEqual(first.wire.problems('2025-06-18'), []);
    } finally {
      await first.client.close();
    }
    assert.deepEqual(memory.get('stdio:versioned'), { era: 'legacy', version: '2025-06-18' });
    const second = await connect();
    try {
      assert.equal(second.wire.sent()[0].method, 'initialize', 'no probe the second time');
    } finally {
      await second.client.close();
    }
  });

  test('a modern-only server pinned to legacy fails with the versions it supports', async () => {
    const t = start(['--modern-only'], { protocol: 'legacy' });
    await assert.rejects(t.client.connect(t.transport), (e: unknown) => /-32022/.test(String((e as Error).message)) && /2026-07-28/.test((e as Error).message));
    assert.equal(t.client.state.kind, 'closed');
  });

  test('a legacy-only server pinned to modern fails without trying initialize', async () => {
    const client = new McpClient({ clientInfo: CLIENT_INFO, protocol: 'modern' });
    const wire = new WireRecorder(client);
    await assert.rejects(client.connect(new StdioTransport({ command: process.execPath, args: [fixture('counter.mjs')], closeGraceMs: 500, termGraceMs: 500 })), (e: unknown) => McpLocalError.is(e, 'version') && /pinned/.test((e as Error).message));
    assert.equal(wire.sent('initialize').length, 0);
  });
});

describe('over Streamable HTTP (SDK 2.x createMcpHandler, test/fixtures/servers/http/modern.mjs)', () => {
  for (const args of [[], ['--modern-only']]) {
    test(`a server of ${args.length ? 'the modern era only' : 'both eras'} under auto (the HTTP auto transport): modern, with input rounds, and every frame valid 2026-07-28`, async () => {
      const peer = await startFixture('modern.mjs', args);
      const calls: string[] = [];
      const client = new McpClient({ clientInfo: CLIENT_INFO, capabilities: { elicitation: { form: {} } }, handlers: handlers(calls) });
      const wire = new WireRecorder(client);
      try {
        await client.connect(createHttpTransport({ url: peer.url, mode: 'auto' }));
        assert.equal(client.era, 'modern');
        assert.deepEqual(wire.sent().map((m) => m.method).slice(0, 1), ['server/discover']);
        assert.equal(textOf(await client.callTool('echo', { text: 'über' })), 'über');
        assert.equal(textOf(await client.callTool('ask-name')), 'elicited: accept {"name":"Ada"} state=round-1');
        assert.deepEqual(calls, ['elicitation/create']);
        assert.equal(wire.sent('initialize').length, 0);
        assert.deepEqual(wire.problems('2026-07-28'), []);
      } finally {
        await client.close();
        await peer.close();
      }
    });
  }

  test('subscriptions/listen over HTTP: resource updates and list changes arrive; a cut stream is listened to again with the same subscriptions', async () => {
    const peer = await startFixture('modern.mjs', ['--modern-only']);
    const control = (path: string) => fetch(new URL(`/control/${path}`, peer.url), { method: 'POST' });
    const client = new McpClient({ clientInfo: CLIENT_INFO });
    const wire = new WireRecorder(client);
    const updated: string[] = [];
    let toolsChanged = 0;
    client.onResourceUpdated((uri) => updated.push(uri));
    client.onToolsListChanged(() => toolsChanged++);
    try {
      await client.connect(createHttpTransport({ url: peer.url, mode: 'auto' }));
      await client.subscribeResource('eras://hello', { timeoutMs: 5000 });
      await control('touch?uri=eras%3A%2F%2Fhello');
      await waitFor(() => updated.length === 1, 5000, 'the update');
      await control('tools-changed');
      await waitFor(() => toolsChanged === 1, 5000, 'tools/list_changed');
      const listens = () => wire.sent('subscriptions/listen').length;
      const before = listens();
      await control('drop-listen');
      await waitFor(() => listens() > before, 10_000, 'a new subscriptions/listen after the cut');
      assert.deepEqual(wire.sent('subscriptions/listen').at(-1).params.notifications.resourceSubscriptions, ['eras://hello']);
      await waitFor(() => wire.received('notifications/subscriptions/acknowledged').length > before, 5000, 'the new stream acknowledged');
      await control('touch?uri=eras%3A%2F%2Fhello');
      await waitFor(() => updated.length === 2, 5000, 'the update on the new stream');
      assert.deepEqual(wire.problems('2026-07-28'), []);
    } finally {
      await client.close();
      await peer.close();
    }
  });

  test('pinned to legacy, a server of both eras is served by the SDK\'s stateless legacy fallback', async () => {
    const peer = await startFixture('modern.mjs');
    const client = new McpClient({ clientInfo: CLIENT_INFO, protocol: 'legacy' });
    const wire = new WireRecorder(client);
    try {
      await client.connect(createHttpTransport({ url: peer.url, mode: 'auto' }));
      assert.equal(client.era, 'legacy');
      assert.equal(textOf(await client.callTool('echo', { text: 'x' })), 'x');
      assert.deepEqual(wire.problems('2025-11-25'), []);
    } finally {
      await client.close();
      await peer.close();
    }
  });
});

describe('modern results the client cannot use (a raw 2026-07-28 server, misbehave.mjs --mode modern-oddities)', () => {
  let client: McpClient;
  before(async () => {
    client = new McpClient({ clientInfo: CLIENT_INFO });
    await client.connect(new StdioTransport({ command: process.execPath, args: [fixture('misbehave.mjs'), '--mode', 'modern-oddities'], closeGraceMs: 500, termGraceMs: 500 }));
  });
  after(() => client.close());

  test('an unknown resultType is an error that names it', async () => {
    assert.equal(client.era, 'modern');
    await assert.rejects(client.callTool('odd'), (e: unknown) => McpLocalError.is(e, 'invalid-result') && /resultType "task"/.test((e as Error).message));
  });

  test('a missing resultType means complete', async () => {
    assert.equal(textOf(await client.callTool('untyped')), 'complete anyway');
  });

  test('input_required with nothing to answer or echo is an error', async () => {
    await assert.rejects(client.callTool('empty-input'), (e: unknown) => McpLocalError.is(e, 'invalid-result') && /neither inputRequests nor requestState/.test((e as Error).message));
  });

  test('-32020 header mismatch: the tools are listed again and the call is retried once', async () => {
    const wire = new WireRecorder(client);
    assert.equal(textOf(await client.callTool('mismatch-once')), 'matched on call 2');
    assert.deepEqual(wire.sent().map((m) => m.method), ['tools/call', 'tools/list', 'tools/call']);
  });

  test('an input request the client has no answer for fails the call, naming the method', async () => {
    await assert.rejects(client.callTool('ask-roots'), (e: unknown) => McpLocalError.is(e, 'capability') && /roots\/list/.test((e as Error).message));
  });
});

describe('a legacy server that exits on any request before initialize (misbehave.mjs --mode strict-legacy)', () => {
  test('the probe ends that process with a clear error; the next start remembers and goes straight to initialize', async () => {
    const memory = new EraMemory();
    const start = () => {
      const client = new McpClient({ clientInfo: CLIENT_INFO, eraMemory: { memory, key: 'stdio:strict' } });
      const wire = new WireRecorder(client);
      return { client, wire, connected: client.connect(new StdioTransport({ command: process.execPath, args: [fixture('misbehave.mjs'), '--mode', 'strict-legacy'], closeGraceMs: 500, termGraceMs: 500 })) };
    };
    const first = start();
    await assert.rejects(first.connected, (e: unknown) => McpLocalError.is(e, 'server-exited') && /server\/discover/.test((e as Error).message) && /the next start uses initialize/.test((e as Error).message));
    assert.deepEqual(memory.get('stdio:strict'), { era: 'legacy', version: '2025-11-25' });
    const second = start();
    try {
      await second.connected;
      assert.equal(second.client.era, 'legacy');
      assert.equal(second.wire.sent()[0].method, 'initialize');
      assert.equal(textOf(await second.client.callTool('ok')), 'ok');
    } finally {
      await second.client.close();
    }
  });
});
