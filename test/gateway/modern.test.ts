// A server that speaks only protocol 2026-07-28 (SDK 2.x fixture, legacy rejected) reached by the
// official SDK 1.x client (legacy only) through the gateway: initialize answered from
// server/discover, tools listed and called, list_changed and resources/updated bridged from
// subscriptions/listen, input rounds forwarded to a client that declared the capability and
// answered by MCP Host's own handlers for one that did not; two clients never see each other's
// traffic.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { StdioTransport } from '../../src/transport/stdio';
import { WireRecorder, fixture, waitFor } from '../client/support';
import { TestGateway, openGateway, sdkClient } from './support';

type SdkClient = Awaited<ReturnType<typeof sdkClient>>;

function textOf(result: any): string {
  return (result.content as any[]).map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('the SDK 1.x client through the gateway to a modern-only server', () => {
  let upstream: McpClient;
  let wire: WireRecorder;
  let gw: TestGateway;
  /** Declared sampling and elicitation, and answers them. */
  let able: SdkClient;
  /** Declared nothing. */
  let plain: SdkClient;
  const hostAnswered: string[] = [];
  const ableAnswered: string[] = [];
  const plainNotified: string[] = [];
  const ableNotified: string[] = [];

  before(async () => {
    upstream = new McpClient({
      clientInfo: { name: 'mcp-host-tests', version: '0.0.0' },
      capabilities: { sampling: {}, elicitation: { form: {} } },
      handlers: {
        // MCP Host's own dialogs stand here: they answer what a gateway client cannot.
        'elicitation/create': () => (hostAnswered.push('elicitation/create'), { action: 'accept', content: { name: 'Host Dialog' } }),
        'sampling/createMessage': () => (hostAnswered.push('sampling/createMessage'), { role: 'assistant', content: { type: 'text', text: 'from the host' }, model: 'host-model', stopReason: 'endTurn' }),
      },
    });
    wire = new WireRecorder(upstream);
    await upstream.connect(new StdioTransport({ command: process.execPath, args: [fixture('eras.mjs'), '--modern-only'], closeGraceMs: 500, termGraceMs: 500 }));
    assert.equal(upstream.era, 'modern');
    gw = await openGateway({ eras: { name: 'Eras (modern only)', client: upstream } });

    const types = await import('@modelcontextprotocol/sdk/types.js');
    able = await sdkClient(gw.endpoint('eras'), 'able-client', { sampling: {}, elicitation: {} });
    able.setRequestHandler(types.ElicitRequestSchema, async (request) => {
      ableAnswered.push(`elicitation: ${request.params.message}`);
      return { action: 'accept', content: { name: 'Grace' } };
    });
    able.setRequestHandler(types.CreateMessageRequestSchema, async () => {
      ableAnswered.push('sampling');
      return { role: 'assistant', content: { type: 'text', text: 'from the gateway client' }, model: 'client-model', stopReason: 'endTurn' };
    });
    able.setNotificationHandler(types.ToolListChangedNotificationSchema, () => void ableNotified.push('tools/list_changed'));
    able.setNotificationHandler(types.ResourceUpdatedNotificationSchema, (n) => void ableNotified.push(`updated ${n.params.uri}`));
    plain = await sdkClient(gw.endpoint('eras'), 'plain-client');
    plain.setNotificationHandler(types.ToolListChangedNotificationSchema, () => void plainNotified.push('tools/list_changed'));
    plain.setNotificationHandler(types.ResourceUpdatedNotificationSchema, (n) => void plainNotified.push(`updated ${n.params.uri}`));
  });

  after(async () => {
    await able?.close();
    await plain?.close();
    await gw?.close();
    await upstream?.close();
  });

  test('initialize is answered from server/discover: a legacy version, the server named as configured', () => {
    assert.equal(able.getServerVersion()?.name, 'Eras (modern only)');
    assert.equal(able.getServerVersion()?.title, 'eras-modern');
    assert.equal(able.getInstructions(), 'A fixture that speaks both eras.');
    assert.ok(able.getServerCapabilities()?.tools?.listChanged);
    assert.equal(wire.sent('initialize').length, 0, 'the modern server never saw initialize');
  });

  test('tools are listed and called; results carry no modern-only fields', async () => {
    const tools = (await plain.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes('echo') && tools.includes('ask-name'), tools.join());
    const result = await plain.callTool({ name: 'echo', arguments: { text: 'legacy in, modern out' } });
    assert.equal(textOf(result), 'legacy in, modern out');
    assert.equal((result as any).resultType, undefined);
    const sent = wire.sent('tools/call').at(-1);
    assert.equal(sent.params._meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
  });

  test('an elicitation input round is forwarded to the client that declared elicitation', async () => {
    const result = await able.callTool({ name: 'ask-name', arguments: {} });
    assert.match(textOf(result), /elicited: accept .*Grace/);
    assert.equal(ableAnswered.filter((a) => a.startsWith('elicitation')).length, 1);
    assert.deepEqual(hostAnswered, []);
  });

  test('a sampling input round is forwarded too', async () => {
    const result = await able.callTool({ name: 'ask-sample', arguments: {} });
    assert.equal(textOf(result), 'sampled: from the gateway client');
    assert.ok(ableAnswered.includes('sampling'));
    assert.deepEqual(hostAnswered, []);
  });

  test('a client that declared neither gets MCP Host\'s own answers, and the other client sees nothing of it', async () => {
    const before = ableAnswered.length;
    const result = await plain.callTool({ name: 'ask-name', arguments: {} });
    assert.match(textOf(result), /elicited: accept .*Host Dialog/);
    assert.deepEqual(hostAnswered, ['elicitation/create']);
    assert.equal(ableAnswered.length, before, 'the able client was not asked');
  });

  test('list_changed reaches both clients when the server adds a tool', async () => {
    await plain.callTool({ name: 'add-tool', arguments: {} });
    await waitFor(() => ableNotified.includes('tools/list_changed') && plainNotified.includes('tools/list_changed'), 5000, 'tools/list_changed at both clients');
    assert.ok((await able.listTools()).tools.some((t) => t.name === 'extra'));
  });

  test('resources/updated reaches the client that subscribed, only it', async () => {
    await able.subscribeResource({ uri: 'eras://hello' });
    await plain.callTool({ name: 'touch', arguments: { uri: 'eras://hello' } });
    await waitFor(() => ableNotified.includes('updated eras://hello'), 5000, 'resources/updated at the subscriber');
    assert.ok(!plainNotified.some((n) => n.startsWith('updated')), 'the other client was not told');
    await able.unsubscribeResource({ uri: 'eras://hello' });
  });

  test('the two clients\' frames never cross: each session only carries its own client\'s requests', () => {
    const bySession = new Map<string, Set<string>>();
    for (const f of gw.frames) {
      if (!bySession.has(f.sessionId)) bySession.set(f.sessionId, new Set());
      bySession.get(f.sessionId)!.add(f.clientName);
    }
    assert.equal(bySession.size, 2);
    for (const names of bySession.values()) assert.equal(names.size, 1);
    const forwarded = gw.frames.filter((f) => f.direction === 'to-client' && ['elicitation/create', 'sampling/createMessage'].includes((f.message as any).method));
    assert.equal(forwarded.length, 2);
    assert.ok(forwarded.every((f) => f.clientName === 'able-client'));
  });
});
