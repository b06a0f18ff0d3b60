// JSON Schema → form model. A tool's `inputSchema` (and later an elicitation's restricted
// `requestedSchema`) becomes a tree of fields the webview draws; whatever the form cannot draw
// becomes a JSON editor field for that subtree. Pure logic: no `vscode`, no DOM, no network —
// a `$ref` that is not a local JSON pointer is never fetched, it becomes a JSON field.
//
// Three shapes travel between the pieces:
// - the model (`FieldModel`), built once per schema and sent to the webview as JSON;
// - the form state (`FormState`), the raw input the webview holds (numbers as the text typed,
//   choices as option indices), so "abc" in a number box is an error rather than lost;
// - the value (plain JSON), what `toArguments` produces and the server receives.
// Errors carry the JSON Pointer of the instance they are about ("/edits/0/oldText").
import { compileSafePattern, uncheckedPatternNote } from './safePattern';
import { errorMessage } from '../protocol/errors';

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** String formats the form checks; other formats are shown and passed through unchecked. */
export const CHECKED_FORMATS = ['email', 'uri', 'date', 'date-time', 'uuid'] as const;

interface FieldBase {
  /** Short label: the schema's `title`, else the property name. */
  readonly title?: string;
  readonly description?: string;
  /** Required by the parent object (array items are always required). */
  readonly required: boolean;
  /** `type: [X, "null"]`, `anyOf` with a null branch, or `nullable: true`: null is a valid value. */
  readonly nullable: boolean;
  /** The schema's `default`, when it is valid JSON. */
  readonly default?: Json;
  /** First of `examples`, for a placeholder. */
  readonly example?: Json;
  readonly deprecated?: boolean;
  readonly readOnly?: boolean;
}

export interface StringField extends FieldBase {
  readonly kind: 'string';
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** The schema's `pattern`, when the safe engine checks it. */
  readonly pattern?: string;
  /** Why the schema's `pattern` is shown but not checked ("pattern … not checked: …"). */
  readonly patternNote?: string;
}

export interface NumberField extends FieldBase {
  readonly kind: 'number';
  readonly integer: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
}

export interface BooleanField extends FieldBase {
  readonly kind: 'boolean';
}

export interface EnumOption {
  readonly value: Json;
  /** `title` of a `const` branch, a legacy `enumNames` entry, or the value itself. */
  readonly label: string;
  readonly description?: string;
}

/** A single choice: `enum`, `const`, or `oneOf`/`anyOf` of `const` (+ `title`) branches. */
export interface EnumField extends FieldBase {
  readonly kind: 'enum';
  readonly options: readonly EnumOption[];
}

