// Lines waiting to be written to a file, held as their UTF-8 bytes in a buffer outside the
// JavaScript heap. A recording of a flood collects thousands of lines between two writes; held as
// strings, each one lived through the garbage collector's young-generation pauses and was copied
// by every one of them, as many as the timeline's items (measured in the plain-Node flood: the
// recorder alone took the longest young-generation pause from 6 ms to 17 ms). Encoded at once,
// the string is garbage as soon as it is appended. No `vscode`.

/** Room for this many bytes at first, and again after each `take`. */
const DEFAULT_CAPACITY = 256 * 1024;
/** The most bytes one UTF-16 code unit becomes in UTF-8 (a lone surrogate becomes U+FFFD's three). */
const MAX_BYTES_PER_UNIT = 3;

export class PendingLines {
  private buffer: Buffer;
  private used = 0;

  constructor(private readonly capacity = DEFAULT_CAPACITY) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  /** Bytes waiting, newlines included. */
  get bytes(): number {
    return this.used;
  }

  /**
   * Appends a line and a newline: `head`, then `message` and `tail` when given, each encoded into
   * the buffer where it is (the buffer grows for a line larger than the room left).
   */
  append(head: string, message = '', tail = ''): void {
    const worst = (head.length + message.length + tail.length) * MAX_BYTES_PER_UNIT + 1;
    if (this.used + worst > this.buffer.length) {
      const need = this.used + Buffer.byteLength(head, 'utf8') + Buffer.byteLength(message, 'utf8') + Buffer.byteLength(tail, 'utf8') + 1;
      if (need > this.buffer.length) this.grow(need);
    }
    this.used += this.buffer.write(head, this.used, 'utf8');
    if (message) this.used += this.buffer.write(message, this.used, 'utf8');
    if (tail) this.used += this.buffer.write(tail, this.used, 'utf8');
    this.buffer[this.used++] = 0x0a;
  }

  /** The waiting bytes, handed over: the next lines go to a new buffer (a write in flight keeps its own). */
  take(): Buffer {
    const out = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(this.capacity);
    this.used = 0;
    return out;
  }

  private grow(need: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(need, this.buffer.length * 2));
    this.buffer.copy(bigger, 0, 0, this.used);
    this.buffer = bigger;
  }
}
