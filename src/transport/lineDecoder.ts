import { StringDecoder } from 'node:string_decoder';
import { TransportLog } from '../protocol/transport';
import { errorMessage } from '../protocol/errors';
import { formatByteLimit, truncate } from '../protocol/text';

/** The default cap on one inbound message: 128 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

/** How much of a skipped line is quoted in its log entry. */
const QUOTE_BYTES = 200;

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

export interface LineDecoderOptions {
  /** Largest accepted line in bytes, without its line ending. Default 128 MiB. */
  readonly maxMessageBytes?: number;
}

/** Where the decoder delivers its output. Callbacks must not throw (the transport passes `Emitter.fire`, which never does). */
export interface LineDecoderSink {
  /** One parsed JSON object or array, with the byte length of its line (line ending excluded) and the line's text. */
  message(message: unknown, bytes: number, text: string): void;
  /** A line that was skipped: `noise`, `invalid-json` or `oversize`. */
  log(log: TransportLog): void;
}

/** Counters of what the decoder has seen so far. */
export interface LineDecoderStats {
  readonly messages: number;
  /** Lines that did not start with `{` or `[`. */
  readonly noiseLines: number;
  /** Lines that started like JSON but did not parse. */
  readonly invalidJsonLines: number;
  readonly oversizeLines: number;
  /** Bytes of oversize lines that were thrown away. */
  readonly droppedBytes: number;
}

/**
 * Splits a byte stream into newline-delimited JSON messages.
 *
 * Time is linear in the bytes received: a partial line is kept as a list of chunks and only
 * new bytes are scanned for `\n`; a line is copied once, when it is complete. Lines are decoded
 * from bytes only once whole, so a multi-byte character split across chunks is safe (a UTF-8
 * continuation byte is never 0x0A). `\r\n` is accepted and blank lines are skipped. A line longer
 * than the cap is never buffered: its chunks are dropped as soon as the cap is crossed and the
 * decoder skips to the next newline. Lines that are not JSON objects or arrays are reported and
 * skipped, never fatal.
 */
export class LineDecoder {
  /** Largest accepted line in bytes. */
  readonly maxMessageBytes: number;

  /** Chunks of the current incomplete line (views into the received buffers, never copies). */
  private chunks: Buffer[] = [];
  private pendingLength = 0;
  /** True while skipping the rest of an oversize line. */
  private discarding = false;
  private discardedInLine = 0;

  private counters = { messages: 0, noiseLines: 0, invalidJsonLines: 0, oversizeLines: 0, droppedBytes: 0 };

