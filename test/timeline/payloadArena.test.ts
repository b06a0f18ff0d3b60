import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PayloadArena } from '../../src/timeline/payloadArena';

describe('the timeline ticks\' payload arena', () => {
  const store = (arena: PayloadArena, text: string) => {
    arena.write(text);
    return { chunk: arena.lastChunk, offset: arena.lastOffset, length: arena.lastLength, text };
  };

  test('texts read back as written, UTF-8 and a text larger than a quarter chunk included', () => {
    const arena = new PayloadArena();
    const placed = ['{"a":1}', 'naïve ✓ 𝄞', '', 'x'.repeat(400_000), 'after the big one'].map((t) => store(arena, t));
    for (const p of placed) assert.equal(arena.read(p.chunk, p.offset, p.length), p.text);
    assert.equal(placed[1].length, Buffer.byteLength('naïve ✓ 𝄞'));
    assert.notEqual(placed[3].chunk, placed[2].chunk, 'the big text has a chunk of its own');
    assert.equal(placed[4].chunk, placed[2].chunk, 'the small ones go on in the current chunk');
  });

  test('a chunk is let go with its last text, never while new texts still go to it', () => {
    const arena = new PayloadArena();
    const line = 'y'.repeat(1000);
    const placed = Array.from({ length: 2500 }, () => store(arena, line));
    const chunks = [...new Set(placed.map((p) => p.chunk))];
    assert.equal(chunks.length, 3, 'about 1,000 texts per MiB chunk');
    assert.equal(arena.heldBytes, 3 * 1024 * 1024);
    // Let go of every text of the first chunk: it goes.
    for (const p of placed.filter((p) => p.chunk === chunks[0])) arena.release(p.chunk);
    assert.equal(arena.heldBytes, 2 * 1024 * 1024);
    assert.throws(() => arena.read(placed[0].chunk, placed[0].offset, placed[0].length), /already let go/);
    // Every text of the current chunk let go: it stays, and takes the next text.
    for (const p of placed.filter((p) => p.chunk === chunks[2])) arena.release(p.chunk);
    assert.equal(arena.heldBytes, 2 * 1024 * 1024);
    const next = store(arena, 'next');
    assert.equal(next.chunk, chunks[2]);
    assert.equal(arena.read(next.chunk, next.offset, next.length), 'next');
    // The middle chunk is untouched.
    const middle = placed.find((p) => p.chunk === chunks[1])!;
    assert.equal(arena.read(middle.chunk, middle.offset, middle.length), line);
  });
});
