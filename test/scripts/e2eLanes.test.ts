// scripts/e2eLanes.mjs over the real end-to-end suites: `--e2e-jobs=N` runs each file once, and
// files that open the same folder of the repository never run side by side.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '..', '..', '..');
const E2E = join(ROOT, 'test', 'e2e');

interface LanesScript {
  repoWorkspacesOf(source: string): Set<string>;
  e2eLanes(files: readonly string[], jobs: number, readSource: (file: string) => string): string[][];
}

const load = async () => (await import(pathToFileURL(join(ROOT, 'scripts', 'e2eLanes.mjs')).href)) as LanesScript;
const suites = readdirSync(E2E).filter((f) => f.endsWith('.test.ts')).map((f) => join(E2E, f));
const read = (file: string) => readFileSync(file, 'utf8');

test('the folders a suite opens in place are read from its source', async () => {
  const { repoWorkspacesOf } = await load();
  assert.deepEqual([...repoWorkspacesOf(read(join(E2E, 'inspect.test.ts')))], ['workspaces/basic']);
  assert.deepEqual([...repoWorkspacesOf(read(join(E2E, 'serve.test.ts')))], ['workspaces/serve']);
  assert.ok(repoWorkspacesOf(read(join(E2E, 'firstContact.test.ts'))).has('demo'));
  assert.deepEqual([...repoWorkspacesOf(read(join(E2E, 'walkthrough.test.ts')))], [], 'a suite of temp folders names none');
});

test('two lanes: every suite once, the suites of one folder in one lane, the lanes near even', async () => {
  const { e2eLanes, repoWorkspacesOf } = await load();
  const lanes = e2eLanes(suites, 2, read);
  assert.equal(lanes.length, 2);
  assert.deepEqual(lanes.flat().sort(), [...suites].sort());
  const basic = suites.filter((f) => repoWorkspacesOf(read(f)).has('workspaces/basic'));
  assert.ok(basic.length >= 2, `several suites open workspaces/basic: ${basic.join(', ')}`);
  assert.equal(lanes.filter((lane) => lane.some((f) => basic.includes(f))).length, 1, 'the suites of workspaces/basic share a lane');
  assert.ok(Math.abs(lanes[0]!.length - lanes[1]!.length) <= basic.length, `lanes of ${lanes[0]!.length} and ${lanes[1]!.length} files`);
  assert.deepEqual(e2eLanes(suites, 1, read), [[...suites].sort()]);
});
