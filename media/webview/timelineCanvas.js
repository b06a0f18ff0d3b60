// The canvas of the timeline page (timeline.js): every shown server as a group of rows (its header,
// a row of ticks for notifications, lanes for calls), on one time axis with a ruler and a grid, in
// the theme's colours (timelineTheme.js); and what was drawn where, for clicks, hovers and the list
// of drawn items. A draw visits only the items whose time is on screen (a binary search, plus the
// few long spans), and several items on the same pixel of a lane are drawn once. The page's own state (the view, the selection, the filter) comes in `page`.
// @ts-check

/**
 * What the canvas reads of the timeline page (timeline.js builds it).
 * @typedef {{ els: { canvas: HTMLCanvasElement, chart: HTMLElement }, view: TimelineView, store: TimelineStore,
 *   perf: { painted: boolean, batched: boolean, batchItems: number, draws: number }, counts: { items: number, shown: number, errors: number },
 *   picked: Map<string, TimelineItemRef>, serverShown: (s: Store) => boolean, selected: () => TimelineItemRef | null,
 *   range: () => TimeRange | null, links: () => number[], drawn: () => void }} CanvasPage
 */
/**
 * One canvas's shared state: the drawing functions below take it as their first argument.
 * @typedef {{ s: Store, top: number, tickY: number, laneY: number, bottom: number }} CanvasGroup a server's rows (content y)
 * @typedef {{ n: number, x0: Float32Array, x1: Float32Array, y0: Float32Array, y1: Float32Array, server: Int32Array, index: Int32Array }} CanvasHits
 * @typedef {{ page: CanvasPage, view: TimelineView, store: TimelineStore, ctx: CanvasRenderingContext2D,
 *   theme: ReturnType<typeof McpTimelineTheme.create>, colors: Record<string, string>, lastFill: string, width: number, height: number,
 *   groups: CanvasGroup[], contentHeight: number, drawQueued: boolean, hit: CanvasHits }} TimelineCanvasState
 */

