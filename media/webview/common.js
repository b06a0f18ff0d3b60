// Shared by every MCP Host webview (the inspect panels, toolCall.js; the serve dialogs, serve.js),
// loaded first under the same CSP. Plain browser JS, no framework: DOM helpers that insert
// server text only as text, the one handle on the VS Code API (it can be acquired once per page),
// and what a form shows of its errors (the fields themselves are drawn by formRenderer.js).
// @ts-check

'use strict';
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();

  // ---------------------------------------------------------------------------------------------
  // DOM and values

  /**
   * An element. `text` sets textContent (never HTML), `on…` adds a listener, `dataset` fills
   * data-*, `value`/`checked` set the properties; null, undefined and false props are left out.
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, unknown>} [props]
   * @param {Array<Node|string|null|undefined|false>} [children]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function h(tag, props, children) {
    const el = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') el.className = String(v);
        else if (k === 'text') el.textContent = String(v);
        else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
        else if (k === 'dataset') for (const [dk, dv] of Object.entries(isObj(v) ? v : {})) el.dataset[dk] = String(dv);
        else if (k === 'value') /** @type {HTMLInputElement} */ (el).value = String(v);
        else if (k === 'checked') /** @type {HTMLInputElement} */ (el).checked = !!v;
        else el.setAttribute(k, String(v));
      }
    }
    for (const c of children || []) {
      if (c === null || c === undefined || c === false) continue;
      el.append(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return el;
  }

  /**
   * Says `text` once through the page's polite live region (#announcer in webviewPage.ts): a
   * finished call, an error, a cancellation, a task's new status. Emptied first, so the same
   * words said twice are heard twice.
   */
  function announce(/** @type {string} */ text) {
    const region = document.getElementById('announcer');
    if (!region) return;
    region.textContent = '';
    setTimeout(() => (region.textContent = text), 50);
  }

  /** Sends a message to the extension, which parses it with zod before acting on it. */
  function post(/** @type {PageMessage} */ message) {
    vscode.postMessage(message);
  }

  /**
   * True for a message VS Code delivered from the extension: it comes from this page's own origin.
   * An MCP App's view (an iframe on an opaque origin, appFrame.js) and anything it nests can post
   * to this window too; they must never pass for the extension.
   */
  function fromExtension(/** @type {MessageEvent} */ event) {
    return event.origin === window.origin;
  }

  // What the panel shows, kept by VS Code so the panel comes back after a window reload (panelTabs.ts).
  window.addEventListener('message', (event) => {
    if (!fromExtension(event)) return;
    const msg = event.data;
    if (isObj(msg) && msg.type === 'remember' && isObj(msg.state)) vscode.setState(msg.state);
  });

  /** Calls `handle` with each message from the extension that has a string `type`, as the page's own type `M`. @template {{ type: string }} M @param {(msg: M) => void} handle */
  function onMessage(handle) {
    window.addEventListener('message', (event) => {
      if (!fromExtension(event)) return;
      const msg = event.data;
      if (isObj(msg) && typeof msg.type === 'string') handle(/** @type {M} */ (/** @type {unknown} */ (msg)));
    });
  }

  /** @param {unknown} v @returns {v is Record<string, unknown>} */
  function isObj(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  }

  function str(/** @type {unknown} */ v) {
    return typeof v === 'string' ? v : '';
  }

  /** The JSON Pointer of a child: `parent` + `/` + the escaped token. */
  function pointer(/** @type {string} */ parent, /** @type {string|number} */ token) {
    return parent + '/' + (typeof token === 'number' ? String(token) : String(token).replace(/~/g, '~0').replace(/\//g, '~1'));
  }

  function formatBytes(/** @type {unknown} */ n) {
    if (typeof n !== 'number') return '';
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KB';
    return (n / 1024 / 1024).toFixed(1) + ' MB';
  }

  function formatMs(/** @type {unknown} */ ms) {
    if (typeof ms !== 'number') return '';
    return ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  }

  // Media from a server is shown only as a data: URI of an allow-listed type (the extension
  // built it after checking the type; this is the second look).
  function isImageDataUri(/** @type {unknown} */ v) {
    return typeof v === 'string' && /^data:image\/(png|jpeg|gif|webp|bmp|avif);base64,/.test(v);
  }

  function isAudioDataUri(/** @type {unknown} */ v) {
    return typeof v === 'string' && /^data:audio\/[a-z0-9.+-]+;base64,/.test(v);
  }

  /** A dismissible notice: level info, warning or error (anything else is info). */
  function notice(/** @type {unknown} */ level, /** @type {string} */ text) {
    const kind = level === 'error' || level === 'warning' ? level : 'info';
    const n = h('div', { class: 'notice ' + kind, role: kind === 'error' ? 'alert' : 'status' }, [
      h('span', { text }),
      h('button', { class: 'icon-button', title: 'Dismiss', 'aria-label': 'Dismiss', onclick: () => n.remove() }, ['×']),
    ]);
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Forms (their fields are drawn by formRenderer.js)

  /**
   * Which errors a form shows: only those of fields the person has edited, until `showAll()`
   * (they pressed Run or Submit). A form does not complain before you type.
   * @param {HTMLElement} root where the fields are (input events bubble up to it)
   */
  function errorGate(root) {
    const touched = /** @type {Set<string>} */ (new Set());
    let all = false;
    const mark = (/** @type {Event} */ e) => {
      const field = e.target instanceof Element ? e.target.closest('.field') : null;
      if (field) touched.add(/** @type {HTMLElement} */ (field).dataset.path || '');
    };
    root.addEventListener('input', mark);
    root.addEventListener('change', mark);
    return {
      showAll() {
        all = true;
      },
      reset() {
        all = false;
        touched.clear();
      },
      /** The errors to show now. */
      filter(/** @type {readonly FieldError[] | undefined} */ errors) {
        const list = Array.isArray(errors) ? errors : [];
        if (all) return list;
        return list.filter((e) => {
          const path = str(e.path);
          for (const t of touched) if (path === t || path.startsWith(t + '/')) return true;
          return false;
        });
      },
    };
  }

  /**
   * Shows errors (FieldError: path, message) at the fields under `root`: each at its own field,
   * else at the nearest ancestor's (prefixed with the rest of its path). Clears the old ones
   * first. Returns the errors no field on screen could take. @returns {FieldError[]}
   */
  function placeErrors(/** @type {ParentNode} */ root, /** @type {readonly FieldError[] | undefined} */ errors) {
    const fields = [...root.querySelectorAll('.field')];
    /** The control a field's label names (it carries aria-invalid). */
    const controlOf = (/** @type {Element} */ el) => {
      const label = el.querySelector(':scope > .label-row > label[for]');
      return label ? document.getElementById(label.getAttribute('for') || '') : null;
    };
    for (const el of fields) {
      el.classList.remove('invalid');
      const line = el.querySelector(':scope > .field-error');
      if (line) line.textContent = '';
      const input = controlOf(el);
      if (input) input.removeAttribute('aria-invalid');
    }
    const find = (/** @type {string} */ path) => fields.find((el) => /** @type {HTMLElement} */ (el).dataset.path === path) || null;
    const unplaced = [];
    for (const e of Array.isArray(errors) ? errors : []) {
      const own = str(e.path);
      let path = own;
      let target = find(path);
      while (!target && path !== '') {
        path = path.slice(0, path.lastIndexOf('/'));
        target = find(path);
      }
      if (!target) {
        unplaced.push(e);
        continue;
      }
      target.classList.add('invalid');
      const input = controlOf(target);
      if (input) input.setAttribute('aria-invalid', 'true');
      const line = target.querySelector(':scope > .field-error');
      if (line) line.textContent = (line.textContent ? line.textContent + '; ' : '') + (path !== own ? own.slice(path.length).replace(/^\//, '') + ': ' : '') + str(e.message);
    }
    return unplaced;
  }

  /**
   * A collapsible JSON tree; values inserted as text. A node opens by itself above `openDepth`
   * (2) when it has at most `openEntries` children (any number by default): a large payload shows
   * folded. At most 500 children of a node are drawn.
   * @param {unknown} value
   * @param {string} [key]
   * @param {number} [depth]
   * @param {{ openDepth?: number, openEntries?: number }} [options]
   */
  function jsonTree(value, key, depth, options) {
    depth = depth || 0;
    const openDepth = options && typeof options.openDepth === 'number' ? options.openDepth : 2;
    const openEntries = options && typeof options.openEntries === 'number' ? options.openEntries : Infinity;
    const keyEl = key !== undefined ? h('span', { class: 'json-key', text: key + ': ' }) : null;
    if (Array.isArray(value) || isObj(value)) {
      const entries = Array.isArray(value) ? value.map((v, i) => /** @type {[string, unknown]} */ ([String(i), v])) : Object.entries(value);
      const label = Array.isArray(value) ? '[' + entries.length + ']' : '{' + entries.length + '}';
      const open = depth < openDepth && entries.length <= openEntries;
      const details = h('details', { class: 'json-node', open: open ? '' : null }, [h('summary', {}, [keyEl, h('span', { class: 'muted', text: label })])]);
      // A closed node's children are drawn when it is first opened, so a large value costs only
      // what is on screen.
      let drawn = false;
      const draw = () => {
        if (drawn) return;
        drawn = true;
        const children = h('div', { class: 'json-children' });
        const limit = 500;
        entries.slice(0, limit).forEach(([k, v]) => children.append(jsonTree(v, k, depth + 1, options)));
        if (entries.length > limit) children.append(h('div', { class: 'muted', text: '… ' + (entries.length - limit) + ' more' }));
        details.append(children);
      };
      if (open) draw();
      else details.addEventListener('toggle', () => details.open && draw());
      return details;
    }
    const type = value === null ? 'null' : typeof value;
    return h('div', { class: 'json-leaf' }, [keyEl, h('span', { class: 'json-' + type, text: type === 'string' ? JSON.stringify(value) : String(value) })]);
  }

  // eslint-disable-next-line no-unused-vars
  var McpWebview = Object.freeze({ h, post, announce, onMessage, isObj, str, pointer, formatBytes, formatMs, isImageDataUri, isAudioDataUri, notice, errorGate, placeErrors, jsonTree });
}
