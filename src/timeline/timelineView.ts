// What a timeline page is sent: the items as named columns of numbers, each packed in the fewest
// bytes that keep its values (packedColumn.ts), the strings they refer to once each, and a filter
// mask when the filter changes. Items that are new or changed since the last batch go out
// together, however many frames arrived meanwhile; the page draws only what is on screen.
import { isEmptyFilter, itemFilter, NO_FILTER, TimelineFilter } from './timelineFilter';
import { packColumn, type PackedColumn } from './packedColumn';
import type { ItemKind, ItemStatus, ItemSummary, Timeline, TimelineObserver } from './timelineModel';

/** The columns of a batch's items; `direction` is 0 for the editor's frames, 1 for the server's; -1 or NaN is none. */
export const ITEM_FIELDS = ['server', 'id', 'kind', 'status', 'shown', 'lane', 'start', 'end', 'method', 'name', 'parent', 'progress', 'direction'] as const;
export type ItemField = (typeof ITEM_FIELDS)[number];
export const ITEM_KINDS: readonly ItemKind[] = ['call', 'serverCall', 'notification', 'progress', 'session'];
export const ITEM_STATUSES: readonly ItemStatus[] = ['open', 'ok', 'error', 'cancelled', 'input', 'task', 'unanswered', 'none'];
/**
 * Strings the page keeps (methods, names) before the view starts over with a full batch: names
 * can be unique per frame (a progress message, a resource URI), and the table must not outgrow
 * the ring it describes.
 */
const MAX_STRINGS = 50_000;
/** Methods offered in the page's method filter at most (a hostile server can invent any number). */
const MAX_METHODS = 500;
const KIND_CODE = new Map(ITEM_KINDS.map((k, i) => [k, i]));
const STATUS_CODE = new Map(ITEM_STATUSES.map((s, i) => [s, i]));

/** The page's vocabulary, sent once before any batch. */
export interface TimelineSchema {
  /** The columns of every batch. */
  readonly fields: typeof ITEM_FIELDS;
  readonly kinds: readonly ItemKind[];
  readonly statuses: readonly ItemStatus[];
}

export const TIMELINE_SCHEMA: TimelineSchema = { fields: ITEM_FIELDS, kinds: ITEM_KINDS, statuses: ITEM_STATUSES };

export interface TimelineBatch {
  readonly type: 'batch';
  /** Servers seen since the last batch: their index in the rows, id and display name. */
  readonly servers?: ReadonlyArray<{ readonly index: number; readonly id: string; readonly name: string }>;
  /** Appended to the page's string table (methods and names are indexes into it). */
  readonly strings?: readonly string[];
  /** How many items are new or changed: the length of every column. */
  readonly count: number;
  /** Their fields, a packed column each. */
  readonly columns: Readonly<Record<ItemField, PackedColumn>>;
  /** [server index, first id kept]: the server's items below it left the ring. */
  readonly evicted?: ReadonlyArray<readonly [number, number]>;
  /** Every method seen so far, when a new one came (the method filter's choices). */
  readonly methods?: readonly string[];
  /** True for the first batch of a page: it replaces whatever the page holds. */
  readonly reset?: boolean;
}

/** Which items pass a new filter: per server, a byte per item from `firstId` on (1 = shown). */
export interface TimelineMask {
  readonly type: 'mask';
  readonly servers: ReadonlyArray<{ readonly index: number; readonly firstId: number; readonly shown: Uint8Array }>;
}

/**
 * One page's view of a Timeline: collects what changed between batches, encodes it, and applies
 * the page's filter. `schedule` is called when something is waiting to be sent (the caller
 * batches: it calls `take()` on its own clock).
 */
