// The protocol timeline (src/extension/timeline/timelinePanel.ts sends what it draws): every
// server's frames on one time axis, drawn on a canvas. Items arrive in batches as rows of numbers
// (the `init` message names the columns) and are kept per server in typed arrays (timelineStore.js); each draw
// visits only the items whose time is on screen (a binary search, plus the few long spans), and
// several items on the same pixel of a row are drawn once, so 100,000 frames draw as fast as 1,000.
// The filter is applied by the extension, which sends back which items pass. Plain browser JS;
// every string is inserted as text.
// @ts-check
(function () {
  'use strict';
  /* global McpWebview, McpTimelineAccess, McpTimelineStore, McpTimelineDetails, McpTimelineCanvas */
  const { h, post, onMessage, isObj, str } = McpWebview;
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));

  // ---------------------------------------------------------------------------------------------
  // State

  /** The items, per server (timelineStore.js); the schema's arrays and codes change in place at `init`. */
  const store = McpTimelineStore.create();
  const { servers, strings, clock, indexOf, lowerBound, now, extent } = store;
  const { clockText, formatDuration, kindText } = McpTimelineDetails;
  const { kinds: KINDS, statuses: STATUSES, K } = store.schema;
  const { UNKNOWN_KIND } = McpTimelineStore;
  let methods = /** @type {string[]} */ ([]);
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

  // ---------------------------------------------------------------------------------------------
  // Page

  function serverShown(s) {
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
    filterTimer = window.setTimeout(sendFilter, 200);
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
  const { hit, readColors, layout, resize, requestDraw, plotWidth, timeAt, itemBox } = canvas;
  const { RULER, GUTTER } = McpTimelineCanvas;

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
      hover(x, y);
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
    els.tooltip.style.left = Math.min(canvas.size().width - tw - 4, x + 12) + 'px';
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
      else if (b.y1 > canvas.size().height) view.scrollY += b.y1 - canvas.size().height + 8;
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
        if (clock.mode === 'live') {
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
        view.scrollY += canvas.size().height * 0.8;
        requestDraw();
        break;
      case 'PageUp':
        view.scrollY -= canvas.size().height * 0.8;
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
    els.details.textContent = '';
    els.details.append(...McpTimelineDetails.render(d, jumpTo, () => select(null)));
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
})();
