// Shared by every MCP Host webview (the inspect panels, toolCall.js; the serve dialogs, serve.js),
// loaded first under the same CSP. Plain browser JS, no framework: DOM helpers that insert
// server text only as text, the one handle on the VS Code API (it can be acquired once per page),
// and the renderer of forms over the field model of src/forms/model.ts, which both the Call
// Tool form and the elicitation form draw.
// @ts-check
// eslint-disable-next-line no-unused-vars
const McpWebview = (function () {
  'use strict';
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();

  // ---------------------------------------------------------------------------------------------
  // DOM and values

  /**
   * An element. `text` sets textContent (never HTML), `on…` adds a listener, `dataset` fills
   * data-*, `value`/`checked` set the properties; null, undefined and false props are left out.
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, unknown>} [props]
   * @param {Array<Node|string|null|undefined|false>} [children]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function h(tag, props, children) {
    const el = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') el.className = String(v);
        else if (k === 'text') el.textContent = String(v);
        else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
        else if (k === 'dataset') for (const [dk, dv] of Object.entries(isObj(v) ? v : {})) el.dataset[dk] = String(dv);
        else if (k === 'value') /** @type {HTMLInputElement} */ (el).value = String(v);
        else if (k === 'checked') /** @type {HTMLInputElement} */ (el).checked = !!v;
        else el.setAttribute(k, String(v));
      }
    }
    for (const c of children || []) {
      if (c === null || c === undefined || c === false) continue;
      el.append(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return el;
  }

  /**
   * Says `text` once through the page's polite live region (#announcer in webviewPage.ts): a
   * finished call, an error, a cancellation, a task's new status. Emptied first, so the same
   * words said twice are heard twice.
   */
  function announce(/** @type {string} */ text) {
    const region = document.getElementById('announcer');
    if (!region) return;
    region.textContent = '';
    setTimeout(() => (region.textContent = text), 50);
  }

  /** Sends a message to the extension, which parses it with zod before acting on it. */
  function post(/** @type {PageMessage} */ message) {
    vscode.postMessage(message);
  }

  /**
   * True for a message VS Code delivered from the extension: it comes from this page's own origin.
   * An MCP App's view (an iframe on an opaque origin, appFrame.js) and anything it nests can post
   * to this window too; they must never pass for the extension.
   */
  function fromExtension(/** @type {MessageEvent} */ event) {
    return event.origin === window.origin;
  }

  // What the panel shows, kept by VS Code so the panel comes back after a window reload (panelTabs.ts).
  window.addEventListener('message', (event) => {
    if (!fromExtension(event)) return;
    const msg = event.data;
    if (isObj(msg) && msg.type === 'remember' && isObj(msg.state)) vscode.setState(msg.state);
  });

  /** Calls `handle` with each message from the extension that has a string `type`, as the page's own type `M`. @template {{ type: string }} M @param {(msg: M) => void} handle */
  function onMessage(handle) {
    window.addEventListener('message', (event) => {
      if (!fromExtension(event)) return;
      const msg = event.data;
      if (isObj(msg) && typeof msg.type === 'string') handle(/** @type {M} */ (/** @type {unknown} */ (msg)));
    });
  }

  /** @param {unknown} v @returns {v is Record<string, unknown>} */
  function isObj(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  }

  /** The member `key` of `v` when it is an object, else undefined. */
  function memberOf(/** @type {unknown} */ v, /** @type {string} */ key) {
    return isObj(v) ? v[key] : undefined;
  }
  function str(/** @type {unknown} */ v) {
    return typeof v === 'string' ? v : '';
  }

  /** The JSON Pointer of a child: `parent` + `/` + the escaped token. */
  function pointer(/** @type {string} */ parent, /** @type {string|number} */ token) {
    return parent + '/' + (typeof token === 'number' ? String(token) : String(token).replace(/~/g, '~0').replace(/\//g, '~1'));
  }

  function formatBytes(/** @type {unknown} */ n) {
    if (typeof n !== 'number') return '';
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KB';
    return (n / 1024 / 1024).toFixed(1) + ' MB';
  }

  function formatMs(/** @type {unknown} */ ms) {
    if (typeof ms !== 'number') return '';
    return ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  }

  // Media from a server is shown only as a data: URI of an allow-listed type (the extension
  // built it after checking the type; this is the second look).
  function isImageDataUri(/** @type {unknown} */ v) {
    return typeof v === 'string' && /^data:image\/(png|jpeg|gif|webp|bmp|avif);base64,/.test(v);
  }

  function isAudioDataUri(/** @type {unknown} */ v) {
    return typeof v === 'string' && /^data:audio\/[a-z0-9.+-]+;base64,/.test(v);
  }

  /** A dismissible notice: level info, warning or error (anything else is info). */
  function notice(/** @type {unknown} */ level, /** @type {string} */ text) {
    const kind = level === 'error' || level === 'warning' ? level : 'info';
    const n = h('div', { class: 'notice ' + kind, role: kind === 'error' ? 'alert' : 'status' }, [
      h('span', { text }),
      h('button', { class: 'icon-button', title: 'Dismiss', 'aria-label': 'Dismiss', onclick: () => n.remove() }, ['×']),
    ]);
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Forms

  /** Longest pattern shown as it is (as QUOTED_PATTERN_MAX in forms/fieldChecks.ts). */
  const QUOTED_PATTERN_MAX = 40;

  // Hints of a format, never a value one could take for a filled-in field.
  const PLACEHOLDERS = /** @type {Record<string, string>} */ ({ email: 'an e-mail address', uri: 'https://…', date: 'YYYY-MM-DD', 'date-time': 'YYYY-MM-DDThh:mm:ssZ', time: 'hh:mm:ss', uuid: 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx' });

  /** A field's example as a hint ("e.g. 42"), so it does not read as a value already there. */
  function examplePlaceholder(/** @type {FormField} */ field) {
    return field.example !== undefined ? 'e.g. ' + (typeof field.example === 'string' ? field.example : JSON.stringify(field.example)) : undefined;
  }

  let fieldCount = 0;

  /**
   * A renderer of forms over a field model. The state lives in slots shaped like FormState
   * (text typed, option indices); the extension reads and checks it.
   *
   * `audience` picks the wording: 'developer' for a tool's arguments (schema words: types,
   * "min length", true/false, a required boolean as a checkbox), 'person' for a server's
   * question to the user (plain words, Yes/No, nothing answered until the user answers, the
   * browser's own limits on length and e-mail input).
   * `suggest(input, path)`, when given, wraps each string field in what offers the server's
   * completions (McpSuggestions.combobox in suggestions.js) and returns what to show.
   * @param {{ audience: 'developer'|'person', changed: () => void, suggest?: (input: SuggestingField, path: string) => HTMLElement }} options
   */
  function formRenderer(options) {
    const forPeople = options.audience === 'person';
    const changed = options.changed;
    const unset = forPeople ? '— not answered —' : '— not set —';

    function fieldLabel(/** @type {FormField} */ field, /** @type {string} */ name) {
      const parts = [h('span', { class: 'label-text', text: field.title || name || 'value' })];
      // The star is seen; "required" is heard (a span may not carry aria-label), apart from the name.
      if (field.required) parts.push(h('span', { class: 'required', title: 'required', 'aria-hidden': 'true', text: ' *' }), h('span', { class: 'sr-only', text: ', required,' }));
      const type = forPeople ? '' : typeHint(field);
      if (type) parts.push(h('span', { class: 'type muted', text: ' ' + type }));
      if (field.deprecated) parts.push(h('span', { class: 'badge off', text: 'deprecated' }));
      return parts;
    }

    function typeHint(/** @type {FormField} */ field) {
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
        case 'union': return 'one of ' + (Array.isArray(field.variants) ? field.variants.length : 0) + ' kinds';
        case 'json':
          return 'JSON' + (Array.isArray(field.types) && field.types.length ? ' · ' + field.types.join(' | ') : '');
        default:
          return '';
      }
    }

    function constraints(/** @type {FormField} */ field) {
      const out = [];
      if (field.kind === 'string') {
        if (field.minLength !== undefined) out.push(forPeople ? 'at least ' + field.minLength + ' characters' : 'min length ' + field.minLength);
        if (field.maxLength !== undefined) out.push(forPeople ? 'at most ' + field.maxLength + ' characters' : 'max length ' + field.maxLength);
        // A long regex is named, not shown: it is in the hint's tooltip (QUOTED_PATTERN_MAX in forms/fieldChecks.ts).
        if (field.pattern !== undefined) out.push(field.pattern.length > QUOTED_PATTERN_MAX ? 'a pattern (' + field.pattern.length + ' characters; hover to read it)' : 'pattern ' + field.pattern);
        // A pattern the host cannot run safely is shown, not checked (the webview runs none).
        if (field.patternNote !== undefined) out.push(field.patternNote);
        // Developers read the format in the type hint.
        if (forPeople && field.format) out.push(field.format);
      } else if (field.kind === 'number') {
        if (field.minimum !== undefined) out.push('≥ ' + field.minimum);
        if (field.exclusiveMinimum !== undefined) out.push('> ' + field.exclusiveMinimum);
        if (field.maximum !== undefined) out.push('≤ ' + field.maximum);
        if (field.exclusiveMaximum !== undefined) out.push('< ' + field.exclusiveMaximum);
        if (field.multipleOf !== undefined) out.push('multiple of ' + field.multipleOf);
        if (forPeople && field.integer) out.push('whole number');
      } else if (field.kind === 'array' || field.kind === 'multiSelect') {
        const verb = forPeople ? 'choose ' : '';
        if (field.minItems !== undefined) out.push(verb + 'at least ' + field.minItems);
        if (field.maxItems !== undefined) out.push(verb + 'at most ' + field.maxItems);
      }
      if (field.default !== undefined) out.push('default ' + defaultText(field));
      return out.join(' · ');
    }

    /** A default as the user sees the value: a choice's title rather than its id. */
    function defaultText(/** @type {FormField} */ field) {
      const choices = field.kind === 'enum' || field.kind === 'multiSelect' ? field.options || [] : [];
      const label = (/** @type {unknown} */ v) => {
        const o = choices.find((x) => JSON.stringify(x.value) === JSON.stringify(v));
        return o ? str(o.label) : forPeople && typeof v === 'string' ? v : JSON.stringify(v);
      };
      return field.kind === 'multiSelect' && Array.isArray(field.default) ? field.default.map(label).join(', ') || 'none' : label(field.default);
    }

    /**
     * One field: label, description, control, constraints, error line.
     * @param {FormField} field the model
     * @param {string} name property name (for labels)
     * @param {string} path JSON Pointer of its value
     * @param {StateSlot} slot where its state lives
     * @param {HTMLElement|null} [extraAction] a control for the label row (e.g. remove item)
     */
    function renderField(field, name, path, slot, extraAction) {
      const wrap = h('div', { class: 'field kind-' + str(field.kind), dataset: { path } });
      const id = 'field-' + ++fieldCount;
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
      if (field.description) wrap.append(h('div', { class: 'field-description muted', id: id + '-description', text: field.description }));
      const body = h('div', { class: 'field-body' });
      const c = constraints(field);
      const hint = c ? h('div', { class: 'constraints muted', id: id + '-limits', text: c, title: field.kind === 'string' && field.pattern && field.pattern.length > QUOTED_PATTERN_MAX ? 'pattern ' + field.pattern : undefined }) : null;
      // A person reads the limits under the box they type in; a developer reads them first.
      for (const el of forPeople ? [body, hint] : [hint, body]) if (el) wrap.append(el);
      // Not a live region: a form's errors are announced once, by the form's summary.
      wrap.append(h('div', { class: 'error field-error', id: id + '-error' }));
      // What the control is described by: its error first, then its description and limits.
      const describedBy = [id + '-error', field.description ? id + '-description' : '', c ? id + '-limits' : ''].filter(Boolean).join(' ');

      function rerenderField() {
        body.textContent = '';
        if (slot.get() === null && field.nullable) {
          body.append(h('div', { class: 'muted null-value', text: 'null' }));
          return;
        }
        const input = control(field, name, path, slot, id);
        body.append(input);
        const target = input.id === id ? input : input.querySelector('#' + id);
        if (target) {
          target.setAttribute('aria-describedby', describedBy);
          if (field.required && target.matches('input, select, textarea')) target.setAttribute('aria-required', 'true');
        }
      }
      rerenderField();
      return wrap;
    }

    /** The fields of an object's properties, their state kept in the object `slot` holds. */
    function properties(/** @type {import('../../src/forms/model').ObjectField} */ objectField, /** @type {string} */ path, /** @type {StateSlot} */ slot) {
      const obj = () => {
        const v = slot.get();
        if (isObj(v)) return v;
        const fresh = /** @type {Record<string, unknown>} */ ({});
        slot.set(fresh);
        return fresh;
      };
      return (Array.isArray(objectField.properties) ? objectField.properties : []).map((p) => {
        const s = {
          get: () => memberOf(slot.get(), p.name),
          set: (/** @type {unknown} */ v) => {
            if (v === undefined) delete obj()[p.name];
            else obj()[p.name] = v;
          },
        };
        return renderField(p.field, str(p.name), pointer(path, p.name), s);
      });
    }

    /** The input of one field, without its label. @returns {HTMLElement} */
    function control(/** @type {FormField} */ field, /** @type {string} */ name, /** @type {string} */ path, /** @type {StateSlot} */ slot, /** @type {string} */ id) {
      const value = slot.get();
      switch (field.kind) {
        case 'string': {
          const long = field.format === undefined && (field.maxLength === undefined || field.maxLength > (forPeople ? 200 : 120));
          const placeholder = examplePlaceholder(field) || (field.format !== undefined && PLACEHOLDERS[field.format]) || '';
          const minRows = forPeople ? 2 : 1;
          const rows = (/** @type {unknown} */ text) => String(Math.min(12, Math.max(minRows, String(text || '').split('\n').length)));
          const input = long
            ? h('textarea', { id, rows: rows(value), placeholder, spellcheck: forPeople ? 'true' : 'false' })
            : h('input', { id, type: forPeople && field.format === 'email' ? 'email' : 'text', placeholder, spellcheck: 'false' });
          // The browser's own limit helps a person; a developer may want to see the error instead.
          if (forPeople && field.maxLength !== undefined) input.setAttribute('maxlength', String(field.maxLength));
          input.value = typeof value === 'string' ? value : '';
          input.addEventListener('input', () => {
            slot.set(input.value);
            if (input instanceof HTMLTextAreaElement) input.setAttribute('rows', rows(input.value));
            changed();
          });
          // The page's suggestions wrap the field (a combobox, suggestions.js) when it has them.
          return options.suggest ? options.suggest(input, path) : input;
        }
        case 'number': {
          const input = h('input', { id, type: 'text', inputmode: field.integer ? 'numeric' : 'decimal', placeholder: examplePlaceholder(field) || (field.integer ? 'a whole number' : 'a number'), spellcheck: 'false' });
          input.value = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
          input.addEventListener('input', () => {
            slot.set(input.value);
            changed();
          });
          return input;
        }
        case 'boolean': {
          if (field.required && !forPeople) {
            const box = h('input', { id, type: 'checkbox', checked: value === true });
            if (value === undefined) slot.set(false);
            box.addEventListener('change', () => {
              slot.set(box.checked);
              changed();
            });
            return h('label', { class: 'checkbox' }, [box, ' ' + (field.title || 'enabled')]);
          }
          const select = h('select', { id }, [h('option', { value: '', text: unset }), h('option', { value: 'true', text: forPeople ? 'Yes' : 'true' }), h('option', { value: 'false', text: forPeople ? 'No' : 'false' })]);
          select.value = value === true ? 'true' : value === false ? 'false' : '';
          select.addEventListener('change', () => {
            const v = select.value;
            slot.set(v === '' ? undefined : v === 'true');
            changed();
          });
          return select;
        }
        case 'enum': {
          const options = [h('option', { value: '', text: field.required ? '— choose —' : unset })];
          (Array.isArray(field.options) ? field.options : []).forEach((o, i) => options.push(h('option', { value: String(i), text: str(o.label), title: o.description || (forPeople ? '' : JSON.stringify(o.value)) })));
          const select = h('select', { id }, options);
          select.value = typeof value === 'number' ? String(value) : '';
          select.addEventListener('change', () => {
            const v = select.value;
            slot.set(v === '' ? undefined : Number(v));
            changed();
          });
          return select;
        }
        case 'multiSelect': {
          const picked = /** @type {Set<number>} */ (new Set(Array.isArray(value) ? value : []));
          const box = h('div', { class: 'multi', id, role: 'group', 'aria-label': field.title || name });
          (Array.isArray(field.options) ? field.options : []).forEach((o, i) => {
            const cb = h('input', { type: 'checkbox', checked: picked.has(i) });
            cb.addEventListener('change', () => {
              if (cb.checked) picked.add(i);
              else picked.delete(i);
              slot.set([...picked].sort((a, b) => a - b));
              changed();
            });
            box.append(h('label', { class: 'checkbox', title: o.description || '' }, [cb, ' ' + str(o.label)]));
          });
          return box;
        }
        case 'array': {
          const list = h('div', { class: 'array', id });
          const items = () => {
            const v = slot.get();
            if (Array.isArray(v)) return v;
            const fresh = /** @type {unknown[]} */ ([]);
            slot.set(fresh);
            return fresh;
          };
          const draw = () => {
            list.textContent = '';
            const current = slot.get();
            const arr = Array.isArray(current) ? current : [];
            arr.forEach((/** @type {unknown} */ _, /** @type {number} */ i) => {
              const remove = h('button', { class: 'icon-button remove-item', title: 'Remove item ' + (i + 1), 'aria-label': 'Remove item ' + (i + 1), onclick: () => {
                items().splice(i, 1);
                draw();
                changed();
              } }, ['×']);
              const itemSlot = { get: () => items()[i], set: (/** @type {unknown} */ v) => (items()[i] = v) };
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
          if (!field.properties.length) box.append(h('div', { class: 'muted', text: 'No arguments.' }));
          box.append(...properties(field, path, slot));
          return box;
        }
        case 'union': {
          // oneOf/anyOf of different shapes: pick the kind of value, then fill its form. State: { variant, value } (forms/state.ts).
          const variants = Array.isArray(field.variants) ? field.variants : [];
          const picked = () => /** @type {{ variant: number, value?: unknown } | undefined} */ (variants[/** @type {number} */ (memberOf(slot.get(), 'variant'))] ? slot.get() : undefined);
          const select = h('select', { id, class: 'union-choice' }, [h('option', { value: '', text: field.required ? '— choose a kind —' : unset }), ...variants.map((v, i) => h('option', { value: String(i), text: str(v.label) }))]);
          const inner = h('div', { class: 'union-variant' });
          const draw = () => {
            const p = picked();
            select.value = p ? String(p.variant) : '';
            inner.textContent = '';
            if (p) inner.append(control(variants[p.variant].field, name, path, { get: () => picked()?.value, set: (/** @type {unknown} */ v) => void (picked() && Object.assign(picked() || {}, { value: v })) }, id + '-' + p.variant));
          };
          select.addEventListener('change', () => {
            const v = select.value;
            slot.set(v === '' ? undefined : { variant: Number(v), value: newItem(variants[Number(v)].field) });
            draw(), changed();
          });
          return draw(), h('div', { class: 'union' }, [select, inner]);
        }
        case 'json': {
          const area = h('textarea', { id, class: 'json', rows: '4', spellcheck: 'false', placeholder: field.reason ? 'JSON — ' + field.reason : 'any JSON value' });
          area.value = typeof value === 'string' ? value : '';
          area.addEventListener('input', () => {
            slot.set(area.value);
            changed();
          });
          return area;
        }
        default:
          return h('div', { class: 'muted', text: 'This field cannot be shown.' });
      }
    }

    /** The state of a new array item (forms/state.ts newItemState, as far as the page needs it). @returns {unknown} */
    function newItem(/** @type {FormField} */ items) {
      switch (items.kind) {
        case 'object':
          return {};
        case 'array':
        case 'multiSelect':
          return [];
        case 'boolean':
          return false;
        case 'union': return Array.isArray(items.variants) && items.variants.length ? { variant: 0, value: newItem(items.variants[0].field) } : null;
        case 'enum':
          return items.default !== undefined ? Math.max(0, items.options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(items.default))) : null;
        default:
          return items.default !== undefined && typeof items.default !== 'object' ? String(items.default) : '';
      }
    }

    return { field: renderField, properties, control };
  }

  /**
   * Which errors a form shows: only those of fields the person has edited, until `showAll()`
   * (they pressed Run or Submit). A form does not complain before you type.
   * @param {HTMLElement} root where the fields are (input events bubble up to it)
   */
  function errorGate(root) {
    const touched = /** @type {Set<string>} */ (new Set());
    let all = false;
    const mark = (/** @type {Event} */ e) => {
      const field = e.target instanceof Element ? e.target.closest('.field') : null;
      if (field) touched.add(/** @type {HTMLElement} */ (field).dataset.path || '');
    };
    root.addEventListener('input', mark);
    root.addEventListener('change', mark);
    return {
      showAll() {
        all = true;
      },
      reset() {
        all = false;
        touched.clear();
      },
      /** The errors to show now. */
      filter(/** @type {readonly FieldError[] | undefined} */ errors) {
        const list = Array.isArray(errors) ? errors : [];
        if (all) return list;
        return list.filter((e) => {
          const path = str(e.path);
          for (const t of touched) if (path === t || path.startsWith(t + '/')) return true;
          return false;
        });
      },
    };
  }

  /**
   * Shows errors (FieldError: path, message) at the fields under `root`: each at its own field,
   * else at the nearest ancestor's (prefixed with the rest of its path). Clears the old ones
   * first. Returns the errors no field on screen could take. @returns {FieldError[]}
   */
  function placeErrors(/** @type {ParentNode} */ root, /** @type {readonly FieldError[] | undefined} */ errors) {
    const fields = [...root.querySelectorAll('.field')];
    /** The control a field's label names (it carries aria-invalid). */
    const controlOf = (/** @type {Element} */ el) => {
      const label = el.querySelector(':scope > .label-row > label[for]');
      return label ? document.getElementById(label.getAttribute('for') || '') : null;
    };
    for (const el of fields) {
      el.classList.remove('invalid');
      const line = el.querySelector(':scope > .field-error');
      if (line) line.textContent = '';
      const input = controlOf(el);
      if (input) input.removeAttribute('aria-invalid');
    }
    const find = (/** @type {string} */ path) => fields.find((el) => /** @type {HTMLElement} */ (el).dataset.path === path) || null;
    const unplaced = [];
    for (const e of Array.isArray(errors) ? errors : []) {
      const own = str(e.path);
      let path = own;
      let target = find(path);
      while (!target && path !== '') {
        path = path.slice(0, path.lastIndexOf('/'));
        target = find(path);
      }
      if (!target) {
        unplaced.push(e);
        continue;
      }
      target.classList.add('invalid');
      const input = controlOf(target);
      if (input) input.setAttribute('aria-invalid', 'true');
      const line = target.querySelector(':scope > .field-error');
      if (line) line.textContent = (line.textContent ? line.textContent + '; ' : '') + (path !== own ? own.slice(path.length).replace(/^\//, '') + ': ' : '') + str(e.message);
    }
    return unplaced;
  }

  /**
   * A collapsible JSON tree; values inserted as text. A node opens by itself above `openDepth`
   * (2) when it has at most `openEntries` children (any number by default): a large payload shows
   * folded. At most 500 children of a node are drawn.
   * @param {unknown} value
   * @param {string} [key]
   * @param {number} [depth]
   * @param {{ openDepth?: number, openEntries?: number }} [options]
   */
  function jsonTree(value, key, depth, options) {
    depth = depth || 0;
    const openDepth = options && typeof options.openDepth === 'number' ? options.openDepth : 2;
    const openEntries = options && typeof options.openEntries === 'number' ? options.openEntries : Infinity;
    const keyEl = key !== undefined ? h('span', { class: 'json-key', text: key + ': ' }) : null;
    if (Array.isArray(value) || isObj(value)) {
      const entries = Array.isArray(value) ? value.map((v, i) => /** @type {[string, unknown]} */ ([String(i), v])) : Object.entries(value);
      const label = Array.isArray(value) ? '[' + entries.length + ']' : '{' + entries.length + '}';
      const open = depth < openDepth && entries.length <= openEntries;
      const details = h('details', { class: 'json-node', open: open ? '' : null }, [h('summary', {}, [keyEl, h('span', { class: 'muted', text: label })])]);
      // A closed node's children are drawn when it is first opened, so a large value costs only
      // what is on screen.
      let drawn = false;
      const draw = () => {
        if (drawn) return;
        drawn = true;
        const children = h('div', { class: 'json-children' });
        const limit = 500;
        entries.slice(0, limit).forEach(([k, v]) => children.append(jsonTree(v, k, depth + 1, options)));
        if (entries.length > limit) children.append(h('div', { class: 'muted', text: '… ' + (entries.length - limit) + ' more' }));
        details.append(children);
      };
      if (open) draw();
      else details.addEventListener('toggle', () => details.open && draw());
      return details;
    }
    const type = value === null ? 'null' : typeof value;
    return h('div', { class: 'json-leaf' }, [keyEl, h('span', { class: 'json-' + type, text: type === 'string' ? JSON.stringify(value) : String(value) })]);
  }

  return Object.freeze({ h, post, announce, onMessage, isObj, str, pointer, formatBytes, formatMs, isImageDataUri, isAudioDataUri, notice, formRenderer, errorGate, placeErrors, jsonTree });
})();
