// The history list of a tool panel (toolCall.js): the panel's recent calls, newest first, each
// with what it did and the three things one can do with it (show its kept result, load its
// arguments, run it again); each button posts the extension the entry's id. Server text (the
// summary, who made the call) is inserted as text.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  /* global McpWebview */
  const { h, post, isObj, str, formatMs } = McpWebview;

  /**
   * Draws the history into `container` (emptied first): newest first, each call with its outcome,
   * time, summary, task, duration, and Show / Load / Re-run (Re-run off while `running`).
   * @param {HTMLElement} container
   * @param {unknown} entries HistoryItem[] from the extension (panelMessages.ts)
   * @param {boolean} running
   */
  function render(container, entries, running) {
    // Drawn again (a new entry, a call started): the focus stays on the same button of the same call.
    const active = document.activeElement;
    const item = active instanceof HTMLButtonElement && container.contains(active) ? active.closest('li') : null;
    const had = item && active ? { id: item.getAttribute('data-id') || '', className: active.className } : null;
    container.textContent = '';
    const header = h('div', { class: 'history-header' }, [h('h2', { text: 'History' })]);
    if (Array.isArray(entries) && entries.length) header.append(h('button', { class: 'link-button', onclick: () => post({ type: 'clearHistory' }) }, ['Clear']));
    container.append(header);
    if (!Array.isArray(entries) || !entries.length) {
      container.append(h('div', { class: 'muted', text: 'No calls yet.' }));
      return;
    }
    const list = h('ol', { class: 'history-list' });
    for (const e of entries) {
      const icon = e.outcome === 'ok' ? '✓' : e.outcome === 'cancelled' ? '⊘' : '✗';
      // Each button is named by the call it acts on (its visible word first): "Show the call at 6:01:00 AM (ok)".
      const call = ' the call at ' + new Date(e.time).toLocaleTimeString() + ' (' + str(e.outcome) + ')';
      const item = h('li', { class: 'history-item ' + e.outcome, dataset: { id: e.id } }, [
        h('span', { class: 'outcome', title: e.outcome, text: icon }),
        h('span', { class: 'time muted', text: new Date(e.time).toLocaleTimeString() }),
        h('span', { class: 'summary', title: e.arguments || '' }, [e.madeBy ? h('span', { class: 'history-origin', title: 'Made by ' + str(e.madeBy) + ', not in this panel', text: str(e.madeBy) }) : null, str(e.summary)]),
        isObj(e.task) ? h('span', { class: 'history-task muted', title: 'Ran as task ' + str(e.task.id), text: 'task ' + str(e.task.id).slice(0, 8) + ' · ' + str(e.task.status) }) : h('span', { class: 'history-task' }),
        h('span', { class: 'muted duration', text: formatMs(e.durationMs) }),
        h('button', { class: 'link-button show-history', title: e.canShow ? 'Show the result of this call again' : 'The result of this call was not kept', 'aria-label': 'Show' + call, disabled: !e.canShow, onclick: () => post({ type: 'showHistory', historyId: e.id }) }, ['Show']),
        h('button', { class: 'link-button load-history', title: 'Put these arguments into the form', 'aria-label': 'Load' + call, disabled: !e.canRerun, onclick: () => post({ type: 'loadHistory', historyId: e.id }) }, ['Load']),
        h('button', { class: 'link-button rerun-history', title: 'Run again with these arguments', 'aria-label': 'Re-run' + call, disabled: !e.canRerun || running, onclick: () => post({ type: 'rerun', historyId: e.id }) }, ['Re-run']),
      ]);
      list.append(item);
    }
    container.append(list);
    const again = had && had.id ? list.querySelector('li[data-id="' + CSS.escape(had.id) + '"] button[class="' + had.className + '"]') : null;
    if (again instanceof HTMLButtonElement && !again.disabled) again.focus();
  }

  // eslint-disable-next-line no-unused-vars
  var McpHistoryList = { render };
}
