// The inspect webview: a tool's form, its call, progress and result; or a prompt's messages, or a
// resource's contents. Plain browser JS, no framework. Everything from a server is inserted with
// textContent; the only HTML inserted is Markdown the extension sanitised. Links in it carry
// data-href and are opened by the extension, after a click, never here. Images and audio only
// come as data: URIs the extension built from allow-listed types.
// @ts-check
(function () {
  'use strict';
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
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
  let validateTimer = null;
  let errorCount = 0;
  let view = 'tool';

  // ---------------------------------------------------------------------------------------------
  // DOM helpers

  /**
   * @param {string} tag
   * @param {Record<string, any>} [props]
   * @param {Array<Node|string|null|undefined|false>} [children]
   */
  function h(tag, props, children) {
    const el = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') el.className = String(v);
        else if (k === 'text') el.textContent = String(v);
        else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
        else if (k === 'dataset') for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = String(dv);
        else if (k === 'value') /** @type {any} */ (el).value = v;
        else if (k === 'checked') /** @type {any} */ (el).checked = !!v;
        else el.setAttribute(k, String(v));
      }
    }
    for (const c of children || []) {
      if (c === null || c === undefined || c === false) continue;
      el.append(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return el;
  }

  function post(message) {
    vscode.postMessage(message);
  }

  function isObj(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  }

  function str(v) {
    return typeof v === 'string' ? v : '';
  }

  function pointer(parent, token) {
    return parent + '/' + (typeof token === 'number' ? String(token) : String(token).replace(/~/g, '~0').replace(/\//g, '~1'));
  }

  function formatBytes(n) {
    if (typeof n !== 'number') return '';
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KB';
    return (n / 1024 / 1024).toFixed(1) + ' MB';
  }

  function formatMs(ms) {
    if (typeof ms !== 'number') return '';
    return ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  }

  // ---------------------------------------------------------------------------------------------
  // Layout

  const els = {
    header: h('header', { class: 'header' }),
    notices: h('div', { class: 'notices' }),
    form: h('section', { class: 'input', 'aria-label': 'Arguments' }),
    controls: h('div', { class: 'controls' }),
    progress: h('div', { class: 'progress', id: 'progress', hidden: true }),
    result: h('section', { class: 'result', id: 'result', 'aria-label': 'Result' }),
    history: h('section', { class: 'history', id: 'history', 'aria-label': 'History' }),
  };

  function layout() {
    app.textContent = '';
    app.append(els.header, els.notices, els.form, els.controls, els.progress, els.result, els.history);
  }

  function notice(level, text) {
    const n = h('div', { class: 'notice ' + level, role: level === 'error' ? 'alert' : 'status' }, [
      h('span', { text }),
      h('button', { class: 'icon-button', title: 'Dismiss', 'aria-label': 'Dismiss', onclick: () => n.remove() }, ['×']),
    ]);
    els.notices.append(n);
  }

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
    const title = h('h1', {}, [h('span', { class: 'tool-name', text: header.name })]);
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

  // ---------------------------------------------------------------------------------------------
  // Form

  function fieldLabel(field, name) {
    const label = field.title || name || 'value';
    const parts = [h('span', { class: 'label-text', text: label })];
    if (field.required) parts.push(h('span', { class: 'required', title: 'required', 'aria-label': 'required', text: ' *' }));
    const type = typeHint(field);
    if (type) parts.push(h('span', { class: 'type muted', text: ' ' + type }));
    if (field.deprecated) parts.push(h('span', { class: 'badge off', text: 'deprecated' }));
    return parts;
  }

  function typeHint(field) {
    switch (field.kind) {
      case 'string':
        return field.format ? 'string · ' + field.format : 'string';
      case 'number':
        return field.integer ? 'integer' : 'number';
      case 'boolean':
        return 'boolean';
      case 'enum':
        return 'choice';
      case 'multiSelect':
        return 'choices';
      case 'array':
        return 'list';
      case 'object':
        return '';
      case 'json':
        return 'JSON' + (Array.isArray(field.types) && field.types.length ? ' · ' + field.types.join(' | ') : '');
      default:
        return '';
    }
  }

  function constraints(field) {
    const out = [];
    if (field.kind === 'string') {
      if (field.minLength !== undefined) out.push('min length ' + field.minLength);
      if (field.maxLength !== undefined) out.push('max length ' + field.maxLength);
      if (field.pattern !== undefined) out.push('pattern ' + field.pattern);
    } else if (field.kind === 'number') {
      if (field.minimum !== undefined) out.push('≥ ' + field.minimum);
      if (field.exclusiveMinimum !== undefined) out.push('> ' + field.exclusiveMinimum);
      if (field.maximum !== undefined) out.push('≤ ' + field.maximum);
      if (field.exclusiveMaximum !== undefined) out.push('< ' + field.exclusiveMaximum);
      if (field.multipleOf !== undefined) out.push('multiple of ' + field.multipleOf);
    } else if (field.kind === 'array' || field.kind === 'multiSelect') {
      if (field.minItems !== undefined) out.push('at least ' + field.minItems);
      if (field.maxItems !== undefined) out.push('at most ' + field.maxItems);
    }
    if (field.default !== undefined) out.push('default ' + JSON.stringify(field.default));
    return out.join(' · ');
  }

  const PLACEHOLDERS = { email: 'name@example.com', uri: 'https://…', date: 'YYYY-MM-DD', 'date-time': '2025-01-31T12:00:00Z', uuid: '123e4567-e89b-12d3-a456-426614174000' };

  /**
   * One field: label, description, control, error line.
   * @param {any} field the model
   * @param {string} name property name (for labels)
   * @param {string} path JSON Pointer of its value
   * @param {{get: () => any, set: (v: any) => void}} slot where its state lives
   * @param {HTMLElement|null} [extraAction] a control for the label row (e.g. remove item)
   */
  function renderField(field, name, path, slot, extraAction) {
    const wrap = h('div', { class: 'field kind-' + field.kind, dataset: { path } });
    const id = 'f' + Math.random().toString(36).slice(2);
    const labelRow = h('div', { class: 'label-row' }, [h('label', { for: id }, fieldLabel(field, name))]);
    if (field.nullable) {
      const nullBox = h('input', { type: 'checkbox', class: 'null-toggle', checked: slot.get() === null, title: 'Send null' });
      nullBox.addEventListener('change', () => {
        slot.set(nullBox.checked ? null : undefined);
        rerenderField();
        changed();
      });
      labelRow.append(h('label', { class: 'null-label muted' }, [nullBox, ' null']));
    }
    if (extraAction) labelRow.append(extraAction);
    wrap.append(labelRow);
    if (field.description) wrap.append(h('div', { class: 'field-description muted', text: field.description }));
    const c = constraints(field);
    if (c) wrap.append(h('div', { class: 'constraints muted', text: c }));
    const body = h('div', { class: 'field-body' });
    wrap.append(body, h('div', { class: 'error', role: 'alert' }));

    function rerenderField() {
      body.textContent = '';
      if (slot.get() === null && field.nullable) {
        body.append(h('div', { class: 'muted null-value', text: 'null' }));
        return;
      }
      body.append(control(field, path, slot, id));
    }
    rerenderField();
    return wrap;
  }

  function control(field, path, slot, id) {
    const value = slot.get();
    switch (field.kind) {
      case 'string': {
        const long = field.format === undefined && (field.maxLength === undefined || field.maxLength > 120);
        const placeholder = field.example !== undefined ? String(field.example) : PLACEHOLDERS[field.format] || '';
        const input = long
          ? h('textarea', { id, rows: String(Math.min(12, Math.max(1, String(value || '').split('\n').length))), placeholder, spellcheck: 'false' })
          : h('input', { id, type: 'text', placeholder, spellcheck: 'false' });
        /** @type {any} */ (input).value = typeof value === 'string' ? value : '';
        input.addEventListener('input', () => {
          slot.set(/** @type {any} */ (input).value);
          if (long) /** @type {any} */ (input).rows = Math.min(12, Math.max(1, /** @type {any} */ (input).value.split('\n').length));
          changed();
        });
        return input;
      }
      case 'number': {
        const input = h('input', { id, type: 'text', inputmode: field.integer ? 'numeric' : 'decimal', placeholder: field.example !== undefined ? String(field.example) : field.integer ? '0' : '0.0', spellcheck: 'false' });
        /** @type {any} */ (input).value = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
        input.addEventListener('input', () => {
          slot.set(/** @type {any} */ (input).value);
          changed();
        });
        return input;
      }
      case 'boolean': {
        if (field.required) {
          const box = h('input', { id, type: 'checkbox', checked: value === true });
          if (value === undefined) slot.set(false);
          box.addEventListener('change', () => {
            slot.set(/** @type {any} */ (box).checked);
            changed();
          });
          return h('label', { class: 'checkbox' }, [box, ' ' + (field.title || 'enabled')]);
        }
        const select = h('select', { id }, [h('option', { value: '', text: '— not set —' }), h('option', { value: 'true', text: 'true' }), h('option', { value: 'false', text: 'false' })]);
        /** @type {any} */ (select).value = value === true ? 'true' : value === false ? 'false' : '';
        select.addEventListener('change', () => {
          const v = /** @type {any} */ (select).value;
          slot.set(v === '' ? undefined : v === 'true');
          changed();
        });
        return select;
      }
      case 'enum': {
        const options = [h('option', { value: '', text: field.required ? '— choose —' : '— not set —' })];
        field.options.forEach((o, i) => options.push(h('option', { value: String(i), text: o.label, title: o.description || JSON.stringify(o.value) })));
        const select = h('select', { id }, options);
        /** @type {any} */ (select).value = typeof value === 'number' ? String(value) : '';
        select.addEventListener('change', () => {
          const v = /** @type {any} */ (select).value;
          slot.set(v === '' ? undefined : Number(v));
          changed();
        });
        return select;
      }
      case 'multiSelect': {
        const picked = new Set(Array.isArray(value) ? value : []);
        const box = h('div', { class: 'multi', id, role: 'group' });
        field.options.forEach((o, i) => {
          const cb = h('input', { type: 'checkbox', checked: picked.has(i) });
          cb.addEventListener('change', () => {
            if (/** @type {any} */ (cb).checked) picked.add(i);
            else picked.delete(i);
            slot.set([...picked].sort((a, b) => a - b));
            changed();
          });
          box.append(h('label', { class: 'checkbox', title: o.description || '' }, [cb, ' ' + o.label]));
        });
        return box;
      }
      case 'array': {
        const list = h('div', { class: 'array', id });
        const items = () => {
          let v = slot.get();
          if (!Array.isArray(v)) {
            v = [];
            slot.set(v);
          }
          return v;
        };
        const draw = () => {
          list.textContent = '';
          const arr = Array.isArray(slot.get()) ? slot.get() : [];
          arr.forEach((_, i) => {
            const remove = h('button', { class: 'icon-button remove-item', title: 'Remove item ' + (i + 1), 'aria-label': 'Remove item ' + (i + 1), onclick: () => {
              items().splice(i, 1);
              draw();
              changed();
            } }, ['×']);
            const itemSlot = { get: () => items()[i], set: (v) => (items()[i] = v) };
            list.append(h('div', { class: 'array-item' }, [renderField(field.items, '#' + (i + 1), pointer(path, i), itemSlot, remove)]));
          });
          const canAdd = field.maxItems === undefined || arr.length < field.maxItems;
          list.append(h('button', { class: 'secondary add-item', disabled: !canAdd, onclick: () => {
            items().push(newItem(field.items));
            draw();
            changed();
          } }, ['+ Add item']));
        };
        draw();
        return list;
      }
      case 'object': {
        const box = h('div', { class: 'object', id });
        const obj = () => {
          let v = slot.get();
          if (!isObj(v)) {
            v = {};
            slot.set(v);
          }
          return v;
        };
        if (!field.properties.length) box.append(h('div', { class: 'muted', text: 'No arguments.' }));
        for (const p of field.properties) {
          const s = { get: () => (isObj(slot.get()) ? slot.get()[p.name] : undefined), set: (v) => {
            if (v === undefined) delete obj()[p.name];
            else obj()[p.name] = v;
          } };
          box.append(renderField(p.field, p.name, pointer(path, p.name), s));
        }
        return box;
      }
      case 'json': {
        const area = h('textarea', { id, class: 'json', rows: '4', spellcheck: 'false', placeholder: field.reason ? 'JSON — ' + field.reason : 'any JSON value' });
        /** @type {any} */ (area).value = typeof value === 'string' ? value : '';
        area.addEventListener('input', () => {
          slot.set(/** @type {any} */ (area).value);
          changed();
        });
        return area;
      }
      default:
        return h('div', { class: 'muted', text: 'unsupported field' });
    }
  }

  function newItem(items) {
    switch (items.kind) {
      case 'object':
        return {};
      case 'array':
      case 'multiSelect':
        return [];
      case 'boolean':
        return false;
      case 'enum':
        return items.default !== undefined ? Math.max(0, items.options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(items.default))) : null;
      default:
        return items.default !== undefined && typeof items.default !== 'object' ? String(items.default) : '';
    }
  }

  function renderInput() {
    els.form.textContent = '';
    const toolbar = h('div', { class: 'input-toolbar' }, [
      h('h2', { text: 'Arguments' }),
      h('button', { class: 'secondary', id: 'toggle-mode', onclick: () => post({ type: 'switchMode', input: currentInput() }) }, [mode === 'form' ? 'Edit as JSON' : 'Edit as form']),
    ]);
    els.form.append(toolbar);
    if (mode === 'form') {
      const root = { get: () => formState, set: (v) => (formState = v) };
      const fields = model.kind === 'object' ? control(model, '', root, 'form-root') : renderField(model, 'arguments', '', root);
      els.form.append(h('div', { class: 'form', id: 'form' }, [fields]));
    } else {
      const area = h('textarea', { id: 'json-input', class: 'json', rows: String(Math.min(30, Math.max(6, jsonText.split('\n').length + 1))), spellcheck: 'false', 'aria-label': 'Arguments as JSON' });
      /** @type {any} */ (area).value = jsonText;
      area.addEventListener('input', () => {
        jsonText = /** @type {any} */ (area).value;
        changed();
      });
      els.form.append(h('div', { class: 'field', dataset: { path: '' } }, [area, h('div', { class: 'error', role: 'alert' })]));
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
    for (const el of document.querySelectorAll('.field.invalid')) el.classList.remove('invalid');
    for (const el of document.querySelectorAll('.field > .error')) el.textContent = '';
    const unplaced = [];
    for (const e of Array.isArray(errors) ? errors : []) {
      let path = str(e.path);
      let target = null;
      // The nearest field that is on screen: the error's own, else an ancestor's.
      for (;;) {
        target = findField(path);
        if (target || path === '') break;
        path = path.slice(0, path.lastIndexOf('/'));
      }
      if (!target) {
        unplaced.push(e);
        continue;
      }
      target.classList.add('invalid');
      const line = target.querySelector(':scope > .error');
      if (line) line.textContent = (line.textContent ? line.textContent + '; ' : '') + (path !== e.path ? e.path.slice(path.length).replace(/^\//, '') + ': ' : '') + str(e.message);
    }
    errorCount = Array.isArray(errors) ? errors.length : 0;
    const problems = document.getElementById('problems');
    if (problems) {
      problems.textContent = '';
      if (errorCount) problems.append(h('span', { class: 'error-text', text: errorCount === 1 ? '1 problem — fix it to run' : errorCount + ' problems — fix them to run' }));
      for (const e of unplaced) problems.append(h('div', { class: 'error-text', text: (e.path || '(arguments)') + ': ' + e.message }));
      if (preview !== undefined && !errorCount) problems.append(h('details', { class: 'preview' }, [h('summary', { text: 'Arguments to send' }), h('pre', { text: preview })]));
    }
    updateControls();
  }

  function findField(path) {
    for (const el of els.form.querySelectorAll('.field')) if (/** @type {HTMLElement} */ (el).dataset.path === path) return el;
    return null;
  }

  // ---------------------------------------------------------------------------------------------
  // Controls, progress

  let timeoutSeconds = 60;

  function renderControls() {
    els.controls.textContent = '';
    const timeout = h('input', { type: 'number', id: 'timeout', min: '1', step: '1', value: String(timeoutSeconds), title: 'Seconds without an answer (or progress) before the call fails' });
    timeout.addEventListener('change', () => {
      const v = Number(/** @type {any} */ (timeout).value);
      if (v > 0) timeoutSeconds = v;
    });
    els.controls.append(
      h('button', { id: 'run', class: 'primary', onclick: run }, ['Run']),
      h('button', { id: 'cancel', class: 'secondary', hidden: true, onclick: () => post({ type: 'cancel' }) }, ['Cancel']),
      h('label', { class: 'timeout muted' }, ['Timeout ', timeout, ' s']),
    );
    updateControls();
  }

  function updateControls() {
    const runBtn = /** @type {HTMLButtonElement|null} */ (document.getElementById('run'));
    const cancel = document.getElementById('cancel');
    if (runBtn) {
      runBtn.disabled = !!running || errorCount > 0;
      runBtn.textContent = running ? 'Running…' : 'Run';
    }
    if (cancel) cancel.hidden = !running;
  }

  function run() {
    if (running) return;
    post({ type: 'run', input: currentInput(), timeoutSeconds });
  }

  function startRunning(msg) {
    running = { callId: msg.callId, startedAt: msg.startedAt };
    els.progress.hidden = false;
    els.progress.textContent = '';
    els.progress.append(h('div', { class: 'bar indeterminate' }, [h('div', { class: 'fill' })]), h('div', { class: 'progress-text muted', text: 'Running…' }));
    clearInterval(timer);
    timer = setInterval(() => {
      const t = els.progress.querySelector('.elapsed');
      if (t) t.textContent = formatMs(Date.now() - running.startedAt);
    }, 250);
    els.progress.append(h('span', { class: 'elapsed muted' }));
    els.result.textContent = '';
    updateControls();
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
    if (callId) row.append(h('button', { class: 'secondary copy-json', onclick: () => post({ type: 'copyResult', callId }) }, ['Copy result as JSON']));
    if (extra) row.append(extra);
    return row;
  }

  function showToolResult(msg) {
    stopRunning();
    const d = msg.display || {};
    els.result.textContent = '';
    els.result.append(h('h2', { text: 'Result' }));
    els.result.append(resultHeader(d.isError ? 'tool-error' : 'ok', d.isError ? 'Tool error' : 'OK', msg.durationMs, msg.callId));
    if (d.isError) els.result.append(h('div', { class: 'muted', text: 'The tool ran and reported an error in its result (isError). The request itself succeeded.' }));
    const parts = Array.isArray(d.parts) ? d.parts : [];
    if (!parts.length) els.result.append(h('div', { class: 'muted', text: 'No content.' }));
    for (const p of parts) els.result.append(renderPart(p, msg.callId));
    const verdict = d.verdict || {};
    if (d.structured || verdict.kind === 'missing') els.result.append(renderStructured(d.structured, verdict));
  }

  function showFailure(msg) {
    stopRunning();
    const f = msg.failure || {};
    els.result.textContent = '';
    els.result.append(h('h2', { text: 'Result' }));
    let kind = 'error';
    let title = 'Error';
    if (f.kind === 'protocol') title = 'Protocol error ' + f.code;
    else if (f.kind === 'local' && f.reason === 'cancelled') {
      kind = 'cancelled';
      title = 'Cancelled';
    } else if (f.kind === 'local' && f.reason === 'timeout') title = 'Timed out';
    else if (f.kind === 'local') title = 'Failed (' + f.reason + ')';
    els.result.append(resultHeader(kind, title, msg.durationMs, null));
    els.result.append(h('pre', { class: 'error-message', text: str(f.message) }));
    if (f.kind === 'protocol') els.result.append(h('div', { class: 'muted', text: 'The server answered with a JSON-RPC error: the call did not run as a tool call.' }));
    if (f.data !== undefined) els.result.append(h('details', {}, [h('summary', { text: 'Error data' }), jsonTree(f.data)]));
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
    if (p.kind === 'text' || (p.kind === 'binary' && p.text !== undefined)) bar.append(h('button', { class: 'secondary open-part', onclick: () => post({ type: 'openPart', callId, index: p.index }) }, ['Open in editor']));
    if (p.kind === 'image' || p.kind === 'audio' || p.kind === 'binary') bar.append(h('button', { class: 'secondary save-part', onclick: () => post({ type: 'savePart', callId, index: p.index }) }, ['Save…']));
    return bar;
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
        draw();
        return box;
      }
      case 'image': {
        const box = h('div', { class: 'part part-image' }, [partToolbar(p, callId)]);
        if (typeof p.dataUri === 'string' && /^data:image\/(png|jpeg|gif|webp|bmp|avif);base64,/.test(p.dataUri)) {
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
        if (typeof p.dataUri === 'string' && /^data:audio\/[a-z0-9.+-]+;base64,/.test(p.dataUri)) box.append(h('audio', { controls: '', src: p.dataUri }));
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
        const link = h('a', { class: 'resource-link', tabindex: '0', role: 'link', title: 'Read ' + p.uri, onclick: () => post({ type: 'readResource', uri: p.uri }) }, [h('span', { class: 'codicon-like', text: '📄 ' }), h('span', { class: 'name', text: p.title || p.name }), h('span', { class: 'muted', text: '  ' + p.uri })]);
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
        v.textContent = '✓ Valid against the tool’s outputSchema';
        break;
      case 'invalid':
        v.append(h('div', { text: '✗ Does not match the tool’s outputSchema' }));
        for (const e of Array.isArray(verdict.errors) ? verdict.errors : []) v.append(h('div', { class: 'verdict-error', text: (e.path || '(root)') + ': ' + e.message }));
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
    box.append(v);
    if (structured) box.append(jsonTree(structured.value));
    return box;
  }

  // A collapsible JSON tree; values inserted as text.
  function jsonTree(value, key, depth) {
    depth = depth || 0;
    const keyEl = key !== undefined ? h('span', { class: 'json-key', text: key + ': ' }) : null;
    if (Array.isArray(value) || isObj(value)) {
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
      const label = Array.isArray(value) ? '[' + entries.length + ']' : '{' + entries.length + '}';
      const details = h('details', { class: 'json-node', open: depth < 2 ? '' : null }, [h('summary', {}, [keyEl, h('span', { class: 'muted', text: label })])]);
      const children = h('div', { class: 'json-children' });
      const limit = 500;
      entries.slice(0, limit).forEach(([k, v]) => children.append(jsonTree(v, k, depth + 1)));
      if (entries.length > limit) children.append(h('div', { class: 'muted', text: '… ' + (entries.length - limit) + ' more' }));
      details.append(children);
      return details;
    }
    const type = value === null ? 'null' : typeof value;
    return h('div', { class: 'json-leaf' }, [keyEl, h('span', { class: 'json-' + type, text: type === 'string' ? JSON.stringify(value) : String(value) })]);
  }

  // ---------------------------------------------------------------------------------------------
  // History

  function renderHistory(entries) {
    els.history.textContent = '';
    if (view !== 'tool') return;
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
      const item = h('li', { class: 'history-item ' + e.outcome, dataset: { id: e.id } }, [
        h('span', { class: 'outcome', title: e.outcome, text: icon }),
        h('span', { class: 'time muted', text: new Date(e.time).toLocaleTimeString() }),
        h('span', { class: 'summary', title: e.arguments || '', text: e.summary }),
        h('span', { class: 'muted duration', text: formatMs(e.durationMs) }),
        h('button', { class: 'link-button', title: 'Put these arguments into the form', disabled: !e.canRerun, onclick: () => post({ type: 'loadHistory', historyId: e.id }) }, ['Load']),
        h('button', { class: 'link-button', title: 'Run again with these arguments', disabled: !e.canRerun || !!running, onclick: () => post({ type: 'rerun', historyId: e.id }) }, ['Re-run']),
      ]);
      list.append(item);
    }
    els.history.append(list);
  }

  // ---------------------------------------------------------------------------------------------
  // Messages from the extension

  function setInput(input) {
    if (!isObj(input)) return;
    if (input.mode === 'json') {
      mode = 'json';
      jsonText = str(input.text);
    } else {
      mode = 'form';
      formState = input.state;
    }
    renderInput();
    changed();
  }

  window.addEventListener('message', (event) => {
    const msg = event.data;
    if (!isObj(msg) || typeof msg.type !== 'string') return;
    switch (msg.type) {
      case 'initTool':
        view = 'tool';
        model = msg.model;
        timeoutSeconds = typeof msg.timeoutSeconds === 'number' ? msg.timeoutSeconds : 60;
        layout();
        renderHeader(msg.header || {});
        renderControls();
        setInput(msg.input);
        renderHistory(msg.history);
        break;
      case 'initView':
        view = 'view';
        layout();
        els.form.remove();
        els.controls.remove();
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
      case 'serverState': {
        const runBtn = /** @type {HTMLButtonElement|null} */ (document.getElementById('run'));
        if (runBtn && !msg.running) runBtn.title = str(msg.text) || 'The server is not running';
        if (!msg.running && msg.text) notice('warning', msg.text);
        break;
      }
      case 'notice':
        notice(msg.level === 'error' ? 'error' : msg.level === 'warning' ? 'warning' : 'info', str(msg.text));
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
