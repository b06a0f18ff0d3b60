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
// eslint-disable-next-line no-unused-vars
const McpTimelineInput = (function () {
  'use strict';
  /* global McpWebview, McpTimelineStore, McpTimelineCanvas, McpTimelineDetails */
  const { h } = McpWebview;
  const { UNKNOWN_KIND } = McpTimelineStore;
  const { RULER, GUTTER } = McpTimelineCanvas;
  const { clockText, formatDuration } = McpTimelineDetails;

  /**
   * Listens on `page.els.canvas`. `page`: `els`, `view`, `store`, `picked`, `canvas` (timelineCanvas.js),
   * `selected()`, `select(next)`, `range()`, `setRange(r)`, `setFollow(on)`, `fit()`, `renderSummary()`,
   * `announce(text)`, `serverShown(s)`. Returns what the page uses too: an item's title, and `reveal`.
   * @param {InputPage} page
   */
  function attach(page) {
    const { els, view, store, picked, canvas, select, setFollow, fit, renderSummary, announce, serverShown } = page;
    const { servers, strings, clock, indexOf, lowerBound, now, extent } = store;
    const { statuses: STATUSES, K } = store.schema;
    const { hit, requestDraw, plotWidth, timeAt, itemBox, layout } = canvas;

    // ---------------------------------------------------------------------------------------------
    // Pointer: wheel zooms (Shift+wheel pans), drag pans, Shift+drag selects a time range, click selects

    /** The item under a point: a call or tick first; the progress marks drawn on a call only when nothing else is there. */
    function hitAt(/** @type {number} */ x, /** @type {number} */ y) {
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

    function zoomAt(/** @type {number} */ x, /** @type {number} */ factor) {
      view.fitted = false;
      const anchor = view.follow ? view.end : timeAt(x);
      const span = Math.min(Math.max((view.end - view.start) * factor, 0.05), 1000 * 60 * 60 * 24 * 30);
      const ratio = view.follow ? 1 : (anchor - view.start) / (view.end - view.start);
      view.start = anchor - span * ratio;
      view.end = view.start + span;
      requestDraw();
    }

    function panBy(/** @type {number} */ ms) {
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
        page.setRange({ from: Math.min(drag.t, t), to: Math.max(drag.t, t) });
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
          page.setRange(null);
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

    function hover(/** @type {number} */ x, /** @type {number} */ y) {
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

    function itemTitle(/** @type {Store} */ s, /** @type {number} */ i) {
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
    function navigable(/** @type {Store} */ s, /** @type {number} */ i) {
      const k = s.kind[i];
      return k !== UNKNOWN_KIND && k !== K.session && k !== K.progress && s.shown[i] === 1 && serverShown(s);
    }

    /** The next (dir 1) or previous (dir -1) item in time across servers, from the selection (or the view's edge). */
    function step(/** @type {number} */ dir) {
      const selected = page.selected();
      const cur = selected && servers[selected.server] ? { s: servers[selected.server], id: selected.id } : undefined;
      const curI = cur ? indexOf(cur.s, cur.id) : -1;
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
    function reveal(/** @type {Store} */ s, /** @type {number} */ i) {
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
          const selected = page.selected();
          if (selected) togglePick(selected.server, selected.id);
          break;
        case 'Enter':
          if (page.selected()) els.details.focus();
          break;
        case 'Escape':
          if (picked.size || page.range()) {
            picked.clear();
            page.setRange(null);
            renderSummary();
            requestDraw();
          } else select(null);
          break;
        default:
          handled = false;
      }
      if (handled) e.preventDefault();
    });

    function togglePick(/** @type {number} */ server, /** @type {number} */ id) {
      const key = server + ':' + id;
      if (picked.has(key)) picked.delete(key);
      else picked.set(key, { server, id });
      renderSummary();
      requestDraw();
      const s = servers[server];
      const i = indexOf(s, id);
      if (i >= 0) announce(`${picked.has(key) ? 'Picked' : 'Unpicked'} ${itemTitle(s, i)}. ${picked.size} picked for export.`);
    }

    return { itemTitle, reveal };
  }

  return { attach };
})();
