// The protocol timeline's model: every server's frames on one time axis, as items a person reads.
// A request and its response become one span (a `call` the editor made, a `serverCall` the server
// made), notifications become ticks, progress is drawn along the call that asked for it, and the
// frames that belong to a call (its progress, its cancellation, the server's requests while it
// ran, its task's status and polls, its next input round) are linked to it. Each server keeps a
// bounded ring: at most `maxFrames` frames (the oldest items go first) and at most
// `maxPayloadBytes` of payloads (older payloads are let go, their items stay). Spans are objects
// (their answer, progress and links change them); ticks, most of a flood, are kept column by column
// in a TickStore, their texts outside the JavaScript heap, and read as items when asked for. No `vscode`.
import type { Frame } from '../protocol/connection';
import { LatencySamples, percentile } from '../protocol/stats';
import { isEraNegotiationAnswer } from '../client/era';
import { frameFacts } from './frameFacts';
import { TickStore, type TickKind } from './tickStore';

/** What an item is: a span of the editor's request, a span of the server's, a tick, progress along a call, the start of a session. */
export type ItemKind = 'call' | 'serverCall' | 'notification' | 'progress' | 'session';

/**
 * How a span ended: `input` when the server answered with an input round (resultType
 * "input_required"), `task` when it answered with a task, `unanswered` when the session ended
 * first. Ticks are `none`, or `error` for a frame that answers nothing known.
 */
export type ItemStatus = 'open' | 'ok' | 'error' | 'cancelled' | 'input' | 'task' | 'unanswered' | 'none';

/**
 * A frame as the timeline keeps it: its `text` when the frame came with one (a flat string costs
 * the garbage collector far less than a parsed tree, 100,000 times over), else its `message`;
 * both undefined once the payload was let go. Read the payload with keptMessage.
 */
export interface KeptFrame {
  readonly direction: 'send' | 'receive';
  readonly time: number;
  readonly bytes: number;
  message: unknown;
  text: string | undefined;
  /** The payload was let go (the server's payload budget), or never kept (larger than it). */
  dropped: boolean;
}

/** A kept frame's message (parsed again from its text); undefined once the payload was let go. */
export function keptMessage(frame: KeptFrame): unknown {
  return frame.text !== undefined ? JSON.parse(frame.text) : frame.message;
}

export interface TimelineItem {
  readonly server: string;
  /** Increasing per server, without gaps: the ring's position of the item. */
  readonly id: number;
  readonly kind: ItemKind;
  /** Who sent the first frame: `send` is the editor. */
  readonly direction: 'send' | 'receive';
  readonly method: string;
  readonly name: string | undefined;
  /** Epoch ms of the first frame. */
  readonly start: number;
  /** Counts the connections of the server: request ids are only unique within one. */
  readonly session: number;
  /** Epoch ms of the answer (or of the cancellation); undefined while open and for ticks. */
  end: number | undefined;
  status: ItemStatus;
  /** Row of a call within its server, so calls that overlap do not cover each other; -1 for others. */
  lane: number;
  /** The call this item belongs to. */
  parent: number | undefined;
  /** Latest progress as a fraction (0…1) of a call, or of a progress tick; undefined without a total. */
  progress: number | undefined;
  errorText: string | undefined;
  readonly first: KeptFrame | undefined;
  second: KeptFrame | undefined;
  /** Items linked to this call, oldest first (ids; some may have left the ring). */
  children: number[] | undefined;
}

/** An item without its frames: what the timeline's page, its filter and its rows need (a tick reads as one without making its frames). */
export type ItemSummary = Omit<TimelineItem, 'first' | 'second'>;

export interface TimelineLimits {
  /** Frames kept per server. */
  readonly maxFrames: number;
  /** Payload bytes kept per server (wire size); a frame over it keeps no payload. */
  readonly maxPayloadBytes: number;
}

export const DEFAULT_TIMELINE_LIMITS: TimelineLimits = { maxFrames: 100_000, maxPayloadBytes: 16 * 1024 * 1024 };

/** Told about every item that is new or changed, and when a server's oldest items left the ring. */
export interface TimelineObserver {
  /** Item `id` of `server` is new or changed (read it with Timeline.item). */
  changed(server: string, id: number): void;
  /** Items of `server` with an id below `firstId` are gone. */
  evicted(server: string, firstId: number): void;
  /** A server was seen for the first time. */
  serverAdded?(server: string): void;
}

