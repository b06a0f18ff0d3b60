import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InputDefinition } from '../../../src/config/types';
import { InputCancelledError, InputStore, SecretStore } from '../../../src/extension/config/inputStore';
import { MemoryMemento } from '../support';

class MemorySecrets implements SecretStore {
  readonly data = new Map<string, string>();
  async get(key: string) {
    return this.data.get(key);
  }
  async store(key: string, value: string) {
    this.data.set(key, value);
  }
  async delete(key: string) {
    this.data.delete(key);
  }
}

const token: InputDefinition = { id: 'token', type: 'promptString', password: true, description: 'API token' };
const region: InputDefinition = { id: 'region', type: 'pickString', options: ['eu', 'us'] };

function setup(answers: Array<string | undefined>) {
  const secrets = new MemorySecrets();
  const memento = new MemoryMemento();
  const asked: string[] = [];
  const learned: string[] = [];
  const store = new InputStore(
    secrets,
    memento,
    async (def) => {
      asked.push(def.id);
      await new Promise((r) => setTimeout(r, 5));
      return answers.shift();
    },
    (v) => learned.push(v),
  );
  return { secrets, memento, asked, learned, store };
}

describe('InputStore', () => {
  test('asks once, keeps passwords in secret storage and other values in workspace state', async () => {
    const { store, secrets, memento, asked, learned } = setup(['hunter2', 'eu']);
    const [a, b] = await Promise.all([store.resolve('/w/.vscode/mcp.json', 'x', token), store.resolve('/w/.vscode/mcp.json', 'x', token)]);
    assert.equal(a, 'hunter2');
    assert.equal(b, 'hunter2');
    assert.equal(await store.resolve('/w/.vscode/mcp.json', 'x', region), 'eu');
    assert.deepEqual(asked, ['token', 'region'], 'concurrent calls ask once');
    assert.equal(await store.resolve('/w/.vscode/mcp.json', 'x', token), 'hunter2');
    assert.deepEqual(asked, ['token', 'region'], 'a stored value is not asked again');
    assert.ok([...secrets.data.values()].includes('hunter2'));
    assert.equal(JSON.stringify([...memento.data.values()]).includes('hunter2'), false, 'the password never reaches workspace state');
    assert.deepEqual(Object.values(memento.get<Record<string, string>>('mcpHost.inputs') ?? {}), ['eu']);
    assert.ok(learned.includes('hunter2'));
    assert.deepEqual((await store.storedValues()).sort(), ['eu', 'hunter2']);
    assert.equal(store.count(), 2);
  });

  test('the same id in two config files is two inputs', async () => {
    const { store, asked } = setup(['a', 'b']);
    assert.equal(await store.resolve('/one', 'x', token), 'a');
    assert.equal(await store.resolve('/two', 'x', token), 'b');
    assert.deepEqual(asked, ['token', 'token']);
  });

  test('a cancelled prompt rejects and stores nothing; clear forgets everything', async () => {
    const { store, secrets } = setup([undefined, 's', 't']);
    await assert.rejects(store.resolve('/w', 'x', token), InputCancelledError);
    assert.equal(await store.resolve('/w', 'x', token), 's');
    await store.clear();
    assert.equal(secrets.data.size, 0);
    assert.equal(store.count(), 0);
    assert.equal(await store.resolve('/w', 'x', token), 't');
  });

  test('a stored pick that is no longer an option is asked again', async () => {
    const { store, asked } = setup(['eu', 'us']);
    await store.resolve('/w', 'x', region);
    assert.equal(await store.resolve('/w', 'x', { ...region, options: ['us', 'ap'] }), 'us');
    assert.deepEqual(asked, ['region', 'region']);
  });
});
