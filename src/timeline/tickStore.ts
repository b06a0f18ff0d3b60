// A server's timeline ticks (notifications, progress, session starts) column by column: numbers
// in typed arrays, methods and names as shared strings, frame texts in a PayloadArena. A tick never
// changes once filed, and a flood is made of them: kept as objects, 100,000 ticks were 400,000
// small objects for the garbage collector to copy in every young-generation pause and to mark in
// every full one, and those pauses stalled the extension host during the flood. The columns are
// cut in segments of a fixed number of rows: the store grows by a segment and lets the oldest go
// whole, and never copies what it holds (doubling one set of columns copied 65,536 rows at once,
// a 190 ms stall in the middle of a flood). A tick is read as a TimelineItem made when asked for.
// No `vscode`.
import type { Frame } from '../protocol/connection';
import { PayloadArena } from './payloadArena';
import type { ItemStatus, ItemSummary, KeptFrame, TimelineItem } from './timelineModel';

/** The kinds of item a tick can be. */
export type TickKind = 'notification' | 'progress' | 'session';
const TICK_KINDS: readonly TickKind[] = ['notification', 'progress', 'session'];
const TICK_STATUSES: readonly ItemStatus[] = ['none', 'error'];

export interface TickFields {
  readonly kind: TickKind;
  readonly direction: 'send' | 'receive';
  readonly method: string;
  readonly name: string | undefined;
  readonly start: number;
  readonly session: number;
  readonly status: 'none' | 'error';
  readonly parent: number | undefined;
  readonly progress: number | undefined;
}

/** Rows in a segment: tick `id` is row `id % SEGMENT_ROWS` of segment `floor(id / SEGMENT_ROWS)`. */
const SEGMENT_ROWS = 1024;
/** `chunk` of a payload kept as its parsed message (a frame that came without text). */
const AS_MESSAGE = -1;

/** A segment's columns, SEGMENT_ROWS long each. */
class Columns {
  readonly id: Float64Array;
  readonly kind: Uint8Array;
  readonly direction: Uint8Array;
  readonly status: Uint8Array;
  readonly session: Float64Array;
  readonly start: Float64Array;
  readonly parent: Float64Array;
  readonly progress: Float64Array;
  /** 1 when the tick has a frame (a session start has none). */
  readonly hasFrame: Uint8Array;
  readonly time: Float64Array;
  readonly bytes: Float64Array;
  /** 1 while the payload is kept. */
  readonly kept: Uint8Array;
  readonly chunk: Int32Array;
  readonly offset: Uint32Array;
  readonly length: Uint32Array;
  readonly method: string[];
  readonly name: (string | undefined)[];
  readonly message: unknown[];

  constructor(capacity: number) {
    this.id = new Float64Array(capacity).fill(-1);
    this.kind = new Uint8Array(capacity);
    this.direction = new Uint8Array(capacity);
    this.status = new Uint8Array(capacity);
    this.session = new Float64Array(capacity);
    this.start = new Float64Array(capacity);
    this.parent = new Float64Array(capacity);
    this.progress = new Float64Array(capacity);
    this.hasFrame = new Uint8Array(capacity);
    this.time = new Float64Array(capacity);
    this.bytes = new Float64Array(capacity);
    this.kept = new Uint8Array(capacity);
    this.chunk = new Int32Array(capacity);
    this.offset = new Uint32Array(capacity);
    this.length = new Uint32Array(capacity);
    this.method = new Array<string>(capacity).fill('');
    this.name = new Array<string | undefined>(capacity).fill(undefined);
    this.message = new Array<unknown>(capacity).fill(undefined);
  }
}

export class TickStore {
  /** By segment number, oldest first (segments are made in id order). */
  private segments = new Map<number, Columns>();
  /** The segment segmentOf() found last, and its number (-1: none). */
  private lastSegment = -1;
  private lastColumns: Columns | undefined;
  private readonly arena = new PayloadArena();

  constructor(private readonly server: string) {}

  /**
   * Files tick `id`. `keep` says whether its payload is kept (the ring's payload budget decides).
   * `firstId` is the oldest id the ring holds: segments wholly below it go (their ticks left the
   * ring and let their payloads go), and a row is never taken by another tick.
   */
  add(id: number, fields: TickFields, frame: Frame | undefined, keep: boolean, firstId: number): void {
    const n = Math.floor(id / SEGMENT_ROWS);
    let c = this.segments.get(n);
    if (!c) {
      this.dropBelow(firstId);
      this.segments.set(n, (c = new Columns(SEGMENT_ROWS)));
    }
    const row = id - n * SEGMENT_ROWS;
    c.id[row] = id;
    c.kind[row] = TICK_KINDS.indexOf(fields.kind);
    c.direction[row] = fields.direction === 'send' ? 0 : 1;
    c.status[row] = fields.status === 'error' ? 1 : 0;
    c.session[row] = fields.session;
    c.start[row] = fields.start;
    c.parent[row] = fields.parent ?? NaN;
    c.progress[row] = fields.progress ?? NaN;
    c.method[row] = fields.method;
    c.name[row] = fields.name;
    c.message[row] = undefined;
    c.kept[row] = 0;
    c.hasFrame[row] = frame ? 1 : 0;
    if (!frame) return;
    c.time[row] = frame.time;
    c.bytes[row] = frame.bytes;
    if (!keep) return;
    c.kept[row] = 1;
    if (frame.text !== undefined) {
      this.arena.write(frame.text);
      c.chunk[row] = this.arena.lastChunk;
      c.offset[row] = this.arena.lastOffset;
      c.length[row] = this.arena.lastLength;
    } else {
      c.chunk[row] = AS_MESSAGE;
      c.message[row] = frame.message;
    }
  }

