import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PendingLines } from '../../src/usecases/pendingLines';

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
});