  constructor(
    private readonly sink: LineDecoderSink,
    options: LineDecoderOptions = {},
  ) {
    const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxMessageBytes must be a positive integer, got ${max}`);
    this.maxMessageBytes = max;
  }

  /** Bytes of the incomplete line currently held (0 while discarding an oversize line). */
  get pendingBytes(): number {
    return this.pendingLength;
  }

  stats(): LineDecoderStats {
    return { ...this.counters };
  }

  /** Feeds received bytes; complete lines are delivered synchronously. */
  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(LF, start);
    while (newline !== -1) {
      if (this.discarding) {
        this.discardedInLine += newline - start;
        this.endDiscarding();
      } else if (this.pendingLength === 0) {
        // The common case: a whole line inside one chunk, decoded in place without a copy.
        this.lineInChunk(chunk, start, newline);
      } else {
        this.lineAcrossChunks(chunk.subarray(start, newline));
      }
      start = newline + 1;
      newline = chunk.indexOf(LF, start);
    }
    if (start < chunk.length) this.keep(start === 0 ? chunk : chunk.subarray(start));
  }

  /** Ends the stream: a final line without a newline is still delivered. */
  end(): void {
    if (this.discarding) {
      this.endDiscarding();
    } else if (this.pendingLength > 0) {
      this.lineAcrossChunks(undefined);
    }
  }

  /** Drops any partial line (for example when the stream is torn down). */
  reset(): void {
    this.chunks = [];
    this.pendingLength = 0;
    this.discarding = false;
    this.discardedInLine = 0;
  }

  private keep(rest: Buffer): void {
    if (this.discarding) {
      this.discardedInLine += rest.length;
      return;
    }
    const length = this.pendingLength + rest.length;
    // One byte of slack: a line of exactly the cap may be followed by a `\r` that arrives before its `\n`.
    if (length > this.maxMessageBytes + 1) {
      // Drop what we hold right away instead of buffering up to the end of the line.
      this.chunks = [];
      this.pendingLength = 0;
      this.discarding = true;
      this.discardedInLine = length;
      this.counters.oversizeLines++;
      this.sink.log({
        kind: 'oversize',
        text: `dropping an inbound message larger than the ${formatByteLimit(this.maxMessageBytes)} limit (at least ${length} bytes dropped so far); skipping to the next newline`,
      });
      return;
    }
    this.chunks.push(rest);
    this.pendingLength = length;
  }

  private endDiscarding(): void {
    this.counters.droppedBytes += this.discardedInLine;
    this.discarding = false;
    this.discardedInLine = 0;
  }

  private lineInChunk(chunk: Buffer, start: number, end: number): void {
    if (end > start && chunk[end - 1] === CR) end--;
    let first = start;
    while (first < end && isBlank(chunk[first])) first++;
    if (first === end) return; // blank line
    const bytes = end - start;
    if (bytes > this.maxMessageBytes) {
      this.oversizeLine(bytes);
      return;
    }
    const head = chunk[first];
    if (head !== OPEN_BRACE && head !== OPEN_BRACKET) {
      this.noise(chunk.subarray(start, end), bytes);
      return;
    }
    this.parse(chunk.toString('utf8', start, end), bytes);
  }

  /** Completes a line whose start is held in `chunks`; `tail` is its part in the current chunk. */
  private lineAcrossChunks(tail: Buffer | undefined): void {
    const chunks = this.chunks;
    if (tail && tail.length > 0) chunks.push(tail);
    let length = this.pendingLength + (tail ? tail.length : 0);
    this.chunks = [];
    this.pendingLength = 0;

    const last = chunks[chunks.length - 1];
    if (last[last.length - 1] === CR) {
      length--;
      if (last.length === 1) chunks.pop();
      else chunks[chunks.length - 1] = last.subarray(0, last.length - 1);
    }
    if (length > this.maxMessageBytes) {
      this.oversizeLine(length);
      return;
    }
    const head = firstNonBlank(chunks);
    if (head === undefined) return; // blank line
    if (head !== OPEN_BRACE && head !== OPEN_BRACKET) {
      this.noise(prefix(chunks, QUOTE_BYTES), length);
      return;
    }
    // One copy of the line, then one decode. `chunks` is dropped before decoding so the
    // collector may reclaim the pieces while the string is built: about 2x the line at peak.
    let joined: Buffer | undefined = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length);
    chunks.length = 0;
    const text = joined.toString('utf8');
    joined = undefined;
    this.parse(text, length);
  }

  private parse(text: string, bytes: number): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.counters.invalidJsonLines++;
      const reason = errorMessage(error);
      this.sink.log({ kind: 'invalid-json', text: `skipped a ${bytes}-byte line that is not valid JSON (${truncate(reason, QUOTE_BYTES)}): ${truncate(text, QUOTE_BYTES)}` });
      return;
    }
    this.counters.messages++;
    this.sink.message(value, bytes, text);
  }

  /** `head` is the line or at least its first QUOTE_BYTES bytes; `length` is the whole line's. */
  private noise(head: Buffer, length: number): void {
    this.counters.noiseLines++;
    const text = decodePrefix(head, QUOTE_BYTES);
    this.sink.log({ kind: 'noise', text: length > QUOTE_BYTES ? `${text}… (${length} bytes)` : text });
  }

  private oversizeLine(bytes: number): void {
    this.counters.oversizeLines++;
    this.counters.droppedBytes += bytes;
    this.sink.log({ kind: 'oversize', text: `dropped an inbound message of ${bytes} bytes, over the ${formatByteLimit(this.maxMessageBytes)} limit` });
  }
}

function isBlank(byte: number): boolean {
  return byte === SPACE || byte === TAB || byte === CR;
}

function firstNonBlank(chunks: readonly Buffer[]): number | undefined {
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      if (!isBlank(chunk[i])) return chunk[i];
    }
  }
  return undefined;
}

/** The first `max` bytes of a line held in chunks, copying only those. */
function prefix(chunks: readonly Buffer[], max: number): Buffer {
  if (chunks[0].length >= max) return chunks[0].subarray(0, max);
  const parts: Buffer[] = [];
  let length = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, max - length);
    parts.push(part);
    length += part.length;
    if (length >= max) break;
  }
  return Buffer.concat(parts, length);
}

/** Decodes at most `max` bytes without a broken character at the cut. */
function decodePrefix(bytes: Buffer, max: number): string {
  if (bytes.length <= max) return bytes.toString('utf8');
  // StringDecoder holds back an incomplete trailing character instead of emitting U+FFFD.
  return new StringDecoder('utf8').write(bytes.subarray(0, max));
}


