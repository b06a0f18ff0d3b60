// The frame of an MCP App's view, in a tool panel (above the result) or in the view's own tab.
// The view runs in an iframe sandboxed to `allow-scripts` only: an opaque origin that can neither
// reach this page (nor its VS Code API), navigate the top frame, open popups nor submit forms; its
// document is the app's HTML with its policy injected by the extension (appCsp.ts). This script
// only relays: what the view posts goes to the extension untouched (which checks it), what the
// extension sends for the view goes to its window. It also reports the view's surroundings:
// VS Code's theme (the CSS variables the extension names, resolved here) and the frame's size.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private to this script.
{
  // eslint-disable-next-line no-undef
  const { h, post, onMessage, isObj, str } = McpWebview;

  /** Messages a view may post per second before this page drops them (the extension limits far lower). */
  const RELAY_BURST = 400;
  const RELAY_PER_SECOND = 200;
  /** The JSON-RPC error code of a refused request (ErrorCodes.TooManyRequests). */
  const RATE_LIMITED = -32000;

  /**
   * The view shown, if any.
   * @type {{ id: string, frame: HTMLIFrameElement, section: HTMLElement, notes: HTMLElement, mode: string, themeVariables: Record<string, string[]>, tokens: number, last: number, dropped: number } | null}
   */
  let current = null;

  /**
   * Where a view goes: before the tool panel's result, else in the page's main element.
   * @param {HTMLElement} section
   */
  function place(section) {
    const result = document.getElementById('result');
    if (result && result.parentElement) result.parentElement.insertBefore(section, result);
    else (document.getElementById('app') || document.body).append(section);
  }

  function themeKind() {
    const c = document.body.classList;
    if (c.contains('vscode-high-contrast-light')) return 'high-contrast-light';
    if (c.contains('vscode-high-contrast')) return 'high-contrast';
    return c.contains('vscode-light') ? 'light' : 'dark';
  }

  /** The view's surroundings, as the extension's host context needs them. */
  function reportEnvironment() {
    if (!current) return;
    const style = getComputedStyle(document.documentElement);
    /** @type {Record<string, string>} */
    const variables = {};
    for (const [key, sources] of Object.entries(current.themeVariables)) {
      for (const source of Array.isArray(sources) ? sources : []) {
        const value = style.getPropertyValue(str(source)).trim();
        if (value) {
          variables[key] = value;
          break;
        }
      }
    }
    const rect = current.frame.getBoundingClientRect();
    post({ type: 'appEnvironment', viewId: current.id, theme: themeKind(), variables, width: Math.round(rect.width), height: Math.round(current.mode === 'fullscreen' ? rect.height : window.innerHeight) });
  }

  let envTimer = 0;
  function environmentChanged() {
    clearTimeout(envTimer);
    envTimer = window.setTimeout(reportEnvironment, 60);
  }
  // VS Code changes the theme by changing the body's class and the root's style variables.
  new MutationObserver(environmentChanged).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  new MutationObserver(environmentChanged).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  const resizes = new ResizeObserver(environmentChanged);

  /** @param {Extract<AppFrameMessage, { type: 'appShow' }>} msg */
  function show(msg) {
    remove();
    const placeholder = document.getElementById('mcp-app-closed');
    if (placeholder) placeholder.remove();
    const fullscreen = msg.mode === 'fullscreen';
    const frame = /** @type {HTMLIFrameElement} */ (document.createElement('iframe'));
    // allow-scripts only: no allow-same-origin (opaque origin), no allow-top-navigation, no allow-popups, no allow-forms.
    frame.setAttribute('sandbox', 'allow-scripts');
    if (str(msg.allow)) frame.setAttribute('allow', str(msg.allow));
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.setAttribute('title', 'App: ' + str(msg.title));
    frame.className = 'mcp-app-frame';
    const notes = h('div', { class: 'mcp-app-notes', id: 'mcp-app-notes', role: 'status' });
    const header = h('div', { class: 'mcp-app-header' }, [
      h('span', { class: 'mcp-app-badge', text: 'App' }),
      h('strong', { text: str(msg.title) }),
      h('span', { class: 'muted mcp-app-subtitle', text: str(msg.subtitle) }),
      h('span', { class: 'spacer' }),
      fullscreen ? null : h('button', { class: 'secondary', id: 'mcp-app-fullscreen', title: 'Show the app in its own tab', onclick: () => current && post({ type: 'appDisplayMode', viewId: current.id, mode: 'fullscreen' }) }, ['Open in Tab']),
      fullscreen && msg.inlineAvailable !== false ? h('button', { class: 'secondary', id: 'mcp-app-inline', title: 'Show the app in its tool panel again', onclick: () => current && post({ type: 'appDisplayMode', viewId: current.id, mode: 'inline' }) }, ['Back to Panel']) : null,
      fullscreen ? null : h('button', { class: 'secondary', id: 'mcp-app-close', title: 'Close the app view', onclick: () => current && post({ type: 'appClose', viewId: current.id }) }, ['Close']),
    ]);
    const border = msg.prefersBorder === false ? ' borderless' : '';
    const section = h('section', { class: 'mcp-app' + (fullscreen ? ' fullscreen' : '') + border, id: 'mcp-app', 'aria-label': 'App view' }, [header, frame, notes]);
    const themeVariables = isObj(msg.themeVariables) ? /** @type {Record<string, string[]>} */ (msg.themeVariables) : {};
    current = { id: str(msg.viewId), frame, section, notes, mode: fullscreen ? 'fullscreen' : 'inline', themeVariables, tokens: RELAY_BURST, last: performance.now(), dropped: 0 };
    place(section);
    resizes.observe(frame);
    // The surroundings first, so the view's ui/initialize is answered with them.
    reportEnvironment();
    frame.srcdoc = str(msg.html);
  }

  function remove() {
    if (!current) return;
    resizes.unobserve(current.frame);
    current.section.remove();
    current = null;
  }

  /**
   * @param {string} level
   * @param {string} text
   */
  function note(level, text) {
    if (!current) return;
    current.notes.append(McpWebview.notice(level === 'warning' ? 'warning' : 'info', text));
  }

  onMessage((/** @type {AppFrameMessage} */ msg) => {
    switch (msg.type) {
      case 'appShow':
        show(msg);
        break;
      case 'appDeliver':
        // The view's window only, and only while it is the one shown; '*' because its origin is opaque.
        if (current && msg.viewId === current.id && current.frame.contentWindow) current.frame.contentWindow.postMessage(msg.message, '*');
        break;
      case 'appSize':
        if (current && msg.viewId === current.id && current.mode === 'inline' && typeof msg.height === 'number') {
          current.frame.style.height = Math.max(40, Math.min(1200, Math.ceil(msg.height))) + 'px';
        }
        break;
      case 'appNote':
        if (current && msg.viewId === current.id) note(msg.level, str(msg.text));
        break;
      case 'appClosed':
        if (current && msg.viewId === current.id) {
          const text = str(msg.text);
          // The focus was on the view's Close (or in the app): it goes to what says it closed, or
          // to the result, not to nothing.
          const hadFocus = current.section.contains(document.activeElement);
          remove();
          const closed = text ? h('section', { class: 'mcp-app closed', id: 'mcp-app-closed', tabindex: '-1' }, [h('span', { class: 'muted', text })]) : null;
          if (closed) place(closed);
          const next = /** @type {HTMLElement|null} */ (closed || document.querySelector('#result h2'));
          if (hadFocus && next) {
            next.setAttribute('tabindex', '-1');
            next.focus();
          }
        }
        break;
      default:
        break;
    }
  });

  // What the view posts: relayed as it is (the extension checks it), unless it floods this page.
  window.addEventListener('message', (event) => {
    if (!current || event.source !== current.frame.contentWindow) return;
    const now = performance.now();
    current.tokens = Math.min(RELAY_BURST, current.tokens + ((now - current.last) / 1000) * RELAY_PER_SECOND);
    current.last = now;
    if (current.tokens < 1) {
      // A dropped request is answered here, as the extension answers the requests it refuses:
      // else the view would wait for an answer that cannot come.
      const m = event.data;
      if (isObj(m) && typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) {
        current.frame.contentWindow?.postMessage({ jsonrpc: '2.0', id: m.id, error: { code: RATE_LIMITED, message: 'Rate limited: the view sends too many messages' } }, '*');
      }
      if (current.dropped++ === 0) {
        const view = current;
        setTimeout(() => {
          if (view.dropped > 0) post({ type: 'appDropped', viewId: view.id, count: view.dropped });
          view.dropped = 0;
        }, 1000);
      }
      return;
    }
    current.tokens -= 1;
    post({ type: 'appMessage', viewId: current.id, message: event.data });
  });

  post({ type: 'appReady' });
}
