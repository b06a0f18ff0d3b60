// JSON Schema → form model. A tool's `inputSchema` (and an elicitation's restricted
// `requestedSchema`) becomes a tree of fields the webview draws; whatever the form cannot draw
// becomes a JSON editor field for that subtree. Pure logic: no `vscode`, no DOM, no network —
// a `$ref` that is not a local JSON pointer is never fetched, it becomes a JSON field.
//
// Three shapes travel between the pieces of src/forms:
// - the model (`FieldModel`, this file), built once per schema and sent to the webview as JSON;
// - the form state (`FormState`, state.ts), the raw input the webview holds (numbers as the text
//   typed, choices as option indices), so "abc" in a number box is an error rather than lost;
// - the value (plain JSON), what `toArguments` produces and the server receives.
// Errors carry the JSON Pointer of the instance they are about ("/edits/0/oldText").
import { isRecord } from '../protocol/jsonShape';
import { Json, JsonType, isJson } from '../schema/json';
import { escapePointer, isRemoteRef, resolvePointer } from '../schema/jsonPointer';
import { compileSafePattern, uncheckedPatternNote } from '../schema/safePattern';
import { patternRestatesFormat } from '../schema/formats';

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
  /** The schema's `pattern`, when the safe engine checks it and it says more than `format`. */
  readonly pattern?: string;
  /** The schema's `pattern` says what `format` says (zod writes both): only the format is shown and reported. */
  readonly patternRestatesFormat?: boolean;
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

/** One alternative of a union: what the choice calls it, and its own form. */
export interface UnionVariant {
  readonly label: string;
  readonly field: FieldModel;
}

/** `oneOf`/`anyOf` of different shapes: the user picks an alternative, then fills its form. */
export interface UnionField extends FieldBase {
  readonly kind: 'union';
  readonly variants: readonly UnionVariant[];
}