export class TimelineView implements TimelineObserver {
  /** Ids of the items new or changed since the last batch, by server (numbers: no object per item waits). */
  private pending = new Map<string, Set<number>>();
  private evictions = new Map<string, number>();
  private readonly serverIndexes = new Map<string, number>();
  private newServers: string[] = [];
  private readonly stringIndexes = new Map<string, number>();
  private newStrings: string[] = [];
  private readonly methods = new Set<string>();
  private methodsChanged = false;
  private filter: TimelineFilter = NO_FILTER;
  private test: (item: ItemSummary) => boolean = () => true;
  private maskedAtSamples = -1;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly timeline: Timeline,
    private readonly serverName: (id: string) => string,
    private readonly schedule: () => void = () => {},
  ) {
    this.subscription = timeline.observe(this);
  }

  changed(server: string, id: number): void {
    const first = this.pending.size === 0 && this.evictions.size === 0;
    let ids = this.pending.get(server);
    if (!ids) this.pending.set(server, (ids = new Set()));
    ids.add(id);
    if (first) this.schedule();
  }

  evicted(server: string, firstId: number): void {
    const first = this.pending.size === 0 && this.evictions.size === 0;
    this.evictions.set(server, firstId);
    if (first) this.schedule();
  }

  /** Everything the timeline holds now (a page that opens, or comes back). */
  snapshot(): TimelineBatch {
    this.pending.clear();
    this.evictions.clear();
    // A new page knows nothing: every server, string and method goes again.
    this.serverIndexes.clear();
    this.stringIndexes.clear();
    this.methods.clear();
    this.newServers = [];
    this.newStrings = [];
    // Concatenated, not pushed with spread: a ring may hold more items than a call takes arguments.
    const items = ([] as ItemSummary[]).concat(...this.timeline.servers().map((server) => this.timeline.summaries(server)));
    return this.encode(items, true);
  }

  /** What changed since the last batch; undefined when nothing did. */
  take(): TimelineBatch | undefined {
    if (this.pending.size === 0 && this.evictions.size === 0) return undefined;
    if (this.stringIndexes.size > MAX_STRINGS) return this.snapshot();
    const items: ItemSummary[] = [];
    for (const [server, ids] of this.pending) {
      for (const id of ids) {
        // An item that changed and then left the ring before this batch is not sent.
        const item = this.timeline.summary(server, id);
        if (item) items.push(item);
      }
    }
    this.pending = new Map();
    return this.encode(items, false);
  }

  /**
   * A new filter: the mask of every kept item. Later batches carry each item's `shown` under it.
   * With "slow" on, `remaskIfSlower()` follows the p95 as answers come.
   */
  setFilter(filter: TimelineFilter): TimelineMask {
    this.filter = filter;
    this.test = isEmptyFilter(filter) ? () => true : itemFilter(filter, (m) => this.timeline.p95(m), (item) => (item.parent !== undefined ? this.timeline.summary(item.server, item.parent) : undefined));
    return this.mask();
  }

  /** With the slow filter on, a new mask when latencies changed since the last one (the p95 moved). */
  remaskIfSlower(): TimelineMask | undefined {
    if (!this.filter.slow || this.maskedAtSamples === this.timeline.sampleVersion) return undefined;
    return this.mask();
  }

  /** Whether an item passes the current filter. */
  shows(item: ItemSummary): boolean {
    return this.test(item);
  }

  private mask(): TimelineMask {
    this.maskedAtSamples = this.timeline.sampleVersion;
    const servers = this.timeline.servers().map((id) => {
      const items = this.timeline.summaries(id);
      const shown = new Uint8Array(items.length);
      for (let i = 0; i < items.length; i++) shown[i] = this.test(items[i]) ? 1 : 0;
      return { index: this.serverIndex(id), firstId: items[0]?.id ?? 0, shown };
    });
    return { type: 'mask', servers };
  }

  private encode(items: readonly ItemSummary[], reset: boolean): TimelineBatch {
    const n = items.length;
    const column = Object.fromEntries(ITEM_FIELDS.map((f) => [f, new Float64Array(n)])) as Record<ItemField, Float64Array>;
    const { server, id, kind, status, shown, lane, start, end, method, name, parent, progress, direction } = column;
    for (let k = 0; k < n; k++) {
      const item = items[k];
      server[k] = this.serverIndex(item.server);
      id[k] = item.id;
      kind[k] = KIND_CODE.get(item.kind)!;
      status[k] = STATUS_CODE.get(item.status)!;
      shown[k] = this.test(item) ? 1 : 0;
      lane[k] = item.lane;
      start[k] = item.start;
      end[k] = item.end ?? NaN;
      method[k] = this.stringIndex(item.method);
      name[k] = item.name === undefined ? -1 : this.stringIndex(item.name);
      parent[k] = item.parent ?? -1;
      progress[k] = item.progress ?? NaN;
      direction[k] = item.direction === 'send' ? 0 : 1;
      if (!this.methods.has(item.method) && item.kind !== 'session' && this.methods.size < MAX_METHODS) {
        this.methods.add(item.method);
        this.methodsChanged = true;
      }
    }
    const evicted = [...this.evictions].map(([server, firstId]) => [this.serverIndex(server), firstId] as const);
    this.evictions.clear();
    const batch: TimelineBatch = {
      type: 'batch',
      count: n,
      columns: Object.fromEntries(ITEM_FIELDS.map((f) => [f, packColumn(column[f])])) as Record<ItemField, PackedColumn>,
      ...(this.newServers.length ? { servers: this.newServers.map((id) => ({ index: this.serverIndexes.get(id)!, id, name: this.serverName(id) })) } : {}),
      ...(this.newStrings.length ? { strings: this.newStrings } : {}),
      ...(evicted.length ? { evicted } : {}),
      ...(this.methodsChanged ? { methods: [...this.methods].sort() } : {}),
      ...(reset ? { reset } : {}),
    };
    this.newServers = [];
    this.newStrings = [];
    this.methodsChanged = false;
    return batch;
  }

  private serverIndex(id: string): number {
    return indexIn(this.serverIndexes, id, this.newServers);
  }

  private stringIndex(text: string): number {
    return indexIn(this.stringIndexes, text, this.newStrings);
  }

  dispose(): void {
    this.subscription.dispose();
    this.pending.clear();
  }
}

/** The index of `key` in a table the page keeps too: a new key gets the next one and is noted as `fresh`. */
function indexIn(indexes: Map<string, number>, key: string, fresh: string[]): number {
  let index = indexes.get(key);
  if (index === undefined) {
    indexes.set(key, (index = indexes.size));
    fresh.push(key);
  }
  return index;
}
