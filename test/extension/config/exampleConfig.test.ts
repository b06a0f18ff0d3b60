import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { folderSources, parseConfigText } from '../../../src/config';
import { EXAMPLE_MCP_JSON } from '../../../src/extension/config/exampleConfig';

describe('the example .vscode/mcp.json', () => {
  test('loads without a problem: one stdio server, everything via npx', () => {
    const [source] = folderSources({ name: 'w', fsPath: '/w' });
    const loaded = parseConfigText(EXAMPLE_MCP_JSON, source);
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.servers.length, 1);
    const [server] = loaded.servers;
    assert.equal(server.name, 'everything');
    assert.deepEqual(server.config, { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'], env: {} });
  });
});
