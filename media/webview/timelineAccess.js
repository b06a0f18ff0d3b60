// What the timeline page adds for the keyboard and for screen readers, beside its canvas
// (timeline.js): the toolbar as one Tab stop whose arrows move between its controls, as VS Code's
// own toolbars do; and the list of the items drawn on screen, each a button laid over its shape
// (invisible until a screen reader focuses it), so a screen reader can read and pick what the
// canvas shows; and the canvas's colours held to a contrast the eye can read in every theme. Plain
// browser JS; every string is inserted as text.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{

  /**
   * One Tab stop for `toolbar`: the control last used keeps tabindex 0, the others -1; Left and
   * Right (Home, End) move between them. A text field keeps Left and Right for its caret except
   * at its ends.
   * @param {HTMLElement} toolbar
   */
  function rovingToolbar(toolbar) {
    const controls = () => /** @type {HTMLElement[]} */ ([...toolbar.querySelectorAll('button, select, input')]).filter((el) => !(/** @type {HTMLButtonElement} */ (el).disabled) && el.offsetParent !== null);
    /** The control last focused; none yet: the first (chips come and go before the user arrives). */
    let current = /** @type {HTMLElement | null} */ (null);
    const refresh = () => {
      const all = controls();
      const stop = current && all.includes(current) ? current : all[0] || null;
      for (const el of all) el.tabIndex = el === stop ? 0 : -1;
    };
    toolbar.addEventListener('focusin', (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      if (controls().includes(target)) {
        current = target;
        refresh();
      }
    });
    toolbar.addEventListener('keydown', (e) => {
      const all = controls();
      const at = all.indexOf(/** @type {HTMLElement} */ (e.target));
      if (at < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
      const field = e.target instanceof HTMLInputElement ? e.target : null;
      let next = -1;
      if (e.key === 'ArrowRight' && (!field || field.selectionStart === field.value.length)) next = (at + 1) % all.length;
      else if (e.key === 'ArrowLeft' && (!field || field.selectionEnd === 0)) next = (at - 1 + all.length) % all.length;
      else if (e.key === 'Home' && !field) next = 0;
      else if (e.key === 'End' && !field) next = all.length - 1;
      if (next < 0) return;
      e.preventDefault();
      all[next].focus();
    });
    new MutationObserver(refresh).observe(toolbar, { childList: true, subtree: true });
    refresh();
    return { refresh };
  }

  /** At most this many items are listed (the view holds more only when zoomed out over thousands). */
  const MAX_LISTED = 500;

  /**
   * The list of drawn items: `items()` gives what is on screen now ({ key, text, x0, x1, y0, y1 }
   * in canvas pixels); `update()` brings the list to it, reusing its buttons; `onPick(key)` runs
   * when one is activated.
   * @param {HTMLElement} list an <ol> laid over the canvas
   * @param {(key: string) => void} onPick
   */
  function drawnItemsList(list, onPick) {
    /** @type {HTMLButtonElement[]} */
    const buttons = [];
    let more = /** @type {HTMLElement | null} */ (null);
    list.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button');
      if (b && b.dataset.key) onPick(b.dataset.key);
    });
    /** @param {{ key: string, text: string, x0: number, x1: number, y0: number, y1: number }[]} items */
    function update(items) {
      const n = Math.min(items.length, MAX_LISTED);
      for (let k = 0; k < n; k++) {
        let b = buttons[k];
        if (!b) {
          b = document.createElement('button');
          b.type = 'button';
          b.tabIndex = -1;
          const li = document.createElement('li');
          li.append(b);
          list.append(li);
          buttons.push(b);
        }
        const it = items[k];
        if (b.textContent !== it.text) b.textContent = it.text;
        if (b.dataset.key !== it.key) b.dataset.key = it.key;
        // At least 4 px wide, centred on the shape (a short call is a 1-px line).
        const w = Math.max(4, it.x1 - it.x0);
        const left = (it.x0 + it.x1) / 2 - w / 2;
        // Through the CSSOM: the page's CSP refuses style attributes.
        const box = [left, it.y0, w, Math.max(4, it.y1 - it.y0)].map((v) => v.toFixed(1) + 'px');
        if (b.style.left !== box[0]) b.style.left = box[0];
        if (b.style.top !== box[1]) b.style.top = box[1];
        if (b.style.width !== box[2]) b.style.width = box[2];
        if (b.style.height !== box[3]) b.style.height = box[3];
      }
      while (buttons.length > n) /** @type {HTMLElement} */ (buttons.pop()).parentElement?.remove();
      const rest = items.length - n;
      if (rest > 0 && !more) {
        more = document.createElement('li');
        more.className = 'sr-only';
        list.append(more);
      }
      if (more) {
        if (rest > 0) more.textContent = `and ${rest.toLocaleString('en-US')} more: zoom in or filter to list them`;
        else {
          more.remove();
          more = null;
        }
      }
      if (more) list.append(more);
    }
    return { update };
  }

  /** [r, g, b, a] (0–255, alpha 0–1) of a `#rgb`, `#rrggbb`, `#rrggbbaa` or `rgb(a)()` colour; undefined for others. */
  function parseColor(/** @type {string} */ color) {
    const c = String(color).trim();
    let m = /^#([0-9a-f]{3,8})$/i.exec(c);
    if (m) {
      let hex = m[1];
      if (hex.length === 3 || hex.length === 4) hex = hex.replace(/./g, (d) => d + d);
      if (hex.length !== 6 && hex.length !== 8) return undefined;
      const n = (/** @type {number} */ k) => parseInt(hex.slice(k, k + 2), 16);
      return [n(0), n(2), n(4), hex.length === 8 ? n(6) / 255 : 1];
    }
    m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+%?))?\s*\)$/i.exec(c);
    if (!m) return undefined;
    const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [Number(m[1]), Number(m[2]), Number(m[3]), alpha];
  }

  /** WCAG's relative luminance of an opaque [r, g, b]. */
  function luminance(/** @type {number[]} */ rgb) {
    const lin = (/** @type {number} */ v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
  }

  /** `color` laid over the opaque `bg` (a colour with alpha shows the background through). */
  function over(/** @type {number[]} */ color, /** @type {number[]} */ bg) {
    const a = color[3];
    return [0, 1, 2].map((k) => Math.round(color[k] * a + bg[k] * (1 - a)));
  }

  /** The contrast ratio of two colours (the first laid over the second), 1 to 21. */
  function contrast(/** @type {string} */ fg, /** @type {string} */ bg) {
    const b = parseColor(bg);
    const f = parseColor(fg);
    if (!b || !f) return 21;
    const l1 = luminance(over(f, b));
    const l2 = luminance(b);
    return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  }

  /**
   * `color` as the theme gives it when it reaches `min` against `bg`; otherwise the same hue moved
   * towards black (a light background) or white (a dark one) just far enough. "#rrggbb".
   */
  function readable(/** @type {string} */ color, /** @type {string} */ bg, /** @type {number} */ min) {
    const f = parseColor(color);
    const b = parseColor(bg);
    if (!f || !b) return color;
    const base = over(f, b);
    const hex = (/** @type {number[]} */ rgb) => '#' + rgb.map((/** @type {number} */ v) => Math.round(v).toString(16).padStart(2, '0')).join('');
    const ratio = (/** @type {number[]} */ rgb) => {
      const l1 = luminance(rgb);
      const l2 = luminance(b);
      return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    };
    if (ratio(base) >= min) return f[3] === 1 ? color : hex(base);
    const target = luminance(b) > 0.5 ? 0 : 255;
    for (let t = 0.05; t <= 1.0001; t += 0.05) {
      const mixed = base.map((v) => v + (target - v) * t);
      if (ratio(mixed) >= min) return hex(mixed);
    }
    return hex([target, target, target]);
  }

  /**
   * Each of `keys` in `colors` made readable at 3:1 on `colors.bg`, and shared with the stylesheet
   * as `--timeline-<key>` (through the CSSOM, which the CSP allows), so the legend's keys show the
   * colours the canvas draws.
   */
  function readableShapes(/** @type {Record<string, string>} */ colors, /** @type {string[]} */ keys) {
    for (const k of keys) {
      colors[k] = readable(colors[k], colors.bg, 3);
      document.documentElement.style.setProperty('--timeline-' + k, colors[k]);
    }
  }

  /** Black or white, whichever has the more contrast on `color`. */
  function textOn(/** @type {string} */ color) {
    return contrast('#000000', color) >= contrast('#ffffff', color) ? '#000000' : '#ffffff';
  }

  // eslint-disable-next-line no-unused-vars
  var McpTimelineAccess = { rovingToolbar, drawnItemsList, contrast, readable, readableShapes, textOn };
}