/** Requests during which a server may ask the editor something (sampling, elicitation, roots). */
const MAY_ASK_USER = new Set(['tools/call', 'prompts/get', 'resources/read', 'tasks/result', 'completion/complete']);
/** Calls drawn side by side at most; more overlap in the lane that frees first. */
export const MAX_LANES = 12;
/** Latencies kept per method for p95 (the newest). */
const SAMPLES = 1024;
/** Distinct methods and names shared before the table starts over (names can be unique per frame). */
const MAX_SHARED_STRINGS = 4096;

/** A slot of the ring that holds a tick: its fields are in the ring's TickStore. */
const TICK = 0;

/** One server's ring and the state that pairs its frames. */
class ServerRing {
  /**
   * Oldest first from `head`; the slots before `head` are emptied (an item that left is not held
   * until compaction). A span is its object; a tick is TICK, its fields in `ticks`.
   */
  items: (TimelineItem | typeof TICK | undefined)[] = [];
  head = 0;
  /** The id of `items[0]`: ids are contiguous, so an id finds its index. */
  baseId = 1;
  nextId = 1;
  frames = 0;
  payloadBytes = 0;
  /** Items before this index have let their payloads go. */
  payloadHead = 0;
  session = 0;
  /** Open requests by id: the editor's, the server's. */
  readonly outgoing = new Map<string, TimelineItem>();
  readonly incoming = new Map<string, TimelineItem>();
  readonly progressTokens = new Map<string, TimelineItem>();
  readonly tasks = new Map<string, TimelineItem>();
  /** The first round of a call waiting for input, by the state it must echo and by method+name. */
  readonly inputByState = new Map<string, TimelineItem>();
  readonly inputByCall = new Map<string, TimelineItem>();
  /** End of the last call in each lane (Infinity while it is open) and who holds it. */
  readonly laneEnds: number[] = [];
  readonly laneHolders: (TimelineItem | undefined)[] = [];
  /** The map entries that point at each item, so letting an item go costs its own entries only. */
  private readonly held = new WeakMap<TimelineItem, Array<[Map<string, TimelineItem>, string]>>();

  readonly ticks: TickStore;

  constructor(readonly id: string) {
    this.ticks = new TickStore(id);
  }

  /** `map.set(key, item)`, remembered for `unhold`. */
  hold(map: Map<string, TimelineItem>, key: string, item: TimelineItem): void {
    map.set(key, item);
    let entries = this.held.get(item);
    if (!entries) this.held.set(item, (entries = []));
    entries.push([map, key]);
  }

  /** Removes the entries that still point at `item` (in `only`, or in every map). */
  unhold(item: TimelineItem, only?: Map<string, TimelineItem>): void {
    const entries = this.held.get(item);
    if (!entries) return;
    const kept = entries.filter(([map, key]) => {
      if (only && map !== only) return true;
      if (map.get(key) === item) map.delete(key);
      return false;
    });
    if (kept.length) this.held.set(item, kept);
    else this.held.delete(item);
  }

  /** Every pairing map (cleared when a session ends). */
  maps(): Map<string, TimelineItem>[] {
    return [this.outgoing, this.incoming, this.progressTokens, this.tasks, this.inputByState, this.inputByCall];
  }

  get size(): number {
    return this.items.length - this.head;
  }

  get firstId(): number {
    return this.size ? this.baseId + this.head : this.nextId;
  }

  /** The item with this id (a tick is made as it is asked for). */
  get(id: number): TimelineItem | undefined {
    const slot = this.slot(id);
    return slot === TICK ? this.ticks.item(id) : slot;
  }

  summary(id: number): ItemSummary | undefined {
    const slot = this.slot(id);
    return slot === TICK ? this.ticks.summary(id) : slot;
  }

  /** The span with this id; undefined for a tick or an item that left. */
  span(id: number): TimelineItem | undefined {
    const slot = this.slot(id);
    return slot === TICK ? undefined : slot;
  }

  indexOf(item: TimelineItem): number {
    return item.id - this.baseId;
  }

