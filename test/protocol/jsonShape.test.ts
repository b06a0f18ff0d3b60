import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MORE_KEYS_KEY, TOO_DEEP_MARKER, foldJson, moreItemsMarker } from '../../src/protocol/jsonShape';

const LIMITS = { maxChars: 1000, maxStringChars: 100, maxItems: 10, maxDepth: 8 };

suite('foldJson: a bounded copy of a large value', () => {
  test('a value within the limits is returned as it is', () => {
    const value = { a: [1, 2, 3], b: 'short', c: null, d: true };
    const folded = foldJson(value, LIMITS);
    assert.equal(folded.value, value);
    assert.deepEqual([folded.folded, folded.cutDeep], [false, false]);
  });

  test('long strings keep their start; long arrays their first items and a count of the rest', () => {
    const folded = foldJson({ text: 'x'.repeat(250), items: Array.from({ length: 25 }, (_, i) => i) }, LIMITS);
    const value = folded.value as { text: string; items: unknown[] };
    assert.equal(folded.folded, true);
    assert.equal(value.text, `${'x'.repeat(100)}… [cut: 150 more characters]`);
    assert.deepEqual(value.items, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, moreItemsMarker(15)]);
    assert.equal(moreItemsMarker(15), '… [15 more items folded]');
  });

  test('once the budget is spent, the rest of each object and array is one marker', () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ id: i, note: 'n'.repeat(90) }));
    const folded = foldJson({ rows, after: 'kept?' }, { ...LIMITS, maxItems: 1000, maxChars: 400 });
    const value = folded.value as { rows: unknown[]; [MORE_KEYS_KEY]?: string };
    assert.ok(value.rows.length < 10, `${value.rows.length} rows kept`);
    assert.match(String(value.rows.at(-1)), /^… \[\d+ more items? folded\]$/);
    assert.equal(value[MORE_KEYS_KEY], moreItemsMarker(1), 'the key after the spent budget is folded too');
    assert.ok(JSON.stringify(value).length < 800, 'about the budget');
  });

  test('keys of a wide object beyond maxItems are folded under one key', () => {
    const wide = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    const value = foldJson(wide, LIMITS).value as Record<string, unknown>;
    assert.equal(Object.keys(value).length, 11);
    assert.equal(value[MORE_KEYS_KEY], moreItemsMarker(20));
  });

  test('deep parts become a marker; emptied keys lose a long value instead of keeping half of it', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20; i++) deep = { down: deep };
    const folded = foldJson(deep, LIMITS);
    assert.equal(folded.cutDeep, true);
    assert.ok(JSON.stringify(folded.value).includes(TOO_DEEP_MARKER));
    const image = foldJson({ type: 'image', data: 'A'.repeat(500) }, { ...LIMITS, emptyKeys: new Set(['data']) }).value as { data: string };
    assert.equal(image.data, '');
  });

  test('visits only what it keeps: of 400,000 records, the first 500 are read', () => {
    const records = Array.from({ length: 400_000 }, (_, i) => ({ id: i, name: `record ${i}`, note: 'x'.repeat(100) }));
    let reads = 0;
    const watched = new Proxy(records, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const folded = foldJson({ records: watched }, { maxChars: 256 * 1024, maxStringChars: 10_000, maxItems: 500, maxDepth: 64 });
    const value = folded.value as { records: unknown[] };
    assert.equal(value.records.length, 501);
    assert.equal(value.records[500], moreItemsMarker(399_500));
    assert.equal(reads, 500);
  });

  test('what JSON cannot hold is refused', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => foldJson(cyclic, LIMITS), /cyclic/);
    assert.throws(() => foldJson({ n: 1n }, LIMITS), /BigInt/);
  });
});
