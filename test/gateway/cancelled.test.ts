// A request its client cancelled (notifications/cancelled) gets no answer from the gateway, as the
// spec says: its response stream ends with nothing in it, and the cancellation reaches the server.
// Raw HTTP as the client (what it receives is what is asserted); server-everything upstream.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { StdioTransport } from '../../src/transport/stdio';
import { EVERYTHING, WireRecorder, waitFor } from '../client/support';
import { TestGateway, openGateway, send } from './support';

describe('a request the gateway client cancelled', () => {
  let upstream: McpClient;
  let wire: WireRecorder;
  let gw: TestGateway;

  before(async () => {
    upstream = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    wire = new WireRecorder(upstream);
    await upstream.connect(new StdioTransport({ command: process.execPath, args: EVERYTHING, closeGraceMs: 500, termGraceMs: 500 }));
    gw = await openGateway({ everything: { name: 'Everything', client: upstream } });
  });

  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  test('is not answered, and the server is told', async () => {
    const url = gw.endpoint('everything').url;
    const init = await send(url, { headers: { ...gw.gateway.headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'canceller', version: '1' } } }) });
    const headers = { ...gw.gateway.headers, 'mcp-session-id': String(init.headers['mcp-session-id']) };
    const calls = wire.sent('tools/call').length;
    const call = send(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 3, steps: 3 } } }) });
    const relayed = await waitFor(() => wire.sent('tools/call')[calls], 5000, 'the relayed call');
    const cancel = await send(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'changed my mind' } }) });
    assert.equal(cancel.status, 202);
    const answer = await call;
    assert.equal(answer.status, 200);
    assert.ok(!/"id":\s*7/.test(answer.body) && !/"result"|"error"/.test(answer.body), `the cancelled request was answered: ${answer.body}`);
    await waitFor(() => wire.sent('notifications/cancelled').find((m) => m.params.requestId === relayed.id), 5000, 'the cancellation upstream');
  });
});
