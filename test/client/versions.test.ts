import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient, McpLocalError, SUPPORTED_PROTOCOL_VERSIONS } from '../../src/client';
import { StdioTransport } from '../../src/transport/stdio';
import { MemoryTransport } from '../protocol/memoryTransport';
import { connectStdio, fixture } from './support';

describe('protocol version negotiation with SDK-based fixture servers', () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    test(`a server that answers ${version} is used at ${version}`, async () => {
      const { client, wire } = await connectStdio(process.execPath, [fixture('versioned.mjs'), '--version', version]);
      try {
        assert.equal(client.protocolVersion, version);
        assert.equal(wire.sent('initialize')[0].params.protocolVersion, '2025-11-25', 'the client offers its newest version');
        const r = await client.callTool('whoami', {});
        assert.match(JSON.stringify(r.content), new RegExp(`version ${version}`));
        assert.equal(wire.sent('notifications/initialized').length, 1);
        // Every frame is valid against that version's official schema.
        assert.deepEqual(wire.problems(version), []);
      } finally {
        await client.close();
      }
    });
  }

  test('an offered older version is what the client sends', async () => {
    const { client, wire } = await connectStdio(process.execPath, [fixture('versioned.mjs'), '--version', '2025-03-26'], { protocolVersion: '2025-03-26' });
    await client.close();
    assert.equal(wire.sent('initialize')[0].params.protocolVersion, '2025-03-26');
  });

  test('the transport learns the negotiated version before the initialized notification', async () => {
    const transport = new MemoryTransport();
    const client = new McpClient({ clientInfo: { name: 't', version: '0' }, protocol: 'legacy' });
    const connected = client.connect(transport);
    const init = await transport.next((m) => m.method === 'initialize');
    assert.equal(transport.protocolVersion, undefined, 'not known before the answer');
    transport.deliver({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } } });
    let versionAtInitialized: string | undefined;
    await transport.next((m) => {
      if (m.method === 'notifications/initialized') versionAtInitialized = transport.protocolVersion;
      return m.method === 'notifications/initialized';
    });
    await connected;
    assert.equal(versionAtInitialized, '2025-06-18');
    await client.close();
  });

  test('a server answering an unsupported version is disconnected with an error naming both versions', async () => {
    const client = new McpClient({ clientInfo: { name: 't', version: '0' } });
    const sent: any[] = [];
    client.onFrame((f) => f.direction === 'send' && sent.push(f.message));
    const transport = new StdioTransport({ command: process.execPath, args: [fixture('versioned.mjs'), '--version', '1999-01-01'], closeGraceMs: 300, termGraceMs: 300 });
    await assert.rejects(client.connect(transport), (e: unknown) => McpLocalError.is(e, 'version') && /1999-01-01/.test(e.message) && /2025-11-25/.test(e.message));
    assert.equal(client.state.kind, 'closed');
    assert.equal(sent.filter((m) => m.method === 'notifications/initialized').length, 0, 'no initialized notification');
    const pid = transport.stats().process?.pid!;
    assert.throws(() => process.kill(pid, 0), 'the server process was stopped');
  });
});
