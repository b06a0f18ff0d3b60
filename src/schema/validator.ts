// The one JSON Schema validator (ajv): tool arguments and elicitation content (src/forms words
// its errors per field), and a tool's `structuredContent` against its `outputSchema`. Schemas
// come from servers: compiled in a sandbox of options (no network — `loadSchema` is never set,
// and a `$ref` that is not a local pointer is taken out before compiling: that part accepts
// anything and is reported "not checked", the rest is checked), cached by their JSON text, and
// every failure is a value, never a throw.
//
// Everything here runs on the extension host's thread, so its cost is bounded before ajv sees
// the input: schema size and nesting (compiling is superlinear: 10,000 properties took 71 s),
// data size and nesting, `uniqueItems` (quadratic: 20,000 objects took 51 s), branches of
// anyOf/oneOf/allOf over a recursive `$ref` (each level multiplies: two branches over an array
// nested 22 deep took 171 ms, 30 deep would take about 45 s), and the work of `pattern`s, which
// run on the linear-time engine of safePattern.ts. Past a bound the answer is `unchecked` with
// the reason, never a frozen editor.
import type { default as Ajv, AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import { measureJson } from '../protocol/jsonShape';
import { CHECKED_FORMATS, checkFormat } from './formats';
import { compileSafePattern, uncheckedPatternNote } from './safePattern';
import { errorMessage } from '../protocol/errors';

export interface SchemaError {
  /** JSON Pointer of the failing value ("" for the root). */
  readonly path: string;
  readonly message: string;
  readonly keyword: string;
}

/** A SchemaError with ajv's details, for callers that word the error themselves (the forms). */
export interface DetailedSchemaError extends SchemaError {
  /** ajv's details of the failure (`limit`, `allowedValues`, `missingProperty`, …). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Where in the schema the failing keyword is ("#/properties/b/anyOf/0/minimum"). */
  readonly schemaPath: string;
}

export type SchemaCheck<E extends SchemaError = SchemaError> =
  /** `unchecked`: parts not checked, e.g. "pattern ^(a)\1$ not checked: not supported by the safe engine". */
  | { readonly kind: 'valid'; readonly unchecked?: readonly string[] }
  | { readonly kind: 'invalid'; readonly errors: readonly E[]; readonly unchecked?: readonly string[] }
  /** The schema itself could not be used (remote $ref, unknown dialect, broken schema). */
  | { readonly kind: 'unusable'; readonly reason: string }
  /**
   * Checking would cost too much: "schema too large to check (…)", "too costly to check (…)".
   * `errors`: what was found before the pattern budget ran out (the rest of the patterns passed unchecked).
   */
  | { readonly kind: 'unchecked'; readonly reason: string; readonly errors?: readonly E[] };

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-0[4-7]\/schema#?$/;
const MAX_CACHE = 200;
/** Most errors reported for one value. */
const MAX_ERRORS = 50;

type AjvDialects = typeof import('./lazyChunks/ajv');
let dialects: AjvDialects | undefined;
/** ajv is required on the first check, not imported: it loads with the first panel that validates, not at activation. */
function ajvDialects(): AjvDialects {
  return (dialects ??= require('./lazyChunks/ajv') as AjvDialects);
}

/** The bounds of one check; the defaults keep a check well under a second on a slow machine. */
export interface CheckLimits {
  /** Values (objects, arrays, scalars) in a schema: compile time grows faster than linearly. */
  readonly maxSchemaValues: number;
  readonly maxSchemaDepth: number;
  /** Values in the value checked. */
  readonly maxDataValues: number;
  readonly maxDataDepth: number;
  /**
   * Data values × schema values: a bound on validation work (`enum` compares each value with each
   * member). Where composition over a recursive `$ref` multiplies the schema per level of the
   * value, the estimate of compositionWork stands in for the schema values.
   */
  readonly maxValidationWork: number;
  /**
   * With `uniqueItems` in the schema: longest array × (its length + data values). Items are
   * compared pairwise, each comparison as deep as the items (20,000 strings took 11 s).
   */
  readonly maxUniqueItemsWork: number;
  /** Pattern work of one check, in pattern-size × input-length units (see safePattern.ts). */
  readonly maxPatternWork: number;
}

export const DEFAULT_CHECK_LIMITS: CheckLimits = {
  maxSchemaValues: 3000,
  maxSchemaDepth: 64,
  maxDataValues: 200_000,
  maxDataDepth: 256,
  maxValidationWork: 50_000_000,
  maxUniqueItemsWork: 10_000_000,
  maxPatternWork: 20_000_000,
};

/** What one validation run spent and skipped; patterns report into it. */
interface Run {
  patternWork: number;
  /** The pattern work ran out: later pattern tests pass unchecked and the verdict is `unchecked`. */
  budgetSpent: boolean;
  readonly unchecked: Set<string>;
}

const PATTERN_BUDGET_SPENT = 'too costly to check (the patterns would take too long on this value)';

/** A compiled schema, with the parts that compiling left out (remote references), or why it does not compile. */
type Compiled = { readonly validate: ValidateFunction; readonly unchecked: readonly string[] } | string;

/** Compiles and runs schemas; one instance serves the whole extension. */
export class SchemaValidator {
  private ajv2020: Ajv | undefined;
  private ajv07: Ajv | undefined;
  private readonly cache = new Map<string, Compiled>();
  private run: Run = { patternWork: 0, budgetSpent: false, unchecked: new Set() };
  private readonly limits: CheckLimits;

  constructor(limits: Partial<CheckLimits> = {}) {
    this.limits = { ...DEFAULT_CHECK_LIMITS, ...limits };
  }

  /** Validates `value` against `schema`. */
  check(schema: unknown, value: unknown): SchemaCheck {
    return this.checkWith(schema, value, toSchemaError);
  }

  /** As `check`, with ajv's details of each error (see DetailedSchemaError). */
  checkDetailed(schema: unknown, value: unknown): SchemaCheck<DetailedSchemaError> {
    return this.checkWith(schema, value, toDetailedSchemaError);
  }

  private checkWith<E extends SchemaError>(schema: unknown, value: unknown, toError: (e: ErrorObject) => E): SchemaCheck<E> {
    const limits = this.limits;
    const schemaShape = measureJson(schema, { maxValues: limits.maxSchemaValues, maxDepth: limits.maxSchemaDepth });
    if (schemaShape.exceeded === 'values') return { kind: 'unchecked', reason: `schema too large to check (more than ${limits.maxSchemaValues} values)` };
    if (schemaShape.exceeded === 'depth') return { kind: 'unchecked', reason: `schema too large to check (nested more than ${limits.maxSchemaDepth} levels deep)` };
    const dataShape = measureJson(value, { maxValues: limits.maxDataValues, maxDepth: limits.maxDataDepth });
    if (dataShape.exceeded === 'values') return { kind: 'unchecked', reason: `too costly to check (the value has more than ${limits.maxDataValues} values)` };
    if (dataShape.exceeded === 'depth') return { kind: 'unchecked', reason: `too costly to check (the value is nested more than ${limits.maxDataDepth} levels deep)` };
    if (dataShape.values * schemaShape.values > limits.maxValidationWork) {
      return { kind: 'unchecked', reason: `too costly to check (${dataShape.values} values against a schema of ${schemaShape.values})` };
    }
    if (dataShape.longestArray * (dataShape.longestArray + dataShape.values) > limits.maxUniqueItemsWork && usesUniqueItems(schema)) {
      return { kind: 'unchecked', reason: `too costly to check (uniqueItems over an array of ${dataShape.longestArray} items)` };
    }
    const perValue = compositionWork(schema, dataShape.depth, Math.ceil(limits.maxValidationWork / Math.max(1, dataShape.values)));
    if (perValue === Infinity) return { kind: 'unusable', reason: 'the schema refers to itself without moving into the value (a $ref cycle)' };
    if (perValue * dataShape.values > limits.maxValidationWork) {
      return { kind: 'unchecked', reason: `too costly to check (anyOf/oneOf/allOf branches over a recursive $ref, on a value nested ${dataShape.depth} levels deep)` };
    }
    const compiled = this.compile(schema);
    if (typeof compiled === 'string') return { kind: 'unusable', reason: compiled };
    const run: Run = (this.run = { patternWork: 0, budgetSpent: false, unchecked: new Set(compiled.unchecked) });
    const validate = compiled.validate;
    let ok: boolean;
    try {
      ok = validate(value) as boolean;
    } catch (e) {
      return { kind: 'unusable', reason: `validation failed: ${errorMessage(e)}` };
    }
    const errors = ok ? [] : (validate.errors ?? []).slice(0, MAX_ERRORS).map(toError);
    if (run.budgetSpent) return { kind: 'unchecked', reason: PATTERN_BUDGET_SPENT, ...(errors.length > 0 ? { errors } : {}) };
    const unchecked = run.unchecked.size > 0 ? { unchecked: [...run.unchecked] } : {};
    if (ok) return { kind: 'valid', ...unchecked };
    return { kind: 'invalid', errors, ...unchecked };
  }

  private makeAjv<T extends Ajv>(Ctor: new (opts: object) => T): T {
    // Server patterns never reach RegExp: each is compiled for the linear-time engine, and its
    // tests are charged to the current run. One RE2 cannot express passes every value and is
    // reported as unchecked (a pattern that is not a regular expression at all fails to compile).
    const regExp = Object.assign(
      (pattern: string) => {
        const compiled = compileSafePattern(pattern);
        const toString = () => pattern;
        if (!compiled.ok && compiled.kind === 'syntax') throw new Error(`pattern ${JSON.stringify(pattern.slice(0, 80))}: ${compiled.reason}`);
        if (!compiled.ok) {
          const note = uncheckedPatternNote(pattern, compiled.reason);
          return { toString, test: () => (this.run.unchecked.add(note), true) };
        }
        return {
          toString,
          test: (s: string) => {
            // Past the budget a pattern passes unchecked: what was found so far is still reported.
            if (this.run.budgetSpent) return true;
            this.run.patternWork += compiled.cost(s);
            if (this.run.patternWork > this.limits.maxPatternWork) {
              this.run.budgetSpent = true;
              return true;
            }
            return compiled.test(s);
          },
        };
      },
      { code: 'safePattern' },
    );
    const ajv = new Ctor({ strict: false, allErrors: true, validateSchema: false, logger: false, loadSchema: undefined, inlineRefs: true, code: { optimize: false, regExp } });
    for (const format of CHECKED_FORMATS) ajv.addFormat(format, { type: 'string', validate: (s: string) => checkFormat(format, s) });
    return ajv;
  }

  private compile(schema: unknown): Compiled {
    if (typeof schema !== 'object' || schema === null) return typeof schema === 'boolean' ? this.compileFresh(schema) : 'the schema is not an object';
    let key: string;
    try {
      key = JSON.stringify(schema);
    } catch {
      return 'the schema is not JSON';
    }
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const compiled = this.compileFresh(schema);
    if (this.cache.size >= MAX_CACHE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, compiled);
    return compiled;
  }

  private compileFresh(schema: object | boolean): Compiled {
    if (typeof schema === 'boolean') return { validate: (this.ajv2020 ??= this.makeAjv(ajvDialects().Ajv2020)).compile(schema), unchecked: [] };
    const declared = (schema as { $schema?: unknown }).$schema;
    const older = typeof declared === 'string' && DRAFT_07.test(declared);
    const ajv = older ? (this.ajv07 ??= this.makeAjv(ajvDialects().Ajv)) : (this.ajv2020 ??= this.makeAjv(ajvDialects().Ajv2020));
    // Drop `$schema` and top-level `$id`: the dialect is chosen above, and an `$id` would be
    // registered in the shared instance (a second schema with the same id would then fail).
    const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
    const local = withoutRemoteRefs(rest);
    try {
      return { validate: ajv.compile(forAjv(local.schema, !older) as AnySchema), unchecked: local.refs.map((ref) => `$ref ${ref} not checked: remote schemas are never fetched`) };
    } catch (e) {
      return `the schema does not compile: ${errorMessage(e)}`;
    }
  }
}

/** The validator the forms use when given none: one compile cache for every form. */
export const sharedSchemaValidator = new SchemaValidator();

/** True when `uniqueItems: true` appears anywhere in the schema (measured schemas only: bounded). */
function usesUniqueItems(schema: unknown, depth = 0): boolean {
  if (typeof schema !== 'object' || schema === null || depth > DEFAULT_CHECK_LIMITS.maxSchemaDepth) return false;
  if (Array.isArray(schema)) return schema.some((s) => usesUniqueItems(s, depth + 1));
  return Object.entries(schema).some(([k, v]) => (k === 'uniqueItems' && v === true) || usesUniqueItems(v, depth + 1));
}

/** Keywords whose values are data, not schemas: never searched for references. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

function isRemoteReference(keyword: string, value: unknown): value is string {
  return (keyword === '$ref' || keyword === '$dynamicRef') && typeof value === 'string' && !value.startsWith('#');
}

/**
 * The older spellings servers still send, rewritten to what ajv reads (it would otherwise
 * misread or refuse them): draft 4's boolean exclusive bounds beside `minimum`/`maximum`
 * become the numeric form; OpenAPI's `nullable` without a `type` (any value) goes; and for the
 * 2020-12 dialect a draft-7 tuple (`items: [...]`, `additionalItems`) becomes `prefixItems`/`items`.
 * Measured schemas only (bounded depth); data keywords are left alone.
 */
export function forAjv(schema: unknown, dialect2020: boolean, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > DEFAULT_CHECK_LIMITS.maxSchemaDepth) return schema;
  if (Array.isArray(schema)) return schema.map((s) => forAjv(s, dialect2020, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === 'const' || k === 'enum' || k === 'default' || k === 'examples' ? v : forAjv(v, dialect2020, depth + 1);
  // Only beside a numeric bound, a boolean `nullable`, an array `items`: a property map may hold schemas named like these keywords.
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean' || typeof out[bound] !== 'number') continue;
    if (out[flag] === true) {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  if (typeof out.nullable === 'boolean' && out.type === undefined) delete out.nullable;
  if (dialect2020 && Array.isArray(out.items) && out.prefixItems === undefined) {
    out.prefixItems = out.items;
    if (out.additionalItems !== undefined) out.items = out.additionalItems;
    else delete out.items;
    delete out.additionalItems;
  }
  return out;
}

/** The first `$ref` that is not a local pointer, anywhere in the schema. */
export function findRemoteRef(schema: unknown): string | undefined {
  return withoutRemoteRefs(schema).refs[0];
}

/**
 * A copy of `schema` without the `$ref`s (and `$dynamicRef`s) that are not local pointers, and
 * those references: each such subschema keeps its other keywords and otherwise accepts anything,
 * since the network is never asked. (Schemas are measured before, so the walk is bounded.)
 */
export function withoutRemoteRefs(schema: unknown): { readonly schema: unknown; readonly refs: string[] } {
  const refs: string[] = [];
  const strip = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return node.map(strip);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (isRemoteReference(k, v)) refs.push(v);
      else out[k] = DATA_KEYWORDS.has(k) ? v : strip(v);
    }
    return out;
  };
  const stripped = strip(schema);
  return { schema: refs.length > 0 ? stripped : schema, refs };
}

/** Keywords whose subschemas apply to the same value (a `$ref` too, followed separately). */
const SAME_VALUE_SINGLE = ['not', 'if', 'then', 'else'];
const SAME_VALUE_LIST = ['allOf', 'anyOf', 'oneOf'];
const SAME_VALUE_MAP = ['dependentSchemas', 'dependencies'];
/** Keywords whose subschemas apply to the value's members, one level down. */
const MEMBER_SINGLE = ['items', 'additionalItems', 'contains', 'unevaluatedItems', 'additionalProperties', 'unevaluatedProperties', 'propertyNames'];
const MEMBER_LIST = ['prefixItems', 'items'];
const MEMBER_MAP = ['properties', 'patternProperties'];

/**
 * Estimated schema evaluations per value of a value nested `depth` deep: counts the evaluations of
 * one chain of nested values (every keyword applying to the same value adds its subschema, every
 * keyword applying to members adds its subschema one level down, a local `$ref` its target), then
 * averages over the levels. A plain or merely recursive schema costs about its size; branches of
 * anyOf/oneOf/allOf that reach the same recursive `$ref` multiply per level, which is the blow-up
 * this measures. Stops counting above `cap`. Infinity for a `$ref` cycle that never moves to a
 * member (ajv would recurse without end).
 */
export function compositionWork(schema: unknown, depth: number, cap: number): number {
  // The chain may cost up to `cap` per level before its average passes `cap`.
  const limit = cap * (depth + 1);
  const memo = new Map<object, Map<number, number>>();
  const busy = new Set<string>();
  let cycle = false;
  let ids = 0;
  const nodeIds = new Map<object, number>();
  const cost = (node: unknown, level: number): number => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return 1;
    const known = memo.get(node)?.get(level);
    if (known !== undefined) return known;
    const key = `${nodeIds.get(node) ?? (nodeIds.set(node, ++ids), ids)}@${level}`;
    if (busy.has(key)) {
      cycle = true;
      return limit + 1;
    }
    busy.add(key);
    const s = node as Record<string, unknown>;
    let sum = 1;
    const add = (sub: unknown, at: number) => {
      if (sum <= limit) sum += cost(sub, at);
    };
    for (const k of SAME_VALUE_SINGLE) if (s[k] !== undefined) add(s[k], level);
    for (const k of SAME_VALUE_LIST) if (Array.isArray(s[k])) for (const sub of s[k] as unknown[]) add(sub, level);
    for (const k of SAME_VALUE_MAP) if (isPlainObject(s[k])) for (const sub of Object.values(s[k] as object)) add(sub, level);
    if (typeof s.$ref === 'string' && s.$ref.startsWith('#')) add(resolvePointer(schema, s.$ref), level);
    if (level > 0) {
      for (const k of MEMBER_SINGLE) if (isPlainObject(s[k]) || typeof s[k] === 'boolean') add(s[k], level - 1);
      for (const k of MEMBER_LIST) if (Array.isArray(s[k])) for (const sub of s[k] as unknown[]) add(sub, level - 1);
      for (const k of MEMBER_MAP) if (isPlainObject(s[k])) for (const sub of Object.values(s[k] as object)) add(sub, level - 1);
    }
    busy.delete(key);
    const total = Math.min(sum, limit + 1);
    if (!memo.has(node)) memo.set(node, new Map());
    memo.get(node)!.set(level, total);
    return total;
  };
  let chain: number;
  try {
    chain = cost(schema, depth);
  } catch (error) {
    // A chain too long for the stack is too costly to check.
    if (error instanceof RangeError) return cap + 1;
    throw error;
  }
  if (cycle) return Infinity;
  return chain > limit ? cap + 1 : Math.ceil(chain / (depth + 1));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The subschema a local JSON pointer (`#`, `#/$defs/x`) names; undefined for anchors and misses. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function toSchemaError(e: ErrorObject): SchemaError {
  let path = e.instancePath;
  let message = e.message ?? e.keyword;
  if (e.keyword === 'required' && typeof (e.params as { missingProperty?: unknown }).missingProperty === 'string') {
    const prop = (e.params as { missingProperty: string }).missingProperty;
    path = `${path}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    message = 'required';
  } else if (e.keyword === 'additionalProperties' && typeof (e.params as { additionalProperty?: unknown }).additionalProperty === 'string') {
    const prop = (e.params as { additionalProperty: string }).additionalProperty;
    path = `${path}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    message = `unknown property "${prop}"`;
  } else if (e.keyword === 'enum' && Array.isArray((e.params as { allowedValues?: unknown }).allowedValues)) {
    message = `must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return { path, message, keyword: e.keyword };
}

function toDetailedSchemaError(e: ErrorObject): DetailedSchemaError {
  return { ...toSchemaError(e), params: e.params as Record<string, unknown>, schemaPath: e.schemaPath };
}
