// Writing a planned entry into config text: comments survive, inputs are added once, a taken
// name or a file that does not parse is an error and nothing changes.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { addPlannedEntry } from '../../src/gallery/configWrite';
import { InstallPlan } from '../../src/gallery/installPlan';

const PLAN: InstallPlan = {
  key: 'brave-search',
  entry: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-brave-search@1.0.2'], env: { BRAVE_API_KEY: '${input:brave-search-BRAVE_API_KEY}' } },
  inputs: [{ type: 'promptString', id: 'brave-search-BRAVE_API_KEY', description: 'Brave Search API Key', password: true }],
  environment: [],
  warnings: [],
  source: { name: 'io.modelcontextprotocol.anonymous/brave-search', version: '1.0.2' },
};

suite('gallery: writing the entry', () => {
  test('into an existing .vscode/mcp.json: comments and other entries survive, the input is appended', () => {
    const before = '{\n  // my servers\n  "servers": {\n    "notes": { "command": "node", "args": ["notes.js"] } // keep\n  },\n  "inputs": [\n    { "type": "promptString", "id": "other", "description": "x" }\n  ]\n}\n';
    const after = addPlannedEntry(before, 'vscode-mcp-json', PLAN);
    assert.match(after, /\/\/ my servers/);
    assert.match(after, /\/\/ keep/);
    const value = parse(after) as { servers: Record<string, unknown>; inputs: { id: string }[] };
    assert.deepEqual(Object.keys(value.servers), ['notes', 'brave-search']);
    assert.deepEqual(value.servers['brave-search'], PLAN.entry);
    assert.deepEqual(value.inputs.map((i) => i.id), ['other', 'brave-search-BRAVE_API_KEY']);
    // Written twice under another name: the input is defined once.
    const again = parse(addPlannedEntry(after, 'vscode-mcp-json', { ...PLAN, key: 'brave-2' })) as { inputs: unknown[] };
    assert.equal(again.inputs.length, 2);
  });

  test('a new .mcp.json gets mcpServers and no inputs', () => {
    const value = parse(addPlannedEntry('', 'dot-mcp-json', PLAN)) as Record<string, unknown>;
    assert.deepEqual(value, { mcpServers: { 'brave-search': PLAN.entry } });
  });

  test('a taken name, or a file that does not parse: an error, nothing returned to write', () => {
    const taken = '{ "servers": { "brave-search": { "command": "mine" } } }';
    assert.throws(() => addPlannedEntry(taken, 'vscode-mcp-json', PLAN), /a server named "brave-search" is already configured/);
    assert.throws(() => addPlannedEntry('{ "servers": { ', 'vscode-mcp-json', PLAN), /does not parse .* nothing was written/);
  });
});
