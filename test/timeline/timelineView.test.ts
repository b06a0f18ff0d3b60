import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Redactor } from '../../src/protocol/redaction';
import { CallHistory } from '../../src/usecases/history';
import { RecordingWriter, parseRecording, replayPlan, wholeLines } from '../../src/usecases/recording';
import { recordingTimeline } from '../../src/timeline/recordingTimeline';
import { Timeline, keptMessage } from '../../src/timeline/timelineModel';
import { foldForDisplay, historyEntryFor, itemDetails, selectionFrames } from '../../src/timeline/timelineSelection';
import { ITEM_FIELDS, ITEM_KINDS, ITEM_STATUSES, TimelineBatch, TimelineView } from '../../src/timeline/timelineView';
import { packColumn, packedByteLength, unpackColumn, type PackedColumn } from '../../src/timeline/packedColumn';
import { T0, feed, frame, notification, request, result, summary } from './support';

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