'use strict';
/* global McpTimelineTheme, McpTimelineStore, McpTimelineDetails */
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  const { LONG_MS, UNKNOWN_KIND } = McpTimelineStore;
  const { clockText, formatDuration } = McpTimelineDetails;

  // Layout (CSS pixels).
  const RULER = 24;
  const GUTTER = 168;
  const HEADER_ROW = 22;
  const TICK_ROW = 18;
  const LANE = 20;
  const GROUP_GAP = 8;
  /** The most items one draw remembers for clicks and hovers. */
  const MAX_HITS = 65536;

  /**
   * Draws on `page.els.canvas`. `page` gives the page's state: `els`, `view`, `store`, `perf`,
   * `counts`, `picked`, `serverShown(s)`, and the current `selected()`, `range()` and `links()`
   * (ids linked to the selected item); `drawn()` is told after each draw.
   * @param {CanvasPage} page
   */
  function create(page) {
    const theme = McpTimelineTheme.create(page.store.schema.statuses);
    /** @type {TimelineCanvasState} */
    const cv = {
      page,
      view: page.view,
      store: page.store,
      ctx: /** @type {CanvasRenderingContext2D} */ (page.els.canvas.getContext('2d', { alpha: false })),
      theme,
      colors: theme.colors,
      lastFill: '',
      width: 0,
      height: 0,
      groups: [],
      contentHeight: 0,
      drawQueued: false,
      hit: { n: 0, x0: new Float32Array(MAX_HITS), x1: new Float32Array(MAX_HITS), y0: new Float32Array(MAX_HITS), y1: new Float32Array(MAX_HITS), server: new Int32Array(MAX_HITS), index: new Int32Array(MAX_HITS) },
    };
    new MutationObserver(() => {
      theme.read();
      requestDraw(cv);
    }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
    return {
      hit: cv.hit,
      readColors: theme.read,
      layout: () => layout(cv),
      resize: () => resize(cv),
      requestDraw: () => requestDraw(cv),
      plotWidth: () => plotWidth(cv),
      timeAt: (/** @type {number} */ x) => timeAt(cv, x),
      itemBox: (/** @type {Store} */ s, /** @type {number} */ i) => itemBox(cv, s, i),
      size: () => ({ width: cv.width, height: cv.height }),
    };
  }

  /** Sets the fill color: setting a canvas color parses it, so it is set only when it changes. */
  function setFill(/** @type {TimelineCanvasState} */ cv, /** @type {string} */ color) {
    if (color === cv.lastFill) return;
    cv.ctx.fillStyle = cv.lastFill = color;
  }

  // -----------------------------------------------------------------------------------------------
  // Layout

  /** Groups on screen: each shown server and the y of its rows (content coordinates). */
  function layout(/** @type {TimelineCanvasState} */ cv) {
    cv.groups = [];
    let y = 0;
    for (const s of cv.store.servers) {
      if (!s || !cv.page.serverShown(s)) continue;
      const top = y;
      const tickY = top + HEADER_ROW;
      const laneY = tickY + TICK_ROW;
      const lanes = Math.max(1, s.maxLane + 1);
      const bottom = laneY + lanes * LANE;
      cv.groups.push({ s, top, tickY, laneY, bottom });
      y = bottom + GROUP_GAP;
    }
    cv.contentHeight = y;
  }

  function resize(/** @type {TimelineCanvasState} */ cv) {
    const { canvas, chart } = cv.page.els;
    const rect = chart.getBoundingClientRect();
    cv.width = Math.max(200, Math.floor(rect.width));
    cv.height = Math.max(120, Math.floor(rect.height));
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.floor(cv.width * dpr);
    canvas.height = Math.floor(cv.height * dpr);
    canvas.style.width = cv.width + 'px';
    canvas.style.height = cv.height + 'px';
    cv.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    requestDraw(cv);
  }

  function requestDraw(/** @type {TimelineCanvasState} */ cv) {
    if (cv.drawQueued) return;
    cv.drawQueued = true;
    requestAnimationFrame(() => {
      cv.drawQueued = false;
      draw(cv);
    });
  }

  const plotWidth = (/** @type {TimelineCanvasState} */ cv) => Math.max(1, cv.width - GUTTER);
  const xOf = (/** @type {TimelineCanvasState} */ cv, /** @type {number} */ t) => GUTTER + ((t - cv.view.start) / (cv.view.end - cv.view.start)) * plotWidth(cv);
  const timeAt = (/** @type {TimelineCanvasState} */ cv, /** @type {number} */ x) => cv.view.start + ((x - GUTTER) / plotWidth(cv)) * (cv.view.end - cv.view.start);

  // -----------------------------------------------------------------------------------------------
  // A draw: the view follows the clock, then grid, groups, selection, range, now, ruler

  function draw(/** @type {TimelineCanvasState} */ cv) {
    const { ctx, view, width, colors } = cv;
    const t0 = performance.now();
    followClock(cv);
    layout(cv);
    const height = cv.height;
    const maxScroll = Math.max(0, cv.contentHeight - (height - RULER));
    view.scrollY = Math.min(Math.max(0, view.scrollY), maxScroll);
    setFill(cv, colors.bg);
    ctx.fillRect(0, 0, width, height);
    cv.hit.n = 0;
    drawGrid(cv);
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, RULER, width, height - RULER);
    ctx.clip();
    for (const g of cv.groups) {
      const top = g.top - view.scrollY + RULER;
      if (top > height || g.bottom - view.scrollY + RULER < RULER) continue;
      drawGroup(cv, g, top);
    }
    drawSelection(cv);
    drawRange(cv);
    drawNow(cv);
    ctx.restore();
    cv.lastFill = '';
    drawRuler(cv);
    recordDraw(cv, t0);
  }

  /** Live and following: the view moves with the clock. */
  function followClock(/** @type {TimelineCanvasState} */ cv) {
    const { view, store } = cv;
    if (!view.follow || store.clock.mode !== 'live') return;
    const span = view.end - view.start;
    const e = view.fitted ? store.extent() : undefined;
    if (e) {
      // Fitted: everything stays in view as it grows.
      const pad = Math.max(1, (e.to - e.from) * 0.02);
      view.start = e.from - pad;
      view.end = e.to + pad;
    } else {
      // Zoomed in: a window of the same width slides with the clock.
      view.end = store.now() + span * 0.02;
      view.start = view.end - span;
    }
  }

  /** The time range picked with the mouse, shaded. */
  function drawRange(/** @type {TimelineCanvasState} */ cv) {
    const range = cv.page.range();
    if (!range) return;
    const x0 = Math.max(GUTTER, xOf(cv, range.from));
    const x1 = Math.min(cv.width, xOf(cv, range.to));
    if (x1 <= x0) return;
    cv.ctx.globalAlpha = 0.35;
    setFill(cv, cv.colors.range);
    cv.ctx.fillRect(x0, RULER, x1 - x0, cv.height - RULER);
    cv.ctx.globalAlpha = 1;
  }

  /** Live: a line at now. */
  function drawNow(/** @type {TimelineCanvasState} */ cv) {
    const { ctx, store } = cv;
    if (store.clock.mode !== 'live') return;
    const x = xOf(cv, store.now());
    if (x < GUTTER || x > cv.width) return;
    ctx.strokeStyle = cv.colors.focus;
    ctx.globalAlpha = 0.6;
    ctx.beginPath();
    ctx.moveTo(x + 0.5, RULER);
    ctx.lineTo(x + 0.5, cv.height);
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  /** The draw's time for benchmarks and tests, the first paint, and the page told. */
  function recordDraw(/** @type {TimelineCanvasState} */ cv, /** @type {number} */ t0) {
    const { perf, counts } = cv.page;
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
    cv.page.drawn();
  }

  /** A step of 1, 2 or 5 × 10^n ms near `ms`. */
  function niceStep(/** @type {number} */ ms) {
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(ms, 1e-3))));
    const m = ms / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }

  function drawGrid(/** @type {TimelineCanvasState} */ cv) {
    const { ctx, view } = cv;
    const step = niceStep(((view.end - view.start) * 110) / plotWidth(cv));
    ctx.strokeStyle = cv.colors.grid;
    ctx.globalAlpha = 0.5;
    ctx.beginPath();
    for (let t = Math.ceil(view.start / step) * step; t <= view.end; t += step) {
      const x = Math.round(xOf(cv, t)) + 0.5;
      ctx.moveTo(x, RULER);
      ctx.lineTo(x, cv.height);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  function drawRuler(/** @type {TimelineCanvasState} */ cv) {
    const { ctx, view, colors, width } = cv;
    setFill(cv, colors.bg);
    ctx.fillRect(0, 0, width, RULER);
    ctx.strokeStyle = colors.border;
    ctx.beginPath();
    ctx.moveTo(0, RULER - 0.5);
    ctx.lineTo(width, RULER - 0.5);
    ctx.moveTo(GUTTER - 0.5, 0);
    ctx.lineTo(GUTTER - 0.5, cv.height);
    ctx.stroke();
    const step = niceStep(((view.end - view.start) * 110) / plotWidth(cv));
    ctx.font = `11px ${colors.font}`;
    setFill(cv, colors.muted);
    ctx.textBaseline = 'middle';
    for (let t = Math.ceil(view.start / step) * step; t <= view.end; t += step) {
      const x = Math.round(xOf(cv, t));
      if (x < GUTTER + 2) continue;
      ctx.fillRect(x, RULER - 5, 1, 5);
      ctx.fillText(clockText(t, step), x + 3, RULER / 2);
    }
    setFill(cv, colors.fg);
    ctx.fillText(`${formatDuration(view.end - view.start)} shown`, 8, RULER / 2);
  }

  // -----------------------------------------------------------------------------------------------
  // A server's group: its header, then its items

  /**
   * One group's pass over its items: where its rows are on the canvas, and what each lane already
   * shows (so items on the same pixel are drawn once); errors wait to be drawn last.
   * @typedef {{ s: Store, top: number, tickY: number, laneY: number, bottom: number, nowT: number, lastX: Float64Array,
   *   lastStatus: Int16Array, lastProgress: Float64Array, lastTick: number, errors: number[] }} GroupPass
   */

  function drawGroup(/** @type {TimelineCanvasState} */ cv, /** @type {CanvasGroup} */ g, /** @type {number} */ top) {
    const { ctx, view, store } = cv;
    const s = g.s;
    const tickY = top + HEADER_ROW;
    const laneY = tickY + TICK_ROW;
    const bottom = top + (g.bottom - g.top);
    drawGroupHeader(cv, s, top, bottom);
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, top, cv.width - GUTTER, bottom - top);
    ctx.clip();
    const lanes = Math.max(1, s.maxLane + 1);
    /** @type {GroupPass} */
    const pass = { s, top, tickY, laneY, bottom, nowT: store.now(), lastTick: -Infinity, errors: [],
      lastX: new Float64Array(lanes).fill(-Infinity), lastStatus: new Int16Array(lanes).fill(-1), lastProgress: new Float64Array(lanes).fill(-Infinity) };
    for (const id of s.long) {
      const i = store.indexOf(s, id);
      if (i >= 0 && s.start[i] <= view.end) visitItem(cv, pass, i, true);
    }
    const to = store.lowerBound(s, view.end + 1);
    for (let i = store.lowerBound(s, view.start - LONG_MS); i < to; i++) visitItem(cv, pass, i, false);
    // Errors last, on top: a failure is never hidden under a pixel of successes.
    for (const i of pass.errors) {
      const endT = Number.isNaN(s.end[i]) ? pass.nowT : s.end[i];
      const x0 = xOf(cv, s.start[i]);
      drawSpan(cv, s, i, x0, Math.max(xOf(cv, endT), x0 + 3), laneY + Math.max(0, s.lane[i]) * LANE);
    }
    ctx.restore();
    cv.lastFill = '';
  }

  /** The band with the server's name, the separator under the group, and the rows' names. */
  function drawGroupHeader(/** @type {TimelineCanvasState} */ cv, /** @type {Store} */ s, /** @type {number} */ top, /** @type {number} */ bottom) {
    const { ctx, colors } = cv;
    const tickY = top + HEADER_ROW;
    const laneY = tickY + TICK_ROW;
    setFill(cv, colors.band);
    ctx.fillRect(0, top, cv.width, HEADER_ROW);
    setFill(cv, colors.border);
    ctx.fillRect(0, bottom + GROUP_GAP / 2, cv.width, 1);
    ctx.font = `600 12px ${colors.font}`;
    setFill(cv, colors.fg);
    ctx.textBaseline = 'middle';
    clipText(cv, s.name, 8, top + HEADER_ROW / 2, GUTTER - 14);
    ctx.font = `11px ${colors.font}`;
    setFill(cv, colors.muted);
    ctx.fillText('notifications', 8, tickY + TICK_ROW / 2);
    if (s.maxLane >= 0) ctx.fillText(`calls (${s.maxLane + 1} lane${s.maxLane === 0 ? '' : 's'})`, 8, laneY + LANE / 2);
  }

  /** One item of a group's pass, drawn by its kind (`fromLongList`: a long span, drawn from its own list). */
  function visitItem(/** @type {TimelineCanvasState} */ cv, /** @type {GroupPass} */ pass, /** @type {number} */ i, /** @type {boolean} */ fromLongList) {
    const { s } = pass;
    const { K } = cv.store.schema;
    const k = s.kind[i];
    if (k === UNKNOWN_KIND || !s.shown[i]) return;
    // Long spans are drawn from their own list; the arithmetic first, the set only for candidates.
    if (!fromLongList && (k === K.call || k === K.serverCall) && !(s.end[i] - s.start[i] <= LONG_MS) && s.long.has(s.firstId + (i - s.head))) return;
    if (k === K.call) visitCall(cv, pass, i, fromLongList);
    else if (k === K.serverCall) drawServerCall(cv, s, i, pass.tickY, pass.nowT);
    else if (k === K.progress) visitProgress(cv, pass, i);
    else if (k === K.session) drawSession(cv, pass, i);
    else visitTick(cv, pass, i);
  }

  function visitCall(/** @type {TimelineCanvasState} */ cv, /** @type {GroupPass} */ pass, /** @type {number} */ i, /** @type {boolean} */ fromLongList) {
    const { s, lastX, lastStatus } = pass;
    const endT = Number.isNaN(s.end[i]) ? pass.nowT : s.end[i];
    if (endT < cv.view.start) return;
    if (s.status[i] === cv.store.schema.S.error && !fromLongList) {
      pass.errors.push(i);
      return;
    }
    const lane = Math.max(0, s.lane[i]);
    const x0 = xOf(cv, s.start[i]);
    const x1 = Math.max(xOf(cv, endT), x0 + 2);
    if (fromLongList) {
      drawSpan(cv, s, i, x0, x1, pass.laneY + lane * LANE);
      return;
    }
    // On whole pixels: what this lane already covered in time order, in the same color, is not
    // drawn again (zoomed out, thousands of calls share a few pixels).
    const right = Math.ceil(x1);
    if (right <= lastX[lane] && lastStatus[lane] === s.status[i]) return;
    drawSpan(cv, s, i, x0, x1, pass.laneY + lane * LANE);
    lastX[lane] = Math.max(lastX[lane], right);
    lastStatus[lane] = s.status[i];
  }

  function visitProgress(/** @type {TimelineCanvasState} */ cv, /** @type {GroupPass} */ pass, /** @type {number} */ i) {
    const { s } = pass;
    const x = Math.round(xOf(cv, s.start[i]));
    const p = cv.store.indexOf(s, s.parent[i]);
    const lane = p >= 0 ? Math.max(0, s.lane[p]) : 0;
    // One mark a pixel of a lane.
    if (x === pass.lastProgress[lane]) return;
    pass.lastProgress[lane] = x;
    drawProgress(cv, s, i, pass.laneY);
  }

  /** A new session: a dashed line across the group. */
  function drawSession(/** @type {TimelineCanvasState} */ cv, /** @type {GroupPass} */ pass, /** @type {number} */ i) {
    const { ctx, colors } = cv;
    const x = Math.round(xOf(cv, pass.s.start[i])) + 0.5;
    ctx.strokeStyle = colors.muted;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(x, pass.top);
    ctx.lineTo(x, pass.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    setFill(cv, colors.muted);
    ctx.font = `10px ${colors.font}`;
    ctx.fillText('new session', x + 3, pass.top + HEADER_ROW / 2);
  }

  /** A notification: a tick, one a pixel unless it is an error. */
  function visitTick(/** @type {TimelineCanvasState} */ cv, /** @type {GroupPass} */ pass, /** @type {number} */ i) {
    const { s, tickY } = pass;
    const { S } = cv.store.schema;
    const x = Math.round(xOf(cv, s.start[i]));
    if (x === pass.lastTick && s.status[i] !== S.error) return;
    pass.lastTick = x;
    const color = s.status[i] === S.error ? cv.colors.error : s.direction[i] === 1 ? cv.colors.received : cv.colors.muted;
    setFill(cv, color);
    cv.ctx.fillRect(x, tickY + 3, 2, TICK_ROW - 6);
    addHit(cv, x - 3, x + 5, tickY, tickY + TICK_ROW, s.index, i);
  }

  // -----------------------------------------------------------------------------------------------
  // Items

  function drawSpan(/** @type {TimelineCanvasState} */ cv, /** @type {Store} */ s, /** @type {number} */ i, /** @type {number} */ x0, /** @type {number} */ x1, /** @type {number} */ y) {
    const { ctx } = cv;
    const color = cv.theme.statusColor(s.status[i]);
    const w = Math.max(1, x1 - x0);
    setFill(cv, color);
    ctx.globalAlpha = cv.store.schema.statuses[s.status[i]] === 'unanswered' ? 0.5 : 1;
    ctx.fillRect(x0, y + 2, w, LANE - 5);
    ctx.globalAlpha = 1;
    if (Number.isNaN(s.end[i]) && w > 6) {
      // An open call fades towards now.
      const grad = ctx.createLinearGradient(Math.max(x0, x1 - 24), 0, x1, 0);
      grad.addColorStop(0, 'rgba(0,0,0,0)');
      grad.addColorStop(1, cv.colors.bg);
      ctx.fillStyle = grad;
      cv.lastFill = '';
      ctx.fillRect(Math.max(x0, x1 - 24), y + 2, Math.min(24, w), LANE - 5);
    }
    if (!Number.isNaN(s.progress[i]) && w > 4) {
      setFill(cv, cv.theme.textOn(color));
      ctx.globalAlpha = 0.55;
      ctx.fillRect(x0, y + LANE - 6, w * s.progress[i], 2);
      ctx.globalAlpha = 1;
    }
    if (w > 36) {
      setFill(cv, cv.theme.textOn(color));
      ctx.font = `11px ${cv.colors.font}`;
      ctx.textBaseline = 'middle';
      const label = spanLabel(cv, s, i);
      clipText(cv, label, Math.max(x0, GUTTER) + 4, y + LANE / 2 - 0.5, Math.min(x1, cv.width) - Math.max(x0, GUTTER) - 8);
    }
    addHit(cv, x0, x1, y + 1, y + LANE - 2, s.index, i);
  }

  function drawServerCall(/** @type {TimelineCanvasState} */ cv, /** @type {Store} */ s, /** @type {number} */ i, /** @type {number} */ tickY, /** @type {number} */ nowT) {
    const { ctx } = cv;
    const x0 = xOf(cv, s.start[i]);
    const endT = Number.isNaN(s.end[i]) ? nowT : s.end[i];
    const x1 = xOf(cv, endT);
    const cy = tickY + TICK_ROW / 2;
    const color = s.status[i] === cv.store.schema.S.error ? cv.colors.error : cv.colors.serverCall;
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x0, cy);
    ctx.lineTo(Math.max(x1, x0 + 1), cy);
    ctx.stroke();
    ctx.lineWidth = 1;
    setFill(cv, color);
    ctx.beginPath();
    ctx.moveTo(x0, cy - 6);
    ctx.lineTo(x0 + 5, cy);
    ctx.lineTo(x0, cy + 6);
    ctx.lineTo(x0 - 5, cy);
    ctx.closePath();
    ctx.fill();
    addHit(cv, x0 - 6, Math.max(x1, x0 + 6), tickY, tickY + TICK_ROW, s.index, i);
  }

  function drawProgress(/** @type {TimelineCanvasState} */ cv, /** @type {Store} */ s, /** @type {number} */ i, /** @type {number} */ laneY) {
    const p = cv.store.indexOf(s, s.parent[i]);
    if (p < 0 || !s.shown[p]) return;
    const x = Math.round(xOf(cv, s.start[i]));
    const y = laneY + Math.max(0, s.lane[p]) * LANE;
    setFill(cv, cv.theme.textOn(cv.theme.statusColor(s.status[p])));
    // A mark on the call's lower edge, under its label.
    cv.ctx.globalAlpha = 0.9;
    cv.ctx.fillRect(x, y + LANE - 8, 1, 5);
    cv.ctx.globalAlpha = 1;
    addHit(cv, x - 1, x + 2, y + LANE - 8, y + LANE - 3, s.index, i);
  }

  function spanLabel(/** @type {TimelineCanvasState} */ cv, /** @type {Store} */ s, /** @type {number} */ i) {
    const { strings } = cv.store;
    const name = s.name_[i] >= 0 ? strings[s.name_[i]] : strings[s.method[i]];
    const dur = Number.isNaN(s.end[i]) ? '…' : formatDuration(s.end[i] - s.start[i]);
    const pct = !Number.isNaN(s.progress[i]) && Number.isNaN(s.end[i]) ? ` · ${Math.round(s.progress[i] * 100)}%` : '';
    return `${name} ${dur}${pct}`;
  }

  function clipText(/** @type {TimelineCanvasState} */ cv, /** @type {string} */ text, /** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ maxWidth) {
    const { ctx } = cv;
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

  /** Remembers where an item was drawn, for clicks and hovers. */
  function addHit(/** @type {TimelineCanvasState} */ cv, /** @type {number} */ x0, /** @type {number} */ x1, /** @type {number} */ y0, /** @type {number} */ y1, /** @type {number} */ server, /** @type {number} */ index) {
    const { hit } = cv;
    if (hit.n >= hit.x0.length) return;
    const n = hit.n++;
    hit.x0[n] = x0;
    hit.x1[n] = x1;
    hit.y0[n] = y0;
    hit.y1[n] = y1;
    hit.server[n] = server;
    hit.index[n] = index;
  }

  // -----------------------------------------------------------------------------------------------
  // The selection

  /** Where an item is drawn (canvas coordinates), for outlines and links. */
  function itemBox(/** @type {TimelineCanvasState} */ cv, /** @type {Store} */ s, /** @type {number} */ i) {
    const { K } = cv.store.schema;
    const g = cv.groups.find((x) => x.s === s);
    if (!g) return undefined;
    const top = g.top - cv.view.scrollY + RULER;
    const tickY = top + HEADER_ROW;
    const laneY = tickY + TICK_ROW;
    const k = s.kind[i];
    const x0 = xOf(cv, s.start[i]);
    const endT = Number.isNaN(s.end[i]) ? cv.store.now() : s.end[i];
    if (k === K.call) return { x0, x1: Math.max(xOf(cv, endT), x0 + 2), y0: laneY + Math.max(0, s.lane[i]) * LANE + 1, y1: laneY + Math.max(0, s.lane[i]) * LANE + LANE - 2 };
    if (k === K.progress) {
      const p = cv.store.indexOf(s, s.parent[i]);
      const y = laneY + Math.max(0, p >= 0 ? s.lane[p] : 0) * LANE;
      return { x0: x0 - 2, x1: x0 + 3, y0: y + 1, y1: y + LANE - 2 };
    }
    if (k === K.serverCall) return { x0: x0 - 6, x1: Math.max(xOf(cv, endT), x0 + 6), y0: tickY + 1, y1: tickY + TICK_ROW - 1 };
    return { x0: x0 - 3, x1: x0 + 5, y0: tickY + 1, y1: tickY + TICK_ROW - 1 };
  }

  /** The picked items outlined (dashed), the selected one outlined and linked to what belongs to its call. */
  function drawSelection(/** @type {TimelineCanvasState} */ cv) {
    const { ctx, store } = cv;
    ctx.lineWidth = 2;
    for (const p of cv.page.picked.values()) {
      const s = store.servers[p.server];
      const i = s ? store.indexOf(s, p.id) : -1;
      if (i < 0) continue;
      const b = itemBox(cv, s, i);
      if (!b) continue;
      ctx.strokeStyle = cv.colors.focus;
      ctx.setLineDash([4, 2]);
      ctx.strokeRect(b.x0 - 1, b.y0 - 1, b.x1 - b.x0 + 2, b.y1 - b.y0 + 2);
      ctx.setLineDash([]);
    }
    const selected = cv.page.selected();
    if (selected) drawSelected(cv, selected);
    ctx.lineWidth = 1;
  }

  function drawSelected(/** @type {TimelineCanvasState} */ cv, /** @type {TimelineItemRef} */ selected) {
    const { ctx, store } = cv;
    const s = store.servers[selected.server];
    const i = s ? store.indexOf(s, selected.id) : -1;
    const b = i >= 0 ? itemBox(cv, s, i) : undefined;
    if (!b) return;
    // Lines to what belongs to the same call.
    ctx.strokeStyle = cv.colors.focus;
    ctx.globalAlpha = 0.7;
    ctx.lineWidth = 1;
    for (const id of cv.page.links()) {
      const j = store.indexOf(s, id);
      const c = j >= 0 ? itemBox(cv, s, j) : undefined;
      if (!c) continue;
      ctx.beginPath();
      ctx.moveTo((b.x0 + Math.min(b.x1, b.x0 + 8)) / 2, (b.y0 + b.y1) / 2);
      ctx.lineTo((c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2);
      ctx.stroke();
      ctx.strokeRect(c.x0 - 1, c.y0 - 1, c.x1 - c.x0 + 2, c.y1 - c.y0 + 2);
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = 2;
    ctx.strokeStyle = cv.colors.focus;
    ctx.strokeRect(b.x0 - 1.5, b.y0 - 1.5, b.x1 - b.x0 + 3, b.y1 - b.y0 + 3);
  }

  // eslint-disable-next-line no-unused-vars
  var McpTimelineCanvas = { create, RULER, GUTTER, HEADER_ROW, TICK_ROW, LANE, GROUP_GAP };
}
