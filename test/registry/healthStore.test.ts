// The health store tells the views only what they would show differently: with the health ping
// on, three idle servers answering every ping leave the tree alone (it used to be redrawn whole at
// every ping).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServerHealthStore } from '../../src/registry/health';

test('a ping that answers as the last one did changes nothing the views show; a missed one does', () => {
  const store = new ServerHealthStore();
  const fired: string[] = [];
  store.onDidChange((id) => fired.push(id));
  for (const id of ['a', 'b', 'c']) store.set(id, { kind: 'ok', rttMs: 2, time: 1 });
  assert.deepEqual(fired, ['a', 'b', 'c'], 'the first answer of each is news');
  for (let tick = 2; tick < 12; tick++) for (const id of ['a', 'b', 'c']) store.set(id, { kind: 'ok', rttMs: tick, time: tick * 1000 });
  assert.deepEqual(fired, ['a', 'b', 'c'], 'ten more pings each, answered: nothing fired');
  const b = store.get('b');
  assert.equal(b?.kind === 'ok' ? b.rttMs : -1, 11, 'the store still holds the latest answer');
  store.set('b', { kind: 'unresponsive', since: 12_000, failures: 1, error: 'timed out' });
  store.set('b', { kind: 'unresponsive', since: 12_000, failures: 2, error: 'timed out' });
  store.set('b', { kind: 'ok', rttMs: 3, time: 14_000 });
  assert.deepEqual(fired, ['a', 'b', 'c', 'b', 'b', 'b']);
  store.dispose();
});
