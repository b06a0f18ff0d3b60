// Form state ↔ value: reading what the user typed into the value to send (and the input that is
// not a value at all: text in a number box, broken JSON), and the state that shows a value.
import { errorMessage } from '../protocol/errors';
import { Json, jsonEqual, typeOfValue } from '../schema/json';
import { childPointer } from '../schema/jsonPointer';
import type { ArrayField, FieldError, FieldModel, FormState } from './model';

/** The result of reading a form: the value to send, and the input that could not be read. */
export interface FormReading {
  /** undefined when the root itself is empty and optional. */
  readonly value: Json | undefined;
  /** Input that is not a value at all (text in a number box, broken JSON). */
  readonly errors: FieldError[];
}

/**
 * Turns form state into the value to send. Empty optional fields are left out (an empty text
 * box, an unset choice, an optional object whose fields are all empty); a required text field
 * that is empty is left out too, so validation reports it as required.
 */
export function toArguments(model: FieldModel, state: FormState | undefined, path = ''): FormReading {
  const errors: FieldError[] = [];
  const value = read(model, state, path, errors);
  return { value, errors };
}

function read(model: FieldModel, state: FormState | undefined, path: string, errors: FieldError[]): Json | undefined {
  if (state === undefined) return undefined;
  if (state === null) return model.nullable ? null : undefined;
  switch (model.kind) {
    case 'string':
      return typeof state === 'string' && state !== '' ? state : undefined;
    case 'number': {
      const text = typeof state === 'number' ? String(state) : typeof state === 'string' ? state.trim() : '';
      if (text === '') return undefined;
      const n = Number(text);
      if (!Number.isFinite(n) || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
        errors.push({ path, keyword: 'type', message: `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}" is not a number` });
        return undefined;
      }
      return n;
    }
    case 'boolean':
      return typeof state === 'boolean' ? state : undefined;
    case 'enum': {
      const i = typeof state === 'number' ? state : typeof state === 'string' && /^\d+$/.test(state) ? Number(state) : -1;
      return i >= 0 && i < model.options.length ? model.options[i].value : undefined;
    }
    case 'multiSelect': {
      if (!Array.isArray(state)) return undefined;
      const picked = new Set(state.filter((i): i is number => typeof i === 'number'));
      const values = model.options.filter((_, i) => picked.has(i)).map((o) => o.value);
      return values.length === 0 && !model.required ? undefined : values;
    }
    case 'array': {
      if (!Array.isArray(state)) return undefined;
      // Items are always kept (an empty item is an error to see, not a silent drop).
      return state.map((s, i) => {
        const v = read(model.items, s, childPointer(path, i), errors);
        return v === undefined ? emptyOf(model.items) : v;
      });
    }
    case 'object': {
      if (typeof state !== 'object' || Array.isArray(state)) return undefined;
      const out: Record<string, Json> = {};
      for (const p of model.properties) {
        const v = read(p.field, state[p.name], childPointer(path, p.name), errors);
        if (v !== undefined) out[p.name] = v;
      }
      if (Object.keys(out).length === 0 && !model.required) return undefined;
      return out;
    }
    case 'union': {
      const picked = unionState(state);
      const variant = picked && model.variants[picked.variant];
      return variant ? read(variant.field, picked.value, path, errors) : undefined;
    }
    case 'json': {
      if (typeof state !== 'string' || state.trim() === '') return undefined;
      const parsed = parseJsonInput(state, path);
      if (parsed.ok) return parsed.value;
      errors.push(parsed.error);
      return undefined;
    }
    default: {
      const never: never = model;
      return never;
    }
  }
}

/**
 * The state of a union: which alternative is picked, and that alternative's own state. Written
 * `{ variant, value }` (an index into `UnionField.variants`), like an enum's option index.
 */
export function unionState(state: FormState | undefined): { variant: number; value: FormState | undefined } | undefined {
  if (typeof state !== 'object' || state === null || Array.isArray(state) || typeof state.variant !== 'number') return undefined;
  return { variant: state.variant, value: state.value };
}

/** What an array item that was added but left empty is sent as, so validation can point at it. */
function emptyOf(model: FieldModel): Json {
  switch (model.kind) {
    case 'object':
      return {};
    case 'array':
    case 'multiSelect':
      return [];
    case 'string':
      return '';
    default:
      return null;
  }
}

export interface StateOptions {
  /** Pre-fill fields from their schema `default` (default true). */
  readonly fillDefaults?: boolean;
}