  /** Lets the tick's payload go; returns its wire bytes (0 when none was kept). */
  letGo(id: number): number {
    const c = this.segmentOf(id);
    const row = id % SEGMENT_ROWS;
    if (!c || !c.kept[row]) return 0;
    c.kept[row] = 0;
    if (c.chunk[row] === AS_MESSAGE) c.message[row] = undefined;
    else this.arena.release(c.chunk[row]);
    return c.bytes[row];
  }

  /** The tick as an item (a new object each time: compare items by server and id). */
  item(id: number): TimelineItem | undefined {
    const c = this.segmentOf(id);
    if (!c) return undefined;
    const row = id % SEGMENT_ROWS;
    const direction = c.direction[row] ? 'receive' : 'send';
    return { ...this.fields(c, row, id), first: c.hasFrame[row] ? new StoredFrame(this, id, direction, c.time[row], c.bytes[row]) : undefined, second: undefined };
  }

  /** The tick without its frame. */
  summary(id: number): ItemSummary | undefined {
    const c = this.segmentOf(id);
    return c ? this.fields(c, id % SEGMENT_ROWS, id) : undefined;
  }

  private fields(c: Columns, row: number, id: number): ItemSummary {
    return {
      server: this.server,
      id,
      kind: TICK_KINDS[c.kind[row]],
      direction: c.direction[row] ? 'receive' : 'send',
      method: c.method[row],
      name: c.name[row],
      start: c.start[row],
      session: c.session[row],
      end: undefined,
      status: TICK_STATUSES[c.status[row]],
      lane: -1,
      parent: Number.isNaN(c.parent[row]) ? undefined : c.parent[row],
      progress: Number.isNaN(c.progress[row]) ? undefined : c.progress[row],
      errorText: undefined,
      children: undefined,
    };
  }

  /** The kept payload's text (undefined when let go, or kept as a message). */
  text(id: number): string | undefined {
    const c = this.segmentOf(id);
    const row = id % SEGMENT_ROWS;
    if (!c || !c.kept[row] || c.chunk[row] === AS_MESSAGE) return undefined;
    return this.arena.read(c.chunk[row], c.offset[row], c.length[row]);
  }

  /** The kept payload's message, for a frame that came without text. */
  message(id: number): unknown {
    const c = this.segmentOf(id);
    const row = id % SEGMENT_ROWS;
    return c && c.kept[row] ? c.message[row] : undefined;
  }

  isKept(id: number): boolean {
    return this.segmentOf(id)?.kept[id % SEGMENT_ROWS] === 1;
  }

  clear(): void {
    this.segments = new Map();
    this.lastSegment = -1;
    this.lastColumns = undefined;
    this.arena.clear();
  }

  /** How many segments are held (for tests: the oldest go as the ring moves on). */
  get segmentCount(): number {
    return this.segments.size;
  }

  /** The segment holding tick `id`, if it holds that tick. */
  private segmentOf(id: number): Columns | undefined {
    const n = Math.floor(id / SEGMENT_ROWS);
    // Items are read in id order (a batch, a mask, a snapshot): the last segment is the likely one.
    let c = n === this.lastSegment ? this.lastColumns : undefined;
    if (!c) {
      c = this.segments.get(n);
      this.lastSegment = n;
      this.lastColumns = c;
    }
    return c && c.id[id % SEGMENT_ROWS] === id ? c : undefined;
  }

  /** Lets go of the segments whose every id is below `firstId`. */
  private dropBelow(firstId: number): void {
    for (const n of this.segments.keys()) {
      if ((n + 1) * SEGMENT_ROWS > firstId) break;
      this.segments.delete(n);
      if (n === this.lastSegment) this.lastColumns = undefined;
    }
  }
}

/** A tick's frame, read from the store when asked (its payload may be let go meanwhile). */
class StoredFrame implements KeptFrame {
  constructor(
    private readonly store: TickStore,
    private readonly id: number,
    readonly direction: 'send' | 'receive',
    readonly time: number,
    readonly bytes: number,
  ) {}

  get dropped(): boolean {
    return !this.store.isKept(this.id);
  }

  get text(): string | undefined {
    return this.store.text(this.id);
  }

  get message(): unknown {
    return this.store.message(this.id);
  }
}
