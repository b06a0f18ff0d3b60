import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConsentStore } from '../../../src/extension/trust/consentStore';
import { MemoryMemento } from '../support';

describe('ConsentStore', () => {
  test('a decision holds for the same fingerprint only', async () => {
    const store = new ConsentStore(new MemoryMemento());
    assert.equal(store.get('a', 'f1'), undefined);
    await store.set('a', 'f1', 'allowed');
    assert.equal(store.get('a', 'f1'), 'allowed');
    assert.equal(store.get('a', 'f2'), undefined, 'a changed config asks again');
    await store.set('b', 'g', 'denied');
    assert.equal(store.get('b', 'g'), 'denied');
    assert.deepEqual(store.ids().sort(), ['a', 'b']);
  });

  test('revoke forgets the given servers, or all', async () => {
    const store = new ConsentStore(new MemoryMemento());
    await store.set('a', 'f', 'allowed');
    await store.set('b', 'f', 'allowed');
    await store.revoke(['a']);
    assert.equal(store.get('a', 'f'), undefined);
    assert.equal(store.get('b', 'f'), 'allowed');
    await store.revoke();
    assert.deepEqual(store.ids(), []);
  });
});
