import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CallHistory, NewHistoryEntry, capJson } from '../../src/usecases/history';

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

  test('keeps each call\'s result and failure, newest first per server, through a JSON round trip', () => {
    const h = new CallHistory();
    const first = h.add(call({ arguments: { message: 'one' }, result: { content: [{ type: 'text', text: 'Echo: one' }] } }));
    const second = h.add(call({ arguments: { message: 'two' }, result: { content: [{ type: 'text', text: 'Echo: two' }] } }));
    const failed = h.add(call({ outcome: 'timeout', summary: 'timed out', failure: { kind: 'local', reason: 'timeout', message: 'tools/call timed out after 2000 ms' } }));
    h.add(call({ serverId: 's2', result: { content: [] } }));
    assert.deepEqual(h.list('s1').map((e) => e.id), [failed.id, second.id, first.id]);
    assert.deepEqual(h.get(first.id)!.result, { content: [{ type: 'text', text: 'Echo: one' }] });
    assert.equal(h.get(first.id)!.resultCut, undefined);
    assert.equal(h.get(failed.id)!.result, undefined);
    assert.deepEqual(h.get(failed.id)!.failure, { kind: 'local', reason: 'timeout', message: 'tools/call timed out after 2000 ms' });
    assert.equal(h.list('s2').length, 1);
    const restored = CallHistory.restore(JSON.parse(JSON.stringify(h.toJSON())));
    assert.deepEqual(restored.toJSON(), h.toJSON());
  });

  test('a result over the per-entry cap is cut (long text shortened, binary dropped) and says so', () => {
    const h = new CallHistory({ maxResultChars: 2000 });
    const big = h.add(call({ result: { content: [{ type: 'text', text: 'a'.repeat(5000) }, { type: 'image', mimeType: 'image/png', data: 'A'.repeat(3000) }] } }));
    const stored = h.get(big.id)!;
    assert.equal(stored.resultCut, true);
    const json = JSON.stringify(stored.result);
    assert.ok(json.length <= 2000, `kept ${json.length} characters`);
    const [text, image] = (stored.result as { content: Array<{ text?: string; data?: string; mimeType?: string }> }).content;
    assert.match(text.text!, /^a+… \[cut: \d+ more characters\]$/);
    assert.equal(image.data, '', 'base64 is dropped, not cut into garbage');
    assert.equal(image.mimeType, 'image/png');
    // Small results are kept as they are.
    const small = h.add(call({ result: { content: [{ type: 'text', text: 'ok' }] } }));
    assert.equal(h.get(small.id)!.resultCut, undefined);
    // Nothing fits: no result, and the entry says one was there.
    const tiny = new CallHistory({ maxResultChars: 10 });
    const e = tiny.add(call({ result: { content: [{ type: 'text', text: 'x'.repeat(100) }] } }));
    assert.equal(e.result, undefined);
    assert.equal(e.resultOmitted, true);
    assert.equal(tiny.rerun(e.id)?.name, 'echo', 'still re-runnable: the arguments were kept');
  });

  test('capJson: as is when it fits, undefined for what is not JSON', () => {
    assert.deepEqual(capJson({ a: [1, 'b'] }, 100), { value: { a: [1, 'b'] }, chars: 13, cut: false });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(capJson(cyclic, 100), undefined);
    assert.equal(capJson(1n, 100), undefined);
  });

  test('a server\'s results share a budget: the oldest results go first, the entries stay', () => {
    const h = new CallHistory({ maxResultChars: 1000, maxResultCharsPerServer: 2500 });
    const result = (c: string) => ({ content: [{ type: 'text', text: c.repeat(900) }] });
    const a = h.add(call({ result: result('a') }));
    const b = h.add(call({ result: result('b') }));
    const other = h.add(call({ serverId: 's2', result: result('o') }));
    assert.ok(h.get(a.id)!.result && h.get(b.id)!.result);
    const c = h.add(call({ result: result('c') }));
    assert.equal(h.list('s1').length, 3);
    assert.equal(h.get(a.id)!.result, undefined, 'the oldest result went');
    assert.equal(h.get(a.id)!.resultOmitted, true);
    assert.ok(h.get(b.id)!.result && h.get(c.id)!.result);
    assert.ok(h.get(other.id)!.result, 'other servers keep theirs');
    // The same budget applies to what is restored.
    const full = new CallHistory({ maxResultChars: 1000 });
    for (const ch of 'xyz') full.add(call({ result: result(ch) }));
    const restored = CallHistory.restore(JSON.parse(JSON.stringify(full.toJSON())), { maxResultChars: 1000, maxResultCharsPerServer: 2000 });
    assert.deepEqual(restored.list('s1').map((e) => e.result !== undefined), [true, true, false]);
  });

  test('restore caps a stored result that is too large for the current cap', () => {
    const h = new CallHistory();
    h.add(call({ result: { content: [{ type: 'text', text: 'y'.repeat(5000) }] } }));
    const restored = CallHistory.restore(JSON.parse(JSON.stringify(h.toJSON())), { maxResultChars: 1000 });
    const e = restored.list('s1')[0];
    assert.equal(e.resultCut, true);
    assert.ok(JSON.stringify(e.result).length <= 1000);
  });
});
