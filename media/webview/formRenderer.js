// The renderer of forms over the field model of src/forms/model.ts, which both the Call Tool form
// (toolCall.js) and the elicitation form (dialogs.js) draw: a field's label, description,
// control and limits, with its state in slots shaped like FormState (text typed, option indices);
// the extension reads and checks that state. Server text is inserted only as text (McpWebview.h).
// @ts-check

'use strict';
/* global McpWebview */
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  const { h, isObj, str, pointer } = McpWebview;

  /** Longest pattern shown as it is (as QUOTED_PATTERN_MAX in forms/fieldChecks.ts). */
  const QUOTED_PATTERN_MAX = 40;

  // Hints of a format, never a value one could take for a filled-in field.
  const PLACEHOLDERS = /** @type {Record<string, string>} */ ({ email: 'an e-mail address', uri: 'https://…', date: 'YYYY-MM-DD', 'date-time': 'YYYY-MM-DDThh:mm:ssZ', time: 'hh:mm:ss', uuid: 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx' });

  /** Numbers the fields of the page (their ids), across all its forms. */
  let fieldCount = 0;

  /**
   * What a renderer was made with: the audience's wording and the page's callbacks.
   * @typedef {{ forPeople: boolean, unset: string, changed: () => void, suggest?: (input: SuggestingField, path: string) => HTMLElement }} FormOptions
   */

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
  function create(options) {
    const forPeople = options.audience === 'person';
    /** @type {FormOptions} */
    const form = { forPeople, unset: forPeople ? '— not answered —' : '— not set —', changed: options.changed, suggest: options.suggest };
    return {
      /** One field: label, description, control, constraints, error line. */
      field: (/** @type {FormField} */ field, /** @type {string} */ name, /** @type {string} */ path, /** @type {StateSlot} */ slot, /** @type {HTMLElement|null} */ extraAction = null) =>
        renderField(form, field, name, path, slot, extraAction),
      /** The fields of an object's properties, their state kept in the object `slot` holds. */
      properties: (/** @type {import('../../src/forms/model').ObjectField} */ objectField, /** @type {string} */ path, /** @type {StateSlot} */ slot) => properties(form, objectField, path, slot),
      /** The input of one field, without its label. */
      control: (/** @type {FormField} */ field, /** @type {string} */ name, /** @type {string} */ path, /** @type {StateSlot} */ slot, /** @type {string} */ id) => control(form, field, name, path, slot, id),
    };
  }

  /** The member `key` of `v` when it is an object, else undefined. */
  function memberOf(/** @type {unknown} */ v, /** @type {string} */ key) {
    return isObj(v) ? v[key] : undefined;
  }

  /** A field's example as a hint ("e.g. 42"), so it does not read as a value already there. */
  function examplePlaceholder(/** @type {FormField} */ field) {
    return field.example !== undefined ? 'e.g. ' + (typeof field.example === 'string' ? field.example : JSON.stringify(field.example)) : undefined;
  }

  // -----------------------------------------------------------------------------------------------
  // A field's words: label, type, limits, default

  function fieldLabel(/** @type {FormOptions} */ form, /** @type {FormField} */ field, /** @type {string} */ name) {
    const parts = [h('span', { class: 'label-text', text: field.title || name || 'value' })];
    // The star is seen; "required" is heard (a span may not carry aria-label), apart from the name.
    if (field.required) parts.push(h('span', { class: 'required', title: 'required', 'aria-hidden': 'true', text: ' *' }), h('span', { class: 'sr-only', text: ', required,' }));
    const type = form.forPeople ? '' : typeHint(field);
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

  function constraints(/** @type {FormOptions} */ form, /** @type {FormField} */ field) {
    const { forPeople } = form;
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
    if (field.default !== undefined) out.push('default ' + defaultText(form, field));
    return out.join(' · ');
  }

  /** A default as the user sees the value: a choice's title rather than its id. */
  function defaultText(/** @type {FormOptions} */ form, /** @type {FormField} */ field) {
    const choices = field.kind === 'enum' || field.kind === 'multiSelect' ? field.options || [] : [];
    const label = (/** @type {unknown} */ v) => {
      const o = choices.find((x) => JSON.stringify(x.value) === JSON.stringify(v));
      return o ? str(o.label) : form.forPeople && typeof v === 'string' ? v : JSON.stringify(v);
    };
    return field.kind === 'multiSelect' && Array.isArray(field.default) ? field.default.map(label).join(', ') || 'none' : label(field.default);
  }

  // -----------------------------------------------------------------------------------------------
  // A field and its control

  /**
   * One field: label, description, control, constraints, error line.
   * @param {FormOptions} form
   * @param {FormField} field the model
   * @param {string} name property name (for labels)
   * @param {string} path JSON Pointer of its value
   * @param {StateSlot} slot where its state lives
   * @param {HTMLElement|null} [extraAction] a control for the label row (e.g. remove item)
   */
  function renderField(form, field, name, path, slot, extraAction) {
    const wrap = h('div', { class: 'field kind-' + str(field.kind), dataset: { path } });
    const id = 'field-' + ++fieldCount;
    const labelRow = h('div', { class: 'label-row' }, [h('label', { for: id }, fieldLabel(form, field, name))]);
    const body = h('div', { class: 'field-body' });
    const c = constraints(form, field);
    // What the control is described by: its error first, then its description and limits.
    const describedBy = [id + '-error', field.description ? id + '-description' : '', c ? id + '-limits' : ''].filter(Boolean).join(' ');
    const rerenderField = () => renderBody(form, { field, name, path, slot, id, describedBy }, body);
    if (field.nullable) {
      const nullBox = h('input', { type: 'checkbox', class: 'null-toggle', checked: slot.get() === null, title: 'Send null' });
      nullBox.addEventListener('change', () => {
        slot.set(nullBox.checked ? null : undefined);
        rerenderField();
        form.changed();
      });
      labelRow.append(h('label', { class: 'null-label muted' }, [nullBox, ' null']));
    }
    if (extraAction) labelRow.append(extraAction);
    wrap.append(labelRow);
    if (field.description) wrap.append(h('div', { class: 'field-description muted', id: id + '-description', text: field.description }));
    const hint = c ? h('div', { class: 'constraints muted', id: id + '-limits', text: c, title: field.kind === 'string' && field.pattern && field.pattern.length > QUOTED_PATTERN_MAX ? 'pattern ' + field.pattern : undefined }) : null;
    // A person reads the limits under the box they type in; a developer reads them first.
    for (const el of form.forPeople ? [body, hint] : [hint, body]) if (el) wrap.append(el);
    // Not a live region: a form's errors are announced once, by the form's summary.
    wrap.append(h('div', { class: 'error field-error', id: id + '-error' }));
    rerenderField();
    return wrap;
  }

  /**
   * A field's body afresh: its control (or "null"), the control described by the field's lines.
   * @param {FormOptions} form
   * @param {{ field: FormField, name: string, path: string, slot: StateSlot, id: string, describedBy: string }} at
   * @param {HTMLElement} body
   */
  function renderBody(form, at, body) {
    const { field, slot, id } = at;
    body.textContent = '';
    if (slot.get() === null && field.nullable) {
      body.append(h('div', { class: 'muted null-value', text: 'null' }));
      return;
    }
    const input = control(form, field, at.name, at.path, slot, id);
    body.append(input);
    const target = input.id === id ? input : input.querySelector('#' + id);
    if (target) {
      target.setAttribute('aria-describedby', at.describedBy);
      if (field.required && target.matches('input, select, textarea')) target.setAttribute('aria-required', 'true');
    }
  }

  /** The fields of an object's properties, their state kept in the object `slot` holds. */
  function properties(/** @type {FormOptions} */ form, /** @type {import('../../src/forms/model').ObjectField} */ objectField, /** @type {string} */ path, /** @type {StateSlot} */ slot) {
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
      return renderField(form, p.field, str(p.name), pointer(path, p.name), s);
    });
  }

  /**
   * The input of one field, without its label.
   * @param {FormOptions} form
   * @param {FormField} field
   * @param {string} name
   * @param {string} path
   * @param {StateSlot} slot
   * @param {string} id
   * @returns {HTMLElement}
   */
  function control(form, field, name, path, slot, id) {
    switch (field.kind) {
      case 'string':
        return stringControl(form, field, path, slot, id);
      case 'number':
        return numberControl(form, field, slot, id);
      case 'boolean':
        return booleanControl(form, field, slot, id);
      case 'enum':
        return enumControl(form, field, slot, id);
      case 'multiSelect':
        return multiSelectControl(form, field, name, slot, id);
      case 'array':
        return arrayControl(form, field, path, slot, id);
      case 'object': {
        const box = h('div', { class: 'object', id });
        if (!field.properties.length) box.append(h('div', { class: 'muted', text: 'No arguments.' }));
        box.append(...properties(form, field, path, slot));
        return box;
      }
      case 'union':
        return unionControl(form, field, name, path, slot, id);
      case 'json':
        return textControl(form, h('textarea', { id, class: 'json', rows: '4', spellcheck: 'false', placeholder: field.reason ? 'JSON — ' + field.reason : 'any JSON value' }), slot);
      default:
        return h('div', { class: 'muted', text: 'This field cannot be shown.' });
    }
  }

  /**
   * @template {HTMLInputElement | HTMLTextAreaElement} T
   * A box whose text is the state as it is typed.
   * @param {FormOptions} form
   * @param {T} input
   * @param {StateSlot} slot
   * @returns {T}
   */
  function textControl(form, input, slot) {
    const value = slot.get();
    input.value = typeof value === 'string' ? value : '';
    input.addEventListener('input', () => {
      slot.set(input.value);
      form.changed();
    });
    return input;
  }

  function stringControl(/** @type {FormOptions} */ form, /** @type {Extract<FormField, { kind: 'string' }>} */ field, /** @type {string} */ path, /** @type {StateSlot} */ slot, /** @type {string} */ id) {
    const { forPeople } = form;
    const value = slot.get();
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
      form.changed();
    });
    // The page's suggestions wrap the field (a combobox, suggestions.js) when it has them.
    return form.suggest ? form.suggest(input, path) : input;
  }

  function numberControl(/** @type {FormOptions} */ form, /** @type {Extract<FormField, { kind: 'number' }>} */ field, /** @type {StateSlot} */ slot, /** @type {string} */ id) {
    const input = h('input', { id, type: 'text', inputmode: field.integer ? 'numeric' : 'decimal', placeholder: examplePlaceholder(field) || (field.integer ? 'a whole number' : 'a number'), spellcheck: 'false' });
    const value = slot.get();
    input.value = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    input.addEventListener('input', () => {
      slot.set(input.value);
      form.changed();
    });
    return input;
  }

  function booleanControl(/** @type {FormOptions} */ form, /** @type {Extract<FormField, { kind: 'boolean' }>} */ field, /** @type {StateSlot} */ slot, /** @type {string} */ id) {
    const { forPeople } = form;
    const value = slot.get();
    if (field.required && !forPeople) {
      const box = h('input', { id, type: 'checkbox', checked: value === true });
      if (value === undefined) slot.set(false);
      box.addEventListener('change', () => {
        slot.set(box.checked);
        form.changed();
      });
      return h('label', { class: 'checkbox' }, [box, ' ' + (field.title || 'enabled')]);
    }
    const select = h('select', { id }, [h('option', { value: '', text: form.unset }), h('option', { value: 'true', text: forPeople ? 'Yes' : 'true' }), h('option', { value: 'false', text: forPeople ? 'No' : 'false' })]);
    select.value = value === true ? 'true' : value === false ? 'false' : '';
    select.addEventListener('change', () => {
      const v = select.value;
      slot.set(v === '' ? undefined : v === 'true');
      form.changed();
    });
    return select;
  }

  function enumControl(/** @type {FormOptions} */ form, /** @type {Extract<FormField, { kind: 'enum' }>} */ field, /** @type {StateSlot} */ slot, /** @type {string} */ id) {
    const value = slot.get();
    const options = [h('option', { value: '', text: field.required ? '— choose —' : form.unset })];
    (Array.isArray(field.options) ? field.options : []).forEach((o, i) => options.push(h('option', { value: String(i), text: str(o.label), title: o.description || (form.forPeople ? '' : JSON.stringify(o.value)) })));
    const select = h('select', { id }, options);
    select.value = typeof value === 'number' ? String(value) : '';
    select.addEventListener('change', () => {
      const v = select.value;
      slot.set(v === '' ? undefined : Number(v));
      form.changed();
    });
    return select;
  }

  function multiSelectControl(/** @type {FormOptions} */ form, /** @type {Extract<FormField, { kind: 'multiSelect' }>} */ field, /** @type {string} */ name, /** @type {StateSlot} */ slot, /** @type {string} */ id) {
    const value = slot.get();
    const picked = /** @type {Set<number>} */ (new Set(Array.isArray(value) ? value : []));
    const box = h('div', { class: 'multi', id, role: 'group', 'aria-label': field.title || name });
    (Array.isArray(field.options) ? field.options : []).forEach((o, i) => {
      const cb = h('input', { type: 'checkbox', checked: picked.has(i) });
      cb.addEventListener('change', () => {
        if (cb.checked) picked.add(i);
        else picked.delete(i);
        slot.set([...picked].sort((a, b) => a - b));
        form.changed();
      });
      box.append(h('label', { class: 'checkbox', title: o.description || '' }, [cb, ' ' + str(o.label)]));
    });
    return box;
  }

  function arrayControl(/** @type {FormOptions} */ form, /** @type {Extract<FormField, { kind: 'array' }>} */ field, /** @type {string} */ path, /** @type {StateSlot} */ slot, /** @type {string} */ id) {
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
          form.changed();
        } }, ['×']);
        const itemSlot = { get: () => items()[i], set: (/** @type {unknown} */ v) => (items()[i] = v) };
        list.append(h('div', { class: 'array-item' }, [renderField(form, field.items, '#' + (i + 1), pointer(path, i), itemSlot, remove)]));
      });
      const canAdd = field.maxItems === undefined || arr.length < field.maxItems;
      list.append(h('button', { class: 'secondary add-item', disabled: !canAdd, onclick: () => {
        items().push(newItem(field.items));
        draw();
        form.changed();
      } }, ['+ Add item']));
    };
    draw();
    return list;
  }

  /** oneOf/anyOf of different shapes: pick the kind of value, then fill its form. State: { variant, value } (forms/state.ts). */
  function unionControl(/** @type {FormOptions} */ form, /** @type {Extract<FormField, { kind: 'union' }>} */ field, /** @type {string} */ name, /** @type {string} */ path, /** @type {StateSlot} */ slot, /** @type {string} */ id) {
    const variants = Array.isArray(field.variants) ? field.variants : [];
    const picked = () => /** @type {{ variant: number, value?: unknown } | undefined} */ (variants[/** @type {number} */ (memberOf(slot.get(), 'variant'))] ? slot.get() : undefined);
    const select = h('select', { id, class: 'union-choice' }, [h('option', { value: '', text: field.required ? '— choose a kind —' : form.unset }), ...variants.map((v, i) => h('option', { value: String(i), text: str(v.label) }))]);
    const inner = h('div', { class: 'union-variant' });
    const draw = () => {
      const p = picked();
      select.value = p ? String(p.variant) : '';
      inner.textContent = '';
      if (p) inner.append(control(form, variants[p.variant].field, name, path, { get: () => picked()?.value, set: (/** @type {unknown} */ v) => void (picked() && Object.assign(picked() || {}, { value: v })) }, id + '-' + p.variant));
    };
    select.addEventListener('change', () => {
      const v = select.value;
      slot.set(v === '' ? undefined : { variant: Number(v), value: newItem(variants[Number(v)].field) });
      draw(), form.changed();
    });
    return draw(), h('div', { class: 'union' }, [select, inner]);
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

  // eslint-disable-next-line no-unused-vars
  var McpFormRenderer = { create };
}
