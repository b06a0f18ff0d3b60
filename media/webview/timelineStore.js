// The items of the timeline page (timeline.js), kept per server in typed arrays: the rows of the
// extension's batches (src/timeline/timelineView.ts), their columns packed in the fewest
// bytes (packedColumn.ts) and unpacked here, put in place by id, and the front let go when the
// extension's ring lets it go. No DOM: what the page draws and lists reads these arrays.
// @ts-check

/**
 * One server's items from `firstId` on, in typed arrays (index = head + id - firstId).
 * @typedef {{ index: number, id: string, name: string, head: number, len: number, cap: number, firstId: number,
 *   kind: Uint8Array, status: Uint8Array, shown: Uint8Array, lane: Int16Array, start: Float64Array, end: Float64Array,
 *   method: Int32Array, name_: Int32Array, parent: Float64Array, progress: Float32Array, direction: Uint8Array, maxLane: number, long: Set<number> }} Store

 * @typedef {ReturnType<typeof McpTimelineStore.create>} TimelineStore the page's items (create())
 * @typedef {{ server: number, id: number }} TimelineItemRef one item: its server's index and its id
 * @typedef {{ from: number, to: number }} TimeRange
 * @typedef {{ start: number, end: number, follow: boolean, scrollY: number, fitted: boolean }} TimelineView the time shown, and how
 */

