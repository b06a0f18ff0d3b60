// The one JSON Schema validator (ajv): tool arguments and elicitation content (src/forms words
// its errors per field), and a tool's `structuredContent` against its `outputSchema`. Schemas
// come from servers: compiled in a sandbox of options (no network — `loadSchema` is never set,
// so a remote `$ref` fails to compile instead of being fetched), cached by their JSON text, and
// every failure is a value, never a throw.
//
// Everything here runs on the extension host's thread, so its cost is bounded before ajv sees
// the input: schema size and nesting (compiling is superlinear: 10,000 properties took 71 s),
// data size and nesting, `uniqueItems` (quadratic: 20,000 objects took 51 s), and the work of
// `pattern`s, which run on the linear-time engine of safePattern.ts. Past a bound the answer is
// `unchecked` with the reason, never a frozen editor.
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

type AjvDialects = typeof import('./vendor/ajv');
let dialects: AjvDialects | undefined;
/** ajv is required on the first check, not imported: it loads with the first panel that validates, not at activation. */
function ajvDialects(): AjvDialects {
  return (dialects ??= require('./vendor/ajv') as AjvDialects);
}

/** The bounds of one check; the defaults keep a check well under a second on a slow machine. */
export interface CheckLimits {
  /** Values (objects, arrays, scalars) in a schema: compile time grows faster than linearly. */
  readonly maxSchemaValues: number;
  readonly maxSchemaDepth: number;
  /** Values in the value checked. */
  readonly maxDataValues: number;
  readonly maxDataDepth: number;
  /** Data values × schema values: a bound on validation work (`enum` compares each value with each member). */
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

/** Compiles and runs schemas; one instance serves the whole extension. */
export class SchemaValidator {
  private ajv2020: Ajv | undefined;
  private ajv07: Ajv | undefined;
  private readonly cache = new Map<string, ValidateFunction | string>();
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
    const compiled = this.compile(schema);
    if (typeof compiled === 'string') return { kind: 'unusable', reason: compiled };
    const run: Run = (this.run = { patternWork: 0, budgetSpent: false, unchecked: new Set() });
    let ok: boolean;
    try {
      ok = compiled(value) as boolean;
    } catch (e) {
      return { kind: 'unusable', reason: `validation failed: ${errorMessage(e)}` };
    }
    const errors = ok ? [] : (compiled.errors ?? []).slice(0, MAX_ERRORS).map(toError);
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

  private compile(schema: unknown): ValidateFunction | string {
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

  private compileFresh(schema: object | boolean): ValidateFunction | string {
    if (typeof schema === 'boolean') return (this.ajv2020 ??= this.makeAjv(ajvDialects().Ajv2020)).compile(schema);
    const declared = (schema as { $schema?: unknown }).$schema;
    const older = typeof declared === 'string' && DRAFT_07.test(declared);
    const ajv = older ? (this.ajv07 ??= this.makeAjv(ajvDialects().Ajv)) : (this.ajv2020 ??= this.makeAjv(ajvDialects().Ajv2020));
    // Drop `$schema` and top-level `$id`: the dialect is chosen above, and an `$id` would be
    // registered in the shared instance (a second schema with the same id would then fail).
    const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
    const remote = findRemoteRef(rest);
    if (remote) return `unsupported: remote $ref (${remote}) — never fetched`;
    try {
      return ajv.compile(forAjv(rest, !older) as AnySchema);
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
export function findRemoteRef(schema: unknown, depth = 0): string | undefined {
  if (depth > 100 || typeof schema !== 'object' || schema === null) return undefined;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const hit = findRemoteRef(item, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(schema)) {
    if ((k === '$ref' || k === '$dynamicRef') && typeof v === 'string' && !v.startsWith('#')) return v;
    // `const`, `enum`, `default` and `examples` hold data, not schemas.
    if (k === 'const' || k === 'enum' || k === 'default' || k === 'examples') continue;
    const hit = findRemoteRef(v, depth + 1);
    if (hit) return hit;
  }
  return undefined;
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
