import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Frame } from '../../src/protocol/connection';
import * as z from '../../src/protocol/zod';
import { itemFilter } from '../../src/timeline/timelineFilter';
import { MAX_LANES, Timeline, keptMessage, type ItemSummary } from '../../src/timeline/timelineModel';
import { EVERYTHING, connectStdio, waitFor } from '../client/support';
import { T0, failure, feed, frame, notification, request, result, summary } from './support';

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
    // Each tick's id as the timeline announces it (the newest item its push changed): reading the
    // whole list after each push made the test quadratic (27 s of the unit stream).
    let newest = -1;
    t.observe({ changed: (_server, id) => void (newest = Math.max(newest, id)), evicted: () => {} });
    let time = 0;
    for (let call = 1; call <= 2000; call++) {
      t.push('s', frame('send', request(call, 'tools/call', { name: `tool ${call}`, _meta: { progressToken: call } }), time++));
      for (let step = 1; step <= 2; step++) {
        const f = textFrame(notification('notifications/progress', { progressToken: call, progress: step, total: 2 }), time++);
        t.push('s', f);
        texts.set(newest, f.text!);
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