/** An array of enum values drawn as checkboxes (elicitation's multi-select, and tools alike). */
export interface MultiSelectField extends FieldBase {
  readonly kind: 'multiSelect';
  readonly options: readonly EnumOption[];
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface ArrayField extends FieldBase {
  readonly kind: 'array';
  /** The model of every item. */
  readonly items: FieldModel;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
}

export interface ObjectProperty {
  readonly name: string;
  readonly field: FieldModel;
}

export interface ObjectField extends FieldBase {
  readonly kind: 'object';
  readonly properties: readonly ObjectProperty[];
  /** `additionalProperties: false`: keys outside `properties` are errors. */
  readonly closed: boolean;
}

/** A subtree the form cannot draw: edited as JSON text. */
export interface JsonField extends FieldBase {
  readonly kind: 'json';
  /** Why there is no form, e.g. "unsupported: remote $ref (https://…)"; undefined for "any value". */
  readonly reason?: string;
  /** The JSON types the value may have, when the schema says (checked after parsing). */
  readonly types?: readonly JsonType[];
  /** The subschema, as far as it was resolved, to show beside the editor. */
  readonly schema: Json;
}

export type FieldModel = StringField | NumberField | BooleanField | EnumField | MultiSelectField | ArrayField | ObjectField | JsonField;
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** One problem with one instance location. */
export interface FieldError {
  /** JSON Pointer of the value, "" for the root. */
  readonly path: string;
  readonly keyword: ErrorKeyword;
  readonly message: string;
}

export type ErrorKeyword =
  | 'required'
  | 'type'
  | 'minimum'
  | 'maximum'
  | 'multipleOf'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'format'
  | 'enum'
  | 'minItems'
  | 'maxItems'
  | 'uniqueItems'
  | 'additionalProperties'
  | 'json';

/**
 * The raw input of a form, shaped like the model: strings for string, number and JSON fields
 * (the text typed), booleans, option indices for enums (number) and multi-selects (number[]),
 * arrays and objects of states; `null` where a nullable field is set to null; a missing
 * object key (or `undefined`) where an optional field is unset.
 */
export type FormState = string | number | boolean | null | FormState[] | { [key: string]: FormState };

export interface BuildOptions {
  /** How deep the form nests before the rest becomes JSON (default 12). */
  readonly maxDepth?: number;
}

// ---------------------------------------------------------------------------------------------
// Building

type Schema = Record<string, unknown>;
const JSON_TYPES: readonly JsonType[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isJson(v: unknown, depth = 0): v is Json {
  if (depth > 64) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  if (isObject(v)) return Object.values(v).every((x) => isJson(x, depth + 1));
  return false;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/** Reads a JSON Pointer fragment ("#/$defs/a~1b") against the root schema. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^\d+$/.test(token)) node = node[Number(token)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/** True for a `$ref` that would need the network or another document: never followed. */
export function isRemoteRef(ref: string): boolean {
  return !ref.startsWith('#');
}

/** Most `$ref`/wrapper hops followed in one place of a schema. */
const MAX_RESOLVE_HOPS = 32;
/** The reason of a JSON field that stands for a subtree nested deeper than a form goes. */
export const TOO_DEEP_FOR_FORM = 'nested too deeply for a form';

class Builder {
  constructor(
    private readonly root: unknown,
    private readonly maxDepth: number,
  ) {}

  /**
   * Follows local `$ref`s (and single-entry `allOf`s, a common wrapper) and merges the
   * annotations written beside them; `refs` are the references already being expanded.
   */
  private resolve(schema: Schema, refs: readonly string[]): { schema: Schema; refs: readonly string[] } | { fail: string; schema: Schema } {
    let current = schema;
    let chain = refs;
    for (let hops = 0; hops < MAX_RESOLVE_HOPS; hops++) {
      const ref = current.$ref;
      if (typeof ref === 'string') {
        if (isRemoteRef(ref)) return { fail: `unsupported: remote $ref (${ref})`, schema: current };
        if (chain.includes(ref)) return { fail: `recursive schema ($ref ${ref})`, schema: current };
        const target = resolvePointer(this.root, ref);
        if (target === true) return { schema: withoutKey(current, '$ref'), refs: chain };
        if (!isObject(target)) return { fail: `unresolvable $ref (${ref})`, schema: current };
        const { $ref: _, ...siblings } = current;
        current = { ...target, ...siblings };
        chain = [...chain, ref];
        continue;
      }
      const allOf = current.allOf;
      if (Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0])) {
        const { allOf: _, ...siblings } = current;
        current = { ...allOf[0], ...siblings };
        continue;
      }
      return { schema: current, refs: chain };
    }
    return { fail: 'unresolvable $ref (too many hops)', schema: current };
  }

  /** `unwraps`: nullable wrappers (`anyOf: [X, null]`) already taken off at this depth. */
  build(input: unknown, required: boolean, depth: number, refs: readonly string[], unwraps = 0): FieldModel {
    if (input === true || input === undefined) return this.json({}, required, undefined, {});
    if (input === false) return this.json({}, required, 'no value is allowed here (schema false)', {});
    if (!isObject(input)) return this.json({}, required, 'not a schema', {});
    const resolved = this.resolve(input, refs);
    const base = this.base(resolved.schema, required);
    if ('fail' in resolved) return this.json(resolved.schema, required, resolved.fail, base);
    const schema = resolved.schema;
    refs = resolved.refs;
    if (depth > this.maxDepth) return this.json(schema, required, TOO_DEEP_FOR_FORM, base);

    // Choices first: `enum`, `const`, and `oneOf`/`anyOf` of consts (null branches make it nullable).
    const choice = this.choice(schema);
    if (choice) {
      const declared = typesOf(schema);
      const nullable = base.nullable || choice.nullable || (declared !== 'invalid' && declared.includes('null') && !choice.options.some((o) => o.value === null));
      return { ...base, nullable, kind: 'enum', options: choice.options };
    }

    // anyOf/oneOf of one real branch plus null: that branch, nullable.
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches)) continue;
      const nonNull = branches.filter((b) => !this.isNullSchema(b, refs));
      if (nonNull.length === 1 && branches.length === 2) {
        // Wrappers nest without adding depth: bound them too, or a chain of them overflows the stack.
        if (unwraps >= MAX_RESOLVE_HOPS) return this.json(schema, required, TOO_DEEP_FOR_FORM, base);
        const { [key]: _, ...rest } = schema;
        const inner = this.build(isObject(nonNull[0]) ? { ...nonNull[0], ...annotationsOf(rest) } : nonNull[0], required, depth, refs, unwraps + 1);
        return { ...inner, nullable: true };
      }
      return this.json(schema, required, `${key} of different shapes`, base);
    }
    if (Array.isArray(schema.allOf)) return this.json(schema, required, 'allOf of several schemas', base);
    for (const key of ['not', 'if', 'prefixItems', 'patternProperties', 'dependentSchemas', 'dependencies'] as const) {
      if (schema[key] !== undefined) return this.json(schema, required, `uses "${key}"`, base);
    }

    const types = typesOf(schema);
    if (types === 'invalid') return this.json(schema, required, 'invalid "type"', base);
    const nonNull = types.filter((t) => t !== 'null');
    const nullable = base.nullable || types.includes('null');
    let type: JsonType | undefined = nonNull.length === 1 ? nonNull[0] : undefined;
    if (nonNull.length === 2 && nonNull.includes('number') && nonNull.includes('integer')) type = 'number';
    if (nonNull.length > 1 && type === undefined) return this.json(schema, required, `one of several types (${nonNull.join(', ')})`, base, nullable ? [...nonNull, 'null'] : nonNull);
    if (type === undefined && types.length === 0) {
      // No type: infer from the keywords present, else any JSON value.
      if (isObject(schema.properties)) type = 'object';
      else if (schema.items !== undefined) type = 'array';
    }
    if (type === undefined && nullable && types.length > 0) return this.json(schema, required, undefined, base, ['null']);
    switch (type) {
      case 'string': {
        const pattern = str(schema.pattern);
        const compiled = pattern === undefined ? undefined : compileSafePattern(pattern);
        return {
          ...base,
          nullable,
          kind: 'string',
          ...def('format', str(schema.format)),
          ...def('minLength', count(schema.minLength)),
          ...def('maxLength', count(schema.maxLength)),
          ...def('pattern', compiled?.ok ? pattern : undefined),
          ...def('patternNote', compiled && !compiled.ok && compiled.kind === 'unsupported' ? uncheckedPatternNote(pattern!, compiled.reason) : undefined),
        };
      }
      case 'number':
      case 'integer': {
        // Draft 4 wrote exclusive bounds as booleans beside minimum/maximum.
        const minimum = num(schema.minimum);
        const maximum = num(schema.maximum);
        const exMin = schema.exclusiveMinimum === true ? minimum : num(schema.exclusiveMinimum);
        const exMax = schema.exclusiveMaximum === true ? maximum : num(schema.exclusiveMaximum);
        const multipleOf = num(schema.multipleOf);
        return {
          ...base,
          nullable,
          kind: 'number',
          integer: type === 'integer',
          ...def('minimum', schema.exclusiveMinimum === true ? undefined : minimum),
          ...def('maximum', schema.exclusiveMaximum === true ? undefined : maximum),
          ...def('exclusiveMinimum', exMin),
          ...def('exclusiveMaximum', exMax),
          ...def('multipleOf', multipleOf !== undefined && multipleOf > 0 ? multipleOf : undefined),
        };
      }
      case 'boolean':
        return { ...base, nullable, kind: 'boolean' };
      case 'array':
        return this.array(schema, base, nullable, depth, refs);
      case 'object':
        return this.object(schema, base, nullable, depth, refs);
      case undefined:
        return this.json(schema, required, undefined, base);
      default: {
        const never: never = type;
        return never;
      }
    }
  }

  private array(schema: Schema, base: FieldBase, nullable: boolean, depth: number, refs: readonly string[]): FieldModel {
    const items = schema.items;
    if (Array.isArray(items)) return this.json(schema, base.required, 'tuple items', base, ['array']);
    const bounds = {
      ...def('minItems', count(schema.minItems)),
      ...def('maxItems', count(schema.maxItems)),
    };
    // An array of enum values: checkboxes.
    if (isObject(items)) {
      const resolved = this.resolve(items, refs);
      if (!('fail' in resolved)) {
        const choice = this.choice(resolved.schema);
        if (choice && !choice.nullable) return { ...base, nullable, kind: 'multiSelect', options: choice.options, ...bounds };
      }
    }
    const item = this.build(items, true, depth + 1, refs);
    return { ...base, nullable, kind: 'array', items: item, ...bounds, ...def('uniqueItems', schema.uniqueItems === true ? true : undefined) };
  }

  private object(schema: Schema, base: FieldBase, nullable: boolean, depth: number, refs: readonly string[]): FieldModel {
    const props = isObject(schema.properties) ? schema.properties : {};
    const names = Object.keys(props);
    const additional = schema.additionalProperties;
    // A free-form map ({ additionalProperties: {...} } and no properties) has no fixed fields.
    if (names.length === 0 && additional !== undefined && additional !== false) return this.json(schema, base.required, 'free-form object (keys are not fixed)', base, ['object']);
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    const properties: ObjectProperty[] = names.map((name) => {
      const field = this.build(props[name], required.has(name), depth + 1, refs);
      return { name, field: field.title === undefined ? { ...field, title: name } : field };
    });
    return { ...base, nullable, kind: 'object', properties, closed: additional === false };
  }

  /** `enum`, `const`, or `oneOf`/`anyOf` whose branches are all `const` (or null). */
  private choice(schema: Schema): { options: EnumOption[]; nullable: boolean } | undefined {
    if (Array.isArray(schema.enum)) {
      // Legacy `enumNames` (elicitation before 2025-11-25) label the values when the counts match.
      const names = Array.isArray(schema.enumNames) && schema.enumNames.length === schema.enum.length ? schema.enumNames : undefined;
      const options: EnumOption[] = [];
      schema.enum.forEach((value, i) => {
        if (!isJson(value)) return;
        const name = names ? str(names[i]) : undefined;
        // A null listed in the enum stays a real option: the server named it.
        options.push({ value, label: name ?? labelOf(value) });
      });
      return options.length > 0 ? { options, nullable: false } : undefined;
    }
    if (schema.const !== undefined && isJson(schema.const)) {
      return { options: [{ value: schema.const, label: str(schema.title) ?? labelOf(schema.const), ...def('description', str(schema.description)) }], nullable: false };
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      const options: EnumOption[] = [];
      let nullable = false;
      for (const branch of branches) {
        if (!isObject(branch)) return undefined;
        if (branch.type === 'null' && branch.const === undefined) {
          nullable = true;
          continue;
        }
        if (branch.const === undefined || !isJson(branch.const)) return undefined;
        options.push({ value: branch.const, label: str(branch.title) ?? labelOf(branch.const), ...def('description', str(branch.description)) });
      }
      if (options.length === 0) return undefined;
      return { options, nullable };
    }
    return undefined;
  }

  private isNullSchema(branch: unknown, refs: readonly string[]): boolean {
    if (!isObject(branch)) return false;
    const resolved = this.resolve(branch, refs);
    if ('fail' in resolved) return false;
    const s = resolved.schema;
    return s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null') || s.const === null;
  }

  private base(schema: Schema, required: boolean): FieldBase {
    const dflt = schema.default;
    const examples = Array.isArray(schema.examples) ? schema.examples : undefined;
    return {
      required,
      nullable: schema.nullable === true,
      ...def('title', str(schema.title)),
      ...def('description', str(schema.description)),
      ...def('default', dflt !== undefined && isJson(dflt) ? dflt : undefined),
      ...def('example', examples && examples.length > 0 && isJson(examples[0]) ? examples[0] : undefined),
      ...def('deprecated', schema.deprecated === true ? true : undefined),
      ...def('readOnly', schema.readOnly === true ? true : undefined),
    };
  }

  private json(schema: Schema, required: boolean, reason: string | undefined, base: Partial<FieldBase>, types?: readonly JsonType[]): JsonField {
    const shown = isJson(schema) ? schema : {};
    const declared = typesOf(schema);
    const t = types ?? (declared !== 'invalid' && declared.length > 0 ? declared : undefined);
    return { ...base, required, nullable: base.nullable ?? false, kind: 'json', ...def('reason', reason), ...def('types', t), schema: shown };
  }
}

