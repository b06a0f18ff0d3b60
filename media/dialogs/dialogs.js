// The dialog webview: one dialog for a request a server sent to the host — a sampling request to
// approve (then its answer to review), an elicitation form, a URL to open, or the wait for a URL
// step to complete. Plain browser JS, no framework. Everything from a server is inserted with
// textContent, never as HTML; images and audio only as data: URIs the extension built after
// checking their type. The extension decides everything; this page only shows and asks.
// @ts-check

'use strict';
/* global McpWebview, McpFormRenderer */
// A block, not a function: what it declares stays private to this script.
{
  const { h, post, onMessage, isObj, str, formatBytes, isImageDataUri, isAudioDataUri, placeErrors } = McpWebview;
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));

  // ---------------------------------------------------------------------------------------------
  // Helpers

  /**
   * Turns every button of the page off (after an answer was given).
   * @param {ParentNode} root
   */
  function freeze(root) {
    for (const el of root.querySelectorAll('button, input, textarea, select')) /** @type {HTMLButtonElement} */ (el).disabled = true;
  }

  /** @param {HTMLTextAreaElement} area */
  function autosize(area) {
    area.rows = Math.min(16, Math.max(2, area.value.split('\n').length + 1));
  }

  const queueNote = h('div', { class: 'queue-note', role: 'status', hidden: true });

  /**
   * @param {string} kindLabel
   * @param {string} serverName
   * @param {string} lead
   */
  function header(kindLabel, serverName, lead) {
    return h('header', { class: 'header' }, [
      h('div', { class: 'kind' }, [kindLabel]),
      h('h1', {}, [h('span', { class: 'server-name', text: serverName }), ' ' + lead]),
      queueNote,
    ]);
  }

  /**
   * @param {string} title
   * @param {Node[]} children
   * @param {string} [cls]
   */
  function section(title, children, cls) {
    return h('section', { class: 'section ' + (cls || '') }, [title ? h('h2', { text: title }) : null, ...children]);
  }

  /**
   * @param {string} text
   * @param {string} [cls]
   */
  function status(text, cls) {
    return h('div', { class: 'status ' + (cls || ''), role: 'status', text });
  }

  // ---------------------------------------------------------------------------------------------
  // Sampling

  /**
   * A sampling request's page: what the person changed, and the parts the decision freezes.
   * @typedef {{ req: DialogMessageOf<'sampling'>['request'], noModel: boolean, body: HTMLElement, actions: HTMLElement, outcome: HTMLElement,
   *   edits: { texts: Record<string, string>, systemPrompt: string|undefined, maxTokens: number|undefined } }} SamplingPage
   */

  /** @param {DialogMessageOf<'sampling'>} msg */
  function renderSampling(msg) {
    const req = msg.request;
    app.textContent = '';
    /** @type {SamplingPage} */
    const page = {
      req,
      // Without a language model the person answers: the request is read-only, the reply is theirs.
      noModel: req.modelsAvailable === false,
      edits: { texts: {}, systemPrompt: undefined, maxTokens: undefined },
      body: h('div', { class: 'sampling' }),
      actions: h('div', { class: 'actions' }),
      outcome: h('div', { class: 'outcome', id: 'outcome' }),
    };
    const { noModel, body } = page;
    app.append(header('Sampling request', str(msg.server.name), 'asks to use a language model'));
    // The model answered nothing (or cannot answer here): said as the error it is, before anything else.
    if (typeof req.noModelReason === 'string') app.append(h('p', { class: 'error', role: 'alert', id: 'no-model-reason', text: req.noModelReason }));
    app.append(
      h('p', {
        class: 'lead muted',
        text: noModel
          ? 'No language model is available in VS Code, so you can answer this request yourself: read what the server asks, write the reply below and send it, or reject the request.'
          : 'Read what the server wants to send to the model. You can edit the text, the system prompt and the token limit, then approve or reject. You will see the answer before it goes back to the server. Or answer it yourself.',
      }),
    );
    body.append(modelFacts(req, noModel), systemPromptSection(page), messagesSection(page, msg.imagesToModel), limitsSection(page));
    if (typeof req.metadata === 'string') body.append(h('details', { class: 'metadata' }, [h('summary', { text: 'Metadata for the model provider' }), h('pre', { text: req.metadata })]));
    const self = selfAnswer(page);
    body.append(self.box);
    const approveBtn = samplingActions(page, self);
    app.append(body, page.actions, page.outcome);
    (noModel ? self.text : approveBtn).focus();
  }

  /** The model that would answer, the server's preferences, and what it asked to include. */
  function modelFacts(/** @type {SamplingPage['req']} */ req, /** @type {boolean} */ noModel) {
    const model = h('div', { class: 'facts' });
    if (noModel) model.append(fact('Model', typeof req.noModelReason === 'string' ? 'none that can answer — you answer it yourself' : 'none available in VS Code — you answer it yourself'));
    else if (isObj(req.plannedModel)) model.append(fact('Model', str(req.plannedModel.label) + ' — ' + str(req.plannedModel.reason)));
    else model.append(fact('Model', 'you choose one after approving (the server named no model available here)'));
    const prefs = isObj(req.modelPreferences) ? req.modelPreferences : undefined;
    if (prefs && Array.isArray(prefs.hints) && prefs.hints.length) model.append(fact('Server’s model hints', prefs.hints.map((x) => str(x)).join(', ')));
    if (prefs) {
      const pr = ['intelligencePriority', 'speedPriority', 'costPriority'].filter((k) => typeof prefs[k] === 'number').map((k) => k.replace('Priority', '') + ' ' + prefs[k]);
      if (pr.length) model.append(fact('Priorities', pr.join(' · ')));
    }
    if (typeof req.temperature === 'number') model.append(fact('Temperature', String(req.temperature)));
    if (Array.isArray(req.stopSequences) && req.stopSequences.length) model.append(fact('Stop sequences', req.stopSequences.map((s) => JSON.stringify(s)).join(', ')));
    if (req.includeContext && req.includeContext !== 'none') {
      model.append(fact('Context', 'The server asked to include context from ' + (req.includeContext === 'allServers' ? 'all servers' : 'this server') + '. MCP Host does not add any context: only the messages below are sent.'));
    }
    return model;
  }

  function systemPromptSection(/** @type {SamplingPage} */ page) {
    const sys = h('textarea', { id: 'system-prompt', class: 'editable', spellcheck: 'false', 'aria-label': 'System prompt', placeholder: '(no system prompt)', readonly: page.noModel });
    sys.value = str(page.req.systemPrompt);
    autosize(sys);
    sys.addEventListener('input', () => {
      page.edits.systemPrompt = sys.value;
      autosize(sys);
    });
    return section('System prompt', [sys]);
  }

  /** The messages, their texts editable; and, before approval, what the model will not get. */
  function messagesSection(/** @type {SamplingPage} */ page, /** @type {boolean | undefined} */ imagesToModel) {
    const list = h('div', { class: 'messages' });
    const messages = Array.isArray(page.req.messages) ? page.req.messages : [];
    const shown = { image: false, audio: false };
    messages.forEach((m, i) => {
      const box = h('div', { class: 'message role-' + (m.role === 'assistant' ? 'assistant' : 'user') }, [h('div', { class: 'role', text: (m.role === 'assistant' ? 'Assistant' : 'User') + ' · message ' + (i + 1) })]);
      for (const p of Array.isArray(m.parts) ? m.parts : []) box.append(messagePart(page, p, i, shown));
      list.append(box);
    });
    const msgSection = section('Messages (' + messages.length + ')', [list]);
    // Say before approval what the model will not get (a placeholder text stands in for it).
    const leftOut = [shown.image && !imagesToModel ? 'images' : '', shown.audio ? 'audio' : ''].filter(Boolean);
    if (leftOut.length) {
      const why = shown.audio && !leftOut.includes('images') ? 'VS Code language models take no audio' : 'this VS Code cannot send them to a language model';
      msgSection.append(h('div', { class: 'note warning-text', id: 'media-left-out', text: 'The ' + leftOut.join(' and ') + ' shown here will not reach the model (' + why + '); the model gets a short note saying so instead.' }));
    }
    return msgSection;
  }

  /**
   * One part of message `i`: its text to edit, an image or audio (noted in `shown`), or why it is not shown.
   * @param {SamplingPage} page
   * @param {{ kind?: unknown, id?: unknown, text?: unknown, dataUri?: unknown, mimeType?: unknown, bytes?: unknown, type?: unknown, reason?: unknown }} p what the page reads of a part (it checks each field)
   * @param {number} i
   * @param {{ image: boolean, audio: boolean }} shown
   */
  function messagePart(page, p, i, shown) {
    if (p.kind === 'text') {
      const area = h('textarea', { class: 'editable message-text', spellcheck: 'false', dataset: { part: str(p.id) }, 'aria-label': 'Text of message ' + (i + 1), readonly: page.noModel });
      area.value = str(p.text);
      autosize(area);
      area.addEventListener('input', () => {
        page.edits.texts[str(p.id)] = area.value;
        autosize(area);
      });
      return area;
    }
    if (p.kind === 'image' && isImageDataUri(p.dataUri)) {
      shown.image = true;
      return h('figure', { class: 'media' }, [h('img', { src: p.dataUri, alt: 'image in the request (' + str(p.mimeType) + ')' }), h('figcaption', { class: 'muted', text: str(p.mimeType) + ' · ' + formatBytes(p.bytes) })]);
    }
    if (p.kind === 'audio' && isAudioDataUri(p.dataUri)) {
      shown.audio = true;
      return h('figure', { class: 'media' }, [h('audio', { controls: '', src: p.dataUri }), h('figcaption', { class: 'muted', text: str(p.mimeType) + ' · ' + formatBytes(p.bytes) })]);
    }
    return h('div', { class: 'unshown muted', text: '[' + str(p.type) + (p.mimeType ? ' ' + str(p.mimeType) : '') + ' not shown: ' + str(p.reason) + ']' });
  }

  /** The token limit; a value that is not a whole number ≥ 1 turns the approve buttons off. */
  function limitsSection(/** @type {SamplingPage} */ page) {
    const max = h('input', { id: 'max-tokens', type: 'number', min: '1', step: '1', value: String(page.req.maxTokens), 'aria-label': 'Maximum tokens' });
    const maxError = h('span', { class: 'error' });
    max.addEventListener('input', () => {
      const n = Number(max.value);
      const ok = Number.isInteger(n) && n >= 1;
      page.edits.maxTokens = ok ? n : undefined;
      maxError.textContent = ok ? '' : 'a whole number, at least 1';
      for (const id of ['approve', 'approve-session', 'approve-always']) {
        const b = /** @type {HTMLButtonElement|null} */ (page.actions.querySelector('#' + id));
        if (b) b.disabled = !ok;
      }
    });
    if (page.noModel) max.setAttribute('readonly', '');
    return section('Limits', [h('label', { class: 'inline', for: 'max-tokens' }, ['Maximum tokens ', max, ' ', maxError])]);
  }

  /** The request answered (or refused): nothing more to change, and what happens now. */
  function decided(/** @type {SamplingPage} */ page, /** @type {HTMLElement} */ outcome) {
    freeze(page.body);
    freeze(page.actions);
    page.outcome.replaceChildren(outcome);
  }

  /** "Answer yourself": the reply and the model name the server is told, both the person's. */
  function selfAnswer(/** @type {SamplingPage} */ page) {
    const text = h('textarea', { id: 'self-answer', class: 'editable answer-text', spellcheck: 'true', rows: '4', 'aria-label': 'Your answer', placeholder: 'Write the reply the server gets, as the model would' });
    const selfModel = h('input', { id: 'self-model', type: 'text', value: 'human', spellcheck: 'false', 'aria-label': 'Model name the server sees' });
    const sendSelf = h('button', { id: 'send-self', class: 'primary', disabled: true, onclick: () => {
      post({ type: 'samplingAnswerSelf', text: text.value, model: selfModel.value });
      decided(page, status('Sent your answer to the server.', 'done'));
    } }, ['Send my answer']);
    text.addEventListener('input', () => {
      autosize(text);
      sendSelf.disabled = text.value.trim() === '';
    });
    const box = section('Your answer', [
      text,
      h('label', { class: 'inline', for: 'self-model' }, ['Model name the server sees ', selfModel]),
      h('div', { class: 'muted', text: 'No model runs: the server gets exactly this text, marked as coming from the model you name here.' }),
      h('div', { class: 'actions' }, [sendSelf]),
    ], 'self-answer');
    box.hidden = !page.noModel;
    return { box, text };
  }

  /** Approve (once, for the session, always), answer yourself, reject (once, never); returns Approve. */
  function samplingActions(/** @type {SamplingPage} */ page, /** @type {{ box: HTMLElement, text: HTMLTextAreaElement }} */ self) {
    const send = (/** @type {PageMessageOf<'samplingApprove'>['remember']} */ remember) => {
      /** @type {{ texts: Record<string, string>, systemPrompt?: string, maxTokens?: number }} */
      const payload = { texts: {} };
      for (const [k, v] of Object.entries(page.edits.texts)) payload.texts[k] = v;
      if (page.edits.systemPrompt !== undefined) payload.systemPrompt = page.edits.systemPrompt;
      if (page.edits.maxTokens !== undefined) payload.maxTokens = page.edits.maxTokens;
      post({ type: 'samplingApprove', edits: payload, remember });
      decided(page, status('Approved. Waiting for the model…', 'busy'));
    };
    const reject = (/** @type {PageMessageOf<'samplingReject'>['remember']} */ remember) => {
      post({ type: 'samplingReject', remember });
      decided(page, status('Rejected: the server gets an error.', 'done'));
    };
    const approveBtn = h('button', { id: 'approve', class: 'primary', onclick: () => send('once') }, ['Approve']);
    const approveActions = page.noModel ? [] : [
      approveBtn,
      h('button', { id: 'approve-session', class: 'secondary', title: 'Approve, and approve further requests from this server without asking until VS Code restarts', onclick: () => send('allowSession') }, ['Allow for this session']),
      h('button', { id: 'approve-always', class: 'secondary', title: 'Approve, and never ask again for this server (MCP Host: Reset Sampling Permissions undoes it)', onclick: () => send('allowAlways') }, ['Always allow']),
      h('button', { id: 'answer-self', class: 'secondary', title: 'Write the answer yourself instead of asking a model', onclick: () => {
        self.box.hidden = false;
        self.text.focus();
      } }, ['Answer yourself…']),
    ];
    page.actions.append(
      ...approveActions,
      h('span', { class: 'spacer' }),
      h('button', { id: 'reject', class: 'danger', onclick: () => reject('once') }, ['Reject']),
      h('button', { id: 'reject-never', class: 'secondary', title: 'Reject, and reject every sampling request from this server from now on', onclick: () => reject('never') }, ['Never allow']),
    );
    return approveBtn;
  }

  /**
   * @param {string} label
   * @param {string} value
   */
  function fact(label, value) {
    return h('div', { class: 'fact' }, [h('span', { class: 'fact-label', text: label }), h('span', { class: 'fact-value', text: value })]);
  }

  /** @param {DialogMessageOf<'samplingGenerating'>} msg */
  function showGenerating(msg) {
    const outcome = document.getElementById('outcome');
    if (outcome) outcome.replaceChildren(status('Generating with ' + str(msg.model) + '…', 'busy'));
  }

  /** @param {DialogMessageOf<'samplingAnswer'>} msg */
  function showAnswer(msg) {
    const a = msg.answer;
    const outcome = document.getElementById('outcome');
    if (!outcome) return;
    const area = h('textarea', { id: 'answer', class: 'editable answer-text', spellcheck: 'false', 'aria-label': 'Answer to send' });
    area.value = str(a.text);
    autosize(area);
    area.addEventListener('input', () => autosize(area));
    const facts = h('div', { class: 'facts' }, [fact('Model', str(a.modelLabel) + ' (' + str(a.model) + ')'), fact('Stop reason', str(a.stopReason) || 'unknown')]);
    const actions = h('div', { class: 'actions' }, [
      h('button', { id: 'send-answer', class: 'primary', onclick: () => {
        post({ type: 'answerSend', text: area.value });
        freeze(box);
        box.append(status('Sent to the server.', 'done'));
      } }, ['Send to server']),
      h('span', { class: 'spacer' }),
      h('button', { id: 'reject-answer', class: 'danger', onclick: () => {
        post({ type: 'answerReject' });
        freeze(box);
        box.append(status('Rejected: the server gets an error.', 'done'));
      } }, ['Reject']),
    ]);
    const box = section('Answer — review before it goes to the server', [facts, area, actions], 'answer');
    outcome.replaceChildren(box);
    area.focus();
  }

  /** @param {DialogMessageOf<'failed'>} msg */
  function showFailed(msg) {
    const outcome = document.getElementById('outcome') || app;
    outcome.replaceChildren(h('div', { class: 'notice error', role: 'alert', text: str(msg.text) }));
  }

  // ---------------------------------------------------------------------------------------------
  // Elicitation: form

  /** @type {unknown} */
  let formState = {};
  /** @type {number | undefined} */
  let validateTimer = undefined;
  /** @type {ReturnType<typeof McpWebview.errorGate> | null} */
  let formErrors = null;
  /** Submit was pressed: the next errors take focus to the first invalid field and are announced. */
  let submitted = false;
  // The shared renderer (formRenderer.js) in the wording for people: the same field model as a tool's form.
  const formFields = McpFormRenderer.create({ audience: 'person', changed: () => changed() });

  /** @param {DialogMessageOf<'form'>} msg */
  function renderForm(msg) {
    const view = msg.view;
    const server = msg.server;
    const model = view.model;
    formState = isObj(view.state) ? Object.assign({}, view.state) : {};
    app.textContent = '';
    app.append(header('Request for information', str(server.name), 'asks you for information'));
    app.append(h('div', { class: 'server-message', text: str(view.message) }));
    app.append(h('p', { class: 'note muted', text: 'Share only what you are comfortable giving this server. Never type passwords, tokens or other secrets into this form.' }));
    const form = h('div', { class: 'form', role: 'form', 'aria-label': 'Requested information' });
    const gate = McpWebview.errorGate(form);
    formErrors = gate;
    form.append(...formFields.properties(model, '', { get: () => formState, set: (v) => (formState = v) }));
    const submit = h('button', { id: 'accept', class: 'primary', onclick: () => {
      clearTimeout(validateTimer);
      gate.showAll();
      submitted = true;
      post({ type: 'formAccept', state: stateToSend() });
    } }, ['Submit']);
    const actions = h('div', { class: 'actions' }, [
      submit,
      h('span', { class: 'spacer' }),
      h('button', { id: 'decline', class: 'secondary', title: 'Tell the server you do not want to give this information', onclick: () => post({ type: 'formDecline' }) }, ['Decline']),
      h('button', { id: 'cancel', class: 'secondary', title: 'Close without answering', onclick: () => post({ type: 'formCancel' }) }, ['Cancel']),
    ]);
    app.append(form, h('div', { class: 'form-summary error', id: 'form-summary', role: 'alert' }), actions);
    const first = form.querySelector('input, select, textarea');
    if (first) /** @type {HTMLElement} */ (first).focus();
  }

  function changed() {
    clearTimeout(validateTimer);
    validateTimer = window.setTimeout(() => post({ type: 'formValidate', state: stateToSend() }), 250);
  }

  /**
   * The form's state as the page holds it: the object the form's fields fill. The extension
   * checks it (FormStateSchema) before reading it.
   * @returns {FormState | undefined}
   */
  function stateToSend() {
    return /** @type {FormState | undefined} */ (formState);
  }

  /** @param {DialogMessageOf<'formErrors'>} msg */
  function showFormErrors(msg) {
    const other = placeErrors(app, formErrors ? formErrors.filter(msg.errors) : msg.errors);
    const summary = document.getElementById('form-summary');
    const invalid = [...app.querySelectorAll('.field.invalid')];
    const names = invalid.map((f) => (f.querySelector('.label-text') || {}).textContent || '').filter(Boolean);
    const lines = [];
    if (names.length) lines.push((names.length === 1 ? '1 field needs' : names.length + ' fields need') + ' your attention: ' + names.join(', ') + '.');
    lines.push(...other.map((e) => (str(e.path) || '(form)') + ': ' + str(e.message)));
    // The summary (role=alert) is said when it changes; after Submit, focus goes to the first field to fix.
    if (summary && (submitted || lines.length === 0)) summary.textContent = lines.join(' ');
    if (submitted && invalid.length) {
      const label = invalid[0].querySelector(':scope > .label-row > label[for]');
      const input = label ? document.getElementById(label.getAttribute('for') || '') : null;
      if (input) input.focus();
    }
    submitted = false;
  }

  // ---------------------------------------------------------------------------------------------
  // Elicitation: URL

  /** @param {DialogMessageOf<'url'>} msg */
  function renderUrl(msg) {
    const view = msg.view;
    const server = msg.server;
    const url = view.url;
    app.textContent = '';
    app.append(header('Link', str(server.name), 'asks you to open a link'));
    app.append(h('div', { class: 'server-message', text: str(view.message) }));
    if (view.fromToolError) app.append(h('p', { class: 'note muted', text: 'A tool call needs this step first. After it, the tool call can run again.' }));

    const line = h('div', { class: 'url', id: 'url', title: str(url.href) });
    for (const s of Array.isArray(url.segments) ? url.segments : []) line.append(h('span', { class: 'seg seg-' + str(s.role), text: str(s.text) }));
    const warnings = Array.isArray(url.warnings) ? url.warnings : [];
    const domain = h('div', { class: 'domain-line' }, [h('span', { class: 'muted', text: 'Site: ' }), h('strong', { class: 'domain', id: 'domain', text: str(url.domain) })]);
    if (url.unicodeHost) domain.append(h('span', { class: 'muted', text: '  (in Unicode: “' + str(url.unicodeHost) + '”)' }));
    const box = h('div', { class: 'url-box' + (warnings.length ? ' has-warnings' : '') }, [domain, line]);
    app.append(box);
    if (warnings.length) {
      app.append(h('ul', { class: 'warnings', id: 'warnings' }, warnings.map((w) => h('li', { class: 'warning-text', dataset: { kind: str(w.kind) }, text: '⚠ ' + str(w.text) }))));
    }
    app.append(h('p', { class: 'note muted', text: 'MCP Host opens the link in your browser only if you choose Open. It does not visit the link itself. Refuse tells the server you will not open it; Not now closes without choosing, and the server may ask again.' }));
    const open = h('button', { id: 'open-url', class: warnings.length ? 'secondary' : 'primary', onclick: () => {
      post({ type: 'urlOpen' });
      freeze(app);
    } }, ['Open in browser']);
    app.append(h('div', { class: 'actions' }, [
      open,
      h('span', { class: 'spacer' }),
      h('button', { id: 'decline', class: warnings.length ? 'primary' : 'secondary', title: 'Tell the server you will not open this link', onclick: () => post({ type: 'urlDecline' }) }, ['Refuse the link']),
      h('button', { id: 'cancel', class: 'secondary', title: 'Close without choosing; the server may ask again', onclick: () => post({ type: 'urlCancel' }) }, ['Not now']),
    ]));
    (warnings.length ? /** @type {HTMLElement} */ (app.querySelector('#decline')) : open).focus();
  }

  /** @param {DialogMessageOf<'waiting'>} msg */
  function renderWaiting(msg) {
    const server = msg.server;
    const domains = Array.isArray(msg.domains) ? msg.domains.map((d) => str(d)) : [];
    app.textContent = '';
    app.append(header('Waiting', str(server.name), 'is waiting for you'));
    app.append(status('Finish the step at ' + domains.join(', ') + ' in your browser. This closes by itself when the server reports it complete.', 'busy'));
    app.append(h('div', { class: 'actions' }, [
      h('button', { id: 'retry-now', class: 'primary', onclick: () => post({ type: 'retryNow' }) }, ['I’m done — retry now']),
      h('span', { class: 'spacer' }),
      h('button', { id: 'give-up', class: 'secondary', onclick: () => post({ type: 'giveUp' }) }, ['Give up']),
    ]));
  }

  // ---------------------------------------------------------------------------------------------
  // Messages from the extension

  onMessage((/** @type {DialogMessage} */ msg) => {
    switch (msg.type) {
      case 'sampling':
        renderSampling(msg);
        break;
      case 'samplingGenerating':
        showGenerating(msg);
        break;
      case 'samplingAnswer':
        showAnswer(msg);
        break;
      case 'failed':
        showFailed(msg);
        break;
      case 'form':
        renderForm(msg);
        break;
      case 'formErrors':
        showFormErrors(msg);
        break;
      case 'url':
        renderUrl(msg);
        break;
      case 'waiting':
        renderWaiting(msg);
        break;
      case 'queue': {
        const n = typeof msg.waiting === 'number' ? msg.waiting : 0;
        queueNote.hidden = n === 0;
        queueNote.textContent = n === 1 ? '1 more request from this server is waiting' : n + ' more requests from this server are waiting';
        break;
      }
      case 'notice':
        app.prepend(McpWebview.notice(msg.level, str(msg.text)));
        break;
      default:
        break;
    }
  });

  document.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
      const primary = /** @type {HTMLButtonElement|null} */ (app.querySelector('.actions button.primary:not([disabled])'));
      if (primary) primary.click();
    }
  });

  post({ type: 'ready' });
}
