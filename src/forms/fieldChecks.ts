// Checks a form's value field by field, with messages written for the field they sit under, and
// reads a form and checks it in one step (`checkForm`).
import { Json, JsonType, jsonEqual, typeOfValue } from '../schema/json';
import { childPointer } from '../schema/jsonPointer';
import { FORMAT_HINT, checkFormat } from '../schema/formats';
import { compileSafePattern } from '../schema/safePattern';
import type { ErrorKeyword, FieldError, FieldModel, FormState } from './model';
import { toArguments } from './state';

function matchesType(v: unknown, t: JsonType): boolean {
  const actual = typeOfValue(v);
  return actual === t || (t === 'number' && actual === 'integer');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Pattern work of one validation (it runs on every keystroke), in the units of safePattern.ts:
 * a few tenths of a second at most. Patterns past it are not checked here; the server checks.
 */
const MAX_PATTERN_WORK = 20_000_000;

/** One validation: the errors found and the pattern work spent. */
interface CheckRun {
  readonly errors: FieldError[];
  patternWork: number;
}

/**
 * Checks a value against a model; returns every problem with the JSON Pointer of its place.
 * `value` undefined means "not given" (an error only where the field is required).
 */
export function validate(model: FieldModel, value: unknown, path = ''): FieldError[] {
  const run: CheckRun = { errors: [], patternWork: 0 };
  check(model, value, path, run);
  return run.errors;
}

function check(model: FieldModel, value: unknown, path: string, run: CheckRun): void {
  const err = (keyword: ErrorKeyword, message: string, at = path): void => {
    run.errors.push({ path: at, keyword, message });
  };
  if (value === undefined) {
    if (model.required) err('required', 'required');
    return;
  }
  if (value === null && model.nullable) return;
  switch (model.kind) {
    case 'string': {
      if (typeof value !== 'string') return err('type', `expected a string, got ${describe(value)}`);
      const length = [...value].length;
      if (model.minLength !== undefined && length < model.minLength) err('minLength', `at least ${plural(model.minLength, 'character')}`);
      if (model.maxLength !== undefined && length > model.maxLength) err('maxLength', `at most ${plural(model.maxLength, 'character')}`);
      const re = model.pattern === undefined ? undefined : compileSafePattern(model.pattern);
      if (re?.ok && (run.patternWork += re.cost(value)) <= MAX_PATTERN_WORK && !re.test(value)) err('pattern', `must match the pattern ${model.pattern}`);
      if (model.format !== undefined && !checkFormat(model.format, value)) err('format', `must be ${FORMAT_HINT[model.format] ?? model.format}`);
      return;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return err('type', `expected a number, got ${describe(value)}`);
      if (model.integer && !Number.isInteger(value)) return err('type', 'expected a whole number');
      if (model.minimum !== undefined && value < model.minimum) err('minimum', `must be ≥ ${model.minimum}`);
      if (model.maximum !== undefined && value > model.maximum) err('maximum', `must be ≤ ${model.maximum}`);
      if (model.exclusiveMinimum !== undefined && value <= model.exclusiveMinimum) err('minimum', `must be > ${model.exclusiveMinimum}`);
      if (model.exclusiveMaximum !== undefined && value >= model.exclusiveMaximum) err('maximum', `must be < ${model.exclusiveMaximum}`);
      if (model.multipleOf !== undefined) {
        const q = value / model.multipleOf;
        if (Math.abs(q - Math.round(q)) > 1e-9) err('multipleOf', `must be a multiple of ${model.multipleOf}`);
      }
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') err('type', `expected true or false, got ${describe(value)}`);
      return;
    case 'enum':
      if (!model.options.some((o) => jsonEqual(o.value, value))) err('enum', `must be one of ${model.options.map((o) => o.label).join(', ')}`);
      return;
    case 'multiSelect': {
      if (!Array.isArray(value)) return err('type', `expected a list, got ${describe(value)}`);
      value.forEach((v, i) => {
        if (!model.options.some((o) => jsonEqual(o.value, v))) err('enum', `must be one of ${model.options.map((o) => o.label).join(', ')}`, childPointer(path, i));
      });
      if (model.minItems !== undefined && value.length < model.minItems) err('minItems', `choose at least ${model.minItems}`);
      if (model.maxItems !== undefined && value.length > model.maxItems) err('maxItems', `choose at most ${model.maxItems}`);
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) return err('type', `expected a list, got ${describe(value)}`);
      if (model.minItems !== undefined && value.length < model.minItems) err('minItems', `at least ${plural(model.minItems, 'item')}`);
      if (model.maxItems !== undefined && value.length > model.maxItems) err('maxItems', `at most ${plural(model.maxItems, 'item')}`);
      if (model.uniqueItems) {
        for (let i = 1; i < value.length; i++) {
          if (value.slice(0, i).some((x) => jsonEqual(x, value[i]))) err('uniqueItems', 'duplicate of an earlier item', childPointer(path, i));
        }
      }
      value.forEach((item, i) => check(model.items, item, childPointer(path, i), run));
      return;
    }
    case 'object': {
      if (typeOfValue(value) !== 'object') return err('type', `expected an object, got ${describe(value)}`);
      const record = value as Record<string, unknown>;
      for (const p of model.properties) check(p.field, record[p.name], childPointer(path, p.name), run);
      if (model.closed) {
        const known = new Set(model.properties.map((p) => p.name));
        for (const key of Object.keys(record)) if (!known.has(key)) err('additionalProperties', `unknown property "${key}"`, childPointer(path, key));
      }
      return;
    }
    case 'json':
      if (model.types && model.types.length > 0 && !model.types.some((t) => matchesType(value, t))) err('type', `expected ${model.types.join(' or ')}, got ${describe(value)}`);
      return;
    default: {
      const never: never = model;
      return never;
    }
  }
}

function describe(v: unknown): string {
  const t = typeOfValue(v);
  return t === 'integer' ? 'a number' : t === 'undefined' ? 'nothing' : t === 'other' ? 'an unsupported value' : t === 'array' ? 'a list' : t === 'object' ? 'an object' : t === 'null' ? 'null' : `a ${t}`;
}

/** Reads a form and validates the value: parse errors first, then schema errors, one per path. */
export function checkForm(model: FieldModel, state: FormState | undefined): { value: Json | undefined; errors: FieldError[] } {
  const reading = toArguments(model, state);
  const unreadable = new Set(reading.errors.map((e) => e.path));
  // A field whose text could not be read is reported once, as unreadable, not again as missing.
  const schemaErrors = validate(model, reading.value).filter((e) => !unreadable.has(e.path));
  return { value: reading.value, errors: [...reading.errors, ...schemaErrors] };
}
