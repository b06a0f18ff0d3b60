// The parts of a result in the inspect panels (toolCall.js): a text part with its views (JSON tree,
// sanitised Markdown, plain), images and audio (only as data: URIs of allow-listed types, checked
// again here), binaries, resource links, unknown parts; the structured content with its verdict
// against the tool's outputSchema; the header and history banner above a result; and the clicks on
// links in sanitised Markdown, which the extension opens. Server text is inserted with textContent;
// the only HTML is Markdown the extension sanitised (markdown.ts).
// @ts-check
'use strict';
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  /* global McpWebview */
  const { h, post, isObj, str, formatBytes, formatMs, isImageDataUri, isAudioDataUri, jsonTree } = McpWebview;

  /**
   * The line above a result: its outcome, how long it took, and what one can do with it.
   * @param {string} kind
   * @param {string} text
   * @param {number | undefined} durationMs
   * @param {string | null} callId
   * @param {Node} [extra]
   */
  function resultHeader(kind, text, durationMs, callId, extra) {
    const row = h('div', { class: 'result-header ' + kind }, [h('span', { class: 'status ' + kind, text }), durationMs !== undefined ? h('span', { class: 'muted', text: formatMs(durationMs) }) : null]);
    if (callId) {
      // One "Open in editor" for the whole result; a part gets its own only when it is large.
      row.append(h('button', { class: 'secondary open-result', title: 'The whole result as one read-only document', onclick: () => post({ type: 'openResult', callId }) }, ['Open in editor']));
      row.append(h('button', { class: 'secondary copy-json', onclick: () => post({ type: 'copyResult', callId }) }, ['Copy result as JSON']));
    }
    if (extra) row.append(extra);
    return row;
  }

  /**
   * The line above a result shown from the history: when that call was made, with what.
   * @param {import('../../src/usecases/panelMessages').FromHistory | undefined} from
   */
  function historyBanner(from) {
    if (!isObj(from)) return null;
    const box = h('div', { class: 'from-history', role: 'note' }, [
      h('span', { text: 'From the history: the call of ' + new Date(from.time).toLocaleString() + (from.cut ? ' — cut to fit the history (long text shortened, images and blobs left out)' : '') }),
    ]);
    if (typeof from.arguments === 'string') box.append(h('details', {}, [h('summary', { text: 'Arguments' }), h('pre', { text: from.arguments })]));
    return box;
  }

  /**
   * @param {Record<string, unknown>} p a part, as the extension described it
   * @param {string} callId
   * @param {Node[]} [extra]
   */
  function partToolbar(p, callId, extra) {
    const bar = h('div', { class: 'part-toolbar' });
    if (extra) for (const e of extra) bar.append(e);
    if (p.uri) bar.append(h('a', { class: 'resource-uri', tabindex: '0', role: 'link', title: 'Read this resource', onclick: () => post({ type: 'readResource', uri: str(p.uri) }), text: p.uri }));
    if (p.mimeType) bar.append(h('span', { class: 'muted', text: p.mimeType }));
    if (isObj(p.annotations)) {
      const a = p.annotations;
      const bits = [];
      if (Array.isArray(a.audience) && a.audience.length) bits.push('for ' + a.audience.join(' and '));
      if (typeof a.priority === 'number') bits.push('priority ' + a.priority);
      if (typeof a.lastModified === 'string') bits.push('modified ' + a.lastModified);
      if (bits.length) bar.append(h('span', { class: 'annotations muted', title: 'Content annotations from the server', text: bits.join(' · ') }));
    }
    bar.append(h('span', { class: 'spacer' }));
    if ((p.kind === 'text' || (p.kind === 'binary' && p.text !== undefined)) && isLarge(p)) bar.append(h('button', { class: 'secondary open-part', title: 'This part alone, in full', onclick: () => post({ type: 'openPart', callId, index: Number(p.index) }) }, ['Open part in editor']));
    if (p.kind === 'image' || p.kind === 'audio' || p.kind === 'binary') bar.append(h('button', { class: 'secondary save-part', onclick: () => post({ type: 'savePart', callId, index: Number(p.index) }) }, ['Save…']));
    return bar;
  }

  /**
   * A part worth its own editor: cut for display, or longer than a screen.
   * @param {Record<string, unknown>} p
   */
  function isLarge(p) {
    const text = str(p.text);
    return !!p.truncated || !!p.folded || text.length > 4000 || text.split('\n').length > 40;
  }

  /**
   * One part of a result; server content, so every field is checked as it is read.
   * @param {unknown} p
   * @param {string} callId
   */
  function renderPart(p, callId) {
    if (!isObj(p)) return h('div', { class: 'muted', text: 'invalid part' });
    switch (p.kind) {
      case 'text': {
        const box = h('div', { class: 'part part-text' });
        const views = [];
        // Plain text gets no switcher; Markdown-looking text and JSON can be seen raw too.
        if (p.json !== undefined) views.push(['tree', 'JSON']);
        if (p.html !== undefined && p.preferMarkdown) views.push(['markdown', 'Markdown']);
        views.push(['plain', 'Plain']);
        let current = p.json !== undefined ? 'tree' : p.preferMarkdown && p.html !== undefined ? 'markdown' : 'plain';
        const content = h('div', { class: 'part-content' });
        const switcher = h('span', { class: 'view-switch', role: 'group' });
        const draw = () => {
          content.textContent = '';
          if (current === 'tree') content.append(jsonTree(p.json));
          else if (current === 'markdown') {
            const md = h('div', { class: 'markdown' });
            md.innerHTML = str(p.html); // sanitised by the extension (markdown.ts)
            content.append(md);
          } else content.append(h('pre', { class: 'text', text: p.text }));
          for (const b of switcher.children) b.classList.toggle('active', /** @type {HTMLElement} */ (b).dataset.view === current);
        };
        if (views.length > 1)
          for (const [v, label] of views)
            switcher.append(h('button', { class: 'link-button', dataset: { view: v }, onclick: () => {
              current = v;
              draw();
            } }, [label]));
        box.append(partToolbar(p, callId, views.length > 1 ? [switcher] : []), content);
        if (p.truncated) box.append(h('div', { class: 'muted', text: 'Cut for display — open it in an editor to see all of it.' }));
        if (p.folded) box.append(h('div', { class: 'muted folded-note', text: FOLDED_NOTE }));
        if (p.cutDeep) box.append(h('div', { class: 'muted', text: TOO_DEEP_NOTE }));
        draw();
        return box;
      }
      case 'image': {
        const box = h('div', { class: 'part part-image' }, [partToolbar(p, callId)]);
        if (isImageDataUri(p.dataUri)) {
          const img = h('img', { src: p.dataUri, alt: 'image from the server (' + p.mimeType + ', ' + formatBytes(p.bytes) + ')', title: 'Click to zoom' });
          img.addEventListener('click', () => img.classList.toggle('zoomed'));
          box.append(img);
        }
        box.append(h('div', { class: 'muted caption', text: p.mimeType + ' · ' + formatBytes(p.bytes) }));
        if (p.warning) box.append(h('div', { class: 'warning-text', text: p.warning }));
        return box;
      }
      case 'audio': {
        const box = h('div', { class: 'part part-audio' }, [partToolbar(p, callId)]);
        if (isAudioDataUri(p.dataUri)) box.append(h('audio', { controls: '', src: p.dataUri }));
        box.append(h('div', { class: 'muted caption', text: p.mimeType + ' · ' + formatBytes(p.bytes) }));
        return box;
      }
      case 'binary': {
        const box = h('div', { class: 'part part-binary' }, [partToolbar(p, callId)]);
        box.append(h('div', { class: 'muted', text: str(p.reason) + ' · ' + formatBytes(p.bytes) }));
        if (typeof p.text === 'string') box.append(h('pre', { class: 'text', text: p.text }));
        return box;
      }
      case 'resourceLink': {
        const link = h('a', { class: 'resource-link', tabindex: '0', role: 'link', title: 'Read ' + p.uri, onclick: () => post({ type: 'readResource', uri: str(p.uri) }) }, [h('span', { class: 'icon-file', 'aria-hidden': 'true' }), h('span', { class: 'name', text: p.title || p.name }), h('span', { class: 'muted', text: '  ' + p.uri })]);
        link.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') post({ type: 'readResource', uri: str(p.uri) });
        });
        const box = h('div', { class: 'part part-link' }, [link]);
        const meta = [p.mimeType, p.size !== undefined ? formatBytes(p.size) : ''].filter(Boolean).join(' · ');
        if (p.description) box.append(h('div', { class: 'muted', text: p.description }));
        if (meta) box.append(h('div', { class: 'muted caption', text: meta }));
        return box;
      }
      case 'unknown':
        return h('div', { class: 'part part-unknown' }, [h('div', { class: 'muted', text: 'Unknown content type "' + str(p.type) + '"' }), h('pre', { class: 'text', text: str(p.raw) })]);
      default:
        return h('div', { class: 'muted', text: 'unsupported part' });
    }
  }

  /**
   * @param {import('../../src/usecases/resultModel').ToolResultDisplay['structured']} structured
   * @param {import('../../src/usecases/resultModel').StructuredVerdict} verdict
   */
  function renderStructured(structured, verdict) {
    const box = h('div', { class: 'part part-structured' }, [h('h3', { text: 'Structured content' })]);
    const v = h('div', { class: 'verdict ' + str(verdict.kind) });
    switch (verdict.kind) {
      case 'valid':
        v.append(h('div', { text: '✓ Valid against the tool’s outputSchema' }));
        break;
      case 'invalid':
        v.append(h('div', { text: '✗ Does not match the tool’s outputSchema' }));
        for (const e of Array.isArray(verdict.errors) ? verdict.errors : []) v.append(h('div', { class: 'verdict-error', text: (e.path || '(root)') + ': ' + e.message }));
        break;
      case 'unchecked':
        v.textContent = '⚠ Not checked against the outputSchema: ' + str(verdict.reason);
        break;
      case 'missing':
        v.textContent = '⚠ The tool declares an outputSchema but returned no structuredContent';
        break;
      case 'no-schema':
        v.textContent = 'No outputSchema: not checked';
        break;
      case 'unusable':
        v.textContent = '⚠ The outputSchema cannot be used: ' + str(verdict.reason);
        break;
      default:
        v.textContent = '';
    }
    // Parts of the schema the host did not check (patterns the safe engine cannot run).
    for (const note of 'unchecked' in verdict && Array.isArray(verdict.unchecked) ? verdict.unchecked : []) v.append(h('div', { class: 'muted', text: '⚠ ' + str(note) }));
    box.append(v);
    if (structured) {
      if (structured.folded) box.append(h('div', { class: 'muted folded-note', text: FOLDED_NOTE }));
      box.append(jsonTree(structured.value));
      if (structured.cutDeep) box.append(h('div', { class: 'muted', text: TOO_DEEP_NOTE }));
    }
    return box;
  }

  const TOO_DEEP_NOTE = 'Nested too deeply to show as a tree: the deepest levels are left out.';
  const FOLDED_NOTE = 'Large: folded for display (the first items of long lists, the start of long strings) — Open in editor shows all of it.';

  // Links in sanitised Markdown (a result's, a tool's description): the page opens none itself; it
  // asks the extension, which checks the URL and asks the user.
  function openLinkFrom(/** @type {EventTarget | null} */ target) {
    const a = target instanceof Element ? target.closest('a.md-link') : null;
    if (!a) return false;
    const url = a.getAttribute('data-href');
    if (url && /^https?:\/\//i.test(url)) post({ type: 'openLink', url });
    return true;
  }
  document.addEventListener('click', (e) => {
    if (openLinkFrom(e.target)) e.preventDefault();
  });
  document.addEventListener('keydown', (e) => {
    if ((e.key === 'Enter' || e.key === ' ') && openLinkFrom(e.target)) e.preventDefault();
  });

  // eslint-disable-next-line no-unused-vars
  var McpResultParts = { resultHeader, historyBanner, renderPart, renderStructured };
}
