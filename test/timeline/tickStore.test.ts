import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Frame } from '../../src/protocol/connection';
import { TickStore, type TickFields } from '../../src/timeline/tickStore';

const fields = (id: number): TickFields => ({ kind: 'notification', direction: 'receive', method: 'notifications/message', name: `n${id}`, start: 1000 + id, session: 0, status: 'none', parent: undefined, progress: undefined });
const frame = (id: number): Frame => {
  const message = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `line ${id}` } };
  const text = JSON.stringify(message);
  return { direction: 'receive', message, text, time: 1000 + id, bytes: text.length };
};

describe('the timeline ticks\' store', () => {
  test('a moving window of ticks: every tick in it reads back, the store holds only the segments it needs', () => {
    const store = new TickStore('s');
    const WINDOW = 3000;
    let most = 0;
    for (let id = 1; id <= 20_000; id++) {
      const firstId = Math.max(1, id - WINDOW + 1);
      // As the ring does: a tick leaving the window lets its payload go first.
      if (firstId > 1) store.letGo(firstId - 1);
      store.add(id, fields(id), frame(id), true, firstId);
      most = Math.max(most, store.segmentCount);
    }
    // 3,000 ids span at most four segments of 1,024, and one more is made before the oldest goes.
    assert.ok(most <= 5, `${most} segments held at most`);
    for (const id of [17_001, 18_500, 20_000]) {
      assert.equal(store.summary(id)?.name, `n${id}`);
      assert.equal(store.item(id)?.first?.text, frame(id).text);
      assert.equal(store.item(id)?.first?.dropped, false);
    }
    assert.equal(store.summary(1), undefined, 'a tick of a segment let go is gone');
    assert.equal(store.summary(20_001), undefined, 'a tick not filed is not there');
  });

  test('ids left empty by spans between ticks are not ticks; a payload let go reads as dropped', () => {
    const store = new TickStore('s');
    store.add(5, fields(5), frame(5), true, 1);
    store.add(2000, fields(2000), frame(2000), false, 1);
    assert.equal(store.summary(6), undefined);
    assert.equal(store.item(2000)?.first?.dropped, true, 'not kept: over the payload budget');
    assert.equal(store.letGo(5), frame(5).bytes);
    assert.equal(store.letGo(5), 0, 'once');
    assert.equal(store.item(5)?.first?.text, undefined);
    assert.equal(store.summary(5)?.start, 1005, 'the tick stays while its payload goes');
  });
});
