// The timeline page's pointer and keyboard (timeline.js): the wheel zooms (Shift+wheel pans), a drag
// pans, Shift+drag selects a time range, a click selects an item (Ctrl/Cmd+click picks it for
// export), a hover shows its tooltip; on the canvas, Up and Down step through the items shown, Left
// and Right pan, + and - zoom, 0 fits, End follows, Space picks, Enter opens the details, Escape
// clears. The page's state and actions come in `page`.
// @ts-check

/**
 * What the pointer and keys reach of the timeline page (timeline.js passes it).
 * @typedef {{ els: { canvas: HTMLCanvasElement, details: HTMLElement, tooltip: HTMLElement }, view: TimelineView, store: TimelineStore,
 *   picked: Map<string, TimelineItemRef>, canvas: ReturnType<typeof McpTimelineCanvas.create>, selected: () => TimelineItemRef | null,
 *   select: (next: TimelineItemRef | null) => void, range: () => TimeRange | null, setRange: (r: TimeRange | null) => void,
 *   setFollow: (on: boolean) => void, fit: () => void, renderSummary: () => void, announce: (text: string) => void,
 *   serverShown: (s: Store) => boolean }} InputPage
 */

'use strict';
/* global McpWebview, McpTimelineStore, McpTimelineCanvas, McpTimelineDetails */
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  const { h } = McpWebview;
  const { UNKNOWN_KIND } = McpTimelineStore;
  const { RULER, GUTTER } = McpTimelineCanvas;
  const { clockText, formatDuration } = McpTimelineDetails;

  /**
   * A drag in progress: where it started, the view then, and whether it selects a time range (Shift).
   * @typedef {{ x: number, y: number, start: number, end: number, scrollY: number, moved: boolean, brush: boolean, t: number }} TimelineDrag
   * @typedef {{ page: InputPage, drag: TimelineDrag | null }} TimelinePointer the pointer's state on one page
   */

  /**
   * Listens on `page.els.canvas`. `page`: `els`, `view`, `store`, `picked`, `canvas` (timelineCanvas.js),
   * `selected()`, `select(next)`, `range()`, `setRange(r)`, `setFollow(on)`, `fit()`, `renderSummary()`,
   * `announce(text)`, `serverShown(s)`. Returns what the page uses too: an item's title, and `reveal`.
   * @param {InputPage} page
   */
  function attach(page) {
    const canvas = page.els.canvas;
    /** @type {TimelinePointer} */
    const pointer = { page, drag: null };
    canvas.addEventListener('wheel', (e) => onWheel(page, e), { passive: false });
    canvas.addEventListener('pointerdown', (e) => onPointerDown(pointer, e));
    canvas.addEventListener('pointermove', (e) => onPointerMove(pointer, e));
    canvas.addEventListener('pointerup', (e) => onPointerUp(pointer, e));
    canvas.addEventListener('pointerleave', () => (page.els.tooltip.hidden = true));
    canvas.addEventListener('keydown', (e) => {
      if (viewKey(page, e) || itemKey(page, e)) e.preventDefault();
    });
    return {
      itemTitle: (/** @type {Store} */ s, /** @type {number} */ i) => itemTitle(page, s, i),
      reveal: (/** @type {Store} */ s, /** @type {number} */ i) => reveal(page, s, i),
    };
  }

  // -----------------------------------------------------------------------------------------------
  // Pointer: wheel zooms (Shift+wheel pans), drag pans, Shift+drag selects a time range, click selects

  /** The item under a point: a call or tick first; the progress marks drawn on a call only when nothing else is there. */
  function hitAt(/** @type {InputPage} */ page, /** @type {number} */ x, /** @type {number} */ y) {
    const { hit } = page.canvas;
    const { servers, schema } = page.store;
    let progress;
    for (let n = hit.n - 1; n >= 0; n--) {
      if (x < hit.x0[n] - 2 || x > hit.x1[n] + 2 || y < hit.y0[n] || y > hit.y1[n]) continue;
      const s = servers[hit.server[n]];
      if (s && s.kind[hit.index[n]] === schema.K.progress) {
        progress = progress || { server: hit.server[n], index: hit.index[n] };
        continue;
      }
      return { server: hit.server[n], index: hit.index[n] };
    }
    return progress;
  }

  function zoomAt(/** @type {InputPage} */ page, /** @type {number} */ x, /** @type {number} */ factor) {
    const { view } = page;
    view.fitted = false;
    const anchor = view.follow ? view.end : page.canvas.timeAt(x);
    const span = Math.min(Math.max((view.end - view.start) * factor, 0.05), 1000 * 60 * 60 * 24 * 30);
    const ratio = view.follow ? 1 : (anchor - view.start) / (view.end - view.start);
    view.start = anchor - span * ratio;
    view.end = view.start + span;
    page.canvas.requestDraw();
  }

  function panBy(/** @type {InputPage} */ page, /** @type {number} */ ms) {
    page.view.fitted = false;
    page.view.start += ms;
    page.view.end += ms;
    page.setFollow(false);
  }

  function onWheel(/** @type {InputPage} */ page, /** @type {WheelEvent} */ e) {
    const { view } = page;
    e.preventDefault();
    const rect = page.els.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const dx = e.shiftKey ? e.deltaY || e.deltaX : e.deltaX;
    if (Math.abs(dx) > Math.abs(e.shiftKey ? 0 : e.deltaY)) {
      panBy(page, (dx / page.canvas.plotWidth()) * (view.end - view.start));
      return;
    }
    if (e.altKey) {
      view.scrollY += e.deltaY;
      page.canvas.requestDraw();
      return;
    }
    zoomAt(page, Math.max(GUTTER, x), Math.exp(e.deltaY * 0.0015));
  }

  function onPointerDown(/** @type {TimelinePointer} */ pointer, /** @type {PointerEvent} */ e) {
    const { els, view } = pointer.page;
    if (e.button !== 0) return;
    els.canvas.focus();
    els.canvas.setPointerCapture(e.pointerId);
    const rect = els.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    pointer.drag = { x: e.clientX, y: e.clientY, start: view.start, end: view.end, scrollY: view.scrollY, moved: false, brush: e.shiftKey, t: pointer.page.canvas.timeAt(x) };
  }

  function onPointerMove(/** @type {TimelinePointer} */ pointer, /** @type {PointerEvent} */ e) {
    const { page, drag } = pointer;
    const { view, canvas } = page;
    const rect = page.els.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    if (!drag) {
      hover(page, x, y);
      return;
    }
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true;
    page.els.tooltip.hidden = true;
    if (drag.brush) {
      const t = canvas.timeAt(x);
      page.setRange({ from: Math.min(drag.t, t), to: Math.max(drag.t, t) });
      page.renderSummary();
      canvas.requestDraw();
      return;
    }
    const ms = (dx / canvas.plotWidth()) * (drag.end - drag.start);
    if (Math.abs(dx) > 3) view.fitted = false;
    view.start = drag.start - ms;
    view.end = drag.end - ms;
    view.scrollY = drag.scrollY - dy;
    if (view.follow && Math.abs(dx) > 3) page.setFollow(false);
    canvas.requestDraw();
  }

  /** A click (a press without a drag): selects the item under it, Ctrl/Cmd picks it; on nothing, clears. */
  function onPointerUp(/** @type {TimelinePointer} */ pointer, /** @type {PointerEvent} */ e) {
    const { page } = pointer;
    const d = pointer.drag;
    pointer.drag = null;
    if (!d || d.moved) return;
    const rect = page.els.canvas.getBoundingClientRect();
    const found = hitAt(page, e.clientX - rect.left, e.clientY - rect.top);
    if (!found) {
      if (!e.ctrlKey && !e.metaKey) {
        page.select(null);
        page.setRange(null);
        page.renderSummary();
        page.canvas.requestDraw();
      }
      return;
    }
    const s = page.store.servers[found.server];
    const id = s.firstId + (found.index - s.head);
    if (e.ctrlKey || e.metaKey) togglePick(page, found.server, id);
    else page.select({ server: found.server, id });
  }

  function hover(/** @type {InputPage} */ page, /** @type {number} */ x, /** @type {number} */ y) {
    const { els } = page;
    const found = hitAt(page, x, y);
    if (!found) {
      els.tooltip.hidden = true;
      els.canvas.style.cursor = 'grab';
      return;
    }
    els.canvas.style.cursor = 'pointer';
    const s = page.store.servers[found.server];
    els.tooltip.textContent = '';
    els.tooltip.append(h('div', { class: 'tooltip-title', text: itemTitle(page, s, found.index) }), h('div', { class: 'muted', text: `${s.name} · ${clockText(s.start[found.index], 1)}` }));
    els.tooltip.hidden = false;
    const tw = els.tooltip.offsetWidth;
    els.tooltip.style.left = Math.min(page.canvas.size().width - tw - 4, x + 12) + 'px';
    els.tooltip.style.top = y + 16 + 'px';
  }

  function itemTitle(/** @type {InputPage} */ page, /** @type {Store} */ s, /** @type {number} */ i) {
    const { strings, schema } = page.store;
    const { K } = schema;
    const method = strings[s.method[i]] || '';
    const name = s.name_[i] >= 0 ? strings[s.name_[i]] : '';
    const parts = [name && name !== method ? `${method} ${name}` : method];
    const k = s.kind[i];
    if (k === K.call || k === K.serverCall) parts.push(Number.isNaN(s.end[i]) ? 'open' : formatDuration(s.end[i] - s.start[i]));
    if (k === K.progress && !Number.isNaN(s.progress[i])) parts.push(`${Math.round(s.progress[i] * 100)}%`);
    const status = schema.statuses[s.status[i]];
    if (status && status !== 'ok' && status !== 'none' && status !== 'open') parts.push(status);
    if (k === K.serverCall) parts.push('server request');
    return parts.join(' · ');
  }

  // -----------------------------------------------------------------------------------------------
  // Keyboard

  /** Items the arrows step through: calls, server requests and notifications that pass the filter. */
  function navigable(/** @type {InputPage} */ page, /** @type {Store} */ s, /** @type {number} */ i) {
    const { K } = page.store.schema;
    const k = s.kind[i];
    return k !== UNKNOWN_KIND && k !== K.session && k !== K.progress && s.shown[i] === 1 && page.serverShown(s);
  }

  /** The next (dir 1) or previous (dir -1) item in time across servers, from the selection (or the view's edge). */
  function step(/** @type {InputPage} */ page, /** @type {number} */ dir) {
    const { view, store } = page;
    const selected = page.selected();
    const cur = selected && store.servers[selected.server] ? { s: store.servers[selected.server], id: selected.id } : undefined;
    const curI = cur ? store.indexOf(cur.s, cur.id) : -1;
    const t = cur && curI >= 0 ? cur.s.start[curI] : dir > 0 ? view.start : view.end;
    let best = /** @type {{ s: Store, i: number } | undefined} */ (undefined);
    const better = (/** @type {Store} */ s, /** @type {number} */ i) => {
      if (!best) return true;
      const a = s.start[i];
      const b = best.s.start[best.i];
      if (a !== b) return dir > 0 ? a < b : a > b;
      return dir > 0 ? s.index < best.s.index : s.index > best.s.index;
    };
    const after = (/** @type {Store} */ s, /** @type {number} */ i) => {
      const a = s.start[i];
      if (a !== t) return dir > 0 ? a > t : a < t;
      if (!cur || curI < 0) return true;
      if (s === cur.s) return dir > 0 ? i > curI : i < curI;
      return dir > 0 ? s.index > cur.s.index : s.index < cur.s.index;
    };
    for (const s of store.servers) {
      if (!s || !page.serverShown(s)) continue;
      if (dir > 0) {
        for (let i = store.lowerBound(s, t); i < s.len; i++) {
          if (!navigable(page, s, i) || !after(s, i)) continue;
          if (better(s, i)) best = { s, i };
          break;
        }
      } else {
        for (let i = Math.min(s.len - 1, store.lowerBound(s, t + 1e-9)); i >= s.head; i--) {
          if (!navigable(page, s, i) || !after(s, i)) continue;
          if (better(s, i)) best = { s, i };
          break;
        }
      }
    }
    if (!best) return;
    const id = best.s.firstId + (best.i - best.s.head);
    page.select({ server: best.s.index, id });
    reveal(page, best.s, best.i);
  }

  /** Pans and scrolls so an item is on screen. */
  function reveal(/** @type {InputPage} */ page, /** @type {Store} */ s, /** @type {number} */ i) {
    const { view, canvas } = page;
    const start = s.start[i];
    const end = Number.isNaN(s.end[i]) ? page.store.now() : s.end[i];
    const span = view.end - view.start;
    if (start < view.start || Math.min(end, start + span * 0.5) > view.end) {
      view.fitted = false;
      view.start = start - span * 0.3;
      view.end = view.start + span;
      page.setFollow(false);
    }
    canvas.layout();
    const b = canvas.itemBox(s, i);
    if (b) {
      if (b.y0 < RULER) view.scrollY -= RULER - b.y0 + 8;
      else if (b.y1 > canvas.size().height) view.scrollY += b.y1 - canvas.size().height + 8;
    }
    canvas.requestDraw();
  }

  /** The keys that move the view: pan, zoom, fit, the live edge, the start, a page up or down. Returns whether it was one. */
  function viewKey(/** @type {InputPage} */ page, /** @type {KeyboardEvent} */ e) {
    const { view, canvas } = page;
    const span = view.end - view.start;
    switch (e.key) {
      case 'ArrowLeft':
        panBy(page, -span * (e.shiftKey ? 0.5 : 0.1));
        return true;
      case 'ArrowRight':
        panBy(page, span * (e.shiftKey ? 0.5 : 0.1));
        return true;
      case '+':
      case '=':
        zoomAt(page, GUTTER + canvas.plotWidth() / 2, 0.7);
        return true;
      case '-':
      case '_':
        zoomAt(page, GUTTER + canvas.plotWidth() / 2, 1 / 0.7);
        return true;
      case '0':
        page.fit();
        return true;
      case 'End':
        toLiveEdge(page, span);
        return true;
      case 'Home': {
        const ex = page.store.extent();
        if (ex) {
          view.fitted = false;
          view.start = ex.from - span * 0.02;
          view.end = view.start + span;
          page.setFollow(false);
        }
        return true;
      }
      case 'PageDown':
        view.scrollY += canvas.size().height * 0.8;
        canvas.requestDraw();
        return true;
      case 'PageUp':
        view.scrollY -= canvas.size().height * 0.8;
        canvas.requestDraw();
        return true;
      default:
        return false;
    }
  }

  /** End: live, the view follows again; otherwise it moves to the last item, keeping its width. */
  function toLiveEdge(/** @type {InputPage} */ page, /** @type {number} */ span) {
    const { view } = page;
    if (page.store.clock.mode === 'live') {
      page.setFollow(true);
      return;
    }
    view.fitted = false;
    view.end = page.store.now() + span * 0.02;
    view.start = view.end - span;
    page.canvas.requestDraw();
  }

  /** The keys that act on items: step, pick, open the details, clear. Returns whether it was one. */
  function itemKey(/** @type {InputPage} */ page, /** @type {KeyboardEvent} */ e) {
    const selected = page.selected();
    switch (e.key) {
      case 'ArrowDown':
        step(page, 1);
        return true;
      case 'ArrowUp':
        step(page, -1);
        return true;
      case ' ':
        if (selected) togglePick(page, selected.server, selected.id);
        return true;
      case 'Enter':
        if (selected) page.els.details.focus();
        return true;
      case 'Escape':
        if (page.picked.size || page.range()) {
          page.picked.clear();
          page.setRange(null);
          page.renderSummary();
          page.canvas.requestDraw();
        } else page.select(null);
        return true;
      default:
        return false;
    }
  }

  function togglePick(/** @type {InputPage} */ page, /** @type {number} */ server, /** @type {number} */ id) {
    const { picked } = page;
    const key = server + ':' + id;
    if (picked.has(key)) picked.delete(key);
    else picked.set(key, { server, id });
    page.renderSummary();
    page.canvas.requestDraw();
    const s = page.store.servers[server];
    const i = page.store.indexOf(s, id);
    if (i >= 0) page.announce(`${picked.has(key) ? 'Picked' : 'Unpicked'} ${itemTitle(page, s, i)}. ${picked.size} picked for export.`);
  }

  // eslint-disable-next-line no-unused-vars
  var McpTimelineInput = { attach };
}
