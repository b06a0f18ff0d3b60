// The header of a tool panel (toolCall.js): the tool's or prompt's name, title and server, the
// server's annotations as badges (untrusted hints), the description, and the item's icon. Server
// text is inserted with textContent; the only HTML is the description the extension sanitised.
// Loaded after common.js, before toolCall.js.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  /* global McpWebview */
  const { h, isObj, str } = McpWebview;

  const ANNOTATIONS = [
    ['readOnlyHint', 'read-only', 'The server says this tool does not change its environment.'],
    ['destructiveHint', 'destructive', 'The server says this tool may delete or overwrite things.'],
    ['idempotentHint', 'idempotent', 'The server says calling it again with the same arguments has no further effect.'],
    ['openWorldHint', 'open world', 'The server says this tool reaches outside systems (web, other services).'],
  ];

  /**
   * Draws a tool's (or a prompt's) header into `box`: its name and title, its server, the
   * annotations as badges, its description (Markdown the extension sanitised) and what the form
   * leaves to JSON.
   * @param {HTMLElement} box
   * @param {import('../../src/usecases/panelMessages').ToolHeader} header
   * @param {string} formKind 'tool' or 'prompt'
   */
  function render(box, header, formKind) {
    box.textContent = '';
    const title = h('h1', {}, [formKind === 'prompt' ? h('span', { class: 'muted', text: 'Prompt: ' }) : null, h('span', { class: 'tool-name', text: header.name })]);
    const display = str(header.title) || str(header.annotations && header.annotations.title);
    if (display && display !== header.name) title.append(h('span', { class: 'tool-title', text: ' — ' + display }));
    box.append(title, h('div', { class: 'server-name muted', text: 'Server: ' + header.serverName }));
    const a = isObj(header.annotations) ? header.annotations : {};
    const badges = h('div', { class: 'badges', title: 'Hints from the server, not verified by MCP Host.' });
    for (const [key, label, help] of ANNOTATIONS) {
      if (a[key] === true) badges.append(h('span', { class: 'badge ' + label.replace(' ', '-'), title: help + ' (an untrusted hint)', text: label }));
      else if (a[key] === false) badges.append(h('span', { class: 'badge off', title: 'The server says: not ' + label + ' (an untrusted hint)', text: 'not ' + label }));
    }
    if (header.hasOutputSchema) badges.append(h('span', { class: 'badge schema', title: 'The tool declares an outputSchema: its structured content is checked.', text: 'output schema' }));
    if (badges.childElementCount) box.append(badges);
    if (header.descriptionHtml) {
      const d = h('div', { class: 'description markdown' });
      d.innerHTML = header.descriptionHtml; // sanitised by the extension (markdown.ts)
      box.append(d);
    } else if (header.description) {
      box.append(h('div', { class: 'description', text: header.description }));
    }
    if (Array.isArray(header.fallbacks) && header.fallbacks.length) {
      const list = header.fallbacks.map((f) => (f.path || '(arguments)') + (f.reason ? ': ' + f.reason : '')).join('; ');
      box.append(h('div', { class: 'fallback-note muted', text: 'Edited as JSON (the form cannot draw them): ' + list }));
    }
  }

  /**
   * Puts the item's icon before its title. Checked by the extension; the page draws only a raster
   * data: URI (its CSP allows no other image source).
   * @param {HTMLElement} box
   * @param {unknown} src
   */
  function showIcon(box, src) {
    const title = box.querySelector('h1');
    if (!title || !/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(str(src))) return;
    title.querySelector('img.item-icon')?.remove();
    title.prepend(h('img', { class: 'item-icon', src: str(src), alt: '' }));
  }

  // eslint-disable-next-line no-unused-vars
  var McpToolHeader = { render, showIcon };
}
