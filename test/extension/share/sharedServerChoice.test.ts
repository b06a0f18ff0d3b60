// "Share with VS Code Chat" is a per-user choice in the workspace's state: toggling writes the
// state, never a setting; the old setting `mcpHost.shareWithChat` is read until the first toggle,
// which carries its names over.
import assert from 'node:assert/strict';
import { suite, test } from 'node:test';
import { SHARED_WITH_CHAT_KEY, SharedServerChoice } from '../../../src/extension/share/sharedServerChoice';

function memento() {
  const values = new Map<string, unknown>();
  return { values, get: <T>(key: string) => values.get(key) as T | undefined, update: async (key: string, value: unknown) => void values.set(key, value) };
}

suite('shared servers, kept in workspace state', () => {
  test('nothing is shared by default; toggling shares and un-shares in the state', async () => {
    const store = memento();
    const choice = new SharedServerChoice(store, () => undefined);
    assert.deepEqual(choice.names(), []);
    assert.equal(await choice.toggle('notes'), true);
    assert.deepEqual(store.values.get(SHARED_WITH_CHAT_KEY), ['notes']);
    assert.equal(await choice.toggle('notes'), false);
    assert.deepEqual(choice.names(), []);
  });

  test('the old setting is read until the first toggle, which carries it over', async () => {
    const store = memento();
    let legacy: unknown = ['notes', 3, 'everything'];
    const choice = new SharedServerChoice(store, () => legacy);
    assert.deepEqual(choice.names(), ['notes', 'everything']);
    assert.equal(choice.fromLegacySetting(), true);
    assert.equal(await choice.toggle('everything'), false);
    assert.deepEqual(store.values.get(SHARED_WITH_CHAT_KEY), ['notes']);
    legacy = ['other'];
    assert.deepEqual(choice.names(), ['notes'], 'the setting no longer counts once the state holds the choice');
    assert.equal(choice.fromLegacySetting(), false);
  });
});
