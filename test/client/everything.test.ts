import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient, McpLocalError, LogMessage } from '../../src/client';
import { EverythingKind, EverythingPeer, everythingPeer } from '../transport/httpPeers';
import { WireRecorder, waitFor } from './support';

// One real server-everything per transport; every frame it exchanged is schema-checked at the end.
for (const kind of ['stdio', 'streamableHttp', 'sse'] satisfies EverythingKind[]) describe(`McpClient against server-everything over ${kind}`, () => {
  let client: McpClient;
  let wire: WireRecorder;
  let peer: EverythingPeer;

  before(async () => {
    peer = await everythingPeer(kind);
    client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    wire = new WireRecorder(client);
    await client.connect(peer.transport);
  });

  after(async () => {
    await client.close();
    await peer.stop();
  });

  test('handshake: newest version, server info, capabilities, instructions, then initialized', () => {
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.equal(client.state.kind, 'ready');
    assert.match(client.serverInfo!.name, /everything/i);
    const caps = client.serverCapabilities!;
    assert.ok(caps.tools && caps.resources && caps.prompts && caps.logging);
    assert.equal(typeof client.instructions, 'string');
    // The era is found out first: the server refuses the server/discover probe (a JSON-RPC error,
    // or over HTTP a 4xx), so initialize follows.
    const sent = wire.sent();
    assert.equal(sent[0].method, 'server/discover');
    assert.ok(!wire.received().some((m) => m.id === sent[0].id && m.result), 'the probe got no result');
    assert.equal(sent[1].method, 'initialize');
    assert.deepEqual(sent[1].params.capabilities, { tasks: {} });
    assert.equal(sent[2].method, 'notifications/initialized');
    assert.equal(client.era, 'legacy');
  });

  test('lists tools, resources, templates and prompts (following cursors)', async () => {
    const tools = (await client.listTools()).map((t) => t.name);
    for (const name of ['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation', 'get-structured-content']) assert.ok(tools.includes(name), `tool ${name}`);
    const resources = await client.listResources();
    assert.ok(resources.length > 0 && resources.every((r) => typeof r.uri === 'string'));
    const templates = await client.listResourceTemplates();
    assert.ok(templates.some((t) => t.uriTemplate.startsWith('demo://')));
    const prompts = (await client.listPrompts()).map((p) => p.name);
    assert.ok(prompts.includes('simple-prompt') && prompts.includes('args-prompt'));
  });

  test('tool calls return each content type', async () => {
    const echo = await client.callTool('echo', { message: 'héllo 🌍' });
    assert.deepEqual(echo.content[0], { type: 'text', text: 'Echo: héllo 🌍' });

    const image = await client.callTool('get-tiny-image', {});
    const img = image.content.find((c) => c.type === 'image');
    assert.ok(img && img.type === 'image' && img.mimeType === 'image/png' && Buffer.from(img.data, 'base64').subarray(1, 4).toString() === 'PNG');

    const links = await client.callTool('get-resource-links', { count: 2 });
    assert.equal(links.content.filter((c) => c.type === 'resource_link').length, 2);

    const embedded = await client.callTool('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    const res = embedded.content.find((c) => c.type === 'resource');
    assert.ok(res && res.type === 'resource' && 'text' in res.resource);

    const structured = await client.callTool('get-structured-content', { location: 'New York' });
    assert.equal(typeof structured.structuredContent?.temperature, 'number');

    const sum = await client.callTool('get-sum', { a: 2, b: 40 });
    assert.match((sum.content[0] as { text: string }).text, /42/);
  });

  test('resources read, prompts get and completion work end to end', async () => {
    const [first] = await client.listResources();
    const read = await client.readResource(first.uri);
    assert.equal(read.contents[0].uri, first.uri);
    const prompt = await client.getPrompt('args-prompt', { city: 'Paris', state: 'Île-de-France' });
    assert.match(JSON.stringify(prompt.messages), /Paris/);
    assert.ok(client.serverCapabilities?.completions, 'server-everything declares completions');
    const done = await client.complete({ type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'E' });
    assert.ok(done.completion.values.includes('Engineering'));
  });

  test('a tool error comes back as a result with isError, and so does an unknown tool (server-everything answers both as results)', async () => {
    // The tool's handler fails on arguments that miss its input schema: a result, not a wire error.
    const failed = await client.callTool('get-resource-reference', { resourceType: 'Neither', resourceId: 1 });
    assert.equal(failed.isError, true);
    assert.match(JSON.stringify(failed.content), /resourceType/);
    const unknown = await client.callTool('no-such-tool', {});
    assert.equal(unknown.isError, true);
    assert.match(JSON.stringify(unknown.content), /no-such-tool not found/);
  });

  test('progress from trigger-long-running-operation reaches the caller', async () => {
    const seen: Array<{ progress: number; total?: number }> = [];
    const result = await client.callTool('trigger-long-running-operation', { duration: 0.6, steps: 3 }, { onProgress: (p) => seen.push(p) });
    assert.deepEqual(seen.map((p) => p.progress), [1, 2, 3]);
    assert.equal(seen[0].total, 3);
    assert.match(JSON.stringify(result.content), /completed/i);
    const call = wire.sent('tools/call').find((m) => m.params.name === 'trigger-long-running-operation');
    assert.equal(typeof call.params._meta.progressToken, 'number');
  });

  test('cancellation: the caller rejects at once, the server is told, and the connection stays usable', async () => {
    const ac = new AbortController();
    const call = client.callTool('trigger-long-running-operation', { duration: 5, steps: 5 }, { signal: ac.signal, onProgress: () => {} });
    setTimeout(() => ac.abort('stop it'), 100);
    await assert.rejects(call, (e: unknown) => McpLocalError.is(e, 'cancelled'));
    const cancel = wire.sent('notifications/cancelled').at(-1);
    const request = wire.sent('tools/call').at(-1);
    // At once: the caller was answered before the server's (5 s) operation could answer it.
    assert.ok(!wire.received().some((m) => m.id === request.id), 'rejected before any response to the call');
    assert.deepEqual(cancel.params, { requestId: request.id, reason: 'stop it' });
    assert.ok((await client.ping()) >= 0);
  });

  // Over Streamable HTTP an answer would come on the request's own stream, which the client closes
  // on cancel: only stdio and SSE, where every answer shares one stream, can show one.
  if (kind !== 'streamableHttp') test('a cancelled call is never answered: the server runs the operation to its last step, and a ping after it finds no response to the call', async () => {
    const ac = new AbortController();
    const call = client.callTool('trigger-long-running-operation', { duration: 1.5, steps: 3 }, { signal: ac.signal, onProgress: () => ac.abort('you pressed Cancel in the panel') });
    await assert.rejects(call, (e: unknown) => McpLocalError.is(e, 'cancelled'));
    const request = wire.sent('tools/call').at(-1);
    const token: unknown = request.params._meta.progressToken;
    assert.ok(wire.sent('notifications/cancelled').some((m) => m.params.requestId === request.id), 'the server was told');
    // server-everything goes on with its steps; a response would follow the last one at once. The
    // server answers in order, so one to the call would arrive before the pong.
    await waitFor(() => wire.received('notifications/progress').some((m) => m.params.progressToken === token && m.params.progress === 3), 10_000, 'the last step');
    await client.ping();
    assert.deepEqual(wire.received().filter((m) => m.id === request.id), [], 'no response to the cancelled call');
  });

  test('logging/setLevel is accepted and notifications/message arrive as events', async () => {
    const messages: LogMessage[] = [];
    const sub = client.onLogMessage((m) => messages.push(m));
    await client.setLoggingLevel('debug');
    await client.callTool('toggle-simulated-logging', {});
    const first = await waitFor(() => messages[0], 3000, 'a log message');
    assert.ok(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].includes(first.level));
    await client.callTool('toggle-simulated-logging', {});
    sub.dispose();
  });

  test('statistics count requests, bytes each way and latency', () => {
    const s = client.stats()!;
    assert.ok(s.requestsSent >= 10);
    assert.ok(s.bytesSent > 0 && s.bytesReceived > s.bytesSent);
    assert.ok(s.byMethod['tools/call'].requests >= 6);
    assert.equal(typeof s.latency.p50, 'number');
    if (kind === 'stdio') assert.equal(typeof s.process?.pid, 'number');
    else assert.equal(s.http?.transport, kind === 'sse' ? 'sse' : 'streamable-http');
    assert.ok((s.uptimeMs ?? 0) > 0);
  });

  test('every frame in both directions is valid against the official 2025-11-25 schema', () => {
    assert.ok(wire.frames.length > 20);
    assert.deepEqual(wire.problems('2025-11-25'), []);
  });
});
