import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Frame } from '../../src/protocol/connection';
import { FrameRing } from '../../src/protocol/frameRing';

const frame = (n: number, bytes = 10): Frame => ({ direction: n % 2 ? 'send' : 'receive', message: { jsonrpc: '2.0', id: n }, bytes, time: 1000 + n });

test('the ring keeps the newest frames by count, by reference, with increasing sequence numbers', () => {
  const ring = new FrameRing({ maxFrames: 3, maxBytes: 1000 });
  const frames = [1, 2, 3, 4, 5].map((n) => frame(n));
  for (const f of frames) ring.push(f);
  const kept = ring.since(0);
  assert.deepEqual(kept.map((f) => f.message), [frames[2].message, frames[3].message, frames[4].message]);
  assert.equal(kept[0].message, frames[2].message, 'the message object itself, not a copy');
  assert.deepEqual(kept.map((f) => f.seq), [3, 4, 5]);
  assert.deepEqual(ring.since(4).map((f) => f.seq), [5]);
});

test('the ring is bounded by bytes; a frame larger than the whole ring keeps only its size', () => {
  const ring = new FrameRing({ maxFrames: 100, maxBytes: 100 });
  ring.push(frame(1, 60));
  ring.push(frame(2, 30));
  ring.push(frame(3, 30)); // 120 bytes: the first goes
  assert.deepEqual(ring.since(0).map((f) => f.seq), [2, 3]);
  ring.push(frame(4, 5000));
  const [, , huge] = ring.since(0);
  assert.equal(huge.omitted, true);
  assert.equal(huge.message, undefined);
  assert.equal(huge.bytes, 5000);
  for (let n = 5; n < 400; n++) ring.push(frame(n, 1));
  assert.equal(ring.size, 100);
  assert.deepEqual(ring.since(0).at(-1)?.seq, 399);
});

test('a frame with its text keeps the text alone (a flat string, not the parsed tree)', () => {
  const ring = new FrameRing({ maxFrames: 3, maxBytes: 1000 });
  ring.push({ ...frame(1), text: '{"jsonrpc":"2.0","id":1}' });
  ring.push(frame(2));
  const [withText, without] = ring.since(0);
  assert.equal(withText.text, '{"jsonrpc":"2.0","id":1}');
  assert.equal(withText.message, undefined);
  assert.deepEqual(without.message, { jsonrpc: '2.0', id: 2 });
});

test('push gives back the frame as kept (its text alone), and lastSeq the number it got', () => {
  const ring = new FrameRing({ maxFrames: 2, maxBytes: 100 });
  assert.equal(ring.lastSeq, 0);
  const withText = { ...frame(1), text: '{"jsonrpc":"2.0","id":1}' };
  const kept = ring.push(withText);
  assert.deepEqual([kept.text, kept.message, kept.bytes, kept.time, kept.omitted], [withText.text, undefined, 10, 1001, undefined]);
  const plain = frame(2);
  assert.equal(ring.push(plain), plain, 'a frame without text is kept by reference');
  assert.equal(ring.lastSeq, 2);
  const huge = ring.push(frame(3, 500));
  assert.deepEqual([huge.omitted, huge.message, huge.bytes], [true, undefined, 500]);
  assert.equal(ring.lastSeq, 3);
  assert.deepEqual(ring.since(1).map((f) => [f.seq, f.omitted]), [[2, undefined], [3, true]]);
});
