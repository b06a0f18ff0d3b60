import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CallHistory, NewHistoryEntry } from '../../src/inspect/history';

const call = (over: Partial<NewHistoryEntry> = {}): NewHistoryEntry => ({
  serverId: 's1',
  kind: 'tool',
  name: 'echo',
  arguments: { message: 'hi' },
  outcome: 'ok',
  summary: 'Echo: hi',
  durationMs: 12.6,
  time: 1_700_000_000_000,
  ...over,
});

describe('call history', () => {
  test('newest first, per server, bounded at the limit', () => {
    const h = new CallHistory({ limit: 3 });
    const changed: string[] = [];
    h.onDidChange((s) => changed.push(s));
    for (let i = 0; i < 5; i++) h.add(call({ summary: `#${i}` }));
    h.add(call({ serverId: 's2', name: 'other' }));
    assert.deepEqual(h.list('s1').map((e) => e.summary), ['#4', '#3', '#2']);
    assert.deepEqual(h.list('s2').map((e) => e.name), ['other']);
    assert.deepEqual(h.list('nope'), []);
    assert.deepEqual(changed, ['s1', 's1', 's1', 's1', 's1', 's2']);
    assert.equal(h.list('s1')[0].durationMs, 13);
  });

  test('the default limit is 50', () => {
    const h = new CallHistory();
    for (let i = 0; i < 60; i++) h.add(call());
    assert.equal(h.list('s1').length, 50);
  });

  test('survives a JSON round trip (workspaceState) and re-runs with a copy of the arguments', () => {
    const h = new CallHistory();
    const a = h.add(call({ arguments: { nested: { list: [1, 2] } } }));
    h.add(call({ kind: 'prompt', name: 'args-prompt', arguments: { city: 'Paris' }, outcome: 'error', summary: 'server error -32602' }));
    const restored = CallHistory.restore(JSON.parse(JSON.stringify(h.toJSON())));
    assert.deepEqual(restored.toJSON(), h.toJSON());
    const rerun = restored.rerun(a.id)!;
    assert.deepEqual(rerun, { serverId: 's1', kind: 'tool', name: 'echo', arguments: { nested: { list: [1, 2] } } });
    (rerun.arguments.nested as { list: number[] }).list.push(3);
    assert.deepEqual(restored.get(a.id)!.arguments, { nested: { list: [1, 2] } }, 'the stored arguments are not shared');
    assert.deepEqual(restored.list('s1', { kind: 'prompt' }).map((e) => e.name), ['args-prompt']);
    assert.deepEqual(restored.list('s1', { name: 'echo' }).length, 1);
  });

  test('huge arguments are not kept (no re-run); summaries become one short line', () => {
    const h = new CallHistory({ maxArgumentChars: 100, maxSummaryChars: 20 });
    const e = h.add(call({ arguments: { big: 'x'.repeat(200) }, summary: 'line one\nline two and a lot more text' }));
    assert.equal(e.arguments, undefined);
    assert.equal(e.argumentsOmitted, true);
    assert.equal(h.rerun(e.id), undefined);
    assert.equal(e.summary, 'line one line two a…');
  });

  test('restore drops what is not a valid entry, and ignores garbage', () => {
    const good = new CallHistory().add(call());
    const data = { version: 1, servers: { s1: [good, { id: 'x' }, 42, { ...good, id: 'y', outcome: 'exploded' }, { ...good, id: 'z', serverId: 'other' }] } };
    assert.deepEqual(CallHistory.restore(data).list('s1').map((e) => e.id), [good.id]);
    for (const junk of [undefined, null, 'x', { version: 2, servers: {} }, { version: 1, servers: 5 }]) assert.deepEqual(CallHistory.restore(junk).toJSON(), { version: 1, servers: {} });
  });

  test('clear one server or all', () => {
    const h = new CallHistory();
    h.add(call());
    h.add(call({ serverId: 's2' }));
    h.add(call({ name: 'other' }));
    h.clear('s1', { kind: 'tool', name: 'echo' });
    assert.deepEqual(h.list('s1').map((e) => e.name), ['other'], 'only that tool\'s entries go');
    h.clear('s1');
    assert.equal(h.list('s1').length, 0);
    assert.equal(h.list('s2').length, 1);
    h.clear();
    assert.deepEqual(h.toJSON(), { version: 1, servers: {} });
  });
});
