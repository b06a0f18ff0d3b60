import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfigText } from '../../src/config/parse';
import type { ConfigSource } from '../../src/config/types';
import { serverDetailsMarkdown, serverEntryJson } from '../../src/inspect/serverInfo';
import { toTarget } from '../../src/extension/inspect/types';
import { EVERYTHING, connectStdio } from '../client/support';

const SOURCE: ConfigSource = { kind: 'vscode-mcp-json', label: '.vscode/mcp.json', file: '/ws/.vscode/mcp.json', workspaceDefined: true };
const CONFIG = `{
  // a comment
  "inputs": [{ "id": "api-key", "type": "promptString", "description": "API key", "password": true }],
  "servers": {
    "api": { "type": "stdio", "command": "node", "args": ["server.js", "--port", "0"], "env": { "API_KEY": "\${input:api-key}", "DROP": null }, "cwd": "\${workspaceFolder}" },
    "remote": { "type": "http", "url": "https://example.com/mcp" }
  }
}`;

describe('server info', () => {
  const { servers, problems } = parseConfigText(CONFIG, SOURCE);

  test('Copy Server Entry: mcpServers format keeps ${input:…} references, never a resolved secret', () => {
    assert.deepEqual(problems.filter((p) => p.severity === 'error'), []);
    const api = servers.find((s) => s.name === 'api')!;
    assert.deepEqual(JSON.parse(serverEntryJson(api, 'mcpServers')), {
      mcpServers: { api: { command: 'node', args: ['server.js', '--port', '0'], env: { API_KEY: '${input:api-key}', DROP: null }, cwd: '${workspaceFolder}' } },
    });
  });

  test('Copy Server Entry: .vscode/mcp.json format carries the input definitions it uses', () => {
    const api = servers.find((s) => s.name === 'api')!;
    const json = JSON.parse(serverEntryJson(api, 'vscode'));
    assert.deepEqual(json.inputs, [{ id: 'api-key', type: 'promptString', description: 'API key', password: true }]);
    assert.equal(json.servers.api.type, 'stdio');
    const remote = servers.find((s) => s.name === 'remote')!;
    assert.deepEqual(JSON.parse(serverEntryJson(remote, 'mcpServers')), { mcpServers: { remote: { type: 'http', url: 'https://example.com/mcp' } } });
  });

  test('Server Details from a real connection: pid, version, command, PATH, cwd, per-method latency, bytes; secrets redacted', async () => {
    const { client } = await connectStdio(process.execPath, EVERYTHING);
    try {
      await client.listTools();
      await client.ping();
      await client.callTool('echo', { message: 'x' });
      const stats = client.stats()!;
      const api = servers.find((s) => s.name === 'api')!;
      const md = serverDetailsMarkdown({
        server: {
          id: api.id,
          entry: api,
          status: { kind: 'running' },
          pid: stats.process?.pid,
          startedAt: Date.now() - 65_000,
          resolved: { command: '/usr/bin/node', args: ['server.js', '--token', 'SECRET123'], env: { PATH: '/usr/bin:/bin', API_KEY: 'SECRET123' }, cwd: '/ws', secretValues: ['SECRET123'], envNames: ['API_KEY'], removedEnvNames: ['DROP'], warnings: [] },
          stderrTail: ['listening | with SECRET123'],
          restarts: 1,
        },
        client,
        stats,
        health: { kind: 'unresponsive', since: Date.now(), failures: 2, error: 'ping: timed out' },
        noise: ['12:00:00 [noise] hello from stdout'],
        redact: (t) => t.replace(/SECRET123/g, '••••'),
        now: Date.now(),
      });
      assert.match(md, new RegExp(`\\| PID \\| ${stats.process?.pid} \\|`));
      assert.match(md, /\| Protocol version \| 2025-11-25 \|/);
      assert.match(md, /\| Uptime \| /);
      assert.match(md, /--token ••••/);
      assert.doesNotMatch(md, /SECRET123/);
      assert.match(md, /\*\*PATH\*\*: `\/usr\/bin:\/bin`/);
      assert.match(md, /\*\*cwd\*\*: `\/ws`/);
      assert.match(md, /\| tools\/call \| 1 \| 0 \| 0 \| 0 \| [\d.]+ ms \| [\d.]+ ms \|/);
      assert.match(md, /\| ping \| 1 \|/);
      assert.match(md, /NOT ANSWERING/);
      assert.match(md, /hello from stdout/);
      assert.match(md, /listening \\?\| with ••••|listening \| with ••••/);
      assert.match(md, /\| Sent \| [\d.]+ (B|KiB) in \d+ messages \|/);
    } finally {
      await client.close();
    }
  });

  test('command arguments: tree nodes and InspectTargets', () => {
    const tool = { name: 'echo', inputSchema: { type: 'object' } };
    assert.deepEqual(toTarget({ kind: 'tool', serverId: 's', tool, index: 0 }), { serverId: 's', kind: 'tool', name: 'echo' });
    assert.deepEqual(toTarget({ kind: 'resource', serverId: 's', resource: { uri: 'demo://a', name: 'a' } }), { serverId: 's', kind: 'resource', uri: 'demo://a', name: 'a' });
    assert.deepEqual(toTarget({ kind: 'resourceTemplate', serverId: 's', template: { uriTemplate: 'demo://{x}', name: 't' } }), { serverId: 's', kind: 'template', uri: 'demo://{x}', name: 't' });
    assert.deepEqual(toTarget({ kind: 'prompt', serverId: 's', prompt: { name: 'p' } }), { serverId: 's', kind: 'prompt', name: 'p' });
    assert.deepEqual(toTarget({ kind: 'server', serverId: 's' }), { serverId: 's', kind: 'server' });
    assert.deepEqual(toTarget({ kind: 'group', serverId: 's', list: 'tools' }), { serverId: 's', kind: 'server' });
    assert.deepEqual(toTarget({ serverId: 's', kind: 'tool', name: 'echo' }), { serverId: 's', kind: 'tool', name: 'echo' });
    assert.deepEqual(toTarget({ serverId: 's', kind: 'template', uri: 'x://{y}' }), { serverId: 's', kind: 'template', uri: 'x://{y}', name: undefined });
    for (const bad of [undefined, null, 'echo', 42, { kind: 'tool' }, { serverId: 5 }, { kind: 'tool', serverId: 's' }]) assert.equal(toTarget(bad), undefined, JSON.stringify(bad));
  });
});
