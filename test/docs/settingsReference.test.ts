// docs/settings.md is what scripts/settings-doc.mjs generates from package.json, and every setting
// has the markdownDescription both VS Code's Settings editor and the page show.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { ROOT, read } from './markdown';

type SettingsDoc = { settingsDoc(pkg: unknown): string };
const generator = (): Promise<SettingsDoc> => import(pathToFileURL(join(ROOT, 'scripts', 'settings-doc.mjs')).href) as Promise<SettingsDoc>;
const pkg = () => JSON.parse(read('package.json')) as { contributes: { configuration: { properties: Record<string, Record<string, unknown>> } } };

describe('the settings reference', () => {
  test('docs/settings.md equals what scripts/settings-doc.mjs generates (run it after changing a setting)', async () => {
    const { settingsDoc } = await generator();
    assert.equal(read(join('docs', 'settings.md')), settingsDoc(pkg()));
  });

  test('every setting has a markdownDescription and a section of its own', () => {
    const page = read(join('docs', 'settings.md'));
    for (const [name, setting] of Object.entries(pkg().contributes.configuration.properties)) {
      assert.equal(typeof setting.markdownDescription, 'string', `${name} has no markdownDescription`);
      assert.ok(page.includes(`\n## ${name}\n`), `docs/settings.md has no section for ${name}`);
    }
  });

  test('a changed description makes the page differ, and a setting without one is refused', async () => {
    const { settingsDoc } = await generator();
    const changed = pkg();
    const [first] = Object.values(changed.contributes.configuration.properties);
    first.markdownDescription = 'Something else.';
    assert.notEqual(settingsDoc(changed), read(join('docs', 'settings.md')));
    delete first.markdownDescription;
    assert.throws(() => settingsDoc(changed), /has no markdownDescription/);
  });
});