'use strict';
/* global McpWebview */
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  const { isObj, str } = McpWebview;

  /** Spans longer than this (and open ones) are kept in a list of their own: the draw finds them without a scan. */
  const LONG_MS = 2000;
  /** The kind of an id the page never got (it came and went between two batches). */
  const UNKNOWN_KIND = 255;

  /**
   * The page's items: the batch's schema, the clock, the strings and the servers' stores.
   * @typedef {{ schema: { fields: string[], kinds: string[], statuses: string[], K: Record<string, number>, S: Record<string, number> },
   *   clock: { mode: 'live' | 'recording', offset: number, end: number }, strings: string[], servers: Store[] }} TimelineItems
   */

  /** A new, empty store of the page's items. */
  function create() {
    /** @type {TimelineItems} */
    const items = {
      /** A batch's columns, kind and status codes (by name: K.call, S.error), from the `init` message; changed in place. */
      schema: { fields: [], kinds: [], statuses: [], K: {}, S: {} },
      /** `offset`: the extension's clock minus the page's, so open spans reach the extension's "now"; `end`: a recording's last time. */
      clock: { mode: 'live', offset: 0, end: 0 },
      strings: [],
      servers: [],
    };
    const { schema, clock, strings, servers } = items;
    return {
      schema,
      clock,
      strings,
      servers,
      setSchema: (/** @type {unknown} */ next) => setSchema(schema, next),
      apply: (/** @type {Extract<TimelineMessage, { type: 'batch' }>} */ msg) => apply(items, msg),
      applyMask: (/** @type {Extract<TimelineMessage, { type: 'mask' }>} */ msg) => applyMask(servers, msg),
      count: (/** @type {(s: Store) => boolean} */ serverShown) => count(items, serverShown),
      indexOf,
      lowerBound,
      now: () => now(clock),
      extent: () => extent(items),
    };
  }

  /**
   * @param {number} index
   * @param {string} id
   * @param {string} name
   * @returns {Store}
   */
  function newStore(index, id, name) {
    const s = /** @type {Store} */ ({ index, id, name, head: 0, len: 0, cap: 0, firstId: 1, maxLane: -1, long: new Set() });
    grow(s, 1024);
    return s;
  }

  /**
   * Makes room for `need` items from `head` on (and compacts: the dropped front goes).
   * @param {Store} s
   * @param {number} need
   */
  function grow(s, need) {
    const live = s.len - s.head;
    // Twice what is needed, not twice the old size: once the ring is full the front leaves as
    // fast as items come, and doubling the old size would grow the arrays at every compaction.
    const cap = Math.max(1024, 2 * Math.max(need, live));
    /**
     * @template {Uint8Array | Int16Array | Int32Array | Float32Array | Float64Array} T
     * @param {{ new (length: number): T }} Type
     * @param {T | undefined} old
     * @returns {T}
     */
    const move = (Type, old) => {
      const next = new Type(cap);
      if (old) next.set(old.subarray(s.head, s.len));
      return next;
    };
    s.kind = move(Uint8Array, s.kind);
    s.status = move(Uint8Array, s.status);
    s.shown = move(Uint8Array, s.shown);
    s.lane = move(Int16Array, s.lane);
    s.start = move(Float64Array, s.start);
    s.end = move(Float64Array, s.end);
    s.method = move(Int32Array, s.method);
    s.name_ = move(Int32Array, s.name_);
    s.parent = move(Float64Array, s.parent);
    s.progress = move(Float32Array, s.progress);
    s.direction = move(Uint8Array, s.direction);
    s.len = live;
    s.head = 0;
    s.cap = cap;
  }

  /**
   * @param {Store} s
   * @param {number} id
   */
  function indexOf(s, id) {
    const i = s.head + (id - s.firstId);
    return i >= s.head && i < s.len ? i : -1;
  }

  /**
   * @param {Store} s
   * @param {number} firstId
   */
  function evict(s, firstId) {
    if (firstId <= s.firstId) return;
    s.head = Math.min(s.len, s.head + (firstId - s.firstId));
    s.firstId = firstId;
    if (s.head === s.len) s.head = s.len = 0;
    for (const id of s.long) if (id < firstId) s.long.delete(id);
  }

  function storeOf(/** @type {Store[]} */ servers, /** @type {number} */ index) {
    if (!servers[index]) servers[index] = newStore(index, '', '…');
    return servers[index];
  }

  /**
   * A packed column (src/timeline/packedColumn.ts) as `n` numbers: one value for every
   * row (null is NaN), ids counting up from `from`, or a typed array of exactly `n` values.
   * Anything else is NaN: the page draws what it can of a batch it cannot read.
   * @param {unknown} packed
   * @param {number} n
   * @returns {ArrayLike<number>}
   */
  function column(packed, n) {
    if (ArrayBuffer.isView(packed) && !(packed instanceof DataView) && /** @type {Float64Array} */ (packed).length === n) return /** @type {Float64Array} */ (packed);
    const out = new Float64Array(n);
    if (isObj(packed) && typeof packed.from === 'number') for (let k = 0; k < n; k++) out[k] = packed.from + k;
    else if (isObj(packed)) {
      // A typed array that came as a plain object (a host that sends JSON only): its values by index.
      for (let k = 0; k < n; k++) {
        const v = packed[k];
        out[k] = typeof v === 'number' ? v : NaN;
      }
    } else out.fill(typeof packed === 'number' ? packed : NaN);
    return out;
  }

  /**
   * Applies row `k` of a batch's columns (see column()).
   * @param {TimelineItems} items
   * @param {Record<string, ArrayLike<number>>} c
   * @param {number} k
   */
  function upsert(items, c, k) {
    const s = storeOf(items.servers, c.server[k]);
    const id = c.id[k];
    if (id < s.firstId) return;
    // An empty store starts at the first id it is given.
    if (s.len === s.head) {
      s.head = s.len = 0;
      s.firstId = id;
    }
    let i = s.head + (id - s.firstId);
    if (i >= s.cap) {
      grow(s, i - s.head + 1);
      i = s.head + (id - s.firstId);
    }
    // Ids are contiguous; a gap (items that came and went between two batches) is filled as unknown.
    while (s.len < i) {
      s.kind[s.len] = UNKNOWN_KIND;
      s.shown[s.len] = 0;
      s.start[s.len] = s.len > s.head ? s.start[s.len - 1] : c.start[k];
      s.end[s.len] = NaN;
      s.len++;
    }
    if (i === s.len) s.len++;
    const kind = c.kind[k];
    const start = c.start[k];
    const end = c.end[k];
    s.kind[i] = kind;
    s.status[i] = c.status[k];
    s.shown[i] = c.shown[k];
    s.lane[i] = c.lane[k];
    s.start[i] = start;
    s.end[i] = end;
    s.method[i] = c.method[k];
    s.name_[i] = c.name[k];
    s.parent[i] = c.parent[k];
    s.progress[i] = c.progress[k];
    s.direction[i] = c.direction[k];
    if (s.lane[i] > s.maxLane) s.maxLane = s.lane[i];
    const { K } = items.schema;
    if ((kind === K.call || kind === K.serverCall) && (Number.isNaN(end) || end - start > LONG_MS)) s.long.add(id);
    else s.long.delete(id);
  }

  /**
   * The first index in [head, len) whose start is at or after `t`.
   * @param {Store} s
   * @param {number} t
   */
  function lowerBound(s, t) {
    let lo = s.head;
    let hi = s.len;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s.start[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The extension's "now": a live page's clock moved by the offset, a recording's end. */
  function now(/** @type {TimelineItems['clock']} */ clock) {
    return clock.mode === 'live' ? Date.now() + clock.offset : clock.end;
  }

  /** Time extent of what is kept. */
  function extent(/** @type {TimelineItems} */ { clock, servers }) {
    let from = Infinity;
    let to = -Infinity;
    for (const s of servers) {
      if (!s || s.len === s.head) continue;
      from = Math.min(from, s.start[s.head]);
      to = Math.max(to, s.start[s.len - 1]);
      for (const id of s.long) {
        const i = indexOf(s, id);
        if (i >= 0) to = Math.max(to, Number.isNaN(s.end[i]) ? now(clock) : s.end[i]);
      }
      const last = s.len - 1;
      if (!Number.isNaN(s.end[last])) to = Math.max(to, s.end[last]);
    }
    if (clock.mode === 'live' && from !== Infinity) to = Math.max(to, now(clock));
    return from === Infinity ? undefined : { from, to };
  }

  /**
   * The columns and codes of `init`'s schema (TIMELINE_SCHEMA).
   * @param {TimelineItems['schema']} schema
   * @param {unknown} next
   */
  function setSchema(schema, next) {
    schema.fields.length = schema.kinds.length = schema.statuses.length = 0;
    for (const key of Object.keys(schema.K)) delete schema.K[key];
    for (const key of Object.keys(schema.S)) delete schema.S[key];
    if (!isObj(next)) return;
    if (Array.isArray(next.fields)) schema.fields.push(...next.fields.map(str));
    if (Array.isArray(next.kinds)) schema.kinds.push(...next.kinds.map(str));
    if (Array.isArray(next.statuses)) schema.statuses.push(...next.statuses.map(str));
    schema.kinds.forEach((k, i) => (schema.K[k] = i));
    schema.statuses.forEach((x, i) => (schema.S[x] = i));
  }

  /**
   * Applies a batch's data (after a `reset`, from nothing): the clock, new strings and servers,
   * what left the ring, then its rows. Returns how many rows came and whether servers did.
   * @param {TimelineItems} items
   * @param {Extract<TimelineMessage, { type: 'batch' }>} msg
   */
  function apply(items, msg) {
    const { clock, strings, servers } = items;
    if (msg.reset) {
      servers.length = 0;
      strings.length = 0;
    }
    if (typeof msg.now === 'number') {
      clock.offset = msg.now - Date.now();
      clock.end = Math.max(clock.end, msg.now);
    }
    if (Array.isArray(msg.strings)) for (const x of msg.strings) strings.push(str(x));
    let serversChanged = false;
    if (Array.isArray(msg.servers)) {
      for (const info of msg.servers) {
        const s = storeOf(servers, info.index);
        s.id = str(info.id);
        s.name = str(info.name);
        serversChanged = true;
      }
    }
    for (const e of Array.isArray(msg.evicted) ? msg.evicted : []) {
      const s = servers[e[0]];
      if (s) evict(s, e[1]);
    }
    const n = typeof msg.count === 'number' && msg.count > 0 ? msg.count : 0;
    /** @type {Record<string, unknown>} */
    const packed = isObj(msg.columns) ? msg.columns : {};
    /** @type {Record<string, ArrayLike<number>>} */
    const c = {};
    for (const f of items.schema.fields) c[f] = column(packed[f], n);
    for (let k = 0; k < n; k++) upsert(items, c, k);
    return { rows: n, serversChanged };
  }

  /**
   * A `mask` message: which items pass the filter now, per server from its first id.
   * @param {Store[]} servers
   * @param {Extract<TimelineMessage, { type: 'mask' }>} msg
   */
  function applyMask(servers, msg) {
    for (const m of Array.isArray(msg.servers) ? msg.servers : []) {
      const s = servers[m.index];
      if (!s) continue;
      const shown = m.shown;
      for (let k = 0; k < shown.length; k++) {
        const i = indexOf(s, m.firstId + k);
        if (i >= 0) s.shown[i] = shown[k];
      }
    }
  }

  /**
   * The calls and notifications kept (not sessions or progress), the errors, and those shown (`serverShown` too).
   * @param {TimelineItems} items
   * @param {(s: Store) => boolean} serverShown
   */
  function count({ schema, servers }, serverShown) {
    const { K, S } = schema;
    let items = 0;
    let shown = 0;
    let errors = 0;
    for (const s of servers) {
      if (!s) continue;
      for (let i = s.head; i < s.len; i++) {
        const k = s.kind[i];
        if (k === UNKNOWN_KIND || k === K.session || k === K.progress) continue;
        items++;
        if (s.status[i] === S.error) errors++;
        if (s.shown[i] && serverShown(s)) shown++;
      }
    }
    return { items, shown, errors };
  }

  // eslint-disable-next-line no-unused-vars
  var McpTimelineStore = { create, LONG_MS, UNKNOWN_KIND };
}