  /** Moves the kept items to the front of a new array (once the dropped front outweighs them). */
  compact(): void {
    this.items = this.items.slice(this.head);
    this.payloadHead -= this.head;
    this.baseId += this.head;
    this.head = 0;
  }

  private slot(id: number): TimelineItem | typeof TICK | undefined {
    const index = id - this.baseId;
    return index >= this.head && index < this.items.length ? this.items[index] : undefined;
  }
}

/** Every server's timeline. `push` is on the frame path: it reads a few fields and files the frame. */
export class Timeline {
  private readonly rings = new Map<string, ServerRing>();
  private readonly observers = new Set<TimelineObserver>();
  private readonly samples = new Map<string, { readonly latencies: LatencySamples; p95?: number }>();
  /** Grows with every latency sample: a view re-checks "slow" only when it moved. */
  sampleVersion = 0;
  /**
   * One copy of each method and name the items hold. A frame's method is a fresh string of its
   * parsed message, and a name is built per frame ("info [logger]"): kept as they come, a flood's
   * 100,000 items would each hold two more young strings for every garbage collection to copy.
   */
  private readonly shared = new Map<string, string>();

  constructor(private readonly limits: () => TimelineLimits = () => DEFAULT_TIMELINE_LIMITS) {}

  /** Server ids in the order they were first seen. */
  servers(): string[] {
    return [...this.rings.keys()];
  }

  /** A server's kept items, oldest first (ticks are made as they are asked for: compare items by id). */
  items(server: string): readonly TimelineItem[] {
    return this.kept<TimelineItem>(server, (ticks, id) => ticks.item(id)!);
  }

  /** A server's kept items without their frames, oldest first: cheaper to make than `items` for a tick. */
  summaries(server: string): readonly ItemSummary[] {
    return this.kept<ItemSummary>(server, (ticks, id) => ticks.summary(id)!);
  }

  /** The kept items, a tick made by `tick`, a span as it is. */
  private kept<T extends ItemSummary>(server: string, tick: (ticks: TickStore, id: number) => T): Array<T | TimelineItem> {
    const ring = this.rings.get(server);
    if (!ring) return [];
    const out: Array<T | TimelineItem> = new Array(ring.size);
    for (let i = ring.head; i < ring.items.length; i++) {
      const slot = ring.items[i]!;
      out[i - ring.head] = slot === TICK ? tick(ring.ticks, ring.baseId + i) : slot;
    }
    return out;
  }

  summary(server: string, id: number): ItemSummary | undefined {
    return this.rings.get(server)?.summary(id);
  }

  item(server: string, id: number): TimelineItem | undefined {
    return this.rings.get(server)?.get(id);
  }

  /** Frames kept for a server (each span holds up to two). */
  frameCount(server: string): number {
    return this.rings.get(server)?.frames ?? 0;
  }

  /** Payload bytes kept for a server. */
  payloadBytes(server: string): number {
    return this.rings.get(server)?.payloadBytes ?? 0;
  }

  observe(observer: TimelineObserver): { dispose(): void } {
    this.observers.add(observer);
    return { dispose: () => void this.observers.delete(observer) };
  }

  /** The 95th percentile of a method's latency (ms) over its recent answered calls. */
  p95(method: string): number | undefined {
    const s = this.samples.get(method);
    if (!s) return undefined;
    s.p95 ??= percentile([...s.latencies.values()].sort((a, b) => a - b), 95);
    return s.p95;
  }

  /**
   * A new connection of `server` begins: the requests still open belong to the one that ended
   * (they are marked unanswered), and ids start over.
   */
  sessionStarted(server: string, time: number): void {
    const ring = this.ring(server);
    for (const open of [...ring.outgoing.values(), ...ring.incoming.values()]) {
      if (open.end !== undefined) continue;
      open.end = time;
      open.status = 'unanswered';
      this.release(ring, open);
      this.changed(ring, open.id);
    }
    for (const map of ring.maps()) map.clear();
    ring.session++;
    this.addTick(ring, { kind: 'session', direction: 'send', method: 'session', name: undefined, start: time }, undefined);
  }

