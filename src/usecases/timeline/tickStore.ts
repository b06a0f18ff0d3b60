// A server's timeline ticks (notifications, progress, session starts) column by column: numbers
// in typed arrays, methods and names as shared strings, frame texts in a PayloadArena. A tick never
// changes once filed, and a flood is made of them: kept as objects, 100,000 ticks were 400,000
// small objects for the garbage collector to copy in every young-generation pause and to mark in
// every full one, and those pauses stalled the extension host during the flood. A tick is read as
// a TimelineItem made when asked for. No `vscode`.
import type { Frame } from '../../protocol/connection';
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

/** Rows at first; the columns double as the ring's items grow. */
const FIRST_CAPACITY = 1024;
/** `chunk` of a payload kept as its parsed message (a frame that came without text). */
const AS_MESSAGE = -1;

/** The columns, each `capacity` long; a tick's row is its id modulo the capacity. */
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

  constructor(readonly capacity: number) {
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

  /** Copies row `from` of `other` to row `to`. */
  copyRow(other: Columns, from: number, to: number): void {
    this.id[to] = other.id[from];
    this.kind[to] = other.kind[from];
    this.direction[to] = other.direction[from];
    this.status[to] = other.status[from];
    this.session[to] = other.session[from];
    this.start[to] = other.start[from];
    this.parent[to] = other.parent[from];
    this.progress[to] = other.progress[from];
    this.hasFrame[to] = other.hasFrame[from];
    this.time[to] = other.time[from];
    this.bytes[to] = other.bytes[from];
    this.kept[to] = other.kept[from];
    this.chunk[to] = other.chunk[from];
    this.offset[to] = other.offset[from];
    this.length[to] = other.length[from];
    this.method[to] = other.method[from];
    this.name[to] = other.name[from];
    this.message[to] = other.message[from];
  }
}

export class TickStore {
  private columns = new Columns(FIRST_CAPACITY);
  private readonly arena = new PayloadArena();

  constructor(private readonly server: string) {}

  /**
   * Files tick `id`. `keep` says whether its payload is kept (the ring's payload budget decides).
   * `firstId` is the oldest id the ring holds: the columns grow to hold every id from it to this
   * one, so a row is only taken again by a tick whose old one left the ring (and let its payload go).
   */
  add(id: number, fields: TickFields, frame: Frame | undefined, keep: boolean, firstId: number): void {
    if (id + 1 - firstId > this.columns.capacity) this.grow(firstId, id + 1);
    const c = this.columns;
    const row = id % c.capacity;
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
    const c = this.columns;
    const row = this.rowOf(id);
    if (row < 0 || !c.kept[row]) return 0;
    c.kept[row] = 0;
    if (c.chunk[row] === AS_MESSAGE) c.message[row] = undefined;
    else this.arena.release(c.chunk[row]);
    return c.bytes[row];
  }

  /** The tick as an item (a new object each time: compare items by server and id). */
  item(id: number): TimelineItem | undefined {
    const c = this.columns;
    const row = this.rowOf(id);
    if (row < 0) return undefined;
    const direction = c.direction[row] ? 'receive' : 'send';
    return { ...this.fields(row, id), first: c.hasFrame[row] ? new StoredFrame(this, id, direction, c.time[row], c.bytes[row]) : undefined, second: undefined };
  }

  /** The tick without its frame. */
  summary(id: number): ItemSummary | undefined {
    const row = this.rowOf(id);
    return row < 0 ? undefined : this.fields(row, id);
  }

  private fields(row: number, id: number): ItemSummary {
    const c = this.columns;
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
    const c = this.columns;
    const row = this.rowOf(id);
    if (row < 0 || !c.kept[row] || c.chunk[row] === AS_MESSAGE) return undefined;
    return this.arena.read(c.chunk[row], c.offset[row], c.length[row]);
  }

  /** The kept payload's message, for a frame that came without text. */
  message(id: number): unknown {
    const row = this.rowOf(id);
    return row >= 0 && this.columns.kept[row] ? this.columns.message[row] : undefined;
  }

  isKept(id: number): boolean {
    const row = this.rowOf(id);
    return row >= 0 && this.columns.kept[row] === 1;
  }

  clear(): void {
    this.columns = new Columns(FIRST_CAPACITY);
    this.arena.clear();
  }

  private rowOf(id: number): number {
    const row = id % this.columns.capacity;
    return this.columns.id[row] === id ? row : -1;
  }

  /** Doubles the columns until ids firstId…nextId - 1 fit, moving the kept rows. */
  private grow(firstId: number, nextId: number): void {
    const old = this.columns;
    let capacity = old.capacity * 2;
    while (capacity < nextId - firstId) capacity *= 2;
    const next = new Columns(capacity);
    for (let id = firstId; id < nextId; id++) {
      const from = id % old.capacity;
      if (old.id[from] === id) next.copyRow(old, from, id % capacity);
    }
    this.columns = next;
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
