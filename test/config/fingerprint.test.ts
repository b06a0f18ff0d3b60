import { after, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalJson } from '../../src/config/fingerprint';
import { loadConfigFile } from '../../src/config/load';
import { parseConfigText, parseSettingsValue } from '../../src/config/parse';
import { folderSources, settingsSource } from '../../src/config/sources';

const [MCP_JSON] = folderSources({ name: 'api', fsPath: '/work/api' });

function fingerprints(text: string): Record<string, string> {
  const loaded = parseConfigText(text, MCP_JSON);
  assert.deepEqual(loaded.problems.filter((p) => p.severity === 'error'), []);
  return Object.fromEntries(loaded.servers.map((s) => [s.name, s.fingerprint]));
}

suite('fingerprint', () => {
  const original = `{
  "inputs": [
    { "id": "key", "type": "promptString", "password": true },
    { "id": "other", "type": "promptString" }
  ],
  "servers": {
    "a": { "command": "node", "args": ["a.js"], "env": { "K": "\${input:key}" } },
    "b": { "command": "node", "args": ["b.js"] }
  }
}`;
  const base = fingerprints(original);

  test('is the same for the same text and differs between entries', () => {
    assert.deepEqual(fingerprints(original), base);
    assert.notEqual(base.a, base.b);
    assert.match(base.a, /^[0-9a-f]{32}$/);
  });

  test('ignores whitespace, comments, key order, entry order and edits to other entries', () => {
    const reshuffled = `// rewritten
{ "servers": { "b": { "args": ["b.js", "--verbose"], "command": "node" },
  /* moved */ "a": {"env":{"K":"\${input:key}"},"args":["a.js"],"command":"node",} },
  "inputs": [ { "type": "promptString", "id": "other", "description": "changed" },
              { "password": true, "type": "promptString", "id": "key" } ] }`;
    const after = fingerprints(reshuffled);
    assert.equal(after.a, base.a);
    assert.notEqual(after.b, base.b, 'b itself changed');
  });

  test('changes when the entry changes, or an input it references changes', () => {
    assert.notEqual(fingerprints(original.replace('"a.js"', '"a2.js"')).a, base.a);
    assert.notEqual(fingerprints(original.replace('"K"', '"K2"')).a, base.a);
    const inputChanged = fingerprints(original.replace('"password": true', '"password": false'));
    assert.notEqual(inputChanged.a, base.a);
    assert.equal(inputChanged.b, base.b);
  });

  test('canonical JSON sorts keys at every level and keeps array order', () => {
    assert.equal(canonicalJson({ b: [2, { y: 1, x: null }], a: 'é' }), '{"a":"é","b":[2,{"x":null,"y":1}]}');
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
  });

  test('settings values and file entries with the same definition agree', () => {
    const fromSettings = parseSettingsValue({ b: { command: 'node', args: ['b.js'] } }, settingsSource('user')).servers[0];
    assert.equal(fromSettings.fingerprint, base.b);
  });
});

suite('loadConfigFile', () => {
  let tmp: string;
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-load-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('multi-root: each folder has its own two files; a missing file is empty, not a problem', async () => {
    const one = { name: 'one', fsPath: path.join(tmp, 'one') };
    const two = { name: 'two', fsPath: path.join(tmp, 'two') };
    await fs.mkdir(path.join(one.fsPath, '.vscode'), { recursive: true });
    await fs.mkdir(two.fsPath, { recursive: true });
    await fs.writeFile(path.join(one.fsPath, '.vscode', 'mcp.json'), '\uFEFF{ "servers": { "git": { "command": "uvx" } } }');
    await fs.writeFile(path.join(two.fsPath, '.mcp.json'), '{ "mcpServers": { "git": { "command": "uvx" } } }');
    const results = await Promise.all([...folderSources(one), ...folderSources(two)].map(loadConfigFile));
    assert.deepEqual(
      results.map((r) => [r.exists, r.servers.map((s) => s.id)]),
      [
        [true, [`vscode-mcp-json:${path.join(one.fsPath, '.vscode', 'mcp.json')}::git`]],
        [false, []],
        [false, []],
        [true, [`dot-mcp-json:${path.join(two.fsPath, '.mcp.json')}::git`]],
      ],
    );
    assert.ok(results.every((r) => r.problems.length === 0 && !r.hasSyntaxError));
    assert.equal(results[0].servers[0].source.label, '.vscode/mcp.json (one)');
  });

  test('a file with a syntax error says so; a directory in its place is a problem, not a throw', async () => {
    const f = { name: 'f', fsPath: path.join(tmp, 'f') };
    await fs.mkdir(path.join(f.fsPath, '.mcp.json'), { recursive: true });
    await fs.mkdir(path.join(f.fsPath, '.vscode'), { recursive: true });
    await fs.writeFile(path.join(f.fsPath, '.vscode', 'mcp.json'), '{ "servers": { ');
    const [broken, dir] = await Promise.all(folderSources(f).map(loadConfigFile));
    assert.equal(broken.hasSyntaxError, true);
    assert.deepEqual(broken.servers, []);
    assert.equal(dir.problems.length, 1);
    assert.match(dir.problems[0].message, /cannot read .*\.mcp\.json: EISDIR/);
  });
});