  /** Files one frame of `server`. */
  push(server: string, frame: Frame): void {
    const ring = this.ring(server);
    const facts = frameFacts(frame.message);
    switch (facts.kind) {
      case 'request': {
        const mine = frame.direction === 'send';
        const item = this.addSpan(ring, { kind: mine ? 'call' : 'serverCall', direction: frame.direction, method: facts.method, name: facts.name, start: frame.time }, frame);
        ring.hold(mine ? ring.outgoing : ring.incoming, facts.idKey, item);
        if (mine) {
          this.assignLane(ring, item);
          if (facts.progressToken !== undefined) ring.hold(ring.progressTokens, facts.progressToken, item);
          const root = facts.taskId !== undefined ? ring.tasks.get(facts.taskId) : facts.continuesInput !== undefined ? this.inputRoot(ring, item, facts.continuesInput) : undefined;
          if (root) this.link(root, item);
        } else {
          const during = this.latestOpenCall(ring);
          if (during) this.link(during, item);
        }
        break;
      }
      case 'response': {
        // Our answer closes the server's request; the server's answer closes ours.
        const item = (frame.direction === 'receive' ? ring.outgoing : ring.incoming).get(facts.idKey);
        if (!item) {
          this.addTick(ring, { kind: 'notification', direction: frame.direction, method: `(answer to unknown id ${facts.idKey})`, name: undefined, start: frame.time, status: 'error' }, frame);
          break;
        }
        ring.unhold(item, frame.direction === 'receive' ? ring.outgoing : ring.incoming);
        item.second = this.keep(ring, frame, ring.indexOf(item) < ring.payloadHead);
        ring.frames++;
        if (item.status !== 'cancelled') {
          item.end = frame.time;
          // A legacy server's refusal of the era probe is how a healthy start goes, not an error.
          item.status = facts.failed && !(facts.error && isEraNegotiationAnswer(item.method, facts.error.code, facts.error.data)) ? 'error' : facts.createdTaskId !== undefined ? 'task' : facts.inputRequired ? 'input' : 'ok';
          if (facts.errorText) item.errorText = facts.errorText;
          this.release(ring, item);
          this.sample(item.method, item.end - item.start);
        }
        if (facts.createdTaskId !== undefined) ring.hold(ring.tasks, facts.createdTaskId, item);
        if (facts.inputRequired) {
          const root = item.parent !== undefined ? (ring.span(item.parent) ?? item) : item;
          if (facts.inputRequired.requestState !== undefined) ring.hold(ring.inputByState, facts.inputRequired.requestState, root);
          ring.hold(ring.inputByCall, callKey(item), root);
        }
        // Without a task the call's progress token ends with its answer.
        if (facts.createdTaskId === undefined) ring.unhold(item, ring.progressTokens);
        this.changed(ring, item.id);
        this.trim(ring);
        break;
      }
      case 'notification': {
        let parent: TimelineItem | undefined;
        let kind: TickKind = 'notification';
        if (facts.progressToken !== undefined) {
          parent = ring.progressTokens.get(facts.progressToken);
          if (parent) kind = 'progress';
        } else if (facts.cancels !== undefined) {
          // Our cancellation ends our request; the server's ends its own.
          parent = (frame.direction === 'send' ? ring.outgoing : ring.incoming).get(facts.cancels);
          if (parent && parent.end === undefined) {
            parent.end = frame.time;
            parent.status = 'cancelled';
            this.release(ring, parent);
            this.changed(ring, parent.id);
          }
        } else if (facts.taskId !== undefined) {
          parent = ring.tasks.get(facts.taskId);
        }
        const fraction = facts.progress !== undefined && facts.total !== undefined && facts.total > 0 ? Math.min(1, Math.max(0, facts.progress / facts.total)) : undefined;
        const id = this.addTick(ring, { kind, direction: frame.direction, method: facts.method, name: facts.name, start: frame.time, progress: fraction, parent: parent?.id }, frame);
        if (parent) {
          (parent.children ??= []).push(id);
          if (kind === 'progress' && fraction !== undefined) {
            parent.progress = fraction;
            this.changed(ring, parent.id);
          }
        }
        break;
      }
      case 'invalid':
        this.addTick(ring, { kind: 'notification', direction: frame.direction, method: facts.method, name: undefined, start: frame.time, status: 'error' }, frame);
        break;
      default: {
        const never: never = facts;
        return never;
      }
    }
  }