/**
 * The form state that shows `value` (for the JSON ⇄ form switch and for re-running a call from
 * history). `exact` is false when part of the value has no place in the form (an unknown key,
 * a value outside an enum, a number in a text box): the caller should stay in JSON mode then.
 */
export function fromValue(model: FieldModel, value: unknown): { state: FormState | undefined; exact: boolean } {
  const ctx = { exact: true };
  const state = toState(model, value, ctx);
  return { state, exact: ctx.exact };
}

function toState(model: FieldModel, value: unknown, ctx: { exact: boolean }): FormState | undefined {
  if (value === undefined) return undefined;
  if (value === null) {
    if (model.nullable) return null;
    if (model.kind === 'enum') {
      const i = model.options.findIndex((o) => o.value === null);
      if (i >= 0) return i;
    }
    if (model.kind !== 'json') {
      ctx.exact = false;
      return undefined;
    }
  }
  switch (model.kind) {
    case 'string':
      if (typeof value === 'string') return value;
      break;
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      break;
    case 'enum': {
      const i = model.options.findIndex((o) => jsonEqual(o.value, value));
      if (i >= 0) return i;
      break;
    }
    case 'multiSelect': {
      if (!Array.isArray(value)) break;
      const indices: number[] = [];
      for (const v of value) {
        const i = model.options.findIndex((o) => jsonEqual(o.value, v));
        if (i < 0 || indices.includes(i)) ctx.exact = false;
        else indices.push(i);
      }
      return indices.sort((a, b) => a - b);
    }
    case 'array':
      if (Array.isArray(value)) return value.map((v) => toState(model.items, v, ctx) ?? null);
      break;
    case 'object': {
      if (typeOfValue(value) !== 'object') break;
      const record = value as Record<string, unknown>;
      const out: Record<string, FormState> = {};
      const known = new Set<string>();
      for (const p of model.properties) {
        known.add(p.name);
        const s = toState(p.field, record[p.name], ctx);
        if (s !== undefined) out[p.name] = s;
      }
      if (Object.keys(record).some((k) => !known.has(k))) ctx.exact = false;
      return out;
    }
    case 'union':
      // The first alternative that shows the value whole.
      for (const [i, v] of model.variants.entries()) {
        const inner = { exact: true };
        const state = toState(v.field, value, inner);
        if (inner.exact && state !== undefined) return { variant: i, value: state };
      }
      break;
    case 'json':
      return JSON.stringify(value, null, 2);
    default: {
      const never: never = model;
      return never;
    }
  }
  ctx.exact = false;
  return undefined;
}

/**
 * The state a fresh form starts with: defaults filled in (unless told not to), required
 * objects opened, every other field empty.
 */
export function initialState(model: FieldModel, options: StateOptions = {}): FormState | undefined {
  const fill = options.fillDefaults ?? true;
  if (fill && model.default !== undefined) {
    const { state, exact } = fromValue(model, model.default);
    if (exact) return state;
  }
  switch (model.kind) {
    case 'object': {
      if (!model.required) return undefined;
      const out: Record<string, FormState> = {};
      for (const p of model.properties) {
        const s = initialState(p.field, options);
        if (s !== undefined) out[p.name] = s;
      }
      return out;
    }
    case 'array':
      return model.required ? [] : undefined;
    case 'union': {
      // A required union starts on its first alternative; an optional one sends nothing until picked.
      if (!model.required) return undefined;
      const first = initialState({ ...model.variants[0].field, required: true } as FieldModel, options);
      return first === undefined ? { variant: 0 } : { variant: 0, value: first };
    }
    default:
      return undefined;
  }
}

/** The state of a new array item (the add button). */
export function newItemState(model: ArrayField): FormState {
  const items = model.items;
  const fresh = initialState({ ...items, required: true } as FieldModel);
  if (fresh !== undefined) return fresh;
  switch (items.kind) {
    case 'boolean':
      return false;
    case 'multiSelect':
      return [];
    case 'string':
    case 'number':
    case 'json':
      return '';
    default:
      return null;
  }
}

/** The value shown in JSON mode for a fresh form: the defaults the form would send. */
export function initialValue(model: FieldModel, options: StateOptions = {}): Json | undefined {
  return toArguments(model, initialState(model, options)).value;
}

/** Reads JSON text typed into a JSON field or the JSON mode of a form: the value, or the error to show at `path`. */
export function parseJsonInput(text: string, path = ''): { ok: true; value: Json } | { ok: false; error: FieldError } {
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch (e) {
    return { ok: false, error: { path, keyword: 'json', message: `not valid JSON: ${errorMessage(e)}` } };
  }
}
