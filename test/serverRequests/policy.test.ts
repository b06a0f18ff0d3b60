import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SamplingPolicyStore, decide } from '../../src/serverRequests/policy';

class Memento {
  data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

describe('sampling policy', () => {
  test('decisions: ask by default, allow for session/always, deny for never', () => {
    assert.equal(decide('ask'), 'ask');
    assert.equal(decide('allowSession'), 'allow');
    assert.equal(decide('allowAlways'), 'allow');
    assert.equal(decide('never'), 'deny');
  });

  test('a new server is asked every time', () => {
    assert.equal(new SamplingPolicyStore(new Memento()).get('x'), 'ask');
  });

  test('"allow for this session" lives in memory only; "always" and "never" are stored per server id', async () => {
    const memento = new Memento();
    const store = new SamplingPolicyStore(memento);
    await store.set('a', 'Server A', 'allowSession');
    await store.set('b', 'Server B', 'allowAlways');
    await store.set('c', 'Server C', 'never');
    assert.equal(store.get('a'), 'allowSession');
    assert.equal(store.get('b'), 'allowAlways');
    assert.equal(store.get('c'), 'never');
    // A new window (a new store over the same memento) forgets the session answer only.
    const next = new SamplingPolicyStore(memento);
    assert.equal(next.get('a'), 'ask');
    assert.equal(next.get('b'), 'allowAlways');
    assert.equal(next.get('c'), 'never');
    assert.deepEqual(
      store.entries().map((e) => [e.serverId, e.name, e.policy]).sort(),
      [
        ['a', 'Server A', 'allowSession'],
        ['b', 'Server B', 'allowAlways'],
        ['c', 'Server C', 'never'],
      ],
    );
  });

  test('changing a policy replaces the old one; "ask" forgets it', async () => {
    const store = new SamplingPolicyStore(new Memento());
    await store.set('a', 'A', 'allowAlways');
    await store.set('a', 'A', 'allowSession');
    assert.equal(store.get('a'), 'allowSession');
    await store.set('a', 'A', 'never');
    assert.equal(store.get('a'), 'never');
    await store.set('a', 'A', 'ask');
    assert.equal(store.get('a'), 'ask');
    assert.deepEqual(store.entries(), []);
  });

  test('reset one server or all of them', async () => {
    const memento = new Memento();
    const store = new SamplingPolicyStore(memento);
    await store.set('a', 'A', 'allowAlways');
    await store.set('b', 'B', 'never');
    await store.set('c', 'C', 'allowSession');
    await store.reset(['a']);
    assert.equal(store.get('a'), 'ask');
    assert.equal(store.get('b'), 'never');
    await store.reset();
    assert.equal(store.get('b'), 'ask');
    assert.equal(store.get('c'), 'ask');
    assert.equal(memento.data.size, 0);
  });

  test('a corrupt stored value is read as "ask"', () => {
    const memento = new Memento();
    memento.data.set('mcpHost.samplingPolicy', { a: { policy: 'sometimes', name: 'A', time: 1 } });
    assert.equal(new SamplingPolicyStore(memento).get('a'), 'ask');
  });
});