  /** Forgets every item (the timeline's Clear); rings restart empty, ids go on. */
  clear(): void {
    for (const ring of this.rings.values()) {
      ring.items = [];
      ring.head = 0;
      ring.baseId = ring.nextId;
      ring.ticks.clear();
      ring.frames = 0;
      ring.payloadBytes = 0;
      ring.payloadHead = 0;
      for (const map of ring.maps()) map.clear();
      ring.laneEnds.length = 0;
      ring.laneHolders.length = 0;
      for (const o of this.observers) o.evicted(ring.id, ring.nextId);
    }
    this.samples.clear();
  }

  private ring(server: string): ServerRing {
    let ring = this.rings.get(server);
    if (!ring) {
      ring = new ServerRing(server);
      this.rings.set(server, ring);
      for (const o of this.observers) o.serverAdded?.(server);
    }
    return ring;
  }

  /** Files a span (a call of the editor or of the server): an object, as its answer, progress and links change it. */
  private addSpan(ring: ServerRing, fields: { kind: 'call' | 'serverCall'; direction: 'send' | 'receive'; method: string; name: string | undefined; start: number }, frame: Frame): TimelineItem {
    const method = this.share(fields.method);
    const name = fields.name === undefined ? undefined : this.share(fields.name);
    const item: TimelineItem = {
      server: ring.id,
      id: ring.nextId++,
      kind: fields.kind,
      direction: fields.direction,
      method,
      name,
      start: fields.start,
      session: ring.session,
      end: undefined,
      status: 'open',
      lane: -1,
      parent: undefined,
      progress: undefined,
      errorText: undefined,
      first: this.keep(ring, frame, false),
      second: undefined,
      children: undefined,
    };
    ring.items.push(item);
    ring.frames++;
    this.changed(ring, item.id);
    this.trim(ring);
    return item;
  }

  /** Files a tick (a notification, progress, a session's start) in the ring's TickStore; returns its id. */
  private addTick(
    ring: ServerRing,
    fields: { kind: TickKind; direction: 'send' | 'receive'; method: string; name: string | undefined; start: number; status?: 'none' | 'error'; progress?: number; parent?: number },
    frame: Frame | undefined,
  ): number {
    const keep = frame !== undefined && this.admit(ring, frame.bytes, false);
    const id = ring.nextId++;
    ring.items.push(TICK);
    const tick = { kind: fields.kind, direction: fields.direction, method: this.share(fields.method), name: fields.name === undefined ? undefined : this.share(fields.name), start: fields.start, session: ring.session, status: fields.status ?? 'none', parent: fields.parent, progress: fields.progress } as const;
    ring.ticks.add(id, tick, frame, keep, ring.firstId);
    // A session start holds no frame but still takes a place in the ring.
    ring.frames++;
    this.changed(ring, id);
    this.trim(ring);
    return id;
  }

  /** The shared copy of `text` (the table starts over when full: a cache, not a record). */
  private share(text: string): string {
    const known = this.shared.get(text);
    if (known !== undefined) return known;
    if (this.shared.size >= MAX_SHARED_STRINGS) this.shared.clear();
    this.shared.set(text, text);
    return text;
  }

  /** A span's frame, its payload kept within the server's budget (or not at all when `late` or too large). */
  private keep(ring: ServerRing, frame: Frame, late: boolean): KeptFrame {
    if (!this.admit(ring, frame.bytes, late)) return { direction: frame.direction, time: frame.time, bytes: frame.bytes, message: undefined, text: undefined, dropped: true };
    // As frameToKeep keeps a frame (its text alone, when it has one), without the extra object.
    return { direction: frame.direction, time: frame.time, bytes: frame.bytes, message: frame.text === undefined ? frame.message : undefined, text: frame.text, dropped: false };
  }

  /**
   * Whether a payload of `bytes` is kept: within the server's budget, the oldest payloads let go
   * to make room (never when `late`, an answer to a call whose payloads already went, or larger
   * than the whole budget). Counted as kept when it is.
   */
  private admit(ring: ServerRing, bytes: number, late: boolean): boolean {
    const max = this.limits().maxPayloadBytes;
    if (late || bytes > max) return false;
    ring.payloadBytes += bytes;
    while (ring.payloadBytes > max && ring.payloadHead < ring.items.length) this.letGoAt(ring, ring.payloadHead++);
    if (ring.payloadBytes <= max) return true;
    ring.payloadBytes -= bytes;
    return false;
  }

