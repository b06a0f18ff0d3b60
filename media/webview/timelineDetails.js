// The words of the timeline page (timeline.js): the clock time of an instant and a duration, as the
// ruler, the summary, the list of drawn items and the details say them; and the details of the
// selected item, built from its `details` message. Every string is inserted as text; the frames'
// payloads (server content) only as a JSON tree.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  /* global McpWebview */
  const { h, post, str, formatBytes, jsonTree } = McpWebview;

  /** hh:mm:ss, with milliseconds when `step` (ms) is under a second, and fractions under a millisecond. */
  function clockText(/** @type {number} */ t, /** @type {number} */ step) {
    const d = new Date(t);
    const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
    const base = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
    if (step >= 1000) return base;
    const ms = String(d.getMilliseconds()).padStart(3, '0');
    return step >= 1 ? `${base}.${ms}` : `${base}.${ms}${(t % 1).toFixed(2).slice(1)}`;
  }

  /** A duration in the unit that reads best: ms, s, min and s, h. */
  function formatDuration(/** @type {number} */ ms) {
    if (!Number.isFinite(ms)) return '';
    if (ms < 1) return ms.toFixed(2) + ' ms';
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60_000) return (ms / 1000).toFixed(ms < 10_000 ? 2 : 1) + ' s';
    if (ms < 3_600_000) return Math.floor(ms / 60_000) + ' min ' + Math.round((ms % 60_000) / 1000) + ' s';
    return (ms / 3_600_000).toFixed(1) + ' h';
  }

  /** What a kind of item is, in words. */
  function kindText(/** @type {string} */ kind) {
    switch (kind) {
      case 'call':
        return 'editor request';
      case 'serverCall':
        return 'server request';
      case 'progress':
        return 'progress';
      case 'session':
        return 'session';
      default:
        return 'notification';
    }
  }

  /**
   * The details of the selected item (its `details` message, ItemDetails of timelineSelection.ts):
   * its method and name, status, duration, server and kind, its call and linked items (buttons that
   * call `onJump(id)`), and each of its frames as a JSON tree. Returns the header and the body.
   * @param {(id: number) => void} onJump
   * @param {() => void} onClose
   */
  function render(/** @type {TimelineItemDetails} */ d, onJump, onClose) {
    const status = str(d.status);
    const duration = typeof d.end === 'number' ? formatDuration(d.end - d.start) : d.kind === 'call' || d.kind === 'serverCall' ? 'open' : '';
    const actions = h('div', { class: 'details-actions' }, [
      d.inHistory ? h('button', { id: 'show-history', class: 'secondary', onclick: () => post({ type: 'showHistory', server: d.server, id: d.id }) }, ['Show in History']) : null,
      h('button', { class: 'icon-button close', title: 'Close (Escape)', 'aria-label': 'Close the details', onclick: onClose }, ['✕']),
    ]);
    const heading = h('h2', { class: 'details-title' }, [h('span', { class: 'method', text: str(d.method) }), d.name ? h('span', { class: 'name', text: ' ' + str(d.name) }) : null]);
    const facts = h('div', { class: 'details-facts' }, [
      status && status !== 'none' ? h('span', { class: 'badge status-' + status, text: status === 'ok' ? 'answered' : status === 'input' ? 'input round' : status }) : null,
      duration ? h('span', { class: 'duration', text: duration }) : null,
      h('span', { class: 'muted', text: `${str(d.serverName)} · ${kindText(d.kind)} · ${clockText(d.start, 1)}` }),
    ]);
    const box = h('div', { class: 'details-body' });
    if (d.errorText) box.append(h('div', { class: 'error-text', text: str(d.errorText) }));
    const linkRow = h('div', { class: 'links' });
    if (d.parent) linkRow.append(h('span', { class: 'muted', text: 'Part of ' }), linkButton(d.parent, onJump));
    if (Array.isArray(d.links) && d.links.length) {
      linkRow.append(h('span', { class: 'muted', text: `${d.parent ? ' · ' : ''}Linked (${d.linkCount}): ` }));
      for (const l of d.links) linkRow.append(linkButton(l, onJump));
      if (d.linkCount > d.links.length) linkRow.append(h('span', { class: 'muted', text: ` … ${d.linkCount - d.links.length} more` }));
    }
    if (linkRow.childNodes.length) box.append(linkRow);
    const frames = h('div', { class: 'frames' });
    const frameList = Array.isArray(d.frames) ? d.frames : [];
    frameList.forEach((/** @type {TimelineItemDetails["frames"][number]} */ f, /** @type {number} */ n) => frames.append(frameView(f, frameLabel(d, n, f))));
    if (!frameList.length) frames.append(h('p', { class: 'muted', text: 'A session marker: the server’s connection started here (request ids start over).' }));
    box.append(frames);
    return [h('header', { class: 'details-header' }, [h('div', {}, [heading, facts]), actions]), box];
  }

  function frameLabel(/** @type {TimelineItemDetails} */ d, /** @type {number} */ n, /** @type {TimelineItemDetails["frames"][number]} */ f) {
    const arrow = f.direction === 'send' ? 'editor → server' : 'server → editor';
    if (d.kind === 'call' || d.kind === 'serverCall') return `${n === 0 ? 'Request' : 'Answer'} · ${arrow}`;
    return `Frame · ${arrow}`;
  }

  function frameView(/** @type {TimelineItemDetails["frames"][number]} */ f, /** @type {string} */ label) {
    const head = h('h3', {}, [label, h('span', { class: 'muted', text: ` · ${formatBytes(f.bytes)} · ${clockText(f.time, 1)}` })]);
    const box = h('div', { class: 'frame' }, [head]);
    if (f.dropped) box.append(h('p', { class: 'muted', text: 'The payload of this frame was let go to stay within mcpHost.timeline.maxPayloadMiB; its place on the timeline is kept.' }));
    else {
      if (f.cut) box.append(h('p', { class: 'muted folded-note', text: 'A large frame: long strings and arrays are folded (their start is shown, with how much more there is).' }));
      box.append(h('div', { class: 'json' }, [jsonTree(f.json, undefined, 0, { openDepth: 6, openEntries: 40 })]));
    }
    return box;
  }

  /** @param {(id: number) => void} onJump */
  function linkButton(/** @type {import("../../src/timeline/timelineSelection").LinkedItem} */ l, onJump) {
    return h('button', { class: 'link-button', onclick: () => onJump(l.id) }, [str(l.label)]);
  }

  // eslint-disable-next-line no-unused-vars
  var McpTimelineDetails = { render, clockText, formatDuration, kindText };
}
