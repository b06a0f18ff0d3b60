import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { suite, test } from 'node:test';
import { loadConfigFile } from '../../src/config/load';
import { MAX_NESTING, parseSettingsValue } from '../../src/config/parse';
import { folderSources, settingsSource } from '../../src/config/sources';

/** `{"servers":{"deep":{"command":"x","args":[[[…]]]}}}` with `depth` nested arrays: about 2 bytes a level. */
function deepConfig(depth: number): string {
  return `{"servers":{"deep":{"command":"x","args":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;
}

suite('loadConfigFile: a hostile file is one problem, never a throw', () => {
  test('a 4 KB .vscode/mcp.json nested 2,000 deep is one problem, and the folder\'s .mcp.json and the user\'s servers still load', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-deep-'));
    try {
      const [mcpJson, dotMcp] = folderSources({ name: 'repo', fsPath: dir });
      await fs.mkdir(path.join(dir, '.vscode'));
      const text = deepConfig(2000);
      assert.ok(text.length < 4200);
      await fs.writeFile(mcpJson.file!, text);
      await fs.writeFile(dotMcp.file!, JSON.stringify({ mcpServers: { good: { command: 'node', args: ['server.js'] } } }));

      const deep = await loadConfigFile(mcpJson);
      assert.equal(deep.problems.length, 1, JSON.stringify(deep.problems));
      const [problem] = deep.problems;
      assert.equal(problem.severity, 'error');
      assert.match(problem.message, new RegExp(`nested more than ${MAX_NESTING} levels`));
      // At the bracket that went past the limit: `{"servers":{"deep":{` is 3 levels, then the arrays.
      assert.equal(problem.offset, text.indexOf('[') + MAX_NESTING - 3);
      assert.equal(problem.line, 1);
      assert.deepEqual(deep.servers, []);
      assert.equal(deep.hasSyntaxError, true, 'like a syntax error: the servers loaded before stay until it is fixed');

      const other = await loadConfigFile(dotMcp);
      assert.deepEqual(other.problems, []);
      assert.deepEqual(other.servers.map((s) => s.name), ['good']);

      const user = parseSettingsValue({ mine: { command: 'uvx', args: ['tool'] } }, settingsSource('user'));
      assert.deepEqual(user.servers.map((s) => s.name), ['mine']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('nesting far past what the parser could recurse through (200,000 levels) is still one problem', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-deep-'));
    try {
      const [, dotMcp] = folderSources({ name: 'repo', fsPath: dir });
      await fs.writeFile(dotMcp.file!, `{"mcpServers":{"a":{"command":"x","env":${'{"k":'.repeat(200_000)}1${'}'.repeat(200_000)}}}}`);
      const loaded = await loadConfigFile(dotMcp);
      assert.equal(loaded.problems.length, 1);
      assert.match(loaded.problems[0].message, /nested more than/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('brackets inside strings and comments do not count; the limit itself still loads', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-deep-'));
    try {
      const [mcpJson] = folderSources({ name: 'repo', fsPath: dir });
      await fs.mkdir(path.join(dir, '.vscode'));
      // 3 levels of object, then arrays up to exactly MAX_NESTING.
      const arrays = MAX_NESTING - 3;
      await fs.writeFile(mcpJson.file!, `// [[[[[[\n{"servers":{"ok":{"command":"x","args":["${'['.repeat(5000)}"],"cwd":"/",\n"foo":${'['.repeat(arrays)}${']'.repeat(arrays)}}}}`);
      const loaded = await loadConfigFile(mcpJson);
      assert.deepEqual(loaded.problems, []);
      assert.deepEqual(loaded.servers.map((s) => s.name), ['ok']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('a settings value nested 100,000 deep is one problem, not a stack overflow', () => {
    let value: unknown = 'x';
    for (let i = 0; i < 100_000; i++) value = { k: value };
    const loaded = parseSettingsValue({ a: { command: 'x', env: value } }, settingsSource('user'));
    assert.equal(loaded.problems.length, 1);
    assert.match(loaded.problems[0].message, /nested more than/);
    assert.deepEqual(loaded.servers, []);
  });
});
