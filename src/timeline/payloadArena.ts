// The texts of a server's timeline ticks, as UTF-8 in chunks of memory outside the JavaScript heap.
// A flood keeps 100,000 of them: as strings each one lived through every young-generation pause of
// the garbage collector until it was promoted, and those pauses stalled the extension host. A chunk
// is let go once every text in it was. No `vscode`.

/** Bytes of a chunk; a text longer than a quarter of it gets a chunk of its own. */
const CHUNK_BYTES = 1024 * 1024;

interface Chunk {
  readonly bytes: Buffer;
  used: number;
  /** Texts in it not let go yet. */
  live: number;
}

/** Where a text went: its chunk, offset and length in bytes, read from `lastChunk`, `lastOffset`, `lastLength` after `write` (no object per text). */
export class PayloadArena {
  private readonly chunks = new Map<number, Chunk>();
  private current = -1;
  private nextChunk = 0;
  lastChunk = -1;
  lastOffset = 0;
  lastLength = 0;

  /** Bytes held in chunks (their whole size: for tests and figures). */
  get heldBytes(): number {
    let n = 0;
    for (const c of this.chunks.values()) n += c.bytes.length;
    return n;
  }

  /** Stores `text`; its place is in lastChunk, lastOffset and lastLength. */
  write(text: string): void {
    const most = text.length * 3;
    let chunk = this.chunks.get(this.current);
    if (most > CHUNK_BYTES / 4) {
      const bytes = Buffer.from(text, 'utf8');
      this.lastChunk = this.nextChunk++;
      this.chunks.set(this.lastChunk, { bytes, used: bytes.length, live: 1 });
      this.lastOffset = 0;
      this.lastLength = bytes.length;
      return;
    }
    if (!chunk || chunk.used + most > chunk.bytes.length) {
      if (chunk && chunk.live === 0) this.chunks.delete(this.current);
      this.current = this.nextChunk++;
      chunk = { bytes: Buffer.allocUnsafe(CHUNK_BYTES), used: 0, live: 0 };
      this.chunks.set(this.current, chunk);
    }
    const offset = chunk.used;
    const length = chunk.bytes.write(text, offset, 'utf8');
    chunk.used += length;
    chunk.live++;
    this.lastChunk = this.current;
    this.lastOffset = offset;
    this.lastLength = length;
  }

  read(chunkId: number, offset: number, length: number): string {
    const chunk = this.chunks.get(chunkId);
    if (!chunk) throw new Error(`payload chunk ${chunkId} was already let go`);
    return chunk.bytes.toString('utf8', offset, offset + length);
  }

  /** One text of the chunk is let go; the chunk goes with its last (unless new texts still go to it). */
  release(chunkId: number): void {
    const chunk = this.chunks.get(chunkId);
    if (!chunk) return;
    chunk.live--;
    if (chunk.live <= 0 && chunkId !== this.current) this.chunks.delete(chunkId);
  }

  clear(): void {
    this.chunks.clear();
    this.current = -1;
  }
}
