// A legacy server's own requests during a relayed call (sampling, elicitation, roots) go to the
// gateway client that made the call when it declared the capability, and to MCP Host's handlers
// (its dialogs and policies) when it did not. Real peers: server-everything over stdio and over
// Streamable HTTP (there the request comes on the call's own response stream), the SDK 2.x eras
// fixture pinned to the legacy era, and the official SDK 1.x client through the gateway.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { Transport } from '../../src/protocol/transport';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { StdioTransport } from '../../src/transport/stdio';
import { EVERYTHING, WireRecorder, fixture, waitFor } from '../client/support';
import { HttpPeer, startEverything } from '../transport/httpPeers';
import { TestGateway, openGateway, sdkClient } from './support';

type SdkClient = Awaited<ReturnType<typeof sdkClient>>;

function textOf(result: any): string {
  return (result.content as any[]).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

const UPSTREAMS: Record<string, { start(): Promise<{ transport: Transport; peer?: HttpPeer }>; protocol?: 'legacy' }> = {
  'server-everything over stdio': { start: async () => ({ transport: new StdioTransport({ command: process.execPath, args: EVERYTHING, closeGraceMs: 500, termGraceMs: 500 }) }) },
  'server-everything over Streamable HTTP': {
    start: async () => {
      const peer = await startEverything('streamableHttp');
      return { peer, transport: createHttpTransport({ url: peer.url, mode: 'http' }) };
    },
  },
  'the eras fixture in the legacy era': { start: async () => ({ transport: new StdioTransport({ command: process.execPath, args: [fixture('eras.mjs')], closeGraceMs: 500, termGraceMs: 500 }) }), protocol: 'legacy' },
};

for (const [label, upstreamKind] of Object.entries(UPSTREAMS)) {
  const everything = label.startsWith('server-everything');
  describe(`a legacy server's own requests through the gateway: ${label}`, () => {
    let peer: HttpPeer | undefined;
    let upstream: McpClient;
    let wire: WireRecorder;
    let gw: TestGateway;
    let able: SdkClient;
    let plain: SdkClient;
    const hostAnswered: string[] = [];
    const ableAnswered: string[] = [];

    before(async () => {
      upstream = new McpClient({
        clientInfo: { name: 'mcp-host-tests', version: '0.0.0' },
        ...(upstreamKind.protocol ? { protocol: upstreamKind.protocol } : {}),
        capabilities: { sampling: {}, elicitation: { form: {} } },
        roots: { listRoots: () => [{ uri: 'file:///host-root', name: 'host' }] },
        handlers: {
          // MCP Host's own dialogs and policies stand here.
          'elicitation/create': () => (hostAnswered.push('elicitation/create'), { action: 'accept', content: { name: 'Host Dialog' } }),
          'sampling/createMessage': () => (hostAnswered.push('sampling/createMessage'), { role: 'assistant', content: { type: 'text', text: 'from the host' }, model: 'host-model', stopReason: 'endTurn' }),
        },
      });
      wire = new WireRecorder(upstream);
      const started = await upstreamKind.start();
      peer = started.peer;
      await upstream.connect(started.transport);
      assert.equal(upstream.era, 'legacy');
      // server-everything asks for roots on its own 350 ms after initialization. On stdio a request
      // cannot be told apart from one a call caused, so it is answered before any call starts (it
      // came in the first call of a fast run, and went to that call's client).
      if (label === 'server-everything over stdio') {
        const asked = await waitFor(() => wire.received('roots/list')[0], 10_000, "server-everything's own roots/list");
        await waitFor(() => wire.sent().some((m) => m.id === asked.id && m.result), 5000, 'the answer to it');
      }
      gw = await openGateway({ server: { name: 'Shared', client: upstream } });

      const types = await import('@modelcontextprotocol/sdk/types.js');
      able = await sdkClient(gw.endpoint('server'), 'able-client', { sampling: {}, elicitation: {}, roots: {} });
      able.setRequestHandler(types.ElicitRequestSchema, async () => (ableAnswered.push('elicitation'), { action: 'accept', content: { name: 'Grace' } }));
      able.setRequestHandler(types.CreateMessageRequestSchema, async () => (ableAnswered.push('sampling'), { role: 'assistant', content: { type: 'text', text: 'from the gateway client' }, model: 'client-model', stopReason: 'endTurn' }));
      able.setRequestHandler(types.ListRootsRequestSchema, async () => (ableAnswered.push('roots'), { roots: [{ uri: 'file:///client-root', name: 'client' }] }));
      plain = await sdkClient(gw.endpoint('server'), 'plain-client');
    });

    after(async () => {
      await able?.close();
      await plain?.close();
      await gw?.close();
      await upstream?.close();
      await peer?.close();
    });

    const samplingCall = everything ? { name: 'trigger-sampling-request', arguments: { prompt: 'Say hi', maxTokens: 20 } } : { name: 'ask-sample', arguments: {} };
    const elicitationCall = everything ? { name: 'trigger-elicitation-request', arguments: {} } : { name: 'ask-name', arguments: {} };

    test('sampling during the call goes to the client that declared it, not to MCP Host', async () => {
      const result = await able.callTool(samplingCall);
      assert.match(textOf(result), /from the gateway client/);
      assert.deepEqual(ableAnswered, ['sampling']);
      assert.deepEqual(hostAnswered, []);
      // It reached the client as an ordinary server-to-client request, marked from the gateway in the trace.
      const forwarded = gw.frames.filter((f) => f.direction === 'to-client' && (f.message as any).method === 'sampling/createMessage');
      assert.equal(forwarded.length, 1);
      assert.equal(forwarded[0].clientName, 'able-client');
      // Upstream, MCP Host answered the server's own request with the client's answer.
      const request = wire.received('sampling/createMessage').at(-1);
      const answer = wire.sent().find((m) => m.id === request.id && m.result);
      assert.equal(answer.result.content.text, 'from the gateway client');
    });

    test('elicitation during the call goes to the client that declared it', async () => {
      const result = await able.callTool(elicitationCall);
      assert.match(textOf(result), /Grace/);
      assert.deepEqual(ableAnswered, ['sampling', 'elicitation']);
      assert.deepEqual(hostAnswered, []);
    });

    test('a client that declared neither gets MCP Host\'s answers, and the other client is not asked', async () => {
      const sampled = await plain.callTool(samplingCall);
      assert.match(textOf(sampled), /from the host/);
      const elicited = await plain.callTool(elicitationCall);
      assert.match(textOf(elicited), /Host Dialog/);
      assert.deepEqual(hostAnswered, ['sampling/createMessage', 'elicitation/create']);
      assert.deepEqual(ableAnswered, ['sampling', 'elicitation'], 'the able client was not asked');
    });

    if (!everything) {
      test('roots/list during the call goes to the client that declared roots', async () => {
        const result = await able.callTool({ name: 'ask-roots', arguments: {} });
        assert.equal(textOf(result), 'roots: file:///client-root');
        const fromPlain = await plain.callTool({ name: 'ask-roots', arguments: {} });
        assert.equal(textOf(fromPlain), 'roots: file:///host-root');
      });
    }

    test('calls of two clients at once: each server request reaches MCP Host (neither client can be told apart on stdio) or the right client', async () => {
      const before = { host: hostAnswered.length, able: ableAnswered.length };
      const [a, p] = await Promise.all([able.callTool(samplingCall), plain.callTool(samplingCall)]);
      // Never the wrong client: the plain client's call is never answered by the able one.
      assert.doesNotMatch(textOf(p), /from the gateway client/);
      // Over Streamable HTTP the request comes on the call's own stream, so it is never in doubt.
      assert.match(textOf(a), label.includes('HTTP') ? /from the gateway client/ : /from the gateway client|from the host/);
      assert.equal(hostAnswered.length - before.host + ableAnswered.length - before.able, 2);
    });
  });
}
