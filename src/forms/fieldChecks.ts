// Checks a form's value with the one JSON Schema validator (ajv, src/schema/validator.ts) and
// words each problem for the field it sits under, in the form's terms ("at least 2 characters",
// "must be one of Red, Green"). `checkForm` reads a form first (the form-only checks of state.ts:
// text in a number box, broken JSON: what ajv cannot see) and then checks the value.
import { isRecord } from '../protocol/jsonShape';
import { FORMAT_HINT } from '../schema/formats';
import { Json, typeOfValue } from '../schema/json';
import { isRemoteRef, resolvePointer } from '../schema/jsonPointer';
import { DetailedSchemaError, SchemaValidator, sharedSchemaValidator } from '../schema/validator';
import { ErrorKeyword, FieldError, FieldModel, FormState, sourceSchema } from './model';
import { toArguments } from './state';

export interface ValidateOptions {
  /** The validator to use (its compile cache): the shared one by default. */
  readonly validator?: SchemaValidator;
  /** Keys outside the root object's `properties` are errors (elicitation content), whatever the schema says. */
  readonly closeRoot?: boolean;
}

/**
 * Checks a value against the schema `model` was built from (see sourceSchema); returns every
 * problem with the JSON Pointer of its place. `value` undefined means "not given" (an error only
 * where the field is required). Parts ajv cannot check (a `$ref` the form does not follow, a
 * schema too large, patterns past their budget) are left to the server, which checks anyway.
 */
export function validate(model: FieldModel, value: unknown, options: ValidateOptions = {}): FieldError[] {
  const source = sourceSchema(model);
  if (!source.found) throw new Error('validate: the model was not built by buildFormModel (a copy has no schema)');
  if (value === undefined) return model.required ? [{ path: '', keyword: 'required', message: 'required' }] : [];
  let schema = checkableSchema(source.schema);
  if (options.closeRoot && isRecord(schema)) schema = { ...schema, additionalProperties: false };
  const checked = (options.validator ?? sharedSchemaValidator).checkDetailed(schema, value);
  switch (checked.kind) {
    case 'valid':
    case 'unusable':
      return [];
    case 'invalid':
      return fieldErrors(model, value, checked.errors);
    case 'unchecked':
      return checked.errors ? fieldErrors(model, value, checked.errors) : [];
    default: {
      const never: never = checked;
      return never;
    }
  }
}

/** Reads a form and validates the value: parse errors first, then schema errors, one per path. */
export function checkForm(model: FieldModel, state: FormState | undefined, options: ValidateOptions = {}): { value: Json | undefined; errors: FieldError[] } {
  const reading = toArguments(model, state);
  const unreadable = new Set(reading.errors.map((e) => e.path));
  // A field whose text could not be read is reported once, as unreadable, not again as missing.
  const schemaErrors = validate(model, reading.value, options).filter((e) => !unreadable.has(e.path));
  return { value: reading.value, errors: [...reading.errors, ...schemaErrors] };
}

// ---- the schema the form checks ----

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
const checkable = new WeakMap<object, unknown>();

/**
 * The schema with every `$ref` the form does not follow (remote, or not resolvable here) taken
 * out, so the rest is still checked; the form shows those parts as JSON fields. Kept per schema.
 */
function checkableSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  let out = checkable.get(schema);
  if (out === undefined) {
    out = withoutUnfollowedRefs(schema, schema, 0);
    checkable.set(schema, out);
  }
  return out;
}

function withoutUnfollowedRefs(node: unknown, root: unknown, depth: number): unknown {
  // Past the validator's own depth bound the check is refused anyway ("schema too large").
  if (typeof node !== 'object' || node === null || depth > 64) return node;
  if (Array.isArray(node)) return node.map((n) => withoutUnfollowedRefs(n, root, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === '$ref' || k === '$dynamicRef') && typeof v === 'string' && (isRemoteRef(v) || resolvePointer(root, v) === undefined)) continue;
    out[k] = DATA_KEYWORDS.has(k) ? v : withoutUnfollowedRefs(v, root, depth + 1);
  }
  return out;
}

