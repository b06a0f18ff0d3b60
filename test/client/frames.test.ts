import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient } from '../../src/client';
import type { Frame } from '../../src/protocol/connection';
import { MemoryTransport } from '../protocol/memoryTransport';

/** A client connected to a MemoryTransport that answers initialize and ping (the legacy era, pinned by the caller). */
async function connected(client: McpClient): Promise<MemoryTransport> {
  const transport = new MemoryTransport();
  const connecting = client.connect(transport);
  const init = await transport.next((m) => m.method === 'initialize');
  transport.deliver({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } });
  await connecting;
  return transport;
}

async function ping(client: McpClient, transport: MemoryTransport): Promise<void> {
  const before = transport.sent.length;
  const answered = client.ping();
  const sent = await transport.next((m) => m.method === 'ping' && transport.sent.indexOf(m) >= before);
  transport.deliver({ jsonrpc: '2.0', id: sent.id, result: {} });
  await answered;
}

/** Whether the connection under `client` has anyone listening for frames (what decides if it builds them). */
function connectionBuildsFrames(client: McpClient): boolean {
  return (client as unknown as { connection: { _onFrame: { hasListeners: boolean } } }).connection._onFrame.hasListeners;
}

describe('frames cost nothing while nobody listens', () => {
  test('the connection builds frames only while the client has a frame listener', async () => {
    const client = new McpClient({ clientInfo: { name: 't', version: '0' }, protocol: 'legacy' });
    const transport = await connected(client);
    try {
      assert.equal(connectionBuildsFrames(client), false, 'nobody listens: no frames');
      const frames: Frame[] = [];
      const listening = client.onFrame((f) => frames.push(f));
      assert.equal(connectionBuildsFrames(client), true);
      await ping(client, transport);
      assert.deepEqual(frames.map((f) => [f.direction, (f.message as { method?: string }).method ?? 'result']), [['send', 'ping'], ['receive', 'result']]);
      listening.dispose();
      assert.equal(connectionBuildsFrames(client), false, 'the last listener left');
      await ping(client, transport);
      assert.equal(frames.length, 2, 'no frames after unsubscribing');
    } finally {
      await client.close();
    }
  });

  test('a listener added before connect sees the handshake', async () => {
    const client = new McpClient({ clientInfo: { name: 't', version: '0' }, protocol: 'legacy' });
    const methods: string[] = [];
    client.onFrame((f) => methods.push(`${f.direction} ${(f.message as { method?: string }).method ?? 'result'}`));
    await connected(client);
    await client.close();
    assert.deepEqual(methods.slice(0, 3), ['send initialize', 'receive result', 'send notifications/initialized']);
  });
});