function withoutKey(s: Schema, key: string): Schema {
  const { [key]: _, ...rest } = s;
  return rest;
}

/** The annotation keywords a wrapper may add around a branch. */
function annotationsOf(s: Schema): Schema {
  const out: Schema = {};
  for (const k of ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly']) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

function typesOf(schema: Schema): JsonType[] | 'invalid' {
  const t = schema.type;
  if (t === undefined) return [];
  const list = Array.isArray(t) ? t : [t];
  if (!list.every((x): x is JsonType => typeof x === 'string' && (JSON_TYPES as readonly string[]).includes(x))) return 'invalid';
  return list;
}

/** Adds `{ [key]: value }` only when the value is defined (keeps models free of undefined keys). */
function def<K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [k in K]?: V };
}

function labelOf(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Builds the form model of a schema. The root of a tool's `inputSchema` is an object; for any
 * other root the model is whatever that schema draws as.
 */
export function buildFormModel(schema: unknown, options: BuildOptions = {}): FieldModel {
  return new Builder(schema, options.maxDepth ?? 12).build(schema, true, 0, []);
}

/** Every JSON field of a model with its path template ("*" for array items) and reason. */
export function fallbacks(model: FieldModel, path = ''): Array<{ path: string; reason?: string }> {
  switch (model.kind) {
    case 'json':
      return [{ path, ...def('reason', model.reason) }];
    case 'object':
      return model.properties.flatMap((p) => fallbacks(p.field, `${path}/${escapePointer(p.name)}`));
    case 'array':
      return fallbacks(model.items, `${path}/*`);
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Pointers

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${typeof token === 'number' ? token : escapePointer(token)}`;
}

// ---------------------------------------------------------------------------------------------
// Validation

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URI_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function validDate(y: string, m: string, d: string): boolean {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= days[month - 1];
}

/**
 * `local@domain.tld`: one `@`, no whitespace, a dot inside the domain. Written without a regex:
 * the obvious one (`^[^\s@]+@[^\s@]+\.[^\s@]+$`) backtracks quadratically, and servers choose
 * the values checked (50,000 characters took 12 s).
 */
function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || value.includes('@', at + 1) || /\s/.test(value)) return false;
  return value.slice(at + 2, -1).includes('.');
}

/** Checks a string against one of CHECKED_FORMATS; other formats always pass. */
export function checkFormat(format: string, value: string): boolean {
  switch (format) {
    case 'email':
      return isEmail(value);
    case 'uri': {
      if (!URI_SCHEME.test(value) || /\s/.test(value)) return false;
      try {
        new URL(value);
        return true;
      } catch {
        return false;
      }
    }
    case 'date': {
      const m = DATE.exec(value);
      return !!m && validDate(m[1], m[2], m[3]);
    }
    case 'date-time': {
      const m = DATE_TIME.exec(value);
      return !!m && validDate(m[1], m[2], m[3]) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61;
    }
    case 'uuid':
      return UUID.test(value);
    default:
      return true;
  }
}

const FORMAT_HINT: Record<string, string> = {
  email: 'an email address',
  uri: 'an absolute URI (scheme:…)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (2025-01-31T12:00:00Z)',
  uuid: 'a UUID',
};

/** Deep equality of JSON values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ak = Object.keys(a as object);
  const bo = b as Record<string, unknown>;
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && jsonEqual((a as Record<string, unknown>)[k], bo[k]));
}

function typeOfValue(v: unknown): JsonType | 'undefined' | 'other' {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'object') return typeof v as JsonType;
  return 'other';
}

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

// ---------------------------------------------------------------------------------------------
// Form state ↔ value

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
    case 'json': {
      if (typeof state !== 'string' || state.trim() === '') return undefined;
      try {
        return JSON.parse(state) as Json;
      } catch (e) {
        errors.push({ path, keyword: 'json', message: `not valid JSON: ${errorMessage(e)}` });
        return undefined;
      }
    }
    default: {
      const never: never = model;
      return never;
    }
  }
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

/** Reads a form and validates the value: parse errors first, then schema errors, one per path. */
export function checkForm(model: FieldModel, state: FormState | undefined): { value: Json | undefined; errors: FieldError[] } {
  const reading = toArguments(model, state);
  const unreadable = new Set(reading.errors.map((e) => e.path));
  // A field whose text could not be read is reported once, as unreadable, not again as missing.
  const schemaErrors = validate(model, reading.value).filter((e) => !unreadable.has(e.path));
  return { value: reading.value, errors: [...reading.errors, ...schemaErrors] };
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