// ---- ajv's findings in the form's words ----

function fieldErrors(model: FieldModel, value: unknown, errors: readonly DetailedSchemaError[]): FieldError[] {
  const chosen = chooseBranches(errors);
  // A pattern that restates the field's format (zod writes both) is one problem, told as the format's.
  const formatFailed = new Set(chosen.filter((e) => e.keyword === 'format').map((e) => e.path));
  return chosen
    .filter((e) => !(e.keyword === 'pattern' && formatFailed.has(e.path) && restatesFormat(model, e.path)))
    .map((e) => fieldError(model, value, e));
}

function restatesFormat(model: FieldModel, path: string): boolean {
  const field = fieldAt(model, path);
  return field?.kind === 'string' && field.patternRestatesFormat === true;
}

/** Longest pattern an error message quotes; a longer one is named, not shown (the field's hint has it). */
export const QUOTED_PATTERN_MAX = 40;

function patternMessage(model: FieldModel, path: string, pattern: string): string {
  const field = fieldAt(model, path);
  if (field?.kind === 'string' && field.patternRestatesFormat && field.format !== undefined) {
    // The value passed the host's format check but not the server's stricter pattern for it.
    return `must be ${FORMAT_HINT[field.format] ?? field.format} in the form the server accepts`;
  }
  return pattern.length > QUOTED_PATTERN_MAX ? `must match the pattern the schema gives (${pattern.length} characters)` : `must match the pattern ${pattern}`;
}

/**
 * ajv reports every branch of a failed `anyOf`/`oneOf`. A field shows the problems of the branch
 * the value was meant for: the one whose type fits (the fewest problems among those), or, when no
 * branch's type fits, one type error naming the types allowed. Outermost choices first.
 */
function chooseBranches(errors: readonly DetailedSchemaError[]): DetailedSchemaError[] {
  let rest = [...errors];
  const choices = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const choice of choices) {
    if (!rest.includes(choice)) continue;
    const prefix = `${choice.schemaPath}/`;
    const inside = rest.filter((e) => e.schemaPath.startsWith(prefix));
    // A oneOf that several branches matched has no branch errors: it stays as it is.
    if (inside.length === 0) continue;
    const branches = new Map<string, DetailedSchemaError[]>();
    for (const e of inside) {
      const branch = e.schemaPath.slice(prefix.length).split('/')[0];
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const fitting = [...branches.values()].filter((b) => !b.some((e) => e.keyword === 'type' && e.path === choice.path)).sort((a, b) => a.length - b.length)[0];
    if (fitting) {
      rest = rest.filter((e) => e !== choice && (!inside.includes(e) || fitting.includes(e)));
      continue;
    }
    const types = inside.filter((e) => e.keyword === 'type' && e.path === choice.path).flatMap((e) => typeList(e.params.type));
    const asType: DetailedSchemaError = { path: choice.path, keyword: 'type', message: choice.message, params: { type: [...new Set(types)] }, schemaPath: choice.schemaPath };
    rest = rest.filter((e) => !inside.includes(e)).map((e) => (e === choice ? asType : e));
  }
  return rest;
}

function typeList(type: unknown): string[] {
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : typeof type === 'string' ? type.split(',') : [];
}

const KEYWORDS: Readonly<Record<string, ErrorKeyword>> = {
  required: 'required',
  type: 'type',
  minimum: 'minimum',
  exclusiveMinimum: 'minimum',
  maximum: 'maximum',
  exclusiveMaximum: 'maximum',
  multipleOf: 'multipleOf',
  minLength: 'minLength',
  maxLength: 'maxLength',
  pattern: 'pattern',
  format: 'format',
  enum: 'enum',
  const: 'enum',
  minItems: 'minItems',
  maxItems: 'maxItems',
  uniqueItems: 'uniqueItems',
  additionalProperties: 'additionalProperties',
};

const TYPE_WORDS: Readonly<Record<string, string>> = { string: 'a string', number: 'a number', integer: 'a whole number', boolean: 'true or false', array: 'a list', object: 'an object', null: 'null' };

