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

  test('an oddly indented, commented file: the bytes before the new entry stay, the comment stays on its line', () => {
    const head = '{\n   /* team servers */\n   "servers": {\n\t "notes":   {"command": "node",\n        "args": ["notes.js"]}';
    const tail = ' // keep: notes first\n   },\n   "inputs": [ {"type": "promptString", "id": "other"} ] // one input\n}\n';
    const before = head + tail;
    const after = addPlannedEntry(before, 'vscode-mcp-json', PLAN);
    assert.ok(after.startsWith(head + ', // keep: notes first\n'), after);
    const added = after.slice(head.length + ', // keep: notes first\n'.length);
    assert.match(added, /^\t "brave-search": \{\n\t {4}"type": "stdio",/, 'indented like the entry before it, in the file\'s unit (3 spaces)');
    assert.match(after, /"inputs": \[ \{"type": "promptString", "id": "other"\}, \{"type":"promptString","id":"brave-search-BRAVE_API_KEY"/, 'the one-line inputs array gets the input on its line');
    assert.match(after, /\] \/\/ one input\n\}\n$/);
    const value = parse(after) as { servers: Record<string, unknown>; inputs: { id: string }[] };
    assert.deepEqual(Object.keys(value.servers), ['notes', 'brave-search']);
    assert.deepEqual(value.servers['brave-search'], PLAN.entry);
    assert.deepEqual(value.inputs.map((i) => i.id), ['other', 'brave-search-BRAVE_API_KEY']);
    // An update rewrites the entry's value only: what is around it stays byte for byte.
    const updated = addPlannedEntry(after, 'vscode-mcp-json', { ...PLAN, entry: { ...PLAN.entry, args: ['-y', '@modelcontextprotocol/server-brave-search@1.0.3'] } }, { replace: true });
    const start = after.indexOf('"brave-search": ') + '"brave-search": '.length;
    assert.equal(updated.slice(0, start), after.slice(0, start));
    assert.ok(updated.endsWith(after.slice(after.indexOf('\n   },\n   "inputs"'))));
    assert.match(updated, /server-brave-search@1\.0\.3/);
  });

  test('a trailing comma after the last entry is kept, not doubled; a one-line object gets the entry on its line', () => {
    const before = '{\n  "servers": {\n    "a": { "command": "x" }, // trailing\n  }\n}\n';
    const after = addPlannedEntry(before, 'vscode-mcp-json', { ...PLAN, key: 'b', inputs: [] });
    assert.ok(after.startsWith('{\n  "servers": {\n    "a": { "command": "x" }, // trailing\n    "b": {\n'), after);
    assert.deepEqual(Object.keys((parse(after) as { servers: object }).servers), ['a', 'b']);
    const oneLine = '{ "mcpServers": { "a": { "command": "x" } } } // mine\n';
    const inline = addPlannedEntry(oneLine, 'dot-mcp-json', { ...PLAN, key: 'b', inputs: [] });
    assert.ok(inline.startsWith('{ "mcpServers": { "a": { "command": "x" }, "b": {"type":"stdio"'), inline);
    assert.ok(inline.endsWith(' } } // mine\n'), inline);
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
