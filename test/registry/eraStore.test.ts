// The store of eras across runs: hashed keys, entries that age out, a cap, broken content
// ignored, and a backend that fails costs nothing but a probe.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EraMemory } from '../../src/client/era';
import { ERA_MAX_AGE_MS, ERA_MAX_ENTRIES, PersistentEraStore } from '../../src/registry/eraStore';

function backend(initial?: unknown) {
  let saved = initial;
  let writes = 0;
  return {
    read: () => saved,
    write: (v: unknown) => {
      writes++;
      saved = structuredClone(v);
    },
    saved: () => saved as Record<string, { era: string; version: string; at: number }>,
    writes: () => writes,
  };
}

suite('PersistentEraStore', () => {
  test('remembers per key, hashes keys, forgets; the memory writes only what changed', () => {
    const b = backend();
    const memory = new EraMemory(new PersistentEraStore(b));
    memory.remember('stdio:["node","server.js","--token","s3cret"]', { era: 'legacy', version: '2025-06-18' });
    memory.remember('stdio:["node","server.js","--token","s3cret"]', { era: 'legacy', version: '2025-06-18' });
    assert.equal(b.writes(), 1);
    assert.doesNotMatch(JSON.stringify(b.saved()), /s3cret|server\.js/);
    const again = new EraMemory(new PersistentEraStore(b));
    assert.deepEqual(again.get('stdio:["node","server.js","--token","s3cret"]'), { era: 'legacy', version: '2025-06-18' });
    assert.equal(again.get('http:https://other.example'), undefined);
    again.forget('stdio:["node","server.js","--token","s3cret"]');
    assert.deepEqual(b.saved(), {});
  });

  test('entries older than the age limit are probed again; the oldest go past the cap', () => {
    let now = 1_000_000;
    const b = backend();
    const store = new PersistentEraStore(b, () => now);
    store.set('old', { era: 'modern', version: '2026-07-28' });
    now += ERA_MAX_AGE_MS + 1;
    assert.equal(store.get('old'), undefined);
    for (let i = 0; i < ERA_MAX_ENTRIES + 5; i++) {
      now++;
      store.set(`k${i}`, { era: 'legacy', version: '2025-11-25' });
    }
    assert.equal(Object.keys(b.saved()).length, ERA_MAX_ENTRIES);
    assert.equal(store.get('k0'), undefined, 'the oldest went first');
    assert.deepEqual(store.get(`k${ERA_MAX_ENTRIES + 4}`), { era: 'legacy', version: '2025-11-25' });
  });

  test('broken content and unknown versions are ignored; a failing backend never throws', () => {
    const b = backend({ a: 'x', b: { era: 'modern', version: '2025-11-25', at: Date.now() }, c: null });
    const store = new PersistentEraStore(b);
    assert.equal(store.get('a'), undefined);
    store.set('d', { era: 'legacy', version: '2024-11-05' });
    assert.deepEqual(Object.values(b.saved()).map((e) => e.version), ['2024-11-05'], 'invalid entries are dropped on write');
    const failing = new PersistentEraStore({
      read: () => {
        throw new Error('EACCES');
      },
      write: () => {
        throw new Error('ENOSPC');
      },
    });
    assert.equal(failing.get('x'), undefined);
    assert.doesNotThrow(() => failing.set('x', { era: 'legacy', version: '2025-11-25' }));
    assert.doesNotThrow(() => failing.delete('x'));
  });
});