  /** Lets the payloads of the item at `index` go. */
  private letGoAt(ring: ServerRing, index: number): void {
    const slot = ring.items[index];
    if (slot === TICK) ring.payloadBytes -= ring.ticks.letGo(ring.baseId + index);
    else if (slot) for (const f of [slot.first, slot.second]) this.letGo(ring, f);
  }

  private letGo(ring: ServerRing, frame: KeptFrame | undefined): void {
    if (!frame || frame.dropped) return;
    frame.dropped = true;
    frame.message = undefined;
    frame.text = undefined;
    ring.payloadBytes -= frame.bytes;
  }

  /** Drops the oldest items while the ring holds more frames than allowed. */
  private trim(ring: ServerRing): void {
    const max = Math.max(1, this.limits().maxFrames);
    if (ring.frames <= max) return;
    while (ring.frames > max && ring.size > 0) {
      const oldest = ring.items[ring.head]!;
      this.letGoAt(ring, ring.head);
      ring.items[ring.head++] = undefined;
      if (oldest === TICK) {
        ring.frames--;
        continue;
      }
      ring.frames -= oldest.second ? 2 : 1;
      this.forget(ring, oldest);
    }
    if (ring.payloadHead < ring.head) ring.payloadHead = ring.head;
    // Compact once the dropped front outweighs what is kept.
    if (ring.head > 1024 && ring.head * 2 > ring.items.length) ring.compact();
    for (const o of this.observers) o.evicted(ring.id, ring.firstId);
  }

  /** Removes what pairs frames with an item that left the ring. */
  private forget(ring: ServerRing, item: TimelineItem): void {
    if (item.kind !== 'call' && item.kind !== 'serverCall') return;
    ring.unhold(item);
    this.release(ring, item);
  }

  private assignLane(ring: ServerRing, item: TimelineItem): void {
    let lane = ring.laneEnds.findIndex((end) => end <= item.start);
    if (lane < 0 && ring.laneEnds.length < MAX_LANES) lane = ring.laneEnds.length;
    if (lane < 0) {
      // Every lane is busy: overlap in the one that frees first.
      lane = 0;
      for (let l = 1; l < ring.laneEnds.length; l++) if (ring.laneEnds[l] < ring.laneEnds[lane]) lane = l;
    }
    ring.laneEnds[lane] = Infinity;
    ring.laneHolders[lane] = item;
    item.lane = lane;
  }

  private release(ring: ServerRing, item: TimelineItem): void {
    if (item.lane < 0 || ring.laneHolders[item.lane] !== item) return;
    ring.laneEnds[item.lane] = item.end ?? item.start;
    ring.laneHolders[item.lane] = undefined;
  }

  /** The first round of a call a request continues (a modern input round). */
  private inputRoot(ring: ServerRing, item: TimelineItem, state: string | true): TimelineItem | undefined {
    if (typeof state === 'string') {
      const root = ring.inputByState.get(state);
      if (root) return root;
    }
    return ring.inputByCall.get(callKey(item));
  }

  /** The editor's request a server request most likely came during: the latest open one that may ask the user. */
  private latestOpenCall(ring: ServerRing): TimelineItem | undefined {
    let latest: TimelineItem | undefined;
    for (const item of ring.outgoing.values()) if (item.end === undefined && MAY_ASK_USER.has(item.method) && (!latest || item.start >= latest.start)) latest = item;
    return latest;
  }

  private link(parent: TimelineItem, child: TimelineItem): void {
    child.parent = parent.id;
    (parent.children ??= []).push(child.id);
  }

  private sample(method: string, ms: number): void {
    let s = this.samples.get(method);
    if (!s) this.samples.set(method, (s = { latencies: new LatencySamples(SAMPLES) }));
    s.latencies.add(ms);
    s.p95 = undefined;
    this.sampleVersion++;
  }

  private changed(ring: ServerRing, id: number): void {
    for (const o of this.observers) o.changed(ring.id, id);
  }
}

function callKey(item: Pick<TimelineItem, 'method' | 'name'>): string {
  return `${item.method}\n${item.name ?? ''}`;
}
