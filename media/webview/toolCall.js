// The inspect webview: a tool's form, its call, progress and result; or a prompt's messages, or a
// resource's contents. Plain browser JS, no framework. Everything from a server is inserted with
// textContent; the only HTML inserted is Markdown the extension sanitised. Links in it carry
// data-href and are opened by the extension, after a click, never here. Images and audio only
// come as data: URIs the extension built from allow-listed types.
// @ts-check
(function () {
  'use strict';
  /* global McpWebview, McpSuggestions */
  const { h, post, announce, onMessage, isObj, str, formatBytes, formatMs, isImageDataUri, isAudioDataUri, placeErrors, jsonTree } = McpWebview;
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));

  /** @type {any} */
  let model = null;
  /** @type {'form'|'json'} */
  let mode = 'form';
  /** @type {any} */
  let formState = undefined;
  let jsonText = '';
  let running = null; // { callId, startedAt }
  let timer = null;
  /** The task status last announced, so each change is said once. */
  let lastTaskStatus = '';
  let validateTimer = null;
  let errorCount = 0;
  let view = 'tool';

  /** 'tool', or 'prompt' (a prompt's arguments: no JSON mode, no history, "Get prompt"). */
  let formKind = 'tool';
  let completions = false;
  let suggestTimer = null;

  // The form: the shared renderer (common.js) in the wording for developers; a prompt's fields
  // ask the server for suggestions (debounced), with the other fields' values as context.
  const form = McpWebview.formRenderer({ audience: 'developer', changed: () => edited(), suggest: (input, path) => (completions ? McpSuggestions.combobox(input, path, suggest) : input) });

  // The first edit by the user keeps the panel's tab (no longer a preview the next click replaces).
  let toldEdited = false;
  function edited() {
    if (!toldEdited) post({ type: 'edited' });
    toldEdited = true;
    changed();
  }

  function suggest(path, value) {
    if (!completions) return;
    clearTimeout(suggestTimer);
    suggestTimer = setTimeout(() => {
      const context = {};
      if (isObj(formState)) for (const [k, v] of Object.entries(formState)) if (typeof v === 'string') context[k] = v;
      const name = path.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
      post({ type: 'complete', name, value, context });
    }, 200);
  }

  // ---------------------------------------------------------------------------------------------
  // Layout

  const els = {
    header: h('header', { class: 'header' }),
    notices: h('div', { class: 'notices' }),
    form: h('section', { class: 'input', 'aria-label': 'Arguments' }),
    controls: h('div', { class: 'controls' }),
    // What Run sends, after Run: a disclosure between the last field and Run would be a Tab stop.
    preview: h('div', { class: 'send-preview', id: 'send-preview' }),
    progress: h('div', { class: 'progress', id: 'progress', hidden: true }),
    result: h('section', { class: 'result', id: 'result', 'aria-label': 'Result' }),
    history: h('section', { class: 'history', id: 'history', 'aria-label': 'History' }),
  };

  function layout() {
    app.textContent = '';
    els.preview.textContent = '';
    app.append(els.header, els.notices, els.form, els.controls, els.preview, els.progress, els.result, els.history);
  }

  function notice(level, text) {
    els.notices.append(McpWebview.notice(level, text));
  }

  const errorGate = McpWebview.errorGate(els.form);
  /** @type {HTMLElement|null} */
  let serverNotice = null;

  // ---------------------------------------------------------------------------------------------
  // Header

  const ANNOTATIONS = [
    ['readOnlyHint', 'read-only', 'The server says this tool does not change its environment.'],
    ['destructiveHint', 'destructive', 'The server says this tool may delete or overwrite things.'],
    ['idempotentHint', 'idempotent', 'The server says calling it again with the same arguments has no further effect.'],
    ['openWorldHint', 'open world', 'The server says this tool reaches outside systems (web, other services).'],
  ];

  function renderHeader(header) {
    els.header.textContent = '';
    const title = h('h1', {}, [formKind === 'prompt' ? h('span', { class: 'muted', text: 'Prompt: ' }) : null, h('span', { class: 'tool-name', text: header.name })]);
    const display = str(header.title) || str(header.annotations && header.annotations.title);
    if (display && display !== header.name) title.append(h('span', { class: 'tool-title', text: ' — ' + display }));
    els.header.append(title, h('div', { class: 'server-name muted', text: 'Server: ' + header.serverName }));
    const a = isObj(header.annotations) ? header.annotations : {};
    const badges = h('div', { class: 'badges', title: 'Hints from the server, not verified by MCP Host.' });
    for (const [key, label, help] of ANNOTATIONS) {
      if (a[key] === true) badges.append(h('span', { class: 'badge ' + label.replace(' ', '-'), title: help + ' (an untrusted hint)', text: label }));
      else if (a[key] === false) badges.append(h('span', { class: 'badge off', title: 'The server says: not ' + label + ' (an untrusted hint)', text: 'not ' + label }));
    }
    if (header.hasOutputSchema) badges.append(h('span', { class: 'badge schema', title: 'The tool declares an outputSchema: its structured content is checked.', text: 'output schema' }));
    if (badges.childElementCount) els.header.append(badges);
    if (header.descriptionHtml) {
      const d = h('div', { class: 'description markdown' });
      d.innerHTML = header.descriptionHtml; // sanitised by the extension (markdown.ts)
      els.header.append(d);
    } else if (header.description) {
      els.header.append(h('div', { class: 'description', text: header.description }));
    }
    if (Array.isArray(header.fallbacks) && header.fallbacks.length) {
      const list = header.fallbacks.map((f) => (f.path || '(arguments)') + (f.reason ? ': ' + f.reason : '')).join('; ');
      els.header.append(h('div', { class: 'fallback-note muted', text: 'Edited as JSON (the form cannot draw them): ' + list }));
    }
  }

  function renderInput() {
    els.form.textContent = '';
    const toolbar = h('div', { class: 'input-toolbar' }, [
      h('h2', { text: 'Arguments' }),
      formKind === 'prompt' ? null : h('button', { class: 'secondary', id: 'toggle-mode', onclick: () => post({ type: 'switchMode', input: currentInput() }) }, [mode === 'form' ? 'Edit as JSON' : 'Edit as form']),
    ]);
    els.form.append(toolbar);
    if (mode === 'form') {
      const root = { get: () => formState, set: (v) => (formState = v) };
      const fields = model.kind === 'object' ? form.control(model, 'arguments', '', root, 'form-root') : form.field(model, 'arguments', '', root);
      els.form.append(h('div', { class: 'form', id: 'form' }, [fields]));
    } else {
      const area = h('textarea', { id: 'json-input', class: 'json', rows: String(Math.min(30, Math.max(6, jsonText.split('\n').length + 1))), spellcheck: 'false', 'aria-label': 'Arguments as JSON' });
      /** @type {any} */ (area).value = jsonText;
      area.addEventListener('input', () => {
        jsonText = /** @type {any} */ (area).value;
        edited();
      });
      els.form.append(h('div', { class: 'field', dataset: { path: '' } }, [area, h('div', { class: 'error field-error', role: 'alert' })]));
    }
    els.form.append(h('div', { class: 'problems', id: 'problems', role: 'status' }));
  }

  function currentInput() {
    return mode === 'form' ? { mode: 'form', state: formState === undefined ? undefined : JSON.parse(JSON.stringify(formState)) } : { mode: 'json', text: jsonText };
  }

  function changed() {
    clearTimeout(validateTimer);
    validateTimer = setTimeout(() => post({ type: 'validate', input: currentInput() }), 150);
  }

  function showErrors(errors, preview) {
    const shown = errorGate.filter(errors);
    const unplaced = placeErrors(els.form, shown);
    errorCount = shown.length;
    const problems = document.getElementById('problems');
    if (problems) {
      problems.textContent = '';
      if (errorCount) problems.append(h('span', { class: 'error-text', text: errorCount === 1 ? '1 problem — fix it to run' : errorCount + ' problems — fix them to run' }));
      for (const e of unplaced) problems.append(h('div', { class: 'error-text', text: (e.path || '(arguments)') + ': ' + e.message }));
    }
    const wasOpen = !!els.preview.querySelector('details[open]');
    els.preview.textContent = '';
    if (preview !== undefined && !errorCount && Array.isArray(errors) && !errors.length) els.preview.append(h('details', { class: 'preview', open: wasOpen ? '' : null }, [h('summary', { text: 'Arguments to send' }), h('pre', { text: preview })]));
    updateControls();
  }

  // ---------------------------------------------------------------------------------------------
  // Controls, progress

  // The server's timeout (its entry's "timeout", else the setting) unless the user sets one for
  // this panel's calls: only then is it sent, so the extension's order of precedence holds.
  let timeoutSeconds = 60;
  let timeoutNote = '';
  /** @type {number|null} */
  let timeoutOverride = null;

  function renderControls() {
    els.controls.textContent = '';
    const timeout = h('input', { type: 'number', id: 'timeout', min: '0.1', step: 'any', value: String(timeoutOverride !== null ? timeoutOverride : timeoutSeconds), title: 'Seconds without an answer (or progress) before the call fails' });
    const note = h('span', { class: 'timeout-note muted', id: 'timeout-note' });
    const showNote = () => (note.textContent = timeoutOverride !== null ? '(set for this call)' : timeoutNote ? '(' + timeoutNote + ')' : '');
    timeout.addEventListener('change', () => {
      const v = Number(/** @type {any} */ (timeout).value);
      timeoutOverride = v > 0 ? v : null;
      if (timeoutOverride === null) /** @type {any} */ (timeout).value = String(timeoutSeconds);
      showNote();
    });
    showNote();
    els.controls.append(
      h('button', { id: 'run', class: 'primary', onclick: run }, ['Run']),
      h('button', { id: 'cancel', class: 'secondary', hidden: true, onclick: () => post({ type: 'cancel' }) }, ['Cancel']),
      h('label', { class: 'timeout muted' }, ['Timeout ', timeout, ' s ', note]),
    );
    updateControls();
  }

  /** A new default from the extension (the server entry or the setting changed). */
  function setTimeoutDefault(seconds, note) {
    if (typeof seconds !== 'number' || !(seconds > 0)) return;
    timeoutSeconds = seconds;
    timeoutNote = str(note);
    const input = /** @type {HTMLInputElement|null} */ (document.getElementById('timeout'));
    if (input && timeoutOverride === null) input.value = String(seconds);
    const label = document.getElementById('timeout-note');
    if (label && timeoutOverride === null) label.textContent = timeoutNote ? '(' + timeoutNote + ')' : '';
  }

  function updateControls() {
    const runBtn = /** @type {HTMLButtonElement|null} */ (document.getElementById('run'));
    const cancel = document.getElementById('cancel');
    if (runBtn) {
      runBtn.disabled = !!running || errorCount > 0;
      runBtn.textContent = running ? 'Running…' : formKind === 'prompt' ? 'Get prompt' : 'Run';
    }
    if (cancel) cancel.hidden = !running;
  }

  function run() {
    if (running) return;
    // From now on every problem shows: the extension answers an invalid Run with them.
    errorGate.showAll();
    post(timeoutOverride !== null ? { type: 'run', input: currentInput(), timeoutSeconds: timeoutOverride } : { type: 'run', input: currentInput() });
  }

  function startRunning(msg) {
    running = { callId: msg.callId, startedAt: msg.startedAt };
    els.progress.hidden = false;
    els.progress.textContent = '';
    els.progress.append(h('div', { class: 'bar indeterminate', role: 'progressbar', 'aria-label': 'Progress of the call' }, [h('div', { class: 'fill' })]), h('div', { class: 'progress-text muted', text: 'Running…' }));
    clearInterval(timer);
    timer = setInterval(() => {
      const t = els.progress.querySelector('.elapsed');
      if (t) t.textContent = formatMs(Date.now() - running.startedAt);
    }, 250);
    els.progress.append(h('span', { class: 'elapsed muted' }));
    els.result.textContent = '';
    lastTaskStatus = '';
    // Run is disabled while the call runs: focus goes to Cancel, the one thing to do now.
    const focusWasOnRun = !document.activeElement || document.activeElement === document.body || document.activeElement.id === 'run';
    updateControls();
    const cancel = document.getElementById('cancel');
    if (focusWasOnRun && cancel && !cancel.hidden) cancel.focus();
    announce((formKind === 'prompt' ? 'Getting the prompt' : 'Running') + '. Cancel stops it.');
  }

  /**
   * A call ended (or a kept result is shown): its outcome is said once, and focus moves to the
   * result's heading when it was on the controls of the call (never out of a field being typed in).
   */
  function settled(words) {
    announce(words);
    const active = document.activeElement;
    const onControls = !active || active === document.body || active.id === 'run' || active.id === 'cancel' || els.history.contains(active);
    if (!onControls) return;
    const heading = /** @type {HTMLElement|null} */ (els.result.querySelector('h2') || els.result.firstElementChild);
    if (!heading) return;
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }

  function showProgress(msg) {
    if (!running || msg.callId !== running.callId) return;
    const bar = els.progress.querySelector('.bar');
    const fill = /** @type {HTMLElement|null} */ (els.progress.querySelector('.fill'));
    const text = els.progress.querySelector('.progress-text');
    if (typeof msg.total === 'number' && msg.total > 0 && bar && fill) {
      bar.classList.remove('indeterminate');
      fill.style.width = Math.max(0, Math.min(100, (msg.progress / msg.total) * 100)).toFixed(1) + '%';
      bar.setAttribute('role', 'progressbar');
      bar.setAttribute('aria-valuenow', String(msg.progress));
      bar.setAttribute('aria-valuemax', String(msg.total));
    }
    if (text) text.textContent = (str(msg.message) || 'Progress') + ' — ' + msg.progress + (typeof msg.total === 'number' ? ' / ' + msg.total : '');
  }

  /** While the server waits on the user (a form it asked for), its call's timeout is paused. */
  /** Shows (text) or removes (null) the running call's status note of one kind (its class). */
  function statusNote(msg, kind, text) {
    if (!running || msg.callId !== running.callId) return;
    let note = els.progress.querySelector('.' + kind);
    if (text === null) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = h('div', { class: kind, role: 'status' });
      els.progress.append(note);
    }
    note.textContent = text;
  }

  function showTimeoutPaused(msg) {
    statusNote(msg, 'timeout-paused', msg.paused ? 'Waiting for your answer to the server’s request — the timeout is paused until you answer.' : null);
  }

  /**
   * A modern server asked for input (multi round-trip): the call is sent again once it is
   * answered; or its task did (tasks extension): the answers go to the task.
   */
  function showWaitingForInput(msg) {
    const asked = Array.isArray(msg.requests) ? msg.requests.map(String).join(', ') : '';
    const then = msg.taskId ? ' — the answers go to the task (tasks/update), which then goes on.' : ' — the call is sent again once it is answered.';
    const text = 'Waiting for input the server asked for' + (asked ? ' (' + asked + ')' : '') + (msg.round > 1 ? ', round ' + msg.round : '') + then;
    statusNote(msg, 'waiting-for-input', msg.waiting ? text : null);
  }

  /**
   * The running call is a task (or the panel follows one from the MCP Host view): its id, status
   * and message, what it waits for, and that closing the panel does not lose it.
   */
  function showTaskStatus(msg) {
    if (!running || msg.callId !== running.callId || !isObj(msg.task)) return;
    const t = msg.task;
    let box = els.progress.querySelector('.task-status');
    if (!box) {
      // Not a live region of its own: it is redrawn with every update; its status changes are announced once (announce).
      box = h('div', { class: 'task-status' });
      els.progress.append(box);
    }
    box.textContent = '';
    const status = str(t.status);
    if (status !== lastTaskStatus) announce('Task ' + (status === 'input_required' ? 'waiting for input' : status));
    lastTaskStatus = status;
    box.append(
      h('div', { class: 'task-line' }, [
        h('span', { class: 'task-badge ' + status, text: status === 'input_required' ? 'waiting for input' : status }),
        h('span', { class: 'task-id muted', title: str(t.taskId), text: 'task ' + str(t.taskId).slice(0, 12) }),
        typeof t.progress === 'number' ? h('span', { class: 'task-progress muted', text: t.progress + (typeof t.total === 'number' ? ' / ' + t.total : '') }) : null,
      ]),
    );
    if (t.statusMessage) box.append(h('div', { class: 'task-message', text: str(t.statusMessage) }));
    if (status === 'input_required') box.append(h('div', { class: 'task-input', text: 'The server waits for your input: answer the form MCP Host opened for it. The task goes on once you answer.' }));
    else if (status === 'working') box.append(h('div', { class: 'task-note muted', text: t.followed ? 'Followed from the MCP Host view.' : 'The server runs this call as a task: you can close this panel, it goes on (the MCP Host view shows it, and you are told when it ends).' }));
    const text = els.progress.querySelector('.progress-text');
    if (text && typeof t.progress !== 'number') text.textContent = 'Task ' + (status === 'input_required' ? 'waiting for input' : status) + '…';
    const cancel = document.getElementById('cancel');
    if (cancel) cancel.hidden = !t.canCancel;
  }

  /** The line under a result's header that names the task it came from. */
  function taskLine(task) {
    if (!isObj(task)) return null;
    return h('div', { class: 'task-of-result muted', text: 'From task ' + str(task.id) + ' (' + str(task.status) + ')' });
  }

  function stopRunning() {
    running = null;
    clearInterval(timer);
    els.progress.hidden = true;
    updateControls();
  }

  // ---------------------------------------------------------------------------------------------
  // Results

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

  /** The line above a result shown from the history: when that call was made, with what. */
  function historyBanner(from) {
    if (!isObj(from)) return null;
    const box = h('div', { class: 'from-history', role: 'note' }, [
      h('span', { text: 'From the history: the call of ' + new Date(from.time).toLocaleString() + (from.cut ? ' — cut to fit the history (long text shortened, images and blobs left out)' : '') }),
    ]);
    if (typeof from.arguments === 'string') box.append(h('details', {}, [h('summary', { text: 'Arguments' }), h('pre', { text: from.arguments })]));
    return box;
  }

  function showToolResult(msg) {
    if (!msg.fromHistory) stopRunning();
    const d = msg.display || {};
    els.result.textContent = '';
    els.result.append(h('h2', { text: 'Result' }));
    const banner = historyBanner(msg.fromHistory);
    if (banner) els.result.append(banner);
    els.result.append(resultHeader(d.isError ? 'tool-error' : 'ok', d.isError ? 'Tool error' : 'OK', msg.durationMs, msg.callId));
    const fromTask = taskLine(msg.task);
    if (fromTask) els.result.append(fromTask);
    if (d.isError) els.result.append(h('div', { class: 'muted', text: 'The tool ran and reported an error in its result (isError). The request itself succeeded.' }));
    const parts = Array.isArray(d.parts) ? d.parts : [];
    if (!parts.length) els.result.append(h('div', { class: 'muted', text: 'No content.' }));
    if (!msg.fromHistory) settled((d.isError ? 'Tool error' : 'OK') + ', ' + formatMs(msg.durationMs));
    for (const p of parts) els.result.append(renderPart(p, msg.callId));
    const verdict = d.verdict || {};
    if (d.structured || verdict.kind === 'missing') els.result.append(renderStructured(d.structured, verdict));
  }

  function showFailure(msg) {
    if (!msg.fromHistory) stopRunning();
    const f = msg.failure || {};
    els.result.textContent = '';
    els.result.append(h('h2', { text: 'Result' }));
    const banner = historyBanner(msg.fromHistory);
    if (banner) els.result.append(banner);
    let kind = 'error';
    let title = 'Error';
    if (f.kind === 'protocol') title = 'Protocol error ' + f.code;
    else if (f.kind === 'local' && f.reason === 'cancelled') {
      kind = 'cancelled';
      title = 'Cancelled';
    } else if (f.kind === 'local' && f.reason === 'timeout') title = 'Timed out';
    else if (f.kind === 'local') title = 'Failed (' + f.reason + ')';
    els.result.append(resultHeader(kind, title, msg.durationMs, null));
    const fromTask = taskLine(msg.task);
    if (fromTask) els.result.append(fromTask);
    // A cancelled call is no error: its reason reads as a plain note, not in red.
    els.result.append(h('pre', { class: kind === 'cancelled' ? 'cancel-message' : 'error-message', text: str(f.message) }));
    if (f.kind === 'protocol' && f.meaning) els.result.append(h('div', { class: 'error-meaning', text: str(f.meaning) }));
    if (f.kind === 'protocol') els.result.append(h('div', { class: 'muted', text: 'The server answered with a JSON-RPC error: the call did not run as a tool call.' }));
    if (f.data !== undefined) els.result.append(h('details', {}, [h('summary', { text: 'Error data' }), jsonTree(f.data)]));
    if (!msg.fromHistory) settled(title + (kind === 'cancelled' ? '' : ': ' + str(f.message)));
  }

  function showPromptResult(msg) {
    stopRunning();
    const d = msg.display || {};
    els.result.textContent = '';
    els.result.append(resultHeader('info', (Array.isArray(d.messages) ? d.messages.length : 0) + ' message' + ((d.messages || []).length === 1 ? '' : 's'), undefined, msg.callId));
    if (msg.descriptionHtml) {
      const desc = h('div', { class: 'description markdown' });
      desc.innerHTML = msg.descriptionHtml; // sanitised by the extension
      els.result.append(desc);
    } else if (d.description) els.result.append(h('div', { class: 'description', text: d.description }));
    const messages = Array.isArray(d.messages) ? d.messages : [];
    if (!messages.length) els.result.append(h('div', { class: 'muted', text: 'No messages.' }));
    for (const m of messages) {
      const box = h('div', { class: 'message role-' + str(m.role).replace(/[^a-z]/g, '') }, [h('div', { class: 'role', text: str(m.role) })]);
      for (const p of Array.isArray(m.parts) ? m.parts : []) box.append(renderPart(p, msg.callId));
      els.result.append(box);
    }
    settled('Prompt ready: ' + (d.messages || []).length + ' message' + ((d.messages || []).length === 1 ? '' : 's'));
  }

  function showResourceResult(msg) {
    stopRunning();
    els.result.textContent = '';
    els.result.append(resultHeader('info', 'Resource', undefined, msg.callId, h('span', { class: 'uri muted', text: str(msg.uri) })));
    const parts = Array.isArray(msg.parts) ? msg.parts : [];
    if (!parts.length) els.result.append(h('div', { class: 'muted', text: 'No contents.' }));
    for (const p of parts) els.result.append(renderPart(p, msg.callId));
  }

  function partToolbar(p, callId, extra) {
    const bar = h('div', { class: 'part-toolbar' });
    if (extra) for (const e of extra) bar.append(e);
    if (p.uri) bar.append(h('a', { class: 'resource-uri', tabindex: '0', role: 'link', title: 'Read this resource', onclick: () => post({ type: 'readResource', uri: p.uri }), text: p.uri }));
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
    if ((p.kind === 'text' || (p.kind === 'binary' && p.text !== undefined)) && isLarge(p)) bar.append(h('button', { class: 'secondary open-part', title: 'This part alone, in full', onclick: () => post({ type: 'openPart', callId, index: p.index }) }, ['Open part in editor']));
    if (p.kind === 'image' || p.kind === 'audio' || p.kind === 'binary') bar.append(h('button', { class: 'secondary save-part', onclick: () => post({ type: 'savePart', callId, index: p.index }) }, ['Save…']));
    return bar;
  }

  /** A part worth its own editor: cut for display, or longer than a screen. */
  function isLarge(p) {
    const text = str(p.text);
    return !!p.truncated || !!p.folded || text.length > 4000 || text.split('\n').length > 40;
  }

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
            md.innerHTML = p.html; // sanitised by the extension (markdown.ts)
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
        const link = h('a', { class: 'resource-link', tabindex: '0', role: 'link', title: 'Read ' + p.uri, onclick: () => post({ type: 'readResource', uri: p.uri }) }, [h('span', { class: 'icon-file', 'aria-hidden': 'true' }), h('span', { class: 'name', text: p.title || p.name }), h('span', { class: 'muted', text: '  ' + p.uri })]);
        link.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') post({ type: 'readResource', uri: p.uri });
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
    for (const note of Array.isArray(verdict.unchecked) ? verdict.unchecked : []) v.append(h('div', { class: 'muted', text: '⚠ ' + str(note) }));
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

  // ---------------------------------------------------------------------------------------------
  // History

  function renderHistory(entries) {
    els.history.textContent = '';
    if (view !== 'tool' || formKind === 'prompt') return;
    const header = h('div', { class: 'history-header' }, [h('h2', { text: 'History' })]);
    if (entries && entries.length) header.append(h('button', { class: 'link-button', onclick: () => post({ type: 'clearHistory' }) }, ['Clear']));
    els.history.append(header);
    if (!entries || !entries.length) {
      els.history.append(h('div', { class: 'muted', text: 'No calls yet.' }));
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
        h('button', { class: 'link-button rerun-history', title: 'Run again with these arguments', 'aria-label': 'Re-run' + call, disabled: !e.canRerun || !!running, onclick: () => post({ type: 'rerun', historyId: e.id }) }, ['Re-run']),
      ]);
      list.append(item);
    }
    els.history.append(list);
  }

  // ---------------------------------------------------------------------------------------------
  // Messages from the extension

  function setInput(input) {
    if (!isObj(input)) return;
    // Edit as JSON / Edit as form draws the input again: focus stays on the control that had it.
    const focusedId = document.activeElement && document.activeElement.id;
    if (input.mode === 'json') {
      mode = 'json';
      jsonText = str(input.text);
    } else {
      mode = 'form';
      formState = input.state;
    }
    renderInput();
    changed();
    const again = focusedId ? document.getElementById(focusedId) : null;
    if (again && document.activeElement !== again) again.focus();
  }

  onMessage((msg) => {
    switch (msg.type) {
      case 'initTool':
        view = 'tool';
        model = msg.model;
        formKind = isObj(msg.header) && msg.header.kind === 'prompt' ? 'prompt' : 'tool';
        completions = isObj(msg.header) && msg.header.completions === true;
        errorGate.reset();
        timeoutSeconds = typeof msg.timeoutSeconds === 'number' ? msg.timeoutSeconds : 60;
        timeoutNote = str(msg.timeoutNote);
        layout();
        renderHeader(msg.header || {});
        renderControls();
        setInput(msg.input);
        renderHistory(msg.history);
        break;
      case 'headerIcon': {
        // Checked by the extension; the page draws only a raster data: URI (its CSP allows no other image source).
        const title = els.header.querySelector('h1');
        if (!title || !/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(str(msg.src))) break;
        title.querySelector('img.item-icon')?.remove();
        title.prepend(h('img', { class: 'item-icon', src: msg.src, alt: '' }));
        break;
      }
      case 'initView':
        view = 'view';
        layout();
        els.form.remove();
        els.controls.remove();
        els.preview.remove();
        els.history.remove();
        els.header.textContent = '';
        els.header.append(h('h1', { text: str(msg.title) }));
        if (msg.subtitle) els.header.append(h('div', { class: 'muted', text: str(msg.subtitle) }));
        break;
      case 'validation':
        showErrors(msg.errors, msg.preview);
        break;
      case 'setInput':
        setInput(msg.input);
        if (msg.note) notice('info', msg.note);
        break;
      case 'running':
        startRunning(msg);
        break;
      case 'progress':
        showProgress(msg);
        break;
      case 'timeoutPaused':
        showTimeoutPaused(msg);
        break;
      case 'waitingForInput':
        showWaitingForInput(msg);
        break;
      case 'taskStatus':
        showTaskStatus(msg);
        break;
      case 'toolResult':
        showToolResult(msg);
        break;
      case 'failure':
        showFailure(msg);
        break;
      case 'promptResult':
        showPromptResult(msg);
        break;
      case 'resourceResult':
        showResourceResult(msg);
        break;
      case 'history':
        renderHistory(msg.entries);
        break;
      case 'completions':
        McpSuggestions.show(els.form, McpWebview.pointer('', str(msg.name)), str(msg.value), msg.values);
        break;
      case 'serverState': {
        const runBtn = /** @type {HTMLButtonElement|null} */ (document.getElementById('run'));
        // The reason Run cannot run goes once the server runs again (after a restart).
        if (runBtn && !msg.running) runBtn.title = str(msg.text) || 'The server is not running';
        else if (runBtn) runBtn.removeAttribute('title');
        // One notice for the server's state, replaced as it changes and gone once it runs again.
        if (serverNotice) serverNotice.remove();
        serverNotice = null;
        if (!msg.running && msg.text) {
          serverNotice = McpWebview.notice('warning', msg.text);
          els.notices.append(serverNotice);
        }
        setTimeoutDefault(msg.timeoutSeconds, msg.timeoutNote);
        break;
      }
      case 'notice':
        notice(msg.level, str(msg.text));
        break;
      default:
        break;
    }
  });

  // Links in sanitised Markdown: ask the extension, which checks the URL and asks the user.
  function openLinkFrom(target) {
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
    if ((e.ctrlKey || e.metaKey) && e.key === 'Enter' && view === 'tool') run();
  });

  post({ type: 'ready' });
})();
