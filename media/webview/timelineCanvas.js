// The canvas of the timeline page (timeline.js): every shown server as a group of rows (its header,
// a row of ticks for notifications, lanes for calls), on one time axis with a ruler and a grid; the
// colours from the theme held to a readable contrast (timelineAccess.js); and what was drawn where,
// for clicks, hovers and the list of drawn items. A draw visits only the items whose time is on
// screen (a binary search, plus the few long spans), and several items on the same pixel of a lane
// are drawn once. The page's own state (the view, the selection, the filter) comes in `page`.
// @ts-check

/**
 * What the canvas reads of the timeline page (timeline.js builds it).
 * @typedef {{ els: { canvas: HTMLCanvasElement, chart: HTMLElement }, view: TimelineView, store: TimelineStore,
 *   perf: { painted: boolean, batched: boolean, batchItems: number, draws: number }, counts: { items: number, shown: number, errors: number },
 *   picked: Map<string, TimelineItemRef>, serverShown: (s: Store) => boolean, selected: () => TimelineItemRef | null,
 *   range: () => TimeRange | null, links: () => number[], drawn: () => void }} CanvasPage
 */
// eslint-disable-next-line no-unused-vars
const McpTimelineCanvas = (function () {
  'use strict';
  /* global McpTimelineAccess, McpTimelineStore, McpTimelineDetails */
  const { LONG_MS, UNKNOWN_KIND } = McpTimelineStore;
  const { clockText, formatDuration } = McpTimelineDetails;

  // Layout (CSS pixels).
  const RULER = 24;
  const GUTTER = 168;
  const HEADER_ROW = 22;
  const TICK_ROW = 18;
  const LANE = 20;
  const GROUP_GAP = 8;

  /**
   * Draws on `page.els.canvas`. `page` gives the page's state: `els`, `view`, `store`, `perf`,
   * `counts`, `picked`, `serverShown(s)`, and the current `selected()`, `range()` and `links()`
   * (ids linked to the selected item); `drawn()` is told after each draw.
   * @param {CanvasPage} page
   */
  function create(page) {
    const { els, view, store, perf, counts, picked, serverShown } = page;
    const { servers, strings, clock, indexOf, lowerBound, now, extent } = store;
    const { statuses: STATUSES, K, S } = store.schema;

    // ---------------------------------------------------------------------------------------------
    // Colors from the theme (read again when it changes)

    const colors = /** @type {Record<string, string>} */ ({});
    function readColors() {
      const css = getComputedStyle(document.body);
      const v = (/** @type {string} */ name, /** @type {string} */ fallback) => css.getPropertyValue(name).trim() || fallback;
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
    function textOn(/** @type {string} */ color) {
      let text = textOnCache.get(color);
      if (text === undefined) textOnCache.set(color, (text = McpTimelineAccess.textOn(color)));
      return text;
    }

    function statusColor(/** @type {number} */ status) {
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
    function setFill(/** @type {string} */ color) {
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

    const plotWidth = () => Math.max(1, width - GUTTER);
    const xOf = (/** @type {number} */ t) => GUTTER + ((t - view.start) / (view.end - view.start)) * plotWidth();
    const timeAt = (/** @type {number} */ x) => view.start + ((x - GUTTER) / plotWidth()) * (view.end - view.start);

    function draw() {
      const t0 = performance.now();
      if (view.follow && clock.mode === 'live') {
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
      const range = page.range();
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
      if (clock.mode === 'live') {
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
      page.drawn();
    }

    /** A step of 1, 2 or 5 × 10^n ms near `ms`. */
    function niceStep(/** @type {number} */ ms) {
      const p = Math.pow(10, Math.floor(Math.log10(Math.max(ms, 1e-3))));
      const m = ms / p;
      return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
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

    function drawGroup(/** @type {{ s: Store, top: number, tickY: number, laneY: number, bottom: number }} */ g, /** @type {number} */ top) {
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
      /** @type {number[]} */
      const errors = [];
      const nowT = now();
      const visit = (/** @type {number} */ i, /** @type {boolean} */ fromLongList) => {
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

    function drawSpan(/** @type {Store} */ s, /** @type {number} */ i, /** @type {number} */ x0, /** @type {number} */ x1, /** @type {number} */ y) {
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

    function drawServerCall(/** @type {Store} */ s, /** @type {number} */ i, /** @type {number} */ tickY, /** @type {number} */ nowT) {
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

    function drawProgress(/** @type {Store} */ s, /** @type {number} */ i, /** @type {number} */ laneY) {
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

    function spanLabel(/** @type {Store} */ s, /** @type {number} */ i) {
      const name = s.name_[i] >= 0 ? strings[s.name_[i]] : strings[s.method[i]];
      const dur = Number.isNaN(s.end[i]) ? '…' : formatDuration(s.end[i] - s.start[i]);
      const pct = !Number.isNaN(s.progress[i]) && Number.isNaN(s.end[i]) ? ` · ${Math.round(s.progress[i] * 100)}%` : '';
      return `${name} ${dur}${pct}`;
    }

    function clipText(/** @type {string} */ text, /** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ maxWidth) {
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

    function addHit(/** @type {number} */ x0, /** @type {number} */ x1, /** @type {number} */ y0, /** @type {number} */ y1, /** @type {number} */ server, /** @type {number} */ index) {
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
    function itemBox(/** @type {Store} */ s, /** @type {number} */ i) {
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
      const selected = page.selected();
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
          const links = page.links();
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

    return { hit, readColors, layout, resize, requestDraw, plotWidth, timeAt, itemBox, size: () => ({ width, height }) };
  }

  return { create, RULER, GUTTER, HEADER_ROW, TICK_ROW, LANE, GROUP_GAP };
})();
