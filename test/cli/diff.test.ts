import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { cliTestHooks, expectUsageErrors, ROOT, runCliInProcess } from './cliProcess';

const EVOLVING = ['node', join(ROOT, 'test', 'fixtures', 'servers', 'evolving.mjs')];
const dir = cliTestHooks('mcp-host-diff-');
const snapshot = (name: string) => join(dir, name);

describe('mcp-host diff', { timeout: 120_000 }, () => {
  before(async () => {
    for (const build of ['1', '2']) {
      const r = await runCliInProcess(['inspect', '--json', '--', ...EVOLVING, '--build', build]);
      assert.equal(r.code, 0, r.stderr);
      writeFileSync(snapshot(`build${build}.json`), r.stdout);
    }
  });

  test('two snapshots of one build: no changes, exit 0', async () => {
    const r = await runCliInProcess(['diff', snapshot('build1.json'), snapshot('build1.json')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'no changes');
  });

  test('two builds: each change with its path, exit 1', async () => {
    const r = await runCliInProcess(['diff', snapshot('build1.json'), snapshot('build2.json')]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      'instructions changed ("v1" → "v2")',
      'tool echo: inputSchema.properties.message.description changed ("Text to echo" → "Text to send back")',
      'tool retire: removed',
      'tool evolve: removed',
      'tool shout: added',
    ]);
    const withVersion = await runCliInProcess(['diff', '--server-version', snapshot('build1.json'), snapshot('build2.json')]);
    assert.match(withVersion.stdout, /^server version changed \("1\.0\.1" → "1\.0\.2"\)$/m);
  });

  test('a snapshot against the live server, as data with --json', async () => {
    const r = await runCliInProcess(['diff', '--json', snapshot('build1.json'), '--', ...EVOLVING, '--build', '2']);
    assert.equal(r.code, 1, r.stderr);
    const { changes } = JSON.parse(r.stdout) as { changes: { subject: string; name?: string; kind: string; path: (string | number)[]; before?: unknown; after?: unknown }[] };
    const echo = changes.find((c) => c.subject === 'tool' && c.name === 'echo');
    assert.deepEqual(echo, { subject: 'tool', name: 'echo', kind: 'changed', path: ['inputSchema', 'properties', 'message', 'description'], before: 'Text to echo', after: 'Text to send back' });
    assert.ok(changes.some((c) => c.subject === 'tool' && c.name === 'shout' && c.kind === 'added'));
    const same = await runCliInProcess(['diff', snapshot('build1.json'), '--', ...EVOLVING, '--build', '1']);
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stdout.trim(), 'no changes');
  });

  test('mistakes are usage errors that name the file', async () => {
    const notJson = snapshot('bad.json');
    writeFileSync(notJson, '{"tools": [');
    const notSnapshot = snapshot('other.json');
    writeFileSync(notSnapshot, '{"tools": []}');
    await expectUsageErrors([
      [['diff'], /diff needs a snapshot/],
      [['diff', join(dir, 'missing.json'), snapshot('build1.json')], /cannot read .*missing\.json/],
      [['diff', notJson, snapshot('build1.json')], /bad\.json is not JSON/],
      [['diff', notSnapshot, snapshot('build1.json')], /other\.json is not an inspect snapshot/],
      [['diff', snapshot('build1.json'), snapshot('build2.json'), '--', 'node', 'x.js'], /not two files and a server/],
      [['tools', '--server-version', '--', 'node', 'x.js'], /--server-version only applies to diff/],
    ], runCliInProcess);
  });
});