function fieldError(model: FieldModel, value: unknown, e: DetailedSchemaError): FieldError {
  const keyword = KEYWORDS[e.keyword] ?? 'schema';
  const p = e.params;
  const limit = typeof p.limit === 'number' ? p.limit : NaN;
  // ajv names the array for a duplicate; the field to mark is the later item.
  const path = e.keyword === 'uniqueItems' && typeof p.i === 'number' && typeof p.j === 'number' ? `${e.path}/${Math.max(p.i, p.j)}` : e.path;
  const field = fieldAt(model, path);
  const at = valueAt(value, path);
  const message = ((): string => {
    switch (e.keyword) {
      case 'type': {
        const types = typeList(p.type);
        if (types.length === 1 && types[0] === 'integer' && typeof at === 'number') return 'expected a whole number';
        return `expected ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}, got ${describe(at)}`;
      }
      case 'minLength':
        return `at least ${plural(limit, 'character')}`;
      case 'maxLength':
        return `at most ${plural(limit, 'character')}`;
      case 'minimum':
      case 'exclusiveMinimum':
      case 'maximum':
      case 'exclusiveMaximum':
        return `must be ${{ '>=': '≥', '>': '>', '<=': '≤', '<': '<' }[String(p.comparison)] ?? String(p.comparison)} ${limit}`;
      case 'multipleOf':
        return `must be a multiple of ${String(p.multipleOf)}`;
      case 'pattern':
        return patternMessage(model, path, String(p.pattern));
      case 'format':
        return `must be ${FORMAT_HINT[String(p.format)] ?? String(p.format)}`;
      case 'enum':
      case 'const':
        return `must be one of ${choiceLabels(model, path, e.keyword === 'enum' ? p.allowedValues : [p.allowedValue])}`;
      case 'minItems':
        return field?.kind === 'multiSelect' ? `choose at least ${limit}` : `at least ${plural(limit, 'item')}`;
      case 'maxItems':
        return field?.kind === 'multiSelect' ? `choose at most ${limit}` : `at most ${plural(limit, 'item')}`;
      case 'uniqueItems':
        return 'duplicate of an earlier item';
      default:
        // required and additionalProperties are worded by the validator already.
        return e.message;
    }
  })();
  return { path, keyword, message };
}

/** The option labels of the choice at `path` (an enum field, or an item of a multi-select), else the allowed values as JSON. */
function choiceLabels(model: FieldModel, path: string, allowed: unknown): string {
  const field = fieldAt(model, path);
  const parent = path === '' ? undefined : fieldAt(model, path.slice(0, path.lastIndexOf('/')));
  const options = field?.kind === 'enum' ? field.options : parent?.kind === 'multiSelect' ? parent.options : undefined;
  if (options) return options.map((o) => o.label).join(', ');
  return (Array.isArray(allowed) ? allowed : []).map((v) => JSON.stringify(v)).join(', ');
}

function tokens(path: string): string[] {
  return path === '' ? [] : path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The field that draws the value at `path`, when the form draws it. */
function fieldAt(model: FieldModel, path: string): FieldModel | undefined {
  let field: FieldModel | undefined = model;
  for (const token of tokens(path)) {
    if (field?.kind === 'object') field = field.properties.find((p) => p.name === token)?.field;
    else if (field?.kind === 'array') field = field.items;
    else return undefined;
  }
  return field;
}

function valueAt(value: unknown, path: string): unknown {
  let at = value;
  for (const token of tokens(path)) {
    if (Array.isArray(at)) at = at[Number(token)];
    else if (isRecord(at)) at = at[token];
    else return undefined;
  }
  return at;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function describe(v: unknown): string {
  const t = typeOfValue(v);
  return t === 'integer' ? 'a number' : t === 'undefined' ? 'nothing' : t === 'other' ? 'an unsupported value' : t === 'array' ? 'a list' : t === 'object' ? 'an object' : t === 'null' ? 'null' : `a ${t}`;
}
