// "Off for models" through the gateway: a tool the user switched off for language models is not
// in the tools/list a gateway client (VS Code's chat) gets, and a call of it is refused before it
// reaches the server; switched back on, it is listed and runs. The official SDK client, the
// gateway and server-everything over stdio, all real.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { StdioTransport } from '../../src/transport/stdio';
import { EVERYTHING, WireRecorder } from '../client/support';
import { TestGateway, openGateway, sdkClient } from './support';

describe('a tool switched off for models, through the gateway', () => {
  let upstream: McpClient;
  let wire: WireRecorder;
  let gw: TestGateway;
  let client: Awaited<ReturnType<typeof sdkClient>>;
  const hidden = new Set<string>(['echo']);

  before(async () => {
    upstream = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    wire = new WireRecorder(upstream);
    await upstream.connect(new StdioTransport({ command: process.execPath, args: EVERYTHING, closeGraceMs: 500, termGraceMs: 500 }));
    gw = await openGateway({ everything: { name: 'everything', client: upstream } }, { toolHidden: (key, tool) => key === 'everything' && hidden.has(tool) });
    client = await sdkClient(gw.endpoint('everything'), 'Visual Studio Code');
  });

  after(async () => {
    await client?.close();
    await gw?.close();
    await upstream?.close();
  });

  test('is not listed and cannot be called; back on, it is both', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes('echo'), `echo is not listed: ${names.join(', ')}`);
    assert.ok(names.includes('get-sum'), 'the other tools are');
    const sent = wire.sent('tools/call').length;
    await assert.rejects(client.callTool({ name: 'echo', arguments: { message: 'hi' } }), /echo is switched off for language models/);
    assert.equal(wire.sent('tools/call').length, sent, 'nothing reached the server');
    hidden.delete('echo');
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'echo'));
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'Echo: hi' }]);
  });
});
