// The inspect webview: a tool's form, its call, progress and result; or a prompt's messages, or a
// resource's contents. Plain browser JS, no framework. Everything from a server is inserted with
// textContent; the only HTML inserted is Markdown the extension sanitised. Links in it carry
// data-href and are opened by the extension, after a click, never here. Images and audio only
// come as data: URIs the extension built from allow-listed types.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private to this script.
{
  /* global McpWebview, McpFormRenderer, McpSuggestions, McpResultParts, McpHistoryList, McpRunGate, McpToolHeader */
  const { h, post, announce, onMessage, isObj, str, formatMs, placeErrors, jsonTree } = McpWebview;
  const { resultHeader, historyBanner, renderPart, renderStructured } = McpResultParts;
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));

  /** @type {FormField | null} */
  let model = null;
  /** @type {'form'|'json'} */
  let mode = 'form';
  /** @type {unknown} */
  let formState = undefined;
  let jsonText = '';
  /** @type {{ callId: string, startedAt: number } | null} */
  let running = null;
  /** @type {number | undefined} */
  let timer = undefined;
  /** The task status last announced, so each change is said once. */
  let lastTaskStatus = '';
  /** @type {number | undefined} */
  let validateTimer = undefined;
  let errorCount = 0;
  let view = 'tool';

  /** 'tool', or 'prompt' (a prompt's arguments: no JSON mode, no history, "Get prompt"). */
  let formKind = 'tool';
  let completions = false;
  /** @type {number | undefined} */
  let suggestTimer = undefined;

  // The form: the shared renderer (formRenderer.js) in the wording for developers; a prompt's fields
  // ask the server for suggestions (debounced), with the other fields' values as context.
  const form = McpFormRenderer.create({ audience: 'developer', changed: () => edited(), suggest: (input, path) => (completions ? McpSuggestions.combobox(input, path, suggest) : input) });

  // The first edit by the user keeps the panel's tab (no longer a preview the next click replaces).
  let toldEdited = false;
  function edited() {
    if (!toldEdited) post({ type: 'edited' });
    toldEdited = true;
    changed();
  }

  function suggest(/** @type {string} */ path, /** @type {string} */ value) {
    if (!completions) return;
    clearTimeout(suggestTimer);
    suggestTimer = window.setTimeout(() => {
      /** @type {Record<string, string>} */
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

  function notice(/** @type {unknown} */ level, /** @type {string} */ text) {
    els.notices.append(McpWebview.notice(level, text));
  }

  const errorGate = McpWebview.errorGate(els.form);
  const runGate = McpRunGate.create();
  /** @type {HTMLElement|null} */
  let serverNotice = null;

  function renderInput() {
    els.form.textContent = '';
    const toolbar = h('div', { class: 'input-toolbar' }, [
      h('h2', { text: 'Arguments' }),
      formKind === 'prompt' ? null : h('button', { class: 'secondary', id: 'toggle-mode', onclick: () => post({ type: 'switchMode', input: currentInput() }) }, [mode === 'form' ? 'Edit as JSON' : 'Edit as form']),
    ]);
    els.form.append(toolbar);
    if (mode === 'form') {
      /** @type {StateSlot} */
      const root = { get: () => formState, set: (v) => (formState = v) };
      // initTool sets the model before any input is drawn.
      const m = /** @type {FormField} */ (model);
      const fields = m.kind === 'object' ? form.control(m, 'arguments', '', root, 'form-root') : form.field(m, 'arguments', '', root);
      els.form.append(h('div', { class: 'form', id: 'form' }, [fields]));
    } else {
      const area = h('textarea', { id: 'json-input', class: 'json', rows: String(Math.min(30, Math.max(6, jsonText.split('\n').length + 1))), spellcheck: 'false', 'aria-label': 'Arguments as JSON' });
      area.value = jsonText;
      area.addEventListener('input', () => {
        jsonText = area.value;
        edited();
      });
      els.form.append(h('div', { class: 'field', dataset: { path: '' } }, [area, h('div', { class: 'error field-error', role: 'alert' })]));
    }
    els.form.append(h('div', { class: 'problems', id: 'problems', role: 'status' }));
  }

  /** @returns {import('../../src/usecases/panelMessages').Input} */
  function currentInput() {
    return mode === 'form' ? { mode: 'form', state: formState === undefined ? undefined : JSON.parse(JSON.stringify(formState)) } : { mode: 'json', text: jsonText };
  }

  function changed() {
    runGate.edited();
    clearTimeout(validateTimer);
    validateTimer = window.setTimeout(() => {
      runGate.checkAsked();
      post({ type: 'validate', input: currentInput() });
    }, 150);
  }

  function showErrors(/** @type {readonly FieldError[]} */ errors, /** @type {string | undefined} */ preview) {
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
      const v = Number(timeout.value);
      timeoutOverride = v > 0 ? v : null;
      if (timeoutOverride === null) timeout.value = String(timeoutSeconds);
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
  function setTimeoutDefault(/** @type {number | undefined} */ seconds, /** @type {string | undefined} */ note) {
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
    if (runBtn) McpRunGate.show(runBtn, running ? 'Running…' : formKind === 'prompt' ? 'Get prompt' : 'Run', !!running || errorCount > 0);
    if (cancel) cancel.hidden = !running;
  }

  /** Run (a click, Enter, Ctrl+Enter): with the input's problems known it sends nothing and shows them all. */
  function run() {
    if (running) return;
    // From now on every problem shows: the extension answers an invalid Run with them.
    errorGate.showAll();
    const known = runGate.knownErrors();
    if (known && known.length) {
      showErrors(known, undefined);
      McpRunGate.focusFirstProblem(els.form, document.getElementById('problems'));
      return;
    }
    runGate.runAsked();
    post(timeoutOverride !== null ? { type: 'run', input: currentInput(), timeoutSeconds: timeoutOverride } : { type: 'run', input: currentInput() });
  }

  function startRunning(/** @type {PanelMessageOf<'running'>} */ msg) {
    runGate.runAnswered();
    running = { callId: msg.callId, startedAt: msg.startedAt };
    els.progress.hidden = false;
    els.progress.textContent = '';
    els.progress.append(h('div', { class: 'bar indeterminate', role: 'progressbar', 'aria-label': 'Progress of the call' }, [h('div', { class: 'fill' })]), h('div', { class: 'progress-text muted', text: 'Running…' }));
    clearInterval(timer);
    const startedAt = running.startedAt;
    timer = window.setInterval(() => {
      const t = els.progress.querySelector('.elapsed');
      if (t) t.textContent = formatMs(Date.now() - startedAt);
    }, 250);
    els.progress.append(h('span', { class: 'elapsed muted' }));
    els.result.textContent = '';
    lastTaskStatus = '';
    // Run cannot act while the call runs: focus goes to Cancel, the one thing to do now (also from a history's Re-run).
    const active = document.activeElement;
    const focusWasOnRun = !active || active === document.body || active.id === 'run' || els.history.contains(active);
    updateControls();
    const cancel = document.getElementById('cancel');
    if (focusWasOnRun && cancel && !cancel.hidden) cancel.focus();
    announce((formKind === 'prompt' ? 'Getting the prompt' : 'Running') + '. Cancel stops it.');
  }

  /**
   * A call ended (or a kept result is shown): its outcome is said once, and focus moves to the
   * result's heading when it was on the controls of the call (never out of a field being typed in).
   */
  function settled(/** @type {string} */ words) {
    announce(words);
    const active = document.activeElement;
    const onControls = !active || active === document.body || active.id === 'run' || active.id === 'cancel' || els.history.contains(active);
    if (!onControls) return;
    const heading = /** @type {HTMLElement|null} */ (els.result.querySelector('h2') || els.result.firstElementChild);
    if (!heading) return;
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }

  function showProgress(/** @type {PanelMessageOf<'progress'>} */ msg) {
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

  /** Shows (text) or removes (null) the running call's status note of one kind (its class). */
  function statusNote(/** @type {{ callId: string }} */ msg, /** @type {string} */ kind, /** @type {string | null} */ text) {
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

  /** While the server waits on the user (a form it asked for), its call's timeout is paused. */
  function showTimeoutPaused(/** @type {PanelMessageOf<'timeoutPaused'>} */ msg) {
    statusNote(msg, 'timeout-paused', msg.paused ? 'Waiting for your answer to the server’s request — the timeout is paused until you answer.' : null);
  }

  /**
   * A modern server asked for input (multi round-trip): the call is sent again once it is
   * answered; or its task did (tasks extension): the answers go to the task.
   */
  function showWaitingForInput(/** @type {PanelMessageOf<'waitingForInput'>} */ msg) {
    const asked = Array.isArray(msg.requests) ? msg.requests.map(String).join(', ') : '';
    const then = msg.taskId ? ' — the answers go to the task (tasks/update), which then goes on.' : ' — the call is sent again once it is answered.';
    const text = 'Waiting for input the server asked for' + (asked ? ' (' + asked + ')' : '') + (msg.round > 1 ? ', round ' + msg.round : '') + then;
    statusNote(msg, 'waiting-for-input', msg.waiting ? text : null);
  }

  /**
   * The running call is a task (or the panel follows one from the MCP Host view): its id, status
   * and message, what it waits for, and that closing the panel does not lose it.
   */
  function showTaskStatus(/** @type {PanelMessageOf<'taskStatus'>} */ msg) {
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
  function taskLine(/** @type {unknown} */ task) {
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

  function showToolResult(/** @type {PanelMessageOf<'toolResult'>} */ msg) {
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

  function showFailure(/** @type {PanelMessageOf<'failure'>} */ msg) {
    runGate.runAnswered();
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
    if ('data' in f && f.data !== undefined) els.result.append(h('details', {}, [h('summary', { text: 'Error data' }), jsonTree(f.data)]));
    if (!msg.fromHistory) settled(title + (kind === 'cancelled' ? '' : ': ' + str(f.message)));
  }

  function showPromptResult(/** @type {PanelMessageOf<'promptResult'>} */ msg) {
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

  function showResourceResult(/** @type {PanelMessageOf<'resourceResult'>} */ msg) {
    stopRunning();
    els.result.textContent = '';
    els.result.append(resultHeader('info', 'Resource', undefined, msg.callId, h('span', { class: 'uri muted', text: str(msg.uri) })));
    const parts = Array.isArray(msg.parts) ? msg.parts : [];
    if (!parts.length) els.result.append(h('div', { class: 'muted', text: 'No contents.' }));
    for (const p of parts) els.result.append(renderPart(p, msg.callId));
  }


  // ---------------------------------------------------------------------------------------------
  // History (historyList.js): a tool's panel has one; a prompt's and a view's do not.

  function renderHistory(/** @type {readonly import('../../src/usecases/panelMessages').HistoryItem[]} */ entries) {
    if (view !== 'tool' || formKind === 'prompt') els.history.textContent = '';
    else McpHistoryList.render(els.history, entries, !!running);
  }

  // ---------------------------------------------------------------------------------------------
  // Messages from the extension

  function setInput(/** @type {unknown} */ input) {
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

  /** A tool's or a prompt's form: its header, controls, input and history. @param {PanelMessageOf<'initTool'>} msg */
  function initTool(msg) {
    view = 'tool';
    model = msg.model;
    formKind = isObj(msg.header) && msg.header.kind === 'prompt' ? 'prompt' : 'tool';
    completions = isObj(msg.header) && msg.header.completions === true;
    errorGate.reset();
    timeoutSeconds = typeof msg.timeoutSeconds === 'number' ? msg.timeoutSeconds : 60;
    timeoutNote = str(msg.timeoutNote);
    layout();
    McpToolHeader.render(els.header, msg.header || {}, formKind);
    renderControls();
    setInput(msg.input);
    McpHistoryList.render(els.history, view === 'tool' && formKind !== 'prompt' ? msg.history : null, !!running);
  }

  /** A read-only view (a prompt's messages, a resource): a title, no form. @param {PanelMessageOf<'initView'>} msg */
  function initView(msg) {
    view = 'view';
    layout();
    els.form.remove();
    els.controls.remove();
    els.preview.remove();
    els.history.remove();
    els.header.textContent = '';
    els.header.append(h('h1', { text: str(msg.title) }));
    if (msg.subtitle) els.header.append(h('div', { class: 'muted', text: str(msg.subtitle) }));
  }

  function showServerState(/** @type {PanelMessageOf<'serverState'>} */ msg) {
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
  }

  onMessage((/** @type {PanelMessage} */ msg) => {
    switch (msg.type) {
      case 'initTool':
        initTool(msg);
        break;
      case 'headerIcon':
        McpToolHeader.showIcon(els.header, msg.src);
        break;
      case 'initView':
        initView(msg);
        break;
      case 'validation': {
        const answers = runGate.answered(msg.errors);
        if (answers === 'stale') break;
        showErrors(msg.errors, msg.preview);
        if (answers === 'run' && errorCount > 0) McpRunGate.focusFirstProblem(els.form, document.getElementById('problems'));
        break;
      }
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
      case 'serverState':
        showServerState(msg);
        break;
      case 'notice':
        notice(msg.level, str(msg.text));
        break;
      default:
        break;
    }
  });

  // Links in sanitised Markdown are opened through the extension (resultParts.js); Ctrl+Enter runs.
  document.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'Enter' && view === 'tool') run();
  });

  post({ type: 'ready' });
}
