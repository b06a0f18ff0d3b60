// The official SDK 1.x client through the gateway to server-everything (stdio and Streamable
// HTTP upstream) gets what the same client gets directly: the same lists and results, progress
// under its own token, cancellation that reaches the server; and every relayed frame is marked
// with the client's name for the server's trace.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { StdioTransport } from '../../src/transport/stdio';
import { EVERYTHING, WireRecorder, waitFor } from '../client/support';
import { HttpPeer, startEverything } from '../transport/httpPeers';
import { TestGateway, openGateway, sdkClient, sdkHttpClient, sdkStdioClient } from './support';

type SdkClient = Awaited<ReturnType<typeof sdkClient>>;

for (const kind of ['stdio', 'streamableHttp'] as const) {
  describe(`the SDK client through the gateway to server-everything over ${kind}`, () => {
    let peer: HttpPeer | undefined;
    let upstream: McpClient;
    let wire: WireRecorder;
    let gw: TestGateway;
    let viaGateway: SdkClient;
    let direct: SdkClient;

    before(async () => {
      upstream = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
      wire = new WireRecorder(upstream);
      if (kind === 'stdio') {
        await upstream.connect(new StdioTransport({ command: process.execPath, args: EVERYTHING, closeGraceMs: 500, termGraceMs: 500 }));
        direct = await sdkStdioClient(process.execPath, EVERYTHING);
      } else {
        peer = await startEverything('streamableHttp');
        await upstream.connect(createHttpTransport({ url: peer.url, mode: 'http' }));
        direct = await sdkHttpClient(peer.url);
      }
      gw = await openGateway({ everything: { name: 'Everything (shared)', client: upstream } });
      viaGateway = await sdkClient(gw.endpoint('everything'), 'Gateway Test Client');
    });

    after(async () => {
      await viaGateway?.close();
      await direct?.close();
      await gw?.close();
      await upstream?.close();
      await peer?.close();
    });

    test('initialize names the server as configured and passes its capabilities', () => {
      assert.equal(viaGateway.getServerVersion()?.name, 'Everything (shared)');
      assert.match(String(viaGateway.getServerVersion()?.title), /everything/i);
      const caps = viaGateway.getServerCapabilities()!;
      assert.deepEqual(caps.tools, direct.getServerCapabilities()!.tools);
      assert.deepEqual(caps.prompts, direct.getServerCapabilities()!.prompts);
      assert.ok(caps.logging, 'logging is declared: the gateway answers setLevel per client');
    });

    test('tools, resources, templates and prompts are the same lists as a direct connection', async () => {
      assert.deepEqual((await viaGateway.listTools()).tools, (await direct.listTools()).tools);
      assert.deepEqual((await viaGateway.listResources()).resources, (await direct.listResources()).resources);
      assert.deepEqual((await viaGateway.listResourceTemplates()).resourceTemplates, (await direct.listResourceTemplates()).resourceTemplates);
      assert.deepEqual((await viaGateway.listPrompts()).prompts, (await direct.listPrompts()).prompts);
    });

    test('calls, reads and prompts give the same results, errors included', async () => {
      const echo = { name: 'echo', arguments: { message: 'through the gateway' } };
      assert.deepEqual(await viaGateway.callTool(echo), await direct.callTool(echo));
      const sum = { name: 'get-sum', arguments: { a: 2, b: 40 } };
      assert.deepEqual(await viaGateway.callTool(sum), await direct.callTool(sum));
      const [first] = (await direct.listResources()).resources;
      assert.deepEqual(await viaGateway.readResource({ uri: first.uri }), await direct.readResource({ uri: first.uri }));
      const [prompt] = (await direct.listPrompts()).prompts.filter((p) => !p.arguments?.some((a) => a.required));
      assert.deepEqual(await viaGateway.getPrompt({ name: prompt.name }), await direct.getPrompt({ name: prompt.name }));
      const unknown = await viaGateway.callTool({ name: 'no-such-tool', arguments: {} }).then(
        (r) => ({ result: r }),
        (e: Error) => ({ error: e.message }),
      );
      const unknownDirect = await direct.callTool({ name: 'no-such-tool', arguments: {} }).then(
        (r) => ({ result: r }),
        (e: Error) => ({ error: e.message }),
      );
      assert.deepEqual(unknown, unknownDirect, 'an unknown tool fails the same way');
    });

    test('progress reaches the gateway client under its own token', async () => {
      const seen: number[] = [];
      const result = await viaGateway.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } }, undefined, { onprogress: (p) => seen.push(p.progress) });
      assert.deepEqual(seen, [1, 2, 3]);
      assert.match(JSON.stringify(result.content), /completed/i);
      const upstreamCall = wire.sent('tools/call').at(-1);
      const relayed = gw.frames.filter((f) => f.direction === 'from-client' && (f.message as any).method === 'tools/call').at(-1)!;
      const clientToken = (relayed.message as any).params._meta.progressToken;
      assert.notEqual(upstreamCall.params._meta.progressToken, undefined);
      const progressOut = gw.frames.filter((f) => f.direction === 'to-client' && (f.message as any).method === 'notifications/progress');
      assert.ok(progressOut.length >= 3);
      for (const f of progressOut.slice(-3)) assert.equal((f.message as any).params.progressToken, clientToken);
    });

    test('cancellation by the gateway client reaches the server, and the session stays usable', async () => {
      const ac = new AbortController();
      const call = viaGateway.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 5, steps: 5 } }, undefined, { signal: ac.signal, onprogress: () => {} });
      const before = wire.sent('notifications/cancelled').length;
      await waitFor(() => wire.sent('tools/call').at(-1)?.params?.arguments?.duration === 5, 5000, 'the call to reach the server');
      ac.abort('stop it');
      await assert.rejects(call);
      const cancel = await waitFor(() => wire.sent('notifications/cancelled')[before], 5000, 'notifications/cancelled upstream');
      assert.equal(cancel.params.requestId, wire.sent('tools/call').at(-1).id);
      assert.deepEqual(await viaGateway.ping(), {});
      assert.ok((await viaGateway.listTools()).tools.length > 0);
    });

    test('every relayed frame is marked with the gateway client name', () => {
      assert.ok(gw.frames.length > 10);
      for (const f of gw.frames) {
        assert.equal(f.clientName, 'Gateway Test Client');
        assert.equal(f.serverKey, 'everything');
      }
    });
  });
}
