import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Frame } from '../../src/protocol/connection';
import { PendingLines } from '../../src/usecases/pendingLines';
import { RecordingWriter, parseRecording, wholeLines } from '../../src/usecases/recording';

describe('lines waiting for a write, as bytes', () => {
  test('lines come out as UTF-8, each with its newline, in order; take starts over empty', () => {
    const lines = new PendingLines(64);
    lines.append('{"a":1}');
    lines.append('naïve ✓ 𝄞');
    lines.append('');
    const expected = '{"a":1}\nnaïve ✓ 𝄞\n\n';
    assert.equal(lines.bytes, Buffer.byteLength(expected));
    assert.equal(lines.take().toString('utf8'), expected);
    assert.equal(lines.bytes, 0);
    lines.append('next');
    assert.equal(lines.take().toString('utf8'), 'next\n');
  });

  test('a line larger than the room left, or than the whole buffer, grows it and loses nothing', () => {
    const lines = new PendingLines(16);
    const written: string[] = [];
    for (let n = 0; n < 50; n++) {
      const line = `${n}:${'é'.repeat(n * 7)}`;
      written.push(line);
      lines.append(line);
    }
    assert.equal(lines.take().toString('utf8'), written.map((l) => `${l}\n`).join(''));
  });

  test('a lone surrogate becomes U+FFFD, as a file written from the string would have it', () => {
    const lines = new PendingLines(4);
    const odd = `x\ud800y${'\udc00'.repeat(5)}`;
    lines.append(odd);
    assert.equal(lines.take().toString('utf8'), Buffer.from(`${odd}\n`, 'utf8').toString('utf8'));
  });

  test('a buffer handed over stays as it was while more lines come (a write in flight keeps its bytes)', () => {
    const lines = new PendingLines(32);
    lines.append('first');
    const taken = lines.take();
    for (let n = 0; n < 20; n++) lines.append(`later ${n}`);
    assert.equal(taken.toString('utf8'), 'first\n');
  });

  test('a line given in parts is the parts in order, each encoded where it is; the buffer grows across them', () => {
    const lines = new PendingLines(8);
    lines.append('{"t":1,"message":', '{"text":"naïve 𝄞 ✓"}', '}');
    lines.append('head only');
    lines.append('', 'é'.repeat(40), '');
    assert.equal(lines.take().toString('utf8'), `{"t":1,"message":{"text":"naïve 𝄞 ✓"}}\nhead only\n${'é'.repeat(40)}\n`);
  });

  test("a recording written in parts is byte for byte the recording written by whole lines, secrets redacted in the frames' text", () => {
    const redact = (text: string) => text.split('sk-secret-1234').join('••••');
    const frames: Frame[] = [
      { direction: 'send', time: 1_000, bytes: 60, message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { key: 'sk-secret-1234' } } } },
      { direction: 'receive', time: 1_007, bytes: 41, message: undefined, text: '{"jsonrpc":"2.0","id":1,"result":{"n":"é sk-secret-1234"}}' },
      { direction: 'receive', time: 1_009, bytes: 55, message: undefined, text: '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"𝄞"}}' },
    ] as Frame[];
    const whole: string[] = [];
    const byLines = new RecordingWriter(wholeLines((line) => whole.push(line)), redact, { server: 'node s.js' }, 1_000);
    const pending = new PendingLines(16);
    const byParts = new RecordingWriter((head, message, tail) => pending.append(head, message, tail), redact, { server: 'node s.js' }, 1_000);
    for (const frame of frames) {
      byLines.frame(frame);
      byParts.frame(frame);
    }
    const text = pending.take().toString('utf8');
    assert.equal(text, `${whole.join('\n')}\n`);
    assert.doesNotMatch(text, /sk-secret/);
    const recording = parseRecording(text, 'parts.jsonl');
    assert.deepEqual(recording.frames.map((f) => [f.t, f.dir, f.bytes]), [[0, 'send', 60], [7, 'receive', 41], [9, 'receive', 55]]);
    assert.deepEqual(recording.frames[1].message, { jsonrpc: '2.0', id: 1, result: { n: 'é ••••' } });
  });
});
