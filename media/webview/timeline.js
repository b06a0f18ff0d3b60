// The protocol timeline (src/extension/timeline/timelinePanel.ts sends what it draws): every
// server's frames on one time axis, drawn on a canvas. Items arrive in batches as rows of numbers
// (the `init` message names the columns) and are kept per server in typed arrays; each draw
// visits only the items whose time is on screen (a binary search, plus the few long spans), and
// several items on the same pixel of a row are drawn once, so 100,000 frames draw as fast as 1,000.
// The filter is applied by the extension, which sends back which items pass. Plain browser JS;
// every string is inserted as text.
// @ts-check
(function () {
  'use strict';
  /* global McpWebview, McpTimelineAccess */
  const { h, post, onMessage, isObj, str, formatBytes, jsonTree } = McpWebview;
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));

  // Layout (CSS pixels).
  const RULER = 24;
  const GUTTER = 168;
  const HEADER_ROW = 22;
  const TICK_ROW = 18;
  const LANE = 20;
  const GROUP_GAP = 8;
  /** Spans longer than this (and open ones) are kept in a list of their own: the draw finds them without a scan. */
  const LONG_MS = 2000;
  const UNKNOWN_KIND = 255;

  // ---------------------------------------------------------------------------------------------
  // State

  /** A batch's columns, kind and status codes: from the `init` message. */
  let FIELDS = /** @type {string[]} */ ([]);
  let KINDS = /** @type {string[]} */ ([]);
  let STATUSES = /** @type {string[]} */ ([]);
  let K = /** @type {Record<string, number>} */ ({});
  let S = /** @type {Record<string, number>} */ ({});
  let mode = 'live';
  const strings = /** @type {string[]} */ ([]);
  /** @type {Store[]} */
  const servers = [];
  let methods = /** @type {string[]} */ ([]);
  /** Extension clock minus page clock, so open spans reach the extension's "now". */
  let clockOffset = 0;
  let recordingEnd = 0;
  /** `fitted`: showing everything (a following page then grows with the data instead of sliding). */
  const view = { start: 0, end: 1, follow: true, scrollY: 0, fitted: false };
  let autoFitted = false;
  /** @type {{ server: number, id: number } | null} */
  let selected = null;
  /** Items picked for export (Ctrl/Cmd+click, Space), by "server:id". */
  const picked = new Map();
  /** @type {{ from: number, to: number } | null} */
  let range = null;
  const filter = { servers: /** @type {string[] | undefined} */ (undefined), methods: /** @type {string[]} */ ([]), text: '', direction: 'all', errors: false, slow: false };
  const counts = { items: 0, shown: 0, errors: 0 };
  /**
   * What the page measures of itself, as User Timing entries (DevTools' Performance panel shows
   * them; the benchmarks read them): "mcp-timeline draw" per draw, "mcp-timeline first batch" and
   * "mcp-timeline first paint" once, "mcp-timeline largest batch" (its `detail.items`).
   */
  const perf = { painted: false, batched: false, batchItems: 0, draws: 0 };

  /**
   * One server's items from `firstId` on, in typed arrays (index = head + id - firstId).
   * @typedef {{ index: number, id: string, name: string, head: number, len: number, cap: number, firstId: number,
   *   kind: Uint8Array, status: Uint8Array, shown: Uint8Array, lane: Int16Array, start: Float64Array, end: Float64Array,
   *   method: Int32Array, name_: Int32Array, parent: Float64Array, progress: Float32Array, direction: Uint8Array, maxLane: number, long: Set<number> }} Store
   */

  /** @returns {Store} */
  function newStore(index, id, name) {
    const s = /** @type {Store} */ ({ index, id, name, head: 0, len: 0, cap: 0, firstId: 1, maxLane: -1, long: new Set() });
    grow(s, 1024);
    return s;
  }

  /** Makes room for `need` items from `head` on (and compacts: the dropped front goes). */
  function grow(s, need) {
    const live = s.len - s.head;
    // Twice what is needed, not twice the old size: once the ring is full the front leaves as
    // fast as items come, and doubling the old size would grow the arrays at every compaction.
    const cap = Math.max(1024, 2 * Math.max(need, live));
    /** @param {any} Type @param {any} old */
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

  function indexOf(s, id) {
    const i = s.head + (id - s.firstId);
    return i >= s.head && i < s.len ? i : -1;
  }

  function evict(s, firstId) {
    if (firstId <= s.firstId) return;
    s.head = Math.min(s.len, s.head + (firstId - s.firstId));
    s.firstId = firstId;
    if (s.head === s.len) s.head = s.len = 0;
    for (const id of s.long) if (id < firstId) s.long.delete(id);
  }

  function storeOf(index) {
    if (!servers[index]) servers[index] = newStore(index, '', '…');
    return servers[index];
  }

  /**
   * A packed column (src/timeline/packedColumn.ts) as `n` numbers: one value for every
   * row (null is NaN), ids counting up from `from`, or a typed array of exactly `n` values.
   * Anything else is NaN: the page draws what it can of a batch it cannot read.
   * @returns {ArrayLike<number>}
   */
  function column(packed, n) {
    if (ArrayBuffer.isView(packed) && /** @type {any} */ (packed).length === n && !(packed instanceof DataView)) return /** @type {any} */ (packed);
    const out = new Float64Array(n);
    if (isObj(packed) && typeof packed.from === 'number') for (let k = 0; k < n; k++) out[k] = packed.from + k;
    else if (isObj(packed)) {
      // A typed array that came as a plain object (a host that sends JSON only): its values by index.
      for (let k = 0; k < n; k++) out[k] = typeof packed[k] === 'number' ? packed[k] : NaN;
    } else out.fill(typeof packed === 'number' ? packed : NaN);
    return out;
  }

  /** Applies row `k` of a batch's columns (see column()). */
  function upsert(c, k) {
    const s = storeOf(c.server[k]);
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
    if ((kind === K.call || kind === K.serverCall) && (Number.isNaN(end) || end - start > LONG_MS)) s.long.add(id);
    else s.long.delete(id);
  }

  /** The first index in [head, len) whose start is at or after `t`. */
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

  function now() {
    return mode === 'live' ? Date.now() + clockOffset : recordingEnd;
  }

  function serverShown(s) {
    return !filter.servers || filter.servers.includes(s.id);
  }

  /** Time extent of what is kept. */
  function extent() {
    let from = Infinity;
    let to = -Infinity;
    for (const s of servers) {
      if (!s || s.len === s.head) continue;
      from = Math.min(from, s.start[s.head]);
      to = Math.max(to, s.start[s.len - 1]);
      for (const id of s.long) {
        const i = indexOf(s, id);
        if (i >= 0) to = Math.max(to, Number.isNaN(s.end[i]) ? now() : s.end[i]);
      }
      const last = s.len - 1;
      if (!Number.isNaN(s.end[last])) to = Math.max(to, s.end[last]);
    }
    if (mode === 'live' && from !== Infinity) to = Math.max(to, now());
    return from === Infinity ? undefined : { from, to };
  }

  function recount() {
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
    counts.items = items;
    counts.shown = shown;
    counts.errors = errors;
    renderSummary();
  }

  // ---------------------------------------------------------------------------------------------
  // Page

  const els = {
    toolbar: h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Timeline filters and actions' }),
    serverChips: h('div', { class: 'server-chips', role: 'group', 'aria-label': 'Servers shown' }),
    method: /** @type {HTMLSelectElement} */ (h('select', { id: 'method-filter', 'aria-label': 'Method' })),
    text: /** @type {HTMLInputElement} */ (h('input', { id: 'text-filter', type: 'search', placeholder: 'Method or name…', 'aria-label': 'Show items whose method or name contains', spellcheck: 'false' })),
    direction: /** @type {HTMLSelectElement} */ (h('select', { id: 'direction-filter', 'aria-label': 'Direction' }, [h('option', { value: 'all', text: 'Both directions' }), h('option', { value: 'send', text: 'Editor → server' }), h('option', { value: 'receive', text: 'Server → editor' })])),
    errors: h('button', { id: 'errors-filter', class: 'toggle', 'aria-pressed': 'false', title: 'Only failed items: error answers, results with isError, frames that answer nothing known' }, ['Errors']),
    slow: h('button', { id: 'slow-filter', class: 'toggle', 'aria-pressed': 'false', title: 'Only answered calls slower than the 95th percentile of their method' }, ['Slow (> p95)']),
    fit: h('button', { id: 'fit', class: 'secondary', title: 'Show everything (0)' }, ['Fit']),
    follow: h('button', { id: 'follow', class: 'toggle', 'aria-pressed': 'true', title: 'Keep the newest frames in view (End)' }, ['Follow']),
    exportButton: h('button', { id: 'export', class: 'secondary', title: 'Write the selection as a recording (the --record format, secrets redacted) that mcp-host replay reads' }, ['Export…']),
    clear: h('button', { id: 'clear', class: 'secondary', title: 'Forget every item kept so far' }, ['Clear']),
    summary: h('div', { id: 'summary', class: 'summary muted' }),
    legend: h('div', { class: 'legend muted', 'aria-hidden': 'true' }),
    chart: h('div', { class: 'chart' }),
    canvas: /** @type {HTMLCanvasElement} */ (
      h('canvas', {
        id: 'timeline-canvas',
        tabindex: '0',
        role: 'application',
        'aria-roledescription': 'timeline',
        'aria-label': 'Protocol timeline. Up and Down arrows select the previous or next item, Left and Right pan, plus and minus zoom, 0 fits everything, End follows the newest, Space picks an item for export, Escape clears the selection.',
      })
    ),
    empty: h('div', { class: 'empty muted', hidden: '' }),
    tooltip: h('div', { class: 'tooltip', role: 'tooltip', hidden: '' }),
    details: h('section', { id: 'details', class: 'details', 'aria-label': 'Selected item', tabindex: '-1', hidden: '' }),
    /** The items drawn on screen, for screen readers: each a button over its shape (timelineAccess.js). */
    drawnList: h('ol', { id: 'drawn-items', class: 'drawn-items', 'aria-label': 'Items on screen' }),
    announce: h('div', { class: 'sr-only', 'aria-live': 'polite', id: 'announce' }),
    notice: h('div', { class: 'notice-line', role: 'status' }),
  };

  function build() {
    app.textContent = '';
    app.removeAttribute('aria-live');
    els.toolbar.append(
      els.serverChips,
      els.method,
      els.text,
      els.direction,
      els.errors,
      els.slow,
      h('span', { class: 'spacer' }),
      els.fit,
      ...(mode === 'live' ? [els.follow] : []),
      els.exportButton,
      ...(mode === 'live' ? [els.clear] : []),
    );
    els.chart.append(els.canvas, els.drawnList, els.empty, els.tooltip);
    McpTimelineAccess.rovingToolbar(els.toolbar);
    app.append(h('h1', { class: 'sr-only', text: document.title }), els.toolbar, h('div', { class: 'status-line' }, [els.summary, els.legend]), els.notice, els.chart, els.details, els.announce);
    renderLegend();
    renderMethods();
  }

  function renderLegend() {
    els.legend.textContent = '';
    const swatch = (cls, text) => h('span', { class: 'legend-item' }, [h('span', { class: 'swatch ' + cls }), text]);
    els.legend.append(swatch('ok', 'answered'), swatch('error', 'error'), swatch('cancelled', 'cancelled'), swatch('input', 'input round'), swatch('task', 'task'), swatch('open', 'open'), swatch('server-call', 'server request'), swatch('tick', 'notification'));
  }

  function renderSummary() {
    const shownServers = servers.filter((s) => s && serverShown(s)).length;
    const parts = [`${servers.filter(Boolean).length} server${servers.filter(Boolean).length === 1 ? '' : 's'}`, `${counts.items.toLocaleString('en-US')} items`, `${counts.errors.toLocaleString('en-US')} error${counts.errors === 1 ? '' : 's'}`];
    if (counts.shown !== counts.items || shownServers !== servers.filter(Boolean).length) parts.push(`${counts.shown.toLocaleString('en-US')} shown`);
    if (picked.size) parts.push(`${picked.size} picked`);
    if (range) parts.push(`range ${formatDuration(range.to - range.from)}`);
    els.summary.textContent = parts.join(' · ');
    updateExportLabel();
    const nothing = counts.items === 0;
    els.empty.hidden = !nothing;
    els.empty.textContent = mode === 'live' ? 'No frames yet. Start a server and use it: every request, answer and notification appears here, on one time axis.' : 'This recording holds no frames.';
  }

  function renderServerChips() {
    els.serverChips.textContent = '';
    for (const s of servers) {
      if (!s) continue;
      const on = serverShown(s);
      const chip = h('button', { class: 'chip toggle', 'aria-pressed': String(on), title: on ? `Hide ${s.name}` : `Show ${s.name}`, dataset: { server: s.id } }, [h('span', { class: 'dot' }), s.name]);
      chip.addEventListener('click', () => {
        const ids = servers.filter(Boolean).map((x) => x.id);
        const current = filter.servers ? new Set(filter.servers) : new Set(ids);
        if (current.has(s.id)) current.delete(s.id);
        else current.add(s.id);
        filter.servers = current.size === ids.length ? undefined : [...current];
        sendFilter();
        renderServerChips();
      });
      els.serverChips.append(chip);
    }
  }

  function renderMethods() {
    const value = els.method.value;
    els.method.textContent = '';
    els.method.append(h('option', { value: '', text: 'All methods' }));
    for (const m of methods) els.method.append(h('option', { value: m, text: m }));
    els.method.value = methods.includes(value) ? value : '';
  }

  function updateExportLabel() {
    const label = picked.size ? `Export ${picked.size} item${picked.size === 1 ? '' : 's'}…` : range ? 'Export range…' : selected ? 'Export item…' : 'Export view…';
    els.exportButton.textContent = label;
  }

  let filterTimer = 0;
  function sendFilter() {
    clearTimeout(filterTimer);
    post({ type: 'filter', filter: { ...(filter.servers ? { servers: filter.servers } : {}), methods: filter.methods, text: filter.text, direction: filter.direction, errors: filter.errors, slow: filter.slow } });
    requestDraw();
  }

  function setPressed(button, on) {
    button.setAttribute('aria-pressed', String(on));
  }

  els.method.addEventListener('change', () => {
    filter.methods = els.method.value ? [els.method.value] : [];
    sendFilter();
  });
  els.text.addEventListener('input', () => {
    filter.text = els.text.value;
    clearTimeout(filterTimer);
    filterTimer = setTimeout(sendFilter, 200);
  });
  els.direction.addEventListener('change', () => {
    filter.direction = els.direction.value;
    sendFilter();
  });
  els.errors.addEventListener('click', () => {
    filter.errors = !filter.errors;
    setPressed(els.errors, filter.errors);
    sendFilter();
  });
  els.slow.addEventListener('click', () => {
    filter.slow = !filter.slow;
    setPressed(els.slow, filter.slow);
    sendFilter();
  });
  els.fit.addEventListener('click', () => fit());
  els.follow.addEventListener('click', () => setFollow(!view.follow));
  els.clear.addEventListener('click', () => {
    selected = null;
    picked.clear();
    range = null;
    closeDetails();
    post({ type: 'clear' });
  });
  els.exportButton.addEventListener('click', () => exportSelection());

  function setFollow(on) {
    view.follow = on && mode === 'live';
    setPressed(els.follow, view.follow);
    requestDraw();
  }

  function fit() {
    const e = extent();
    if (!e) return;
    const pad = Math.max(1, (e.to - e.from) * 0.02);
    view.start = e.from - pad;
    view.end = e.to + pad;
    view.fitted = true;
    setFollow(mode === 'live');
    requestDraw();
  }

  // ---------------------------------------------------------------------------------------------
  // Colors from the theme (read again when it changes)

  const colors = /** @type {Record<string, string>} */ ({});
  function readColors() {
    const css = getComputedStyle(document.body);
    const v = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
    const dark = document.body.classList.contains('vscode-dark') || document.body.classList.contains('vscode-high-contrast');
    colors.bg = v('--vscode-editor-background', dark ? '#1e1e1e' : '#ffffff');
    colors.fg = v('--vscode-foreground', dark ? '#cccccc' : '#3b3b3b');
    colors.muted = v('--vscode-descriptionForeground', dark ? '#9d9d9d' : '#717171');
    colors.grid = v('--vscode-editorIndentGuide-background1', v('--vscode-editorIndentGuide-background', dark ? '#404040' : '#d3d3d3'));
    colors.border = v('--vscode-panel-border', dark ? '#2b2b2b' : '#e5e5e5');
    colors.band = v('--vscode-editor-lineHighlightBackground', dark ? '#ffffff0a' : '#0000000a');
    colors.ok = v('--vscode-charts-blue', dark ? '#3794ff' : '#1a85ff');
    colors.error = v('--vscode-charts-red', v('--vscode-errorForeground', '#f14c4c'));
    colors.cancelled = v('--vscode-charts-orange', '#d18616');
    colors.input = v('--vscode-charts-purple', '#b180d7');
    colors.task = v('--vscode-charts-yellow', '#cca700');
    colors.serverCall = v('--vscode-charts-purple', '#b180d7');
    colors.received = v('--vscode-charts-green', '#388a34');
    colors.focus = v('--vscode-focusBorder', '#007fd4');
    colors.range = v('--vscode-editor-selectionBackground', dark ? '#264f78' : '#add6ff');
    // Shapes reach 3:1 against the background and text 4.5:1, in every theme (a theme's chart
    // orange is 1.5:1 on Light+'s white): a colour short of it is moved towards black or white.
    McpTimelineAccess.readableShapes(colors, ['ok', 'error', 'cancelled', 'input', 'task', 'serverCall', 'received']);
    colors.muted = McpTimelineAccess.readable(colors.muted, colors.bg, 4.5);
    colors.fg = McpTimelineAccess.readable(colors.fg, colors.bg, 4.5);
    colors.font = v('--vscode-font-family', 'sans-serif');
    colors.mono = v('--vscode-editor-font-family', 'monospace');
  }

  const textOnCache = new Map();
  /** Black or white, whichever reads better on `color`; remembered per color. */
  function textOn(color) {
    let text = textOnCache.get(color);
    if (text === undefined) textOnCache.set(color, (text = McpTimelineAccess.textOn(color)));
    return text;
  }

  function statusColor(status) {
    switch (STATUSES[status]) {
      case 'error':
        return colors.error;
      case 'cancelled':
        return colors.cancelled;
      case 'input':
        return colors.input;
      case 'task':
        return colors.task;
      case 'unanswered':
        return colors.muted;
      default:
        return colors.ok;
    }
  }

  new MutationObserver(() => {
    textOnCache.clear();
    readColors();
    requestDraw();
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });

  // ---------------------------------------------------------------------------------------------
  // Layout and drawing

  const ctx = /** @type {CanvasRenderingContext2D} */ (els.canvas.getContext('2d', { alpha: false }));
  /** The fill color last set: setting a canvas color parses it, so it is set only when it changes. */
  let lastFill = '';
  function setFill(color) {
    if (color === lastFill) return;
    ctx.fillStyle = lastFill = color;
  }
  let width = 0;
  let height = 0;
  /** Groups on screen: a server and the y of its rows (content coordinates). */
  let groups = /** @type {{ s: Store, top: number, tickY: number, laneY: number, bottom: number }[]} */ ([]);
  let contentHeight = 0;
  // What was drawn, for clicks and hovers.
  const hit = { n: 0, x0: new Float32Array(65536), x1: new Float32Array(65536), y0: new Float32Array(65536), y1: new Float32Array(65536), server: new Int32Array(65536), index: new Int32Array(65536) };

  function layout() {
    groups = [];
    let y = 0;
    for (const s of servers) {
      if (!s || !serverShown(s)) continue;
      const top = y;
      const tickY = top + HEADER_ROW;
      const laneY = tickY + TICK_ROW;
      const lanes = Math.max(1, s.maxLane + 1);
      const bottom = laneY + lanes * LANE;
      groups.push({ s, top, tickY, laneY, bottom });
      y = bottom + GROUP_GAP;
    }
    contentHeight = y;
  }

  function resize() {
    const rect = els.chart.getBoundingClientRect();
    width = Math.max(200, Math.floor(rect.width));
    height = Math.max(120, Math.floor(rect.height));
    const dpr = window.devicePixelRatio || 1;
    els.canvas.width = Math.floor(width * dpr);
    els.canvas.height = Math.floor(height * dpr);
    els.canvas.style.width = width + 'px';
    els.canvas.style.height = height + 'px';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    requestDraw();
  }

  let drawQueued = false;
  function requestDraw() {
    if (drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(() => {
      drawQueued = false;
      draw();
    });
  }

  const plotLeft = () => GUTTER;
  const plotWidth = () => Math.max(1, width - GUTTER);
  const xOf = (t) => GUTTER + ((t - view.start) / (view.end - view.start)) * plotWidth();
  const timeAt = (x) => view.start + ((x - GUTTER) / plotWidth()) * (view.end - view.start);

  function draw() {
    const t0 = performance.now();
    if (view.follow && mode === 'live') {
      const span = view.end - view.start;
      const e = view.fitted ? extent() : undefined;
      if (e) {
        // Fitted: everything stays in view as it grows.
        const pad = Math.max(1, (e.to - e.from) * 0.02);
        view.start = e.from - pad;
        view.end = e.to + pad;
      } else {
        // Zoomed in: a window of the same width slides with the clock.
        view.end = now() + span * 0.02;
        view.start = view.end - span;
      }
    }
    layout();
    const maxScroll = Math.max(0, contentHeight - (height - RULER));
    view.scrollY = Math.min(Math.max(0, view.scrollY), maxScroll);
    setFill(colors.bg);
    ctx.fillRect(0, 0, width, height);
    hit.n = 0;
    drawGrid();
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, RULER, width, height - RULER);
    ctx.clip();
    for (const g of groups) {
      const top = g.top - view.scrollY + RULER;
      if (top > height || g.bottom - view.scrollY + RULER < RULER) continue;
      drawGroup(g, top);
    }
    drawSelection();
    if (range) {
      const x0 = Math.max(GUTTER, xOf(range.from));
      const x1 = Math.min(width, xOf(range.to));
      if (x1 > x0) {
        ctx.globalAlpha = 0.35;
        setFill(colors.range);
        ctx.fillRect(x0, RULER, x1 - x0, height - RULER);
        ctx.globalAlpha = 1;
      }
    }
    if (mode === 'live') {
      const x = xOf(now());
      if (x >= GUTTER && x <= width) {
        ctx.strokeStyle = colors.focus;
        ctx.globalAlpha = 0.6;
        ctx.beginPath();
        ctx.moveTo(x + 0.5, RULER);
        ctx.lineTo(x + 0.5, height);
        ctx.stroke();
        ctx.globalAlpha = 1;
      }
    }
    ctx.restore();
    lastFill = '';
    drawRuler();
    // The entries are kept by the browser: a page that follows for hours starts their list over.
    if (++perf.draws > 5000) {
      performance.clearMeasures('mcp-timeline draw');
      perf.draws = 1;
    }
    performance.measure('mcp-timeline draw', { start: t0 });
    if (!perf.painted && counts.items > 0) {
      perf.painted = true;
      performance.mark('mcp-timeline first paint');
    }
    requestListUpdate();
  }

  // ---------------------------------------------------------------------------------------------
  // The list of drawn items (what a screen reader reads instead of the canvas)

  const STATUS_WORDS = /** @type {Record<string, string>} */ ({ ok: 'answered', open: 'open', error: 'error', cancelled: 'cancelled', input: 'input round', task: 'task', unanswered: 'unanswered', none: '' });
  const drawnList = McpTimelineAccess.drawnItemsList(els.drawnList, (key) => {
    const [server, id] = key.split(':').map(Number);
    select({ server, id });
    els.details.focus();
  });
  let listTimer = 0;
  /** The list follows the drawing a few times a second at most (a following view draws four times a second). */
  function requestListUpdate() {
    if (listTimer) return;
    listTimer = setTimeout(() => {
      listTimer = 0;
      const items = [];
      for (let n = 0; n < hit.n; n++) {
        const s = servers[hit.server[n]];
        const i = hit.index[n];
        const status = STATUS_WORDS[STATUSES[s.status[i]]] || '';
        items.push({ key: `${hit.server[n]}:${s.firstId + (i - s.head)}`, text: [itemTitle(s, i), kindText(KINDS[s.kind[i]]), s.name, ...(status ? [status] : [])].join(', '), x0: hit.x0[n], x1: hit.x1[n], y0: hit.y0[n], y1: hit.y1[n] });
      }
      drawnList.update(items);
    }, 200);
  }

  /** A step of 1, 2 or 5 × 10^n ms near `ms`. */
  function niceStep(ms) {
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(ms, 1e-3))));
    const m = ms / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }

  function clockText(t, step) {
    const d = new Date(t);
    const two = (n) => String(n).padStart(2, '0');
    const base = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
    if (step >= 1000) return base;
    const ms = String(d.getMilliseconds()).padStart(3, '0');
    return step >= 1 ? `${base}.${ms}` : `${base}.${ms}${(t % 1).toFixed(2).slice(1)}`;
  }

  function drawGrid() {
    const step = niceStep(((view.end - view.start) * 110) / plotWidth());
    ctx.strokeStyle = colors.grid;
    ctx.globalAlpha = 0.5;
    ctx.beginPath();
    for (let t = Math.ceil(view.start / step) * step; t <= view.end; t += step) {
      const x = Math.round(xOf(t)) + 0.5;
      ctx.moveTo(x, RULER);
      ctx.lineTo(x, height);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  function drawRuler() {
    setFill(colors.bg);
    ctx.fillRect(0, 0, width, RULER);
    ctx.strokeStyle = colors.border;
    ctx.beginPath();
    ctx.moveTo(0, RULER - 0.5);
    ctx.lineTo(width, RULER - 0.5);
    ctx.moveTo(GUTTER - 0.5, 0);
    ctx.lineTo(GUTTER - 0.5, height);
    ctx.stroke();
    const step = niceStep(((view.end - view.start) * 110) / plotWidth());
    ctx.font = `11px ${colors.font}`;
    setFill(colors.muted);
    ctx.textBaseline = 'middle';
    for (let t = Math.ceil(view.start / step) * step; t <= view.end; t += step) {
      const x = Math.round(xOf(t));
      if (x < GUTTER + 2) continue;
      ctx.fillRect(x, RULER - 5, 1, 5);
      ctx.fillText(clockText(t, step), x + 3, RULER / 2);
    }
    setFill(colors.fg);
    ctx.fillText(`${formatDuration(view.end - view.start)} shown`, 8, RULER / 2);
  }

  function drawGroup(g, top) {
    const s = g.s;
    const tickY = top + HEADER_ROW;
    const laneY = tickY + TICK_ROW;
    const bottom = top + (g.bottom - g.top);
    // Band and name.
    setFill(colors.band);
    ctx.fillRect(0, top, width, HEADER_ROW);
    setFill(colors.border);
    ctx.fillRect(0, bottom + GROUP_GAP / 2, width, 1);
    ctx.font = `600 12px ${colors.font}`;
    setFill(colors.fg);
    ctx.textBaseline = 'middle';
    clipText(s.name, 8, top + HEADER_ROW / 2, GUTTER - 14);
    ctx.font = `11px ${colors.font}`;
    setFill(colors.muted);
    ctx.fillText('notifications', 8, tickY + TICK_ROW / 2);
    if (s.maxLane >= 0) ctx.fillText(`calls (${s.maxLane + 1} lane${s.maxLane === 0 ? '' : 's'})`, 8, laneY + LANE / 2);

    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, top, width - GUTTER, bottom - top);
    ctx.clip();
    const from = lowerBound(s, view.start - LONG_MS);
    const to = lowerBound(s, view.end + 1);
    const lastX = new Float64Array(Math.max(1, s.maxLane + 1)).fill(-Infinity);
    const lastStatus = new Int16Array(Math.max(1, s.maxLane + 1)).fill(-1);
    let lastTick = -Infinity;
    const lastProgress = new Float64Array(Math.max(1, s.maxLane + 1)).fill(-Infinity);
    const errors = [];
    const nowT = now();
    const visit = (i, fromLongList) => {
      const k = s.kind[i];
      if (k === UNKNOWN_KIND || !s.shown[i]) return;
      // Long spans are drawn from their own list; the arithmetic first, the set only for candidates.
      if (!fromLongList && (k === K.call || k === K.serverCall) && !(s.end[i] - s.start[i] <= LONG_MS) && s.long.has(s.firstId + (i - s.head))) return;
      if (k === K.call) {
        const endT = Number.isNaN(s.end[i]) ? nowT : s.end[i];
        if (endT < view.start) return;
        if (s.status[i] === S.error && !fromLongList) {
          errors.push(i);
          return;
        }
        const lane = Math.max(0, s.lane[i]);
        const x0 = xOf(s.start[i]);
        const x1 = Math.max(xOf(endT), x0 + 2);
        if (fromLongList) {
          drawSpan(s, i, x0, x1, laneY + lane * LANE);
          return;
        }
        // On whole pixels: what this lane already covered in time order, in the same color, is not
        // drawn again (zoomed out, thousands of calls share a few pixels).
        const right = Math.ceil(x1);
        if (right <= lastX[lane] && lastStatus[lane] === s.status[i]) return;
        drawSpan(s, i, x0, x1, laneY + lane * LANE);
        lastX[lane] = Math.max(lastX[lane], right);
        lastStatus[lane] = s.status[i];
      } else if (k === K.serverCall) {
        drawServerCall(s, i, tickY, nowT);
      } else if (k === K.progress) {
        const x = Math.round(xOf(s.start[i]));
        const p = indexOf(s, s.parent[i]);
        const lane = p >= 0 ? Math.max(0, s.lane[p]) : 0;
        // One mark a pixel of a lane.
        if (x === lastProgress[lane]) return;
        lastProgress[lane] = x;
        drawProgress(s, i, laneY);
      } else if (k === K.session) {
        const x = Math.round(xOf(s.start[i])) + 0.5;
        ctx.strokeStyle = colors.muted;
        ctx.setLineDash([3, 3]);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.stroke();
        ctx.setLineDash([]);
        setFill(colors.muted);
        ctx.font = `10px ${colors.font}`;
        ctx.fillText('new session', x + 3, top + HEADER_ROW / 2);
      } else {
        const x = Math.round(xOf(s.start[i]));
        if (x === lastTick && s.status[i] !== S.error) return;
        lastTick = x;
        const color = s.status[i] === S.error ? colors.error : s.direction[i] === 1 ? colors.received : colors.muted;
        setFill(color);
        ctx.fillRect(x, tickY + 3, 2, TICK_ROW - 6);
        addHit(x - 3, x + 5, tickY, tickY + TICK_ROW, s.index, i);
      }
    };
    for (const id of s.long) {
      const i = indexOf(s, id);
      if (i >= 0 && s.start[i] <= view.end) visit(i, true);
    }
    for (let i = from; i < to; i++) visit(i, false);
    // Errors last, on top: a failure is never hidden under a pixel of successes.
    for (const i of errors) {
      const endT = Number.isNaN(s.end[i]) ? nowT : s.end[i];
      const x0 = xOf(s.start[i]);
      drawSpan(s, i, x0, Math.max(xOf(endT), x0 + 3), laneY + Math.max(0, s.lane[i]) * LANE);
    }
    ctx.restore();
    lastFill = '';
  }

  function drawSpan(s, i, x0, x1, y) {
    const color = statusColor(s.status[i]);
    const w = Math.max(1, x1 - x0);
    const open = Number.isNaN(s.end[i]);
    setFill(color);
    ctx.globalAlpha = STATUSES[s.status[i]] === 'unanswered' ? 0.5 : 1;
    ctx.fillRect(x0, y + 2, w, LANE - 5);
    ctx.globalAlpha = 1;
    if (open && w > 6) {
      // An open call fades towards now.
      const grad = ctx.createLinearGradient(Math.max(x0, x1 - 24), 0, x1, 0);
      grad.addColorStop(0, 'rgba(0,0,0,0)');
      grad.addColorStop(1, colors.bg);
      ctx.fillStyle = grad;
      lastFill = '';
      ctx.fillRect(Math.max(x0, x1 - 24), y + 2, Math.min(24, w), LANE - 5);
    }
    if (!Number.isNaN(s.progress[i]) && w > 4) {
      setFill(textOn(color));
      ctx.globalAlpha = 0.55;
      ctx.fillRect(x0, y + LANE - 6, w * s.progress[i], 2);
      ctx.globalAlpha = 1;
    }
    if (w > 36) {
      setFill(textOn(color));
      ctx.font = `11px ${colors.font}`;
      ctx.textBaseline = 'middle';
      const label = spanLabel(s, i);
      clipText(label, Math.max(x0, GUTTER) + 4, y + LANE / 2 - 0.5, Math.min(x1, width) - Math.max(x0, GUTTER) - 8);
    }
    addHit(x0, x1, y + 1, y + LANE - 2, s.index, i);
  }

  function drawServerCall(s, i, tickY, nowT) {
    const x0 = xOf(s.start[i]);
    const endT = Number.isNaN(s.end[i]) ? nowT : s.end[i];
    const x1 = xOf(endT);
    const cy = tickY + TICK_ROW / 2;
    const color = s.status[i] === S.error ? colors.error : colors.serverCall;
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x0, cy);
    ctx.lineTo(Math.max(x1, x0 + 1), cy);
    ctx.stroke();
    ctx.lineWidth = 1;
    setFill(color);
    ctx.beginPath();
    ctx.moveTo(x0, cy - 6);
    ctx.lineTo(x0 + 5, cy);
    ctx.lineTo(x0, cy + 6);
    ctx.lineTo(x0 - 5, cy);
    ctx.closePath();
    ctx.fill();
    addHit(x0 - 6, Math.max(x1, x0 + 6), tickY, tickY + TICK_ROW, s.index, i);
  }

  function drawProgress(s, i, laneY) {
    const p = indexOf(s, s.parent[i]);
    if (p < 0 || !s.shown[p]) return;
    const x = Math.round(xOf(s.start[i]));
    const y = laneY + Math.max(0, s.lane[p]) * LANE;
    setFill(textOn(statusColor(s.status[p])));
    // A mark on the call's lower edge, under its label.
    ctx.globalAlpha = 0.9;
    ctx.fillRect(x, y + LANE - 8, 1, 5);
    ctx.globalAlpha = 1;
    addHit(x - 1, x + 2, y + LANE - 8, y + LANE - 3, s.index, i);
  }

  function spanLabel(s, i) {
    const name = s.name_[i] >= 0 ? strings[s.name_[i]] : strings[s.method[i]];
    const dur = Number.isNaN(s.end[i]) ? '…' : formatDuration(s.end[i] - s.start[i]);
    const pct = !Number.isNaN(s.progress[i]) && Number.isNaN(s.end[i]) ? ` · ${Math.round(s.progress[i] * 100)}%` : '';
    return `${name} ${dur}${pct}`;
  }

  function clipText(text, x, y, maxWidth) {
    if (maxWidth <= 4) return;
    if (ctx.measureText(text).width <= maxWidth) {
      ctx.fillText(text, x, y);
      return;
    }
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (ctx.measureText(text.slice(0, mid) + '…').width <= maxWidth) lo = mid;
      else hi = mid - 1;
    }
    if (lo > 0) ctx.fillText(text.slice(0, lo) + '…', x, y);
  }

  function addHit(x0, x1, y0, y1, server, index) {
    if (hit.n >= hit.x0.length) return;
    const n = hit.n++;
    hit.x0[n] = x0;
    hit.x1[n] = x1;
    hit.y0[n] = y0;
    hit.y1[n] = y1;
    hit.server[n] = server;
    hit.index[n] = index;
  }

  /** Where an item is drawn (canvas coordinates), for outlines and links. */
  function itemBox(s, i) {
    const g = groups.find((x) => x.s === s);
    if (!g) return undefined;
    const top = g.top - view.scrollY + RULER;
    const tickY = top + HEADER_ROW;
    const laneY = tickY + TICK_ROW;
    const k = s.kind[i];
    const x0 = xOf(s.start[i]);
    const endT = Number.isNaN(s.end[i]) ? now() : s.end[i];
    if (k === K.call) return { x0, x1: Math.max(xOf(endT), x0 + 2), y0: laneY + Math.max(0, s.lane[i]) * LANE + 1, y1: laneY + Math.max(0, s.lane[i]) * LANE + LANE - 2 };
    if (k === K.progress) {
      const p = indexOf(s, s.parent[i]);
      const y = laneY + Math.max(0, p >= 0 ? s.lane[p] : 0) * LANE;
      return { x0: x0 - 2, x1: x0 + 3, y0: y + 1, y1: y + LANE - 2 };
    }
    if (k === K.serverCall) return { x0: x0 - 6, x1: Math.max(xOf(endT), x0 + 6), y0: tickY + 1, y1: tickY + TICK_ROW - 1 };
    return { x0: x0 - 3, x1: x0 + 5, y0: tickY + 1, y1: tickY + TICK_ROW - 1 };
  }

  function drawSelection() {
    ctx.lineWidth = 2;
    for (const p of picked.values()) {
      const s = servers[p.server];
      const i = s ? indexOf(s, p.id) : -1;
      if (i < 0) continue;
      const b = itemBox(s, i);
      if (!b) continue;
      ctx.strokeStyle = colors.focus;
      ctx.setLineDash([4, 2]);
      ctx.strokeRect(b.x0 - 1, b.y0 - 1, b.x1 - b.x0 + 2, b.y1 - b.y0 + 2);
      ctx.setLineDash([]);
    }
    if (selected) {
      const s = servers[selected.server];
      const i = s ? indexOf(s, selected.id) : -1;
      const b = i >= 0 ? itemBox(s, i) : undefined;
      if (b) {
        // Lines to what belongs to the same call.
        const links = selectedLinks;
        ctx.strokeStyle = colors.focus;
        ctx.globalAlpha = 0.7;
        ctx.lineWidth = 1;
        for (const id of links) {
          const j = indexOf(s, id);
          const c = j >= 0 ? itemBox(s, j) : undefined;
          if (!c) continue;
          ctx.beginPath();
          ctx.moveTo((b.x0 + Math.min(b.x1, b.x0 + 8)) / 2, (b.y0 + b.y1) / 2);
          ctx.lineTo((c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2);
          ctx.stroke();
          ctx.strokeRect(c.x0 - 1, c.y0 - 1, c.x1 - c.x0 + 2, c.y1 - c.y0 + 2);
        }
        ctx.globalAlpha = 1;
        ctx.lineWidth = 2;
        ctx.strokeStyle = colors.focus;
        ctx.strokeRect(b.x0 - 1.5, b.y0 - 1.5, b.x1 - b.x0 + 3, b.y1 - b.y0 + 3);
      }
    }
    ctx.lineWidth = 1;
  }

  /** Ids linked to the selected item (its call and what belongs to that call), from its details. */
  let selectedLinks = /** @type {number[]} */ ([]);

  function formatDuration(ms) {
    if (!Number.isFinite(ms)) return '';
    if (ms < 1) return ms.toFixed(2) + ' ms';
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60_000) return (ms / 1000).toFixed(ms < 10_000 ? 2 : 1) + ' s';
    if (ms < 3_600_000) return Math.floor(ms / 60_000) + ' min ' + Math.round((ms % 60_000) / 1000) + ' s';
    return (ms / 3_600_000).toFixed(1) + ' h';
  }

  // ---------------------------------------------------------------------------------------------
  // Pointer: wheel zooms (Shift+wheel pans), drag pans, Shift+drag selects a time range, click selects

  /** The item under a point: a call or tick first; the progress marks drawn on a call only when nothing else is there. */
  function hitAt(x, y) {
    let progress;
    for (let n = hit.n - 1; n >= 0; n--) {
      if (x < hit.x0[n] - 2 || x > hit.x1[n] + 2 || y < hit.y0[n] || y > hit.y1[n]) continue;
      const s = servers[hit.server[n]];
      if (s && s.kind[hit.index[n]] === K.progress) {
        progress = progress || { server: hit.server[n], index: hit.index[n] };
        continue;
      }
      return { server: hit.server[n], index: hit.index[n] };
    }
    return progress;
  }

  function zoomAt(x, factor) {
    view.fitted = false;
    const anchor = view.follow ? view.end : timeAt(x);
    const span = Math.min(Math.max((view.end - view.start) * factor, 0.05), 1000 * 60 * 60 * 24 * 30);
    const ratio = view.follow ? 1 : (anchor - view.start) / (view.end - view.start);
    view.start = anchor - span * ratio;
    view.end = view.start + span;
    requestDraw();
  }

  function panBy(ms) {
    view.fitted = false;
    view.start += ms;
    view.end += ms;
    setFollow(false);
  }

  els.canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const rect = els.canvas.getBoundingClientRect();
      const x = e.clientX - rect.left;
      const dx = e.shiftKey ? e.deltaY || e.deltaX : e.deltaX;
      if (Math.abs(dx) > Math.abs(e.shiftKey ? 0 : e.deltaY)) {
        panBy((dx / plotWidth()) * (view.end - view.start));
        return;
      }
      if (e.altKey) {
        view.scrollY += e.deltaY;
        requestDraw();
        return;
      }
      zoomAt(Math.max(GUTTER, x), Math.exp(e.deltaY * 0.0015));
    },
    { passive: false },
  );

  let drag = /** @type {{ x: number, y: number, start: number, end: number, scrollY: number, moved: boolean, brush: boolean, t: number } | null} */ (null);
  els.canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    els.canvas.focus();
    els.canvas.setPointerCapture(e.pointerId);
    const rect = els.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    drag = { x: e.clientX, y: e.clientY, start: view.start, end: view.end, scrollY: view.scrollY, moved: false, brush: e.shiftKey, t: timeAt(x) };
  });
  els.canvas.addEventListener('pointermove', (e) => {
    const rect = els.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    if (!drag) {
      hover(x, y, e.clientX - rect.left, e.clientY - rect.top);
      return;
    }
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true;
    els.tooltip.hidden = true;
    if (drag.brush) {
      const t = timeAt(x);
      range = { from: Math.min(drag.t, t), to: Math.max(drag.t, t) };
      renderSummary();
      requestDraw();
      return;
    }
    const ms = (dx / plotWidth()) * (drag.end - drag.start);
    if (Math.abs(dx) > 3) view.fitted = false;
    view.start = drag.start - ms;
    view.end = drag.end - ms;
    view.scrollY = drag.scrollY - dy;
    if (view.follow && Math.abs(dx) > 3) setFollow(false);
    requestDraw();
  });
  els.canvas.addEventListener('pointerup', (e) => {
    const d = drag;
    drag = null;
    if (!d || d.moved) return;
    const rect = els.canvas.getBoundingClientRect();
    const found = hitAt(e.clientX - rect.left, e.clientY - rect.top);
    if (!found) {
      if (!e.ctrlKey && !e.metaKey) {
        select(null);
        range = null;
        renderSummary();
        requestDraw();
      }
      return;
    }
    const s = servers[found.server];
    const id = s.firstId + (found.index - s.head);
    if (e.ctrlKey || e.metaKey) togglePick(found.server, id);
    else select({ server: found.server, id });
  });
  els.canvas.addEventListener('pointerleave', () => (els.tooltip.hidden = true));

  function hover(x, y) {
    const found = hitAt(x, y);
    if (!found) {
      els.tooltip.hidden = true;
      els.canvas.style.cursor = 'grab';
      return;
    }
    els.canvas.style.cursor = 'pointer';
    const s = servers[found.server];
    els.tooltip.textContent = '';
    els.tooltip.append(h('div', { class: 'tooltip-title', text: itemTitle(s, found.index) }), h('div', { class: 'muted', text: `${s.name} · ${clockText(s.start[found.index], 1)}` }));
    els.tooltip.hidden = false;
    const tw = els.tooltip.offsetWidth;
    els.tooltip.style.left = Math.min(width - tw - 4, x + 12) + 'px';
    els.tooltip.style.top = y + 16 + 'px';
  }

  function itemTitle(s, i) {
    const method = strings[s.method[i]] || '';
    const name = s.name_[i] >= 0 ? strings[s.name_[i]] : '';
    const parts = [name && name !== method ? `${method} ${name}` : method];
    const k = s.kind[i];
    if (k === K.call || k === K.serverCall) parts.push(Number.isNaN(s.end[i]) ? 'open' : formatDuration(s.end[i] - s.start[i]));
    if (k === K.progress && !Number.isNaN(s.progress[i])) parts.push(`${Math.round(s.progress[i] * 100)}%`);
    const status = STATUSES[s.status[i]];
    if (status && status !== 'ok' && status !== 'none' && status !== 'open') parts.push(status);
    if (k === K.serverCall) parts.push('server request');
    return parts.join(' · ');
  }

  // ---------------------------------------------------------------------------------------------
  // Keyboard

  /** Items the arrows step through: calls, server requests and notifications that pass the filter. */
  function navigable(s, i) {
    const k = s.kind[i];
    return k !== UNKNOWN_KIND && k !== K.session && k !== K.progress && s.shown[i] === 1 && serverShown(s);
  }

  /** The next (dir 1) or previous (dir -1) item in time across servers, from the selection (or the view's edge). */
  function step(dir) {
    const cur = selected && servers[selected.server] ? { s: servers[selected.server], id: selected.id } : undefined;
    const curI = cur ? indexOf(cur.s, cur.id) : -1;
    const t = cur && curI >= 0 ? cur.s.start[curI] : dir > 0 ? view.start : view.end;
    let best = /** @type {{ s: Store, i: number } | undefined} */ (undefined);
    const better = (s, i) => {
      if (!best) return true;
      const a = s.start[i];
      const b = best.s.start[best.i];
      if (a !== b) return dir > 0 ? a < b : a > b;
      return dir > 0 ? s.index < best.s.index : s.index > best.s.index;
    };
    const after = (s, i) => {
      const a = s.start[i];
      if (a !== t) return dir > 0 ? a > t : a < t;
      if (!cur || curI < 0) return true;
      if (s === cur.s) return dir > 0 ? i > curI : i < curI;
      return dir > 0 ? s.index > cur.s.index : s.index < cur.s.index;
    };
    for (const s of servers) {
      if (!s || !serverShown(s)) continue;
      if (dir > 0) {
        for (let i = lowerBound(s, t); i < s.len; i++) {
          if (!navigable(s, i) || !after(s, i)) continue;
          if (better(s, i)) best = { s, i };
          break;
        }
      } else {
        for (let i = Math.min(s.len - 1, lowerBound(s, t + 1e-9)); i >= s.head; i--) {
          if (!navigable(s, i) || !after(s, i)) continue;
          if (better(s, i)) best = { s, i };
          break;
        }
      }
    }
    if (!best) return;
    const id = best.s.firstId + (best.i - best.s.head);
    select({ server: best.s.index, id });
    reveal(best.s, best.i);
  }

  /** Pans and scrolls so an item is on screen. */
  function reveal(s, i) {
    const start = s.start[i];
    const end = Number.isNaN(s.end[i]) ? now() : s.end[i];
    const span = view.end - view.start;
    if (start < view.start || Math.min(end, start + span * 0.5) > view.end) {
      view.fitted = false;
      view.start = start - span * 0.3;
      view.end = view.start + span;
      setFollow(false);
    }
    layout();
    const b = itemBox(s, i);
    if (b) {
      if (b.y0 < RULER) view.scrollY -= RULER - b.y0 + 8;
      else if (b.y1 > height) view.scrollY += b.y1 - height + 8;
    }
    requestDraw();
  }

  els.canvas.addEventListener('keydown', (e) => {
    const span = view.end - view.start;
    let handled = true;
    switch (e.key) {
      case 'ArrowLeft':
        panBy(-span * (e.shiftKey ? 0.5 : 0.1));
        break;
      case 'ArrowRight':
        panBy(span * (e.shiftKey ? 0.5 : 0.1));
        break;
      case 'ArrowDown':
        step(1);
        break;
      case 'ArrowUp':
        step(-1);
        break;
      case '+':
      case '=':
        zoomAt(GUTTER + plotWidth() / 2, 0.7);
        break;
      case '-':
      case '_':
        zoomAt(GUTTER + plotWidth() / 2, 1 / 0.7);
        break;
      case '0':
        fit();
        break;
      case 'End':
        if (mode === 'live') {
          setFollow(true);
        } else {
          view.fitted = false;
          view.end = now() + span * 0.02;
          view.start = view.end - span;
          requestDraw();
        }
        break;
      case 'Home': {
        const ex = extent();
        if (ex) {
          view.fitted = false;
          view.start = ex.from - span * 0.02;
          view.end = view.start + span;
          setFollow(false);
        }
        break;
      }
      case 'PageDown':
        view.scrollY += height * 0.8;
        requestDraw();
        break;
      case 'PageUp':
        view.scrollY -= height * 0.8;
        requestDraw();
        break;
      case ' ':
        if (selected) togglePick(selected.server, selected.id);
        break;
      case 'Enter':
        if (selected) els.details.focus();
        break;
      case 'Escape':
        if (picked.size || range) {
          picked.clear();
          range = null;
          renderSummary();
          requestDraw();
        } else select(null);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  });

  function togglePick(server, id) {
    const key = server + ':' + id;
    if (picked.has(key)) picked.delete(key);
    else picked.set(key, { server, id });
    renderSummary();
    requestDraw();
    const s = servers[server];
    const i = indexOf(s, id);
    if (i >= 0) announce(`${picked.has(key) ? 'Picked' : 'Unpicked'} ${itemTitle(s, i)}. ${picked.size} picked for export.`);
  }

  // ---------------------------------------------------------------------------------------------
  // Selection and details

  function select(next) {
    selected = next;
    selectedLinks = [];
    updateExportLabel();
    requestDraw();
    if (!next) {
      closeDetails();
      return;
    }
    const s = servers[next.server];
    const i = indexOf(s, next.id);
    if (i >= 0) announce(`${itemTitle(s, i)}, ${s.name}, at ${clockText(s.start[i], 1)}.`);
    els.details.hidden = false;
    els.details.textContent = '';
    els.details.append(h('p', { class: 'muted', text: 'Loading the frames…' }));
    post({ type: 'details', server: s.id, id: next.id });
    resize();
  }

  // Escape inside the details closes them (their ✕ says so) and gives the canvas the focus back.
  els.details.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    select(null);
    els.canvas.focus();
  });

  function closeDetails() {
    if (els.details.hidden) return;
    els.details.hidden = true;
    els.details.textContent = '';
    resize();
  }

  function announce(text) {
    els.announce.textContent = text;
  }

  function renderDetails(d) {
    if (!selected || !servers[selected.server] || servers[selected.server].id !== d.server || selected.id !== d.id) return;
    selectedLinks = [...(d.parent ? [d.parent.id] : []), ...(Array.isArray(d.links) ? d.links.map((l) => l.id) : [])];
    requestDraw();
    const status = str(d.status);
    const duration = typeof d.end === 'number' ? formatDuration(d.end - d.start) : d.kind === 'call' || d.kind === 'serverCall' ? 'open' : '';
    const actions = h('div', { class: 'details-actions' }, [
      d.inHistory ? h('button', { id: 'show-history', class: 'secondary', onclick: () => post({ type: 'showHistory', server: d.server, id: d.id }) }, ['Show in History']) : null,
      h('button', { class: 'icon-button close', title: 'Close (Escape)', 'aria-label': 'Close the details', onclick: () => select(null) }, ['✕']),
    ]);
    const heading = h('h2', { class: 'details-title' }, [h('span', { class: 'method', text: str(d.method) }), d.name ? h('span', { class: 'name', text: ' ' + str(d.name) }) : null]);
    const facts = h('div', { class: 'details-facts' }, [
      status && status !== 'none' ? h('span', { class: 'badge status-' + status, text: status === 'ok' ? 'answered' : status === 'input' ? 'input round' : status }) : null,
      duration ? h('span', { class: 'duration', text: duration }) : null,
      h('span', { class: 'muted', text: `${str(d.serverName)} · ${kindText(d.kind)} · ${clockText(d.start, 1)}` }),
    ]);
    const box = h('div', { class: 'details-body' });
    if (d.errorText) box.append(h('div', { class: 'error-text', text: str(d.errorText) }));
    const linkRow = h('div', { class: 'links' });
    if (d.parent) linkRow.append(h('span', { class: 'muted', text: 'Part of ' }), linkButton(d.parent));
    if (Array.isArray(d.links) && d.links.length) {
      linkRow.append(h('span', { class: 'muted', text: `${d.parent ? ' · ' : ''}Linked (${d.linkCount}): ` }));
      for (const l of d.links) linkRow.append(linkButton(l));
      if (d.linkCount > d.links.length) linkRow.append(h('span', { class: 'muted', text: ` … ${d.linkCount - d.links.length} more` }));
    }
    if (linkRow.childNodes.length) box.append(linkRow);
    const frames = h('div', { class: 'frames' });
    const frameList = Array.isArray(d.frames) ? d.frames : [];
    frameList.forEach((f, n) => frames.append(frameView(f, frameLabel(d, n, f))));
    if (!frameList.length) frames.append(h('p', { class: 'muted', text: 'A session marker: the server’s connection started here (request ids start over).' }));
    box.append(frames);
    els.details.textContent = '';
    els.details.append(h('header', { class: 'details-header' }, [h('div', {}, [heading, facts]), actions]), box);
  }

  function kindText(kind) {
    switch (kind) {
      case 'call':
        return 'editor request';
      case 'serverCall':
        return 'server request';
      case 'progress':
        return 'progress';
      case 'session':
        return 'session';
      default:
        return 'notification';
    }
  }

  function frameLabel(d, n, f) {
    const arrow = f.direction === 'send' ? 'editor → server' : 'server → editor';
    if (d.kind === 'call' || d.kind === 'serverCall') return `${n === 0 ? 'Request' : 'Answer'} · ${arrow}`;
    return `Frame · ${arrow}`;
  }

  function frameView(f, label) {
    const head = h('h3', {}, [label, h('span', { class: 'muted', text: ` · ${formatBytes(f.bytes)} · ${clockText(f.time, 1)}` })]);
    const box = h('div', { class: 'frame' }, [head]);
    if (f.dropped) box.append(h('p', { class: 'muted', text: 'The payload of this frame was let go to stay within mcpHost.timeline.maxPayloadMiB; its place on the timeline is kept.' }));
    else {
      if (f.cut) box.append(h('p', { class: 'muted folded-note', text: 'A large frame: long strings and arrays are folded (their start is shown, with how much more there is).' }));
      box.append(h('div', { class: 'json' }, [jsonTree(f.json, undefined, 0, { openDepth: 6, openEntries: 40 })]));
    }
    return box;
  }

  function linkButton(l) {
    return h('button', { class: 'link-button', onclick: () => jumpTo(l.id) }, [str(l.label)]);
  }

  function jumpTo(id) {
    if (!selected) return;
    const s = servers[selected.server];
    const i = indexOf(s, id);
    if (i < 0) return;
    select({ server: s.index, id });
    reveal(s, i);
  }

  // ---------------------------------------------------------------------------------------------
  // Export

  function exportSelection() {
    /** @type {Map<string, { server: string, ids?: number[], range?: { from: number, to: number } }>} */
    const byServer = new Map();
    const entry = (s) => {
      if (!byServer.has(s.id)) byServer.set(s.id, { server: s.id });
      return /** @type {any} */ (byServer.get(s.id));
    };
    const items = picked.size ? [...picked.values()] : !range && selected ? [selected] : [];
    for (const p of items) {
      const s = servers[p.server];
      if (!s) continue;
      const e = entry(s);
      (e.ids = e.ids || []).push(p.id);
    }
    const window = !items.length ? range || { from: view.start, to: view.end } : range;
    if (window) for (const s of servers) if (s && serverShown(s)) entry(s).range = window;
    const selections = [...byServer.values()].filter((x) => x.ids || x.range);
    if (!selections.length) return;
    post({ type: 'export', selections });
  }

  // ---------------------------------------------------------------------------------------------
  // Messages

  onMessage((msg) => {
    switch (msg.type) {
      case 'init': {
        const schema = msg.schema;
        if (!isObj(schema)) return;
        FIELDS = Array.isArray(schema.fields) ? schema.fields.map(str) : [];
        KINDS = schema.kinds;
        STATUSES = schema.statuses;
        K = {};
        KINDS.forEach((k, i) => (K[k] = i));
        S = {};
        STATUSES.forEach((x, i) => (S[x] = i));
        mode = msg.mode === 'recording' ? 'recording' : 'live';
        view.follow = mode === 'live';
        if (typeof msg.focusServer === 'string') filter.servers = [msg.focusServer];
        build();
        setPressed(els.follow, view.follow);
        readColors();
        resize();
        if (filter.servers) sendFilter();
        break;
      }
      case 'batch':
        applyBatch(msg);
        break;
      case 'mask':
        for (const m of Array.isArray(msg.servers) ? msg.servers : []) {
          const s = servers[m.index];
          if (!s) continue;
          const shown = m.shown;
          for (let k = 0; k < shown.length; k++) {
            const i = indexOf(s, m.firstId + k);
            if (i >= 0) s.shown[i] = shown[k];
          }
        }
        recount();
        requestDraw();
        break;
      case 'details':
        if (isObj(msg.details)) renderDetails(msg.details);
        break;
      case 'gone':
        if (selected && servers[selected.server] && servers[selected.server].id === msg.server && selected.id === msg.id) {
          els.details.textContent = '';
          els.details.append(h('p', { class: 'muted', text: 'This item has left the timeline’s ring (mcpHost.timeline.maxFrames).' }));
        }
        break;
      case 'focusServer':
        filter.servers = typeof msg.server === 'string' ? [msg.server] : undefined;
        renderServerChips();
        sendFilter();
        break;
      case 'notice':
        els.notice.textContent = str(msg.text);
        els.notice.classList.add('shown');
        setTimeout(() => els.notice.classList.remove('shown'), 8000);
        break;
    }
  });

  function applyBatch(msg) {
    const t0 = performance.now();
    if (!perf.batched) {
      perf.batched = true;
      performance.mark('mcp-timeline first batch', { startTime: t0 });
    }
    if (msg.reset) {
      // A reset (a page that opens, or the extension's string table starting over) keeps the view.
      servers.length = 0;
      strings.length = 0;
      picked.clear();
      selected = null;
      range = null;
      closeDetails();
    }
    if (typeof msg.now === 'number') {
      clockOffset = msg.now - Date.now();
      recordingEnd = Math.max(recordingEnd, msg.now);
    }
    if (Array.isArray(msg.strings)) for (const x of msg.strings) strings.push(str(x));
    let serversChanged = false;
    if (Array.isArray(msg.servers)) {
      for (const info of msg.servers) {
        const s = storeOf(info.index);
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
    const packed = isObj(msg.columns) ? msg.columns : {};
    /** @type {Record<string, ArrayLike<number>>} */
    const c = {};
    for (const f of FIELDS) c[f] = column(packed[f], n);
    for (let k = 0; k < n; k++) upsert(c, k);
    if (Array.isArray(msg.methods)) {
      methods = msg.methods.map(str);
      renderMethods();
    }
    if (serversChanged) renderServerChips();
    recount();
    const rowsIn = n;
    if (rowsIn >= perf.batchItems) {
      perf.batchItems = rowsIn;
      performance.clearMeasures('mcp-timeline largest batch');
      performance.measure('mcp-timeline largest batch', { start: t0, detail: { items: rowsIn } });
    }
    // The first items a page gets are fitted; later ones keep the user's view.
    if (!autoFitted && counts.items > 0) {
      autoFitted = true;
      fit();
    }
    requestDraw();
  }

  new ResizeObserver(() => resize()).observe(els.chart);
  // Open calls grow and the clock moves: a live page redraws a few times a second while following.
  setInterval(() => {
    if (mode === 'live' && document.visibilityState === 'visible' && (view.follow || servers.some((s) => s && s.long.size))) requestDraw();
  }, 250);

  readColors();
  post({ type: 'ready' });
})();
