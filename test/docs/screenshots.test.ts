// The pictures README.md and docs/ show are the end-to-end suites' screenshots, listed once in
// scripts/screenshots.mjs (`npm run screenshots` makes them again): every picture a page uses is on
// that list and exists, and every listed shot is one its suite takes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ROOT, docPages, linkTargets, read } from './markdown';

interface ReadmeShot {
  file: string;
  suite: string;
  shot: string;
  part?: string;
}

async function shotList(): Promise<ReadmeShot[]> {
  const mod = (await import(pathToFileURL(join(ROOT, 'scripts', 'screenshots.mjs')).href)) as { README_SHOTS: ReadmeShot[] };
  return mod.README_SHOTS;
}

test('every picture README and docs show is a listed screenshot of a suite, and exists', async () => {
  const listed = new Set((await shotList()).map((s) => join('media', 'readme', s.file)));
  const used = new Set<string>();
  for (const page of docPages()) {
    for (const target of linkTargets(read(page))) {
      if (!/\.(png|jpe?g|gif|webp)$/i.test(target) || /^https?:/.test(target)) continue;
      used.add(normalize(join(dirname(page), target)));
    }
  }
  assert.ok(used.size > 0, 'the pages show pictures');
  assert.deepEqual([...used].filter((f) => !listed.has(f)), [], 'pictures not made by a suite (add them to scripts/screenshots.mjs)');
  assert.deepEqual([...listed].filter((f) => !existsSync(join(ROOT, f))), [], 'listed pictures that are missing');
  assert.deepEqual([...listed].filter((f) => !used.has(f)), [], 'listed pictures no page shows');
});

test('every listed shot is taken by its suite', async () => {
  for (const shot of await shotList()) {
    const suite = join(ROOT, 'test', 'e2e', `${shot.suite}.ts`);
    assert.ok(existsSync(suite), `${shot.file}: ${suite} does not exist`);
    const text = readFileSync(suite, 'utf8');
    assert.ok(new RegExp(`(screenshot|chatShot)\\('${shot.shot}'\\)`).test(text), `${shot.file}: ${shot.suite} takes no screenshot '${shot.shot}'`);
  }
});
