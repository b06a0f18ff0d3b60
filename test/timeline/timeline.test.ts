import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Frame } from '../../src/protocol/connection';
import * as z from '../../src/protocol/zod';
import { Redactor } from '../../src/protocol/redaction';
import { CallHistory } from '../../src/usecases/history';
import { RecordingWriter, parseRecording, replayPlan, wholeLines } from '../../src/usecases/recording';
import { recordingTimeline } from '../../src/timeline/recordingTimeline';
import { itemFilter } from '../../src/timeline/timelineFilter';
import { MAX_LANES, Timeline, TimelineItem, keptMessage, type ItemSummary } from '../../src/timeline/timelineModel';
import { foldForDisplay, historyEntryFor, itemDetails, selectionFrames } from '../../src/timeline/timelineSelection';
import { ITEM_FIELDS, ITEM_KINDS, ITEM_STATUSES, TimelineBatch, TimelineView } from '../../src/timeline/timelineView';
import { packColumn, packedByteLength, unpackColumn, type PackedColumn } from '../../src/timeline/packedColumn';
import { EVERYTHING, connectStdio, waitFor } from '../client/support';

const T0 = 1_700_000_000_000;
const frame = (direction: 'send' | 'receive', message: unknown, time: number, bytes?: number): Frame => ({ direction, message, time: T0 + time, bytes: bytes ?? JSON.stringify(message).length });
const request = (id: number | string, method: string, params?: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const notification = (method: string, params?: Record<string, unknown>) => ({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
const result = (id: number | string, value: unknown) => ({ jsonrpc: '2.0', id, result: value });
const failure = (id: number | string, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

/** A timeline fed a list of [direction, message, ms] frames for server `s`. */
function feed(frames: Array<['send' | 'receive', unknown, number]>, limits = { maxFrames: 1000, maxPayloadBytes: 1 << 20 }): Timeline {
  const timeline = new Timeline(() => limits);
  for (const [direction, message, time] of frames) timeline.push('s', frame(direction, message, time));
  return timeline;
}

const summary = (item: TimelineItem) => `${item.kind} ${item.method}${item.name ? ` ${item.name}` : ''} ${item.status}${item.end !== undefined ? ` ${item.end - item.start}ms` : ''}${item.parent !== undefined ? ` ↑${item.parent}` : ''}`;

describe('timeline: pairing', () => {
  test('a request and its answer are one span with its duration; errors and isError are marked', () => {
    const t = feed([
      ['send', request(1, 'tools/call', { name: 'echo', arguments: {} }), 0],
      ['send', request(2, 'tools/call', { name: 'boom' }), 1],
      ['send', request(3, 'resources/read', { uri: 'demo://a' }), 2],
      ['receive', result(1, { content: [] }), 12],
      ['receive', result(2, { content: [], isError: true }), 20],
      ['receive', failure(3, -32002, 'Resource not found'), 30],
      ['receive', notification('notifications/tools/list_changed'), 31],
    ]);
    assert.deepEqual(t.items('s').map(summary), [
      'call tools/call echo ok 12ms',
      'call tools/call boom error 19ms',
      'call resources/read demo://a error 28ms',
      'notification notifications/tools/list_changed none',
    ]);
    assert.equal(t.items('s')[2].errorText, '-32002 Resource not found');
    assert.equal(t.frameCount('s'), 7);
  });

  test("the era probe's expected answers are not errors: a legacy server's refusal of server/discover, a -32022 naming a version to ask again with", () => {
    const unsupported = (id: number, supported: string[]) => ({ jsonrpc: '2.0', id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported } } });
    const t = feed([
      ['send', request(1, 'server/discover'), 0],
      ['receive', failure(1, -32601, 'Method not found'), 2],
      ['send', request(2, 'initialize'), 3],
      ['receive', unsupported(2, ['2026-07-28']), 4],
      ['send', request(3, 'server/discover'), 5],
      ['receive', unsupported(3, ['2099-01-01']), 6],
      ['send', request(4, 'initialize'), 7],
      ['receive', failure(4, -32603, 'Internal error'), 8],
    ]);
    assert.deepEqual(t.items('s').map(summary), [
      'call server/discover ok 2ms',
      'call initialize ok 1ms',
      'call server/discover error 1ms',
      'call initialize error 1ms',
    ], 'only a version nobody here speaks, and a failed initialize, are errors');
  });

  test('string and number ids stay apart; an answer to an unknown id is an error tick', () => {
    const t = feed([
      ['send', request(1, 'ping'), 0],
      ['send', request('1', 'tools/list'), 1],
      ['receive', result('1', { tools: [] }), 5],
      ['receive', result(99, {}), 6],
      ['receive', [1, 2], 7],
    ]);
    assert.deepEqual(t.items('s').map(summary), ['call ping open', 'call tools/list ok 4ms', 'notification (answer to unknown id 99) error', 'notification (batch) error']);
  });

  test('progress, cancellation and the server’s requests during a call are linked to it', () => {
    const t = feed([
      ['send', request(1, 'tools/call', { name: 'long', _meta: { progressToken: 'p1' } }), 0],
      ['receive', notification('notifications/progress', { progressToken: 'p1', progress: 1, total: 4 }), 10],
      ['receive', request(0, 'sampling/createMessage', { messages: [] }), 15],
      ['send', result(0, { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }), 40],
      ['receive', notification('notifications/progress', { progressToken: 'p1', progress: 2, total: 4 }), 50],
      ['send', notification('notifications/cancelled', { requestId: 1, reason: 'you pressed Cancel' }), 60],
      ['receive', result(1, { content: [] }), 70],
      ['receive', notification('notifications/progress', { progressToken: 'p1', progress: 3, total: 4 }), 80],
    ]);
    const items = t.items('s');
    assert.deepEqual(items.map(summary), [
      'call tools/call long cancelled 60ms',
      'progress notifications/progress none ↑1',
      'serverCall sampling/createMessage ok 25ms ↑1',
      'progress notifications/progress none ↑1',
      'notification notifications/cancelled you pressed Cancel none ↑1',
      // The token ended with the answer: later progress is a plain tick.
      'notification notifications/progress none',
    ]);
    assert.equal(items[0].progress, 0.5);
    assert.equal(items[0].second?.time, T0 + 70, 'the late answer is kept with its call');
    assert.deepEqual(items[0].children, [2, 3, 4, 5]);
  });

  test('a task call links its status and polls; a modern input round links the next round', () => {
    const t = feed([
      ['send', request(1, 'tools/call', { name: 'slow', task: { ttl: 1000 } }), 0],
      ['receive', result(1, { task: { taskId: 'T1', status: 'working' } }), 5],
      ['receive', notification('notifications/tasks/status', { taskId: 'T1', status: 'completed' }), 100],
      ['send', request(2, 'tasks/result', { taskId: 'T1' }), 101],
      ['receive', result(2, { content: [] }), 110],
      ['send', request(3, 'tools/call', { name: 'ask' }), 200],
      ['receive', result(3, { resultType: 'input_required', inputRequests: { a: {} }, requestState: 'S1' }), 210],
      ['send', request(4, 'tools/call', { name: 'ask', inputResponses: { a: {} }, requestState: 'S1' }), 300],
      ['receive', result(4, { resultType: 'input_required', inputRequests: { b: {} }, requestState: 'S2' }), 310],
      ['send', request(5, 'tools/call', { name: 'ask', inputResponses: { b: {} }, requestState: 'S2' }), 400],
      ['receive', result(5, { content: [] }), 405],
    ]);
    assert.deepEqual(t.items('s').map(summary), [
      'call tools/call slow task 5ms',
      'notification notifications/tasks/status completed none ↑1',
      'call tasks/result T1 ok 9ms ↑1',
      'call tools/call ask input 10ms',
      'call tools/call ask input 10ms ↑4',
      'call tools/call ask ok 5ms ↑4',
    ]);
  });

  test('a new session closes what was open as unanswered and ids start over', () => {
    const t = feed([['send', request(1, 'tools/call', { name: 'a' }), 0]]);
    t.sessionStarted('s', T0 + 50);
    t.push('s', frame('send', request(1, 'ping'), 60));
    t.push('s', frame('receive', result(1, {}), 61));
    assert.deepEqual(t.items('s').map(summary), ['call tools/call a unanswered 50ms', 'session session none', 'call ping ok 1ms']);
    assert.deepEqual(t.items('s').map((i) => i.session), [0, 1, 1]);
  });

  test('overlapping calls take separate lanes, a free lane is reused, and lanes are capped', () => {
    const t = feed([
      ['send', request(1, 'a'), 0],
      ['send', request(2, 'b'), 1],
      ['receive', result(1, {}), 5],
      ['send', request(3, 'c'), 6],
    ]);
    assert.deepEqual(t.items('s').map((i) => i.lane), [0, 1, 0]);
    const many = feed(Array.from({ length: 40 }, (_, i) => ['send', request(i + 1, 'x'), i] as ['send', unknown, number]));
    const lanes = new Set(many.items('s').map((i) => i.lane));
    assert.equal(lanes.size, MAX_LANES);
  });
});

describe('timeline: the ring', () => {
  test('keeps at most maxFrames frames per server: the oldest items go, observers hear of it', () => {
    const t = new Timeline(() => ({ maxFrames: 100, maxPayloadBytes: 1 << 20 }));
    const evicted: Array<[string, number]> = [];
    t.observe({ changed: () => {}, evicted: (server, firstId) => evicted.push([server, firstId]) });
    for (let i = 0; i < 1000; i++) {
      t.push('s', frame('send', request(i, 'tools/call', { name: `n${i}` }), i));
      t.push('s', frame('receive', result(i, {}), i + 0.5));
    }
    t.push('other', frame('send', notification('notifications/initialized'), 0));
    assert.ok(t.frameCount('s') <= 100, `${t.frameCount('s')} frames kept`);
    assert.equal(t.frameCount('s'), 100);
    assert.equal(t.items('s').length, 50);
    assert.equal(t.items('s')[0].name, 'n950');
    assert.equal(t.items('other').length, 1, 'rings are per server');
    assert.deepEqual(evicted.at(-1), ['s', t.items('s')[0].id]);
  });

  test('an item that left the ring is no longer held (memory stays within the ring between compactions)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const t = new Timeline(() => ({ maxFrames: 2000, maxPayloadBytes: 1 << 20 }));
    // A span (a tick is made anew each time it is read: its object is never held).
    t.push('s', frame('send', request(1, 'tools/call', { name: 'the first' }), 0));
    const first = new WeakRef(t.items('s')[0]);
    assert.equal(first.deref()?.kind, 'call');
    // Past the ring by a quarter: the first item has left, and the front is not compacted yet.
    for (let i = 1; i <= 2500; i++) t.push('s', frame('receive', notification('notifications/message', { level: 'info', data: `message ${i}` }), i));
    assert.equal(t.items('s').length, 2000);
    for (let round = 0; round < 5 && first.deref(); round++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    assert.equal(first.deref(), undefined, 'the evicted item was collected');
  });

  test('payloads are let go oldest first past the byte budget; a frame larger than it keeps none; items stay', () => {
    const t = new Timeline(() => ({ maxFrames: 1000, maxPayloadBytes: 10_000 }));
    for (let i = 0; i < 20; i++) t.push('s', frame('receive', notification('notifications/message', { level: 'info', data: 'x'.repeat(1000) }), i, 1000));
    t.push('s', frame('receive', notification('notifications/message', { level: 'info', data: 'big' }), 30, 50_000));
    const items = t.items('s');
    assert.equal(items.length, 21);
    assert.ok(t.payloadBytes('s') <= 10_000);
    assert.deepEqual(items.map((i) => (i.first!.dropped ? 0 : 1)).join(''), '000000000011111111110');
    assert.equal(items[20].first!.message, undefined);
    assert.equal(items[20].name, 'info', 'the facts were read before the payload went');
  });

  test('a flood of 100,000 notifications stays within the bound and is filed quickly', () => {
    const t = new Timeline(() => ({ maxFrames: 20_000, maxPayloadBytes: 2 * 1024 * 1024 }));
    const message = notification('notifications/message', { level: 'debug', data: 'tick' });
    for (let i = 0; i < 100_000; i++) t.push('s', { direction: 'receive', message, bytes: 60, time: T0 + i });
    assert.equal(t.frameCount('s'), 20_000);
    assert.ok(t.payloadBytes('s') <= 2 * 1024 * 1024);
    assert.equal(t.items('s')[0].id, 80_001);
  });
});

describe('timeline: ticks in columns, their texts outside the heap', () => {
  const textFrame = (message: unknown, time: number): Frame => {
    const text = JSON.stringify(message);
    return { direction: 'receive', message, text, bytes: Buffer.byteLength(text) + 1, time: T0 + time };
  };

  test('a tick reads back as it was filed: its fields, its text (UTF-8 included) and its message; read twice, it is equal, not the same object', () => {
    const t = new Timeline();
    t.sessionStarted('s', T0);
    t.push('s', frame('send', request(7, 'tools/call', { name: 'build', _meta: { progressToken: 'p' } }), 1));
    t.push('s', textFrame(notification('notifications/progress', { progressToken: 'p', progress: 1, total: 4, message: 'naïve ✓ 𝄞 step' }), 2));
    t.push('s', textFrame(notification('notifications/message', { level: 'warning', logger: 'db', data: { rows: 3 } }), 3));
    t.push('s', frame('receive', { garbage: true }, 4));
    const [session, call, progress, log, invalid] = t.items('s');
    assert.deepEqual([session.kind, session.first], ['session', undefined]);
    assert.deepEqual([progress.kind, progress.name, progress.progress, progress.parent, progress.status, progress.lane], ['progress', 'naïve ✓ 𝄞 step', 0.25, call.id, 'none', -1]);
    assert.deepEqual(call.children, [progress.id]);
    assert.deepEqual(keptMessage(progress.first!), notification('notifications/progress', { progressToken: 'p', progress: 1, total: 4, message: 'naïve ✓ 𝄞 step' }));
    assert.equal(progress.first!.text, JSON.stringify(notification('notifications/progress', { progressToken: 'p', progress: 1, total: 4, message: 'naïve ✓ 𝄞 step' })));
    assert.equal(progress.first!.message, undefined, 'kept as its text');
    assert.deepEqual([log.kind, log.name, log.first!.time, log.first!.bytes, log.first!.dropped], ['notification', 'warning [db]', T0 + 3, log.first!.bytes, false]);
    assert.deepEqual([invalid.status, invalid.first!.text], ['error', undefined]);
    assert.deepEqual(invalid.first!.message, { garbage: true }, 'a frame without text keeps its message');
    const again = t.item('s', log.id)!;
    assert.notEqual(again, log);
    assert.deepEqual({ ...again, first: undefined }, { ...log, first: undefined });
  });

  test('spans and ticks interleaved, past the columns\' first size and past the ring: ids, parents, links and texts stay right', () => {
    const t = new Timeline(() => ({ maxFrames: 3000, maxPayloadBytes: 1 << 20 }));
    const texts = new Map<number, string>();
    let time = 0;
    for (let call = 1; call <= 2000; call++) {
      t.push('s', frame('send', request(call, 'tools/call', { name: `tool ${call}`, _meta: { progressToken: call } }), time++));
      for (let step = 1; step <= 2; step++) {
        const f = textFrame(notification('notifications/progress', { progressToken: call, progress: step, total: 2 }), time++);
        t.push('s', f);
        texts.set(t.items('s').at(-1)!.id, f.text!);
      }
      t.push('s', frame('receive', result(call, { content: [] }), time++));
    }
    const items = t.items('s');
    assert.equal(t.frameCount('s'), 3000);
    assert.equal(items.length, 2250, '750 calls of two frames, 1,500 ticks');
    assert.deepEqual(
      items.map((i) => i.id),
      items.map((_, n) => items[0].id + n),
      'contiguous ids',
    );
    for (const item of items) {
      if (item.kind === 'call') {
        assert.equal(item.status, 'ok');
        assert.deepEqual(item.children, [item.id + 1, item.id + 2]);
        continue;
      }
      assert.equal(item.kind, 'progress');
      const parent = t.item('s', item.parent!);
      // Its call: the span just before it (or the one before that), unless that one left the ring.
      if (parent) assert.deepEqual([parent.kind, item.id - parent.id <= 2], ['call', true]);
      else assert.ok(item.parent! < items[0].id);
      assert.equal(item.first!.text, texts.get(item.id), `the text of tick ${item.id}`);
    }
    assert.equal(t.item('s', items[0].id - 1), undefined, 'an item that left the ring is gone');
  });

  test('payloads past the budget are let go oldest first, ticks and spans alike; the count of kept bytes stays exact', () => {
    const t = new Timeline(() => ({ maxFrames: 10_000, maxPayloadBytes: 64 * 1024 }));
    for (let i = 0; i < 1000; i++) {
      if (i % 10 === 0) t.push('s', frame('send', request(i, 'ping'), i, 40));
      t.push('s', textFrame(notification('notifications/message', { level: 'info', data: `line ${i} ${'x'.repeat(200)}` }), i));
    }
    const items = t.items('s');
    const keptBytes = items.reduce((n, i) => n + [i.first, i.second].reduce((m, f) => m + (f && !f.dropped ? f.bytes : 0), 0), 0);
    assert.equal(t.payloadBytes('s'), keptBytes);
    assert.ok(keptBytes <= 64 * 1024 && keptBytes > 60 * 1024, `${keptBytes} bytes kept`);
    const firstKept = items.findIndex((i) => !i.first!.dropped);
    assert.ok(items.slice(firstKept).every((i) => !i.first!.dropped), 'the newest payloads are the kept ones');
    assert.ok(items.slice(0, firstKept).every((i) => i.first!.dropped && i.first!.text === undefined));
  });

  test('100,000 ticks with their texts: the JavaScript heap holds a few MiB (as objects they held about 48)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const frames = Array.from({ length: 100_000 }, (_, i) => textFrame(notification('notifications/message', { level: 'info', logger: 'flood', data: `flood line ${i} of 100000` }), i));
    gc();
    const before = process.memoryUsage();
    const t = new Timeline();
    for (const f of frames) t.push('s', f);
    gc();
    const after = process.memoryUsage();
    const heap = (after.heapUsed - before.heapUsed) / 1024 / 1024;
    assert.equal(t.frameCount('s'), 100_000);
    assert.ok(heap < 12, `the heap grew by ${heap.toFixed(1)} MiB`);
    assert.equal(t.items('s')[99_999].first!.text, frames[99_999].text);
  });
});

describe('timeline: filters and p95', () => {
  const t = new Timeline();
  // 20 calls of 1…20 ms, a slow one, an error, a server request, a notification.
  for (let i = 1; i <= 20; i++) {
    t.push('a', frame('send', request(i, 'tools/call', { name: 'echo' }), i * 100));
    t.push('a', frame('receive', result(i, {}), i * 100 + i));
  }
  t.push('a', frame('send', request(50, 'tools/call', { name: 'slow' }), 5000));
  t.push('a', frame('receive', result(50, {}), 5900));
  t.push('b', frame('send', request(1, 'resources/read', { uri: 'file:///x' }), 10));
  t.push('b', frame('receive', failure(1, -32002, 'nope'), 12));
  t.push('b', frame('receive', notification('notifications/message', { level: 'info' }), 13));
  const parent = (item: ItemSummary) => (item.parent !== undefined ? t.summary(item.server, item.parent) : undefined);
  const shown = (filter: Parameters<typeof itemFilter>[0]) => {
    const test = itemFilter(filter, (m) => t.p95(m), parent);
    return [...t.items('a'), ...t.items('b')].filter(test).map((i) => `${i.server}:${i.name ?? i.method}`);
  };

  test('p95 is over the recent answered calls of a method', () => {
    assert.equal(t.p95('tools/call'), 20);
    assert.equal(t.p95('resources/read'), 2);
    assert.equal(t.p95('nothing'), undefined);
  });

  test('by server, method, text, direction, errors and slowness', () => {
    assert.equal(shown({}).length, 23);
    assert.deepEqual(shown({ servers: ['b'] }), ['b:file:///x', 'b:info']);
    assert.deepEqual(shown({ methods: ['resources/read', 'notifications/message'] }), ['b:file:///x', 'b:info']);
    assert.deepEqual(shown({ text: 'SLO' }), ['a:slow']);
    assert.deepEqual(shown({ text: 'message' }), ['b:info']);
    assert.deepEqual(shown({ direction: 'receive' }), ['b:info']);
    assert.equal(shown({ direction: 'send' }).length, 22);
    assert.deepEqual(shown({ errors: true }), ['b:file:///x']);
    assert.deepEqual(shown({ slow: true }), ['a:slow']);
    assert.deepEqual(shown({ slow: true, servers: ['b'] }), []);
  });

  test('progress along a call follows its call', () => {
    const p = feed([
      ['send', request(1, 'tools/call', { name: 'long', _meta: { progressToken: 7 } }), 0],
      ['receive', notification('notifications/progress', { progressToken: 7, progress: 1 }), 5],
    ]);
    const test = itemFilter({ text: 'long' }, () => undefined, (item) => (item.parent !== undefined ? p.item(item.server, item.parent) : undefined));
    assert.deepEqual(p.items('s').map(test), [true, true]);
  });
});

describe('timeline: what a page is sent', () => {
  test('frames between two takes go out as one batch of rows; a filter sends a mask; evictions pass through', () => {
    const t = new Timeline(() => ({ maxFrames: 10, maxPayloadBytes: 1 << 20 }));
    let scheduled = 0;
    const view = new TimelineView(t, (id) => `name of ${id}`, () => scheduled++);
    const first = view.snapshot();
    assert.equal(first.count, 0);
    for (let i = 0; i < 8; i++) t.push('s', frame('receive', notification('notifications/message', { level: 'info', logger: 'x' }), i));
    t.push('s', frame('send', request(1, 'tools/call', { name: 'echo' }), 10));
    assert.equal(scheduled, 1, 'one schedule for many frames');
    const batch = view.take()!;
    const rows = decode(batch);
    assert.equal(rows.length, 9);
    assert.deepEqual(batch.servers, [{ index: 0, id: 's', name: 'name of s' }]);
    assert.deepEqual(rows.at(-1), { server: 0, id: 9, kind: 'call', status: 'open', shown: 1, lane: 0, start: T0 + 10, end: NaN, method: 'tools/call', name: 'echo', parent: -1, progress: NaN, direction: 0 });
    assert.equal(view.take(), undefined);

    t.push('s', frame('receive', result(1, {}), 14));
    const answered = decode(view.take()!);
    assert.deepEqual([answered[0].status, answered[0].end], ['ok', T0 + 14]);
    // 11 frames in a ring of 10: the oldest item goes.
    t.push('s', frame('receive', notification('notifications/message', { level: 'warning' }), 15));
    const evicting = view.take()!;
    assert.deepEqual(evicting.evicted, [[0, 2]]);

    const mask = view.setFilter({ methods: ['tools/call'] });
    assert.deepEqual(mask.servers.map((s) => [s.index, s.firstId, [...s.shown].join('')]), [[0, 2, '000000010']]);
    t.push('s', frame('send', request(2, 'tools/call', { name: 'x' }), 20));
    t.push('s', frame('receive', notification('notifications/message', { level: 'info' }), 21));
    assert.deepEqual(decode(view.take()!).map((r) => r.shown), [1, 0]);
    view.dispose();
  });

  test('the page’s string table stays bounded: past 50,000 names the view starts over with a full batch; methods offered are capped', () => {
    const t = new Timeline(() => ({ maxFrames: 1000, maxPayloadBytes: 1 << 20 }));
    const view = new TimelineView(t, (id) => id);
    view.snapshot();
    let resets = 0;
    let largest = 0;
    for (let i = 0; i < 61_000; i++) {
      const method = i < 60_000 ? 'notifications/message' : `custom/n${i}`;
      t.push('s', frame('receive', notification(method, { level: 'info', logger: `l${i}` }), i));
      if (i % 500 === 499) {
        const batch = view.take()!;
        if (batch.reset) resets++;
        largest = Math.max(largest, batch.methods?.length ?? 0);
        // A full batch holds what the ring holds, never more.
        if (batch.reset) assert.ok(batch.count <= 1000);
      }
    }
    assert.ok(resets >= 1, 'the table started over');
    assert.equal(largest, 500);
    view.dispose();
  });

  test('a column is packed in the fewest bytes that give every value back exactly', () => {
    const cases: Array<[number[], (c: PackedColumn) => boolean, string]> = [
      [[7, 7, 7], (c) => c === 7, 'one value for all'],
      [[NaN, NaN], (c) => c === null, 'NaN as null (JSON has no NaN)'],
      [[41, 42, 43, 44], (c) => typeof c === 'object' && c !== null && !ArrayBuffer.isView(c) && c.from === 41, 'ids counting up'],
      [[0, 1, 0, 255], (c) => c instanceof Uint8Array, 'bytes'],
      [[-1, 3, 100], (c) => c instanceof Int8Array, 'small signed (-1 is none)'],
      [[-1, 300], (c) => c instanceof Int16Array, 'signed 16 bits'],
      [[0, 70_000], (c) => c instanceof Uint32Array, 'unsigned 32 bits'],
      [[-1, 3_000_000_001], (c) => c instanceof Float64Array, 'past Int32 with a sign: Float64'],
      [[0.5, NaN, 0.25], (c) => c instanceof Float32Array, 'fractions Float32 holds exactly'],
      [[0.1, 0.2], (c) => c instanceof Float64Array, 'fractions it does not'],
      [[T0 + 0.125, T0 + 3], (c) => c instanceof Float64Array, 'times'],
      [[0, -0, 1], (c) => c instanceof Float32Array, '-0 kept'],
      [[Number.MAX_SAFE_INTEGER, 1], (c) => c instanceof Float64Array, 'large ids'],
    ];
    for (const [values, shape, what] of cases) {
      const packed = packColumn(Float64Array.from(values));
      assert.ok(shape(packed), `${what}: ${String(packed)}`);
      const back = [...unpackColumn(packed, values.length)];
      assert.ok(back.length === values.length && back.every((v, i) => Object.is(v, values[i])), `${what}: ${back} for ${values}`);
    }
    assert.throws(() => unpackColumn(new Uint8Array(2), 3), /a column of 2 values for 3 rows/);
    // Random rows of every kind come back exactly.
    for (let round = 0; round < 200; round++) {
      const values = Float64Array.from({ length: 1 + (round % 17) }, (_, i) => [i, -i * 1000, Math.random(), T0 + i * 0.5, NaN, round][round % 6]);
      const back = unpackColumn(packColumn(values), values.length);
      assert.ok(back.every((v, i) => Object.is(v, values[i])), `round ${round}`);
    }
  });

  test('a flood of notifications goes to the page in about 8 bytes an item (its times), not 8 per field', () => {
    const t = new Timeline(() => ({ maxFrames: 10_000, maxPayloadBytes: 1 << 20 }));
    const view = new TimelineView(t, (id) => id);
    decode(view.snapshot());
    for (let i = 0; i < 2000; i++) t.push('s', frame('receive', notification('notifications/message', { level: 'info', data: `line ${i}` }), i * 0.37));
    const batch = view.take()!;
    assert.equal(batch.count, 2000);
    const bytes = packedByteLength(Object.values(batch.columns));
    assert.ok(bytes <= 2000 * 8 + 13 * 8, `${bytes} bytes for 2,000 items`);
    const rows = decode(batch);
    assert.deepEqual(rows.map((r) => r.id), rows.map((_, k) => k + 1));
    assert.deepEqual(rows[1999], { server: 0, id: 2000, kind: 'notification', status: 'none', shown: 1, lane: -1, start: T0 + 1999 * 0.37, end: NaN, method: 'notifications/message', name: 'info', parent: -1, progress: NaN, direction: 1 });
    view.dispose();
  });

  // Decodes a batch with its own string table (the page keeps one across batches; these tests start fresh each time).
  const strings: string[] = [];
  function decode(batch: TimelineBatch) {
    if (batch.reset) strings.length = 0;
    strings.push(...(batch.strings ?? []));
    const out: Record<string, unknown>[] = [];
    const columns = ITEM_FIELDS.map((f) => unpackColumn(batch.columns[f], batch.count));
    for (let k = 0; k < batch.count; k++) {
      const row: Record<string, unknown> = {};
      ITEM_FIELDS.forEach((f, i) => (row[f] = columns[i][k]));
      row.kind = ITEM_KINDS[row.kind as number];
      row.status = ITEM_STATUSES[row.status as number];
      row.method = strings[row.method as number];
      row.name = (row.name as number) >= 0 ? strings[row.name as number] : undefined;
      if (row.name === undefined) delete row.name;
      out.push(row);
    }
    return out;
  }
});

describe('timeline: details, history and export', () => {
  test('details fold large payloads and redact secrets before cutting them', () => {
    const redactor = new Redactor(['sk-secret-value-123']);
    const long = `${'a'.repeat(3990)}sk-secret-value-123${'b'.repeat(10_000)}`;
    const folded = foldForDisplay({ text: long, list: Array.from({ length: 500 }, (_, i) => i), headers: { authorization: 'Bearer abc.def' } }, (s) => redactor.redact(s));
    const v = folded.value as { text: string; list: unknown[]; headers: { authorization: string } };
    assert.equal(folded.cut, true);
    assert.doesNotMatch(JSON.stringify(v), /sk-secret|sk-sec|abc\.def/);
    assert.match(v.text, /^a{3990}••••b+… \[[\d,]+ more characters\]$/);
    assert.equal(v.list.length, 201);
    assert.equal(v.list[200], '… 300 more items');
    assert.equal(v.headers.authorization, 'Bearer ••••');
  });

  test('an item’s details: both frames, what is linked, what was let go', () => {
    const t = feed([
      ['send', request(1, 'tools/call', { name: 'long', arguments: { token: 'sk-secret-value-123' }, _meta: { progressToken: 1 } }), 0],
      ['receive', notification('notifications/progress', { progressToken: 1, progress: 1, total: 2 }), 5],
      ['receive', result(1, { content: [{ type: 'text', text: 'done' }] }), 9],
    ]);
    const redactor = new Redactor(['sk-secret-value-123']);
    const d = itemDetails(t, 's', 1, (s) => redactor.redact(s))!;
    assert.equal(d.frames.length, 2);
    assert.deepEqual((d.frames[0].json as { params: { arguments: unknown } }).params.arguments, { token: '••••' });
    assert.deepEqual((d.frames[1].json as { result: unknown }).result, { content: [{ type: 'text', text: 'done' }] });
    assert.deepEqual(d.links, [{ id: 2, label: 'notifications/progress · 50%', time: T0 + 5 }]);
    assert.deepEqual(itemDetails(t, 's', 2, (s) => s)!.parent, { id: 1, label: 'tools/call long · 9 ms', time: T0 });
    assert.equal(itemDetails(t, 's', 99, (s) => s), undefined);
  });

  test('a tools/call span finds its history entry: same server and tool, started just before it', () => {
    const history = new CallHistory();
    const older = history.add({ serverId: 's', kind: 'tool', name: 'echo', outcome: 'ok', summary: 'a', durationMs: 3, time: T0 - 60_000 });
    const mine = history.add({ serverId: 's', kind: 'tool', name: 'echo', outcome: 'ok', summary: 'b', durationMs: 3, time: T0 - 4 });
    history.add({ serverId: 's', kind: 'tool', name: 'other', outcome: 'ok', summary: 'c', durationMs: 3, time: T0 - 2 });
    const t = feed([
      ['send', request(1, 'tools/call', { name: 'echo' }), 0],
      ['send', request(2, 'tools/list'), 1],
    ]);
    assert.equal(historyEntryFor(t.items('s')[0], history.list('s'))?.id, mine.id);
    assert.notEqual(mine.id, older.id);
    assert.equal(historyEntryFor(t.items('s')[1], history.list('s')), undefined);
  });

  test('an export of chosen spans is a recording of their frames (with the handshake) that replays', () => {
    const t = feed([
      ['send', request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }), 0],
      ['receive', result(0, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }), 3],
      ['send', notification('notifications/initialized'), 4],
      ['send', request(1, 'tools/list'), 5],
      ['receive', result(1, { tools: [] }), 8],
      ['send', request(2, 'tools/call', { name: 'ask', arguments: { secret: 'sk-secret-value-123' } }), 100],
      ['receive', request(0, 'elicitation/create', { message: 'Name?', requestedSchema: { type: 'object', properties: {} } }), 101],
      ['send', result(0, { action: 'accept', content: {} }), 150],
      ['receive', result(2, { content: [{ type: 'text', text: 'hi' }] }), 160],
      ['send', request(3, 'ping'), 500],
      ['receive', result(3, {}), 501],
    ]);
    const exported = selectionFrames(t, { server: 's', ids: [4] });
    assert.equal(exported.leftOut, 0);
    assert.equal(exported.protocolVersion, '2025-11-25');
    assert.deepEqual(exported.frames.map((f) => (f.message as { method?: string }).method ?? 'answer'), ['initialize', 'answer', 'notifications/initialized', 'tools/call', 'elicitation/create', 'answer', 'answer']);
    const lines: string[] = [];
    const redactor = new Redactor(['sk-secret-value-123']);
    const writer = new RecordingWriter(wholeLines((line) => lines.push(line)), (s) => redactor.redact(s), { server: 'node server.js', protocolVersion: exported.protocolVersion }, exported.frames[0].time);
    for (const f of exported.frames) writer.frame(f);
    const text = lines.join('\n');
    assert.doesNotMatch(text, /sk-secret/);
    const recording = parseRecording(text, 'export.jsonl');
    assert.equal(recording.frames[0].t, 0);
    const plan = replayPlan(recording);
    assert.deepEqual(plan.steps.map((s) => s.method), ['tools/call']);
    assert.deepEqual(plan.replies.map((r) => r.method), ['elicitation/create']);
    // A time range takes what starts in it.
    const ranged = selectionFrames(t, { server: 's', range: { from: T0 + 400, to: T0 + 600 } });
    assert.deepEqual(ranged.frames.filter((f) => (f.message as { method?: string }).method === 'ping').length, 1);
    // The recording opens as a timeline again, with the same span.
    const reopened = recordingTimeline(recording, 'rec');
    assert.deepEqual(reopened.items('rec').map(summary).slice(1), ['call initialize ok 3ms', 'notification notifications/initialized none', 'call tools/call ask ok 60ms', 'serverCall elicitation/create Name? ok 49ms ↑4']);
  });

  test("a frame's own text is what the timeline keeps, shows and exports: as the server wrote it, secrets redacted", () => {
    const t = new Timeline(() => ({ maxFrames: 100, maxPayloadBytes: 1 << 20 }));
    const call = request(1, 'tools/call', { name: 'echo', arguments: { token: 'sk-secret-value-123' } });
    // As a server may print it: spaces between the tokens, keys in its own order.
    const answerText = '{ "result": {"content": [{"type": "text", "text": "hi"}]}, "id": 1, "jsonrpc": "2.0" }';
    t.push('s', { ...frame('send', call, 0), text: JSON.stringify(call) });
    t.push('s', { ...frame('receive', JSON.parse(answerText), 5, Buffer.byteLength(answerText)), text: answerText });
    const [span] = t.items('s');
    assert.equal(span.second!.text, answerText);
    assert.equal(span.second!.message, undefined);
    assert.deepEqual(keptMessage(span.second!), JSON.parse(answerText));
    const redactor = new Redactor(['sk-secret-value-123']);
    const d = itemDetails(t, 's', span.id, (s) => redactor.redact(s))!;
    assert.deepEqual((d.frames[0].json as { params: { arguments: unknown } }).params.arguments, { token: '••••' });
    assert.deepEqual((d.frames[1].json as { result: unknown }).result, { content: [{ type: 'text', text: 'hi' }] });
    const exported = selectionFrames(t, { server: 's', ids: [span.id] });
    const lines: string[] = [];
    const writer = new RecordingWriter(wholeLines((line) => lines.push(line)), (text) => redactor.redact(text), { server: 'node server.js' }, T0);
    for (const f of exported.frames) writer.frame(f);
    const text = lines.join('\n');
    assert.ok(text.includes(`"message":${answerText}}`), 'the answer as the server wrote it');
    assert.doesNotMatch(text, /sk-secret/);
    const recording = parseRecording(text, 'export.jsonl');
    assert.deepEqual(recording.frames.map((f) => [f.t, f.dir, f.bytes]), [[0, 'send', exported.frames[0].bytes], [5, 'receive', Buffer.byteLength(answerText)]]);
    assert.deepEqual(recording.frames[1].message, JSON.parse(answerText));
    assert.deepEqual((recording.frames[0].message as { params: { arguments: unknown } }).params.arguments, { token: '••••' });
    // Its payload let go, the text goes too.
    const small = new Timeline(() => ({ maxFrames: 100, maxPayloadBytes: 200 }));
    small.push('s', { ...frame('receive', JSON.parse(answerText), 0, 150), text: answerText });
    small.push('s', { ...frame('receive', JSON.parse(answerText), 1, 150), text: answerText });
    const first = small.items('s')[0];
    assert.equal(first.first!.dropped, true);
    assert.equal(first.first!.text, undefined);
  });

  test('frames whose payload was let go are counted, not written', () => {
    const t = new Timeline(() => ({ maxFrames: 100, maxPayloadBytes: 100 }));
    t.push('s', frame('send', request(1, 'tools/call', { name: 'a' }), 0, 50));
    t.push('s', frame('receive', result(1, { content: [] }), 1, 500));
    const exported = selectionFrames(t, { server: 's', ids: [1] });
    assert.deepEqual([exported.frames.length, exported.leftOut], [1, 1]);
  });
});

