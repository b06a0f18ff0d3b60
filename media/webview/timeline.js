// The protocol timeline (src/extension/timeline/timelinePanel.ts sends what it draws): every
// server's frames on one time axis, drawn on a canvas. Items arrive in batches as rows of numbers
// (the `init` message names the columns) and are kept per server in typed arrays (timelineStore.js); each draw
// visits only the items whose time is on screen (a binary search, plus the few long spans), and
// several items on the same pixel of a row are drawn once, so 100,000 frames draw as fast as 1,000.
// The filter is applied by the extension, which sends back which items pass. Plain browser JS;
// every string is inserted as text.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private to this script.
{
  /* global McpWebview, McpTimelineAccess, McpTimelineStore, McpTimelineDetails, McpTimelineCanvas, McpTimelineInput */
  const { h, post, onMessage, isObj, str } = McpWebview;
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));

  // ---------------------------------------------------------------------------------------------
  // State

  /** The items, per server (timelineStore.js); the schema's arrays and codes change in place at `init`. */
  const store = McpTimelineStore.create();
  const { servers, clock, indexOf, extent } = store;
  const { clockText, formatDuration, kindText } = McpTimelineDetails;
  const { kinds: KINDS, statuses: STATUSES } = store.schema;
  let methods = /** @type {string[]} */ ([]);
  /** `fitted`: showing everything (a following page then grows with the data instead of sliding). */
  const view = { start: 0, end: 1, follow: true, scrollY: 0, fitted: false };
  let autoFitted = false;
  /** @type {TimelineItemRef | null} */
  let selected = null;
  /** Items picked for export (Ctrl/Cmd+click, Space), by "server:id". */
  /** @type {Map<string, TimelineItemRef>} */
  const picked = new Map();
  /** @type {TimeRange | null} */
  let range = null;
  const filter = { servers: /** @type {string[] | undefined} */ (undefined), methods: /** @type {string[]} */ ([]), text: '', direction: /** @type {'all' | 'send' | 'receive'} */ ('all'), errors: false, slow: false };
  const counts = { items: 0, shown: 0, errors: 0 };
  /**
   * What the page measures of itself, as User Timing entries (DevTools' Performance panel shows
   * them; the benchmarks read them): "mcp-timeline draw" per draw, "mcp-timeline first batch" and
   * "mcp-timeline first paint" once, "mcp-timeline largest batch" (its `detail.items`).
   */
  const perf = { painted: false, batched: false, batchItems: 0, draws: 0 };

  // ---------------------------------------------------------------------------------------------
  // Page

  function serverShown(/** @type {Store} */ s) {
    return !filter.servers || filter.servers.includes(s.id);
  }

  function recount() {
    Object.assign(counts, store.count(serverShown));
    renderSummary();
  }


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
      ...(clock.mode === 'live' ? [els.follow] : []),
      els.exportButton,
      ...(clock.mode === 'live' ? [els.clear] : []),
    );
    els.chart.append(els.canvas, els.drawnList, els.empty, els.tooltip);
    McpTimelineAccess.rovingToolbar(els.toolbar);
    app.append(h('h1', { class: 'sr-only', text: document.title }), els.toolbar, h('div', { class: 'status-line' }, [els.summary, els.legend]), els.notice, els.chart, els.details, els.announce);
    renderLegend();
    renderMethods();
  }

  function renderLegend() {
    els.legend.textContent = '';
    const swatch = (/** @type {string} */ cls, /** @type {string} */ text) => h('span', { class: 'legend-item' }, [h('span', { class: 'swatch ' + cls }), text]);
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
    els.empty.textContent = clock.mode === 'live' ? 'No frames yet. Start a server and use it: every request, answer and notification appears here, on one time axis.' : 'This recording holds no frames.';
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

  function setPressed(/** @type {HTMLElement} */ button, /** @type {boolean} */ on) {
    button.setAttribute('aria-pressed', String(on));
  }

  els.method.addEventListener('change', () => {
    filter.methods = els.method.value ? [els.method.value] : [];
    sendFilter();
  });
  els.text.addEventListener('input', () => {
    filter.text = els.text.value;
    clearTimeout(filterTimer);
    filterTimer = window.setTimeout(sendFilter, 200);
  });
  els.direction.addEventListener('change', () => {
    const direction = els.direction.value;
    filter.direction = direction === 'send' || direction === 'receive' ? direction : 'all';
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

  function setFollow(/** @type {boolean} */ on) {
    view.follow = on && clock.mode === 'live';
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
    setFollow(clock.mode === 'live');
    requestDraw();
  }

  // ---------------------------------------------------------------------------------------------
  // The canvas (timelineCanvas.js)

  /** Ids linked to the selected item (its call and what belongs to that call), from its details. */
  let selectedLinks = /** @type {number[]} */ ([]);
  const canvas = McpTimelineCanvas.create({ els, view, store, perf, counts, picked, serverShown, selected: () => selected, range: () => range, links: () => selectedLinks, drawn: () => requestListUpdate() });
  const { hit, readColors, resize, requestDraw } = canvas;

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
    listTimer = window.setTimeout(() => {
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

  // ---------------------------------------------------------------------------------------------
  // Pointer and keyboard (timelineInput.js)

  const { itemTitle, reveal } = McpTimelineInput.attach({ els, view, store, picked, canvas, selected: () => selected, select, range: () => range, setRange: (r) => (range = r), setFollow, fit, renderSummary, announce, serverShown });

  // ---------------------------------------------------------------------------------------------
  // Selection and details

  function select(/** @type {TimelineItemRef | null} */ next) {
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

  function announce(/** @type {string} */ text) {
    els.announce.textContent = text;
  }

  function renderDetails(/** @type {TimelineItemDetails} */ d) {
    if (!selected || !servers[selected.server] || servers[selected.server].id !== d.server || selected.id !== d.id) return;
    selectedLinks = [...(d.parent ? [d.parent.id] : []), ...(Array.isArray(d.links) ? d.links.map((/** @type {import("../../src/timeline/timelineSelection").LinkedItem} */ l) => l.id) : [])];
    requestDraw();
    els.details.textContent = '';
    els.details.append(...McpTimelineDetails.render(d, jumpTo, () => select(null)));
  }





  function jumpTo(/** @type {number} */ id) {
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
    const entry = (/** @type {Store} */ s) => {
      let e = byServer.get(s.id);
      if (!e) byServer.set(s.id, (e = { server: s.id }));
      return e;
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

  onMessage((/** @type {TimelineMessage} */ msg) => {
    switch (msg.type) {
      case 'init': {
        if (!isObj(msg.schema)) return;
        store.setSchema(msg.schema);
        clock.mode = msg.mode === 'recording' ? 'recording' : 'live';
        view.follow = clock.mode === 'live';
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
        store.applyMask(msg);
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

  /** @param {Extract<TimelineMessage, { type: 'batch' }>} msg */
  function applyBatch(msg) {
    const t0 = performance.now();
    if (!perf.batched) {
      perf.batched = true;
      performance.mark('mcp-timeline first batch', { startTime: t0 });
    }
    if (msg.reset) {
      // A reset (a page that opens, or the extension's string table starting over) keeps the view.
      picked.clear();
      selected = null;
      range = null;
      closeDetails();
    }
    const { rows: n, serversChanged } = store.apply(msg);
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
    if (clock.mode === 'live' && document.visibilityState === 'visible' && (view.follow || servers.some((s) => s && s.long.size))) requestDraw();
  }, 250);

  readColors();
  post({ type: 'ready' });
}