export type FieldModel = StringField | NumberField | BooleanField | EnumField | MultiSelectField | ArrayField | ObjectField | UnionField | JsonField;
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
  | 'json'
  /** Any other rule of the schema (`not`, `dependentRequired`, `contains`, …): the message says which. */
  | 'schema';

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

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
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
        if (!isRecord(target)) return { fail: `unresolvable $ref (${ref})`, schema: current };
        const { $ref: _, ...siblings } = current;
        current = { ...target, ...siblings };
        chain = [...chain, ref];
        continue;
      }
      const allOf = current.allOf;
      if (Array.isArray(allOf) && allOf.length === 1 && isRecord(allOf[0])) {
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
    if (!isRecord(input)) return this.json({}, required, 'not a schema', {});
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
        const inner = this.build(isRecord(nonNull[0]) ? { ...nonNull[0], ...annotationsOf(rest) } : nonNull[0], required, depth, refs, unwraps + 1);
        return { ...inner, nullable: true };
      }
      return this.union(schema, key, base, depth, refs) ?? this.json(schema, required, `${key} of different shapes`, base);
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
      if (isRecord(schema.properties)) type = 'object';
      else if (schema.items !== undefined) type = 'array';
    }
    if (type === undefined && nullable && types.length > 0) return this.json(schema, required, undefined, base, ['null']);
    switch (type) {
      case 'string':
        return stringField(schema, base, nullable);
      case 'number':
      case 'integer':
        return numberField(schema, base, nullable, type === 'integer');
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
    if (isRecord(items)) {
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
    const props = isRecord(schema.properties) ? schema.properties : {};
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

  /**
   * `oneOf`/`anyOf` of alternatives the form can draw, each with its own form (null branches make
   * it nullable). Undefined when the schema says more beside them than annotations and a `type`
   * (their shared `properties`, say): then the whole is edited as JSON.
   */
  private union(schema: Schema, key: 'oneOf' | 'anyOf', base: FieldBase, depth: number, refs: readonly string[]): UnionField | undefined {
    const shared = Object.keys(schema).filter((k) => k !== key && k !== 'type' && !ANNOTATIONS.includes(k) && !k.startsWith('$') && k !== 'nullable');
    const branches = schema[key] as unknown[];
    const real = branches.filter((b) => !this.isNullSchema(b, refs));
    if (shared.length > 0 || real.length < 2 || real.length > MAX_VARIANTS) return undefined;
    const variants = real.map((branch, i) => {
      const field = this.build(branch, true, depth + 1, refs);
      return { label: variantLabel(branch, field, i), field };
    });
    if (variants.every((v) => v.field.kind === 'json')) return undefined;
    return { ...base, nullable: base.nullable || real.length < branches.length, kind: 'union', variants };
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
        if (!isRecord(branch)) return undefined;
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
    if (!isRecord(branch)) return false;
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

/** A string field: its format, lengths and pattern (a pattern that only restates the format, or one RE2 cannot check, is not enforced by the form). */
function stringField(schema: Schema, base: FieldBase, nullable: boolean): StringField {
  const pattern = str(schema.pattern);
  const format = str(schema.format);
  const compiled = pattern === undefined ? undefined : compileSafePattern(pattern);
  const restates = compiled?.ok === true && patternRestatesFormat(format, compiled.test);
  return {
    ...base,
    nullable,
    kind: 'string',
    ...def('format', format),
    ...def('minLength', count(schema.minLength)),
    ...def('maxLength', count(schema.maxLength)),
    ...def('pattern', compiled?.ok && !restates ? pattern : undefined),
    ...def('patternRestatesFormat', restates || undefined),
    ...def('patternNote', compiled && !compiled.ok && compiled.kind === 'unsupported' ? uncheckedPatternNote(pattern!, compiled.reason) : undefined),
  };
}

/** A number or integer field and its bounds, exclusive ones in either draft's spelling. */
function numberField(schema: Schema, base: FieldBase, nullable: boolean, integer: boolean): NumberField {
  // Draft 4 wrote exclusive bounds as booleans beside minimum/maximum. A bound at the edge of
  // safe integers (zod's `int()` writes ±9007199254740991) bounds nothing a person types: not shown.
  const bound = (v: unknown) => {
    const n = num(v);
    return n !== undefined && Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n;
  };
  const minimum = bound(schema.minimum);
  const maximum = bound(schema.maximum);
  const exMin = schema.exclusiveMinimum === true ? minimum : bound(schema.exclusiveMinimum);
  const exMax = schema.exclusiveMaximum === true ? maximum : bound(schema.exclusiveMaximum);
  const multipleOf = num(schema.multipleOf);
  return {
    ...base,
    nullable,
    kind: 'number',
    integer,
    ...def('minimum', schema.exclusiveMinimum === true ? undefined : minimum),
    ...def('maximum', schema.exclusiveMaximum === true ? undefined : maximum),
    ...def('exclusiveMinimum', exMin),
    ...def('exclusiveMaximum', exMax),
    ...def('multipleOf', multipleOf !== undefined && multipleOf > 0 ? multipleOf : undefined),
  };
}

function withoutKey(s: Schema, key: string): Schema {
  const { [key]: _, ...rest } = s;
  return rest;
}

/** The annotation keywords a wrapper may add around a branch. */
const ANNOTATIONS: readonly string[] = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly'];
/** Most alternatives a union draws as a choice; more are edited as JSON. */
const MAX_VARIANTS = 20;

function annotationsOf(s: Schema): Schema {
  const out: Schema = {};
  for (const k of ANNOTATIONS) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

/** What the choice of a union calls an alternative: its title, else what it is ("object with path, line"). */
function variantLabel(branch: unknown, field: FieldModel, index: number): string {
  if (field.title !== undefined) return field.title;
  switch (field.kind) {
    case 'object': {
      const names = field.properties.map((p) => p.name);
      return names.length ? `object with ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}` : 'empty object';
    }
    case 'string':
      return field.format ? `text (${field.format})` : 'text';
    case 'number':
      return field.integer ? 'whole number' : 'number';
    case 'boolean':
      return 'true or false';
    case 'array':
    case 'multiSelect':
      return 'list';
    case 'enum':
      return `one of ${field.options.map((o) => o.label).slice(0, 3).join(', ')}${field.options.length > 3 ? ', …' : ''}`;
    default:
      return isRecord(branch) && typeof branch.type === 'string' ? branch.type : `alternative ${index + 1}`;
  }
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
  const model = new Builder(schema, options.maxDepth ?? 12).build(schema, true, 0, []);
  sources.set(model, schema);
  return model;
}

/**
 * The schema each model returned by buildFormModel was built from. A value is checked against
 * the schema itself (by ajv), not against the model, which only draws it; the model stays plain
 * JSON for the webview, so the link is kept here.
 */
const sources = new WeakMap<FieldModel, unknown>();

/** The schema `model` was built from; `{ found: false }` for a model that is not buildFormModel's own (a copy, a part). */
export function sourceSchema(model: FieldModel): { found: true; schema: unknown } | { found: false } {
  return sources.has(model) ? { found: true, schema: sources.get(model) } : { found: false };
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
    case 'union':
      return model.variants.flatMap((v) => fallbacks(v.field, path));
    default:
      return [];
  }
}