describe('timeline: a real server', { timeout: 60_000 }, () => {
  let close: (() => Promise<void>) | undefined;
  after(async () => close?.());

  test('server-everything: calls become spans, progress is linked to its call, stats come from the answers', async () => {
    const timeline = new Timeline();
    const { client } = await connectStdio('node', EVERYTHING);
    close = () => client.close();
    // The session's first frames were before we listened: a timeline attached later starts a session.
    timeline.sessionStarted('everything', Date.now());
    client.onFrame((f) => timeline.push('everything', f));
    await client.callTool('echo', { message: 'hello' });
    const progress: number[] = [];
    await client.callTool('trigger-long-running-operation', { duration: 1, steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    await client.request('ping', undefined, z.unknown());
    const items = timeline.items('everything');
    const echo = items.find((i) => i.name === 'echo')!;
    assert.equal(echo.status, 'ok');
    assert.ok(echo.end! >= echo.start);
    const long = items.find((i) => i.name === 'trigger-long-running-operation')!;
    await waitFor(() => long.status === 'ok', 5000, 'the long call answered');
    const linked = items.filter((i) => i.parent === long.id && i.kind === 'progress');
    assert.equal(linked.length, progress.length);
    assert.ok(linked.length >= 2, `${linked.length} progress items`);
    assert.equal(long.progress, 1);
    assert.ok(timeline.p95('tools/call')! >= 0);
    assert.ok(items.some((i) => i.method === 'ping' && i.status === 'ok'));
  });

  test('server-everything: frames come with their text on one line (a received one only without escapes), which the timeline keeps instead of the tree', async () => {
    const timeline = new Timeline();
    const { client } = await connectStdio('node', EVERYTHING);
    const frames: Frame[] = [];
    client.onFrame((f) => {
      frames.push(f);
      timeline.push('everything', f);
    });
    try {
      await client.callTool('echo', { message: 'hello "text"' });
      await client.request('ping', undefined, z.unknown());
    } finally {
      await client.close();
    }
    assert.ok(frames.length >= 4, `${frames.length} frames`);
    for (const f of frames) {
      if (f.direction === 'send') assert.equal(f.text, JSON.stringify(f.message), 'what was sent, as sent');
      if (f.text === undefined) continue;
      assert.doesNotMatch(f.text, /\n/);
      assert.deepEqual(JSON.parse(f.text), f.message);
      assert.equal(Buffer.byteLength(f.text), f.bytes);
    }
    const items = timeline.items('everything');
    // The echo's answer holds escaped quotes: its strings do not read as written, so no text
    // (redaction must see the strings as parsed), and the timeline keeps the parsed answer.
    const echo = items.find((i) => i.name === 'echo')!;
    assert.equal(echo.first!.message, undefined, 'the request: its text, no parsed tree');
    assert.equal(typeof echo.first!.text, 'string');
    assert.equal(echo.second!.text, undefined);
    assert.deepEqual((keptMessage(echo.second!) as { result: { content: unknown } }).result.content, [{ type: 'text', text: 'Echo: hello "text"' }]);
    const ping = items.find((i) => i.method === 'ping')!;
    assert.equal(typeof ping.second!.text, 'string', 'an answer without escapes keeps its text');
    assert.equal(ping.second!.message, undefined);
    assert.ok(frames.filter((f) => f.direction === 'receive').every((f) => (f.text === undefined) === JSON.stringify(f.message).includes('\\')));
  });
});
