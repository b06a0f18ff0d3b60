// Server Details: what MCP Host knows about one server (src/usecases/serverInfo.ts builds it),
// drawn in the style of the tool panel. Plain browser JS; every string is inserted as text.
// The page is redrawn when the figures change; open disclosures stay open.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private to this script.
{
  /* global McpWebview */
  const { h, post, onMessage, isObj, str } = McpWebview;
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));
  /** Disclosures the user opened (or closed), by key, kept across redraws. */
  /** @type {Map<string, boolean>} */
  const opened = new Map();

  /**
   * @param {string} key
   * @param {string} summary
   * @param {Node[]} children
   * @param {boolean} openByDefault
   */
  function disclosure(key, summary, children, openByDefault) {
    const d = h('details', { class: 'disclosure', dataset: { key }, open: (opened.has(key) ? opened.get(key) : openByDefault) ? '' : null }, [h('summary', { text: summary }), ...children]);
    d.addEventListener('toggle', () => opened.set(key, /** @type {HTMLDetailsElement} */ (d).open));
    return d;
  }

  /**
   * @param {unknown} rows [label, value] pairs
   * @param {string} id
   */
  function factTable(rows, id) {
    const table = h('table', { class: 'facts-table', id });
    for (const row of Array.isArray(rows) ? rows : []) {
      if (!Array.isArray(row)) continue;
      table.append(h('tr', {}, [h('th', { scope: 'row', text: str(row[0]) }), h('td', { text: str(row[1]) })]));
    }
    return table;
  }

  /**
   * @param {string} title
   * @param {Node[]} children
   * @param {string} id
   */
  function section(title, children, id) {
    return h('section', { class: 'details-section', id }, [h('h2', { text: title }), ...children]);
  }

  /** @param {DetailsMessage['view']} view */
  function render(view) {
    const scroll = window.scrollY;
    app.textContent = '';
    app.append(
      h('header', { class: 'header' }, [
        h('h1', {}, [h('span', { class: 'tool-name', text: str(view.name) }), h('span', { class: 'tool-title muted', text: ' — server details' })]),
        h('div', { class: 'controls' }, [h('button', { id: 'refresh', class: 'secondary', onclick: () => post({ type: 'refresh' }) }, ['Refresh'])]),
      ]),
    );
    app.append(factTable(view.facts, 'facts'));
    if (view.capabilities) app.append(section('Capabilities', [h('div', { id: 'capabilities', text: str(view.capabilities) })], 'capabilities-section'));
    if (view.instructions) {
      // Long instructions (written for a model) fold away, so the rest of the page stays in sight.
      const lines = str(view.instructions).split('\n').length;
      const text = h('pre', { class: 'text', id: 'instructions', text: str(view.instructions) });
      app.append(section('Instructions', [lines > 12 ? disclosure('instructions', lines + ' lines from the server, for the model', [text], false) : text], 'instructions-section'));
    }

    if (view.discover) {
      const text = h('pre', { class: 'text', id: 'discover', text: str(view.discover) });
      app.append(section('Discovery (server/discover)', [disclosure('discover', 'What the server says it is and supports', [text], false)], 'discover-section'));
    }

    const c = isObj(view.command) ? view.command : null;
    if (c) {
      /** @type {HTMLElement[]} */
      const rows = [h('pre', { class: 'text command-line', id: 'command-line', text: str(c.line) })];
      if (!c.resolved) rows.push(h('div', { class: 'muted', text: 'As configured: the server has not started yet, so variables are not resolved.' }));
      const table = [];
      if (c.cwd) table.push(['Working directory', c.cwd]);
      if (c.envFile) table.push(['envFile', c.envFile]);
      table.push(['Environment it sets', Array.isArray(c.envNames) && c.envNames.length ? c.envNames.join(', ') + ' (values hidden)' : 'none']);
      rows.push(factTable(table, 'command-facts'));
      if (typeof c.path === 'string') rows.push(disclosure('path', 'PATH (' + c.path.split(/[:;]/).filter(Boolean).length + ' entries)', [h('pre', { class: 'text', id: 'path', text: c.path.split(/(?<=[:;])/).join('\n') })], false));
      app.append(section('Command', rows, 'command-section'));
    } else if (Array.isArray(view.connection)) {
      app.append(section('Connection', [factTable(view.connection, 'connection-facts')], 'connection-section'));
    }
    if (Array.isArray(view.signIn)) app.append(section('Sign-in', [factTable(view.signIn, 'sign-in-facts')], 'sign-in-section'));

    const t = isObj(view.traffic) ? view.traffic : null;
    if (t) {
      const methods = Array.isArray(t.methods) ? t.methods : [];
      const table = h('table', { class: 'methods', id: 'methods' }, [
        h('tr', {}, ['Method', 'Requests', 'Errors', 'Timeouts', 'Cancelled', 'p50', 'p95', 'max'].map((x, i) => h('th', { class: i ? 'num' : '', text: x }))),
        ...methods.map((m) =>
          h('tr', {}, [h('td', { class: 'method', text: str(m.method) }), ...[m.requests, m.errors, m.timeouts, m.cancelled, m.p50, m.p95, m.max].map((v) => h('td', { class: 'num', text: String(v) }))]),
        ),
      ]);
      app.append(section('Traffic', [factTable(t.facts, 'traffic-facts'), methods.length ? table : h('div', { class: 'muted', text: 'No requests yet.' })], 'traffic-section'));
    } else {
      app.append(section('Traffic', [h('div', { class: 'muted', text: 'No connection statistics: the server is not running.' })], 'traffic-section'));
    }

    const r = isObj(view.roots) ? view.roots : null;
    const rootsBody = r
      ? [
          h('div', { class: 'muted', id: 'roots-asked', text: 'Asked (roots/list) at ' + new Date(r.askedAt ?? NaN).toLocaleString() + '; given:' }),
          h('ul', { id: 'roots' }, (Array.isArray(r.roots) ? r.roots : []).map((x) => h('li', {}, [x.name ? h('strong', { text: str(x.name) + ' ' }) : null, h('span', { class: 'muted', text: str(x.uri) })]))),
        ]
      : [h('div', { class: 'muted', id: 'roots-asked', text: 'The server has not asked for roots (roots/list).' })];
    app.append(section('Roots', rootsBody, 'roots-section'));

    if (Array.isArray(view.noise) && view.noise.length) app.append(disclosure('noise', 'Last stdout noise (' + view.noise.length + ')', [h('pre', { class: 'text', text: view.noise.join('\n') })], false));
    if (Array.isArray(view.stderr) && view.stderr.length) app.append(disclosure('stderr', 'Last stderr lines (' + view.stderr.length + ')', [h('pre', { class: 'text', text: view.stderr.join('\n') })], false));
    window.scrollTo(0, scroll);
  }

  onMessage((/** @type {DetailsMessage} */ msg) => {
    if (msg.type === 'details' && isObj(msg.view)) render(msg.view);
  });

  post({ type: 'ready' });
}
