// Full JSON Schema validation (ajv) for what the form model does not decide alone: a tool's
// `structuredContent` against its `outputSchema`, and the final arguments against the whole
// `inputSchema`. Schemas come from servers: compiled in a sandbox of options (no network —
// `loadSchema` is never set, so a remote `$ref` fails to compile instead of being fetched),
// cached by their JSON text, and every failure is a value, never a throw.
import type { default as Ajv, AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import { CHECKED_FORMATS, checkFormat } from './formModel';

export interface SchemaError {
  /** JSON Pointer of the failing value ("" for the root). */
  readonly path: string;
  readonly message: string;
  readonly keyword: string;
}

export type SchemaCheck =
  | { readonly kind: 'valid' }
  | { readonly kind: 'invalid'; readonly errors: readonly SchemaError[] }
  /** The schema itself could not be used (remote $ref, unknown dialect, broken schema). */
  | { readonly kind: 'unusable'; readonly reason: string };

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

function makeAjv<T extends Ajv>(Ctor: new (opts: object) => T): T {
  const ajv = new Ctor({ strict: false, allErrors: true, validateSchema: false, logger: false, loadSchema: undefined, inlineRefs: true, code: { optimize: false } });
  for (const format of CHECKED_FORMATS) ajv.addFormat(format, { type: 'string', validate: (s: string) => checkFormat(format, s) });
  return ajv;
}

/** Compiles and runs schemas; one instance serves the whole extension. */
export class SchemaValidator {
  private ajv2020: Ajv | undefined;
  private ajv07: Ajv | undefined;
  private readonly cache = new Map<string, ValidateFunction | string>();

  /** Validates `value` against `schema`. */
  check(schema: unknown, value: unknown): SchemaCheck {
    const compiled = this.compile(schema);
    if (typeof compiled === 'string') return { kind: 'unusable', reason: compiled };
    let ok: boolean;
    try {
      ok = compiled(value) as boolean;
    } catch (e) {
      return { kind: 'unusable', reason: `validation failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (ok) return { kind: 'valid' };
    return { kind: 'invalid', errors: (compiled.errors ?? []).slice(0, MAX_ERRORS).map(toSchemaError) };
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
    if (typeof schema === 'boolean') return (this.ajv2020 ??= makeAjv(ajvDialects().Ajv2020)).compile(schema);
    const declared = (schema as { $schema?: unknown }).$schema;
    const older = typeof declared === 'string' && DRAFT_07.test(declared);
    const ajv = older ? (this.ajv07 ??= makeAjv(ajvDialects().Ajv)) : (this.ajv2020 ??= makeAjv(ajvDialects().Ajv2020));
    // Drop `$schema` and top-level `$id`: the dialect is chosen above, and an `$id` would be
    // registered in the shared instance (a second schema with the same id would then fail).
    const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
    const remote = findRemoteRef(rest);
    if (remote) return `unsupported: remote $ref (${remote}) — never fetched`;
    try {
      return ajv.compile(rest as AnySchema);
    } catch (e) {
      return `the schema does not compile: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
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
