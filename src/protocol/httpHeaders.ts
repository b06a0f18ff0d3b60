// The request headers of Streamable HTTP in the 2026-07-28 era (SEP-2243): `Mcp-Method` and
// `Mcp-Name` mirrored from the JSON-RPC body, `Mcp-Param-{Name}` mirrored from tool arguments
// whose property schema carries `x-mcp-header`, and the value encoding they share (plain ASCII
// as it is, anything else as `=?base64?…?=`). Pure functions: no I/O, no `vscode`; the HTTP
// transport sends what they derive, the client drops the tools whose declarations are invalid.

/** The schema keyword that marks a tool argument to mirror into an `Mcp-Param-*` header. */
export const X_MCP_HEADER = 'x-mcp-header';

/** One argument a tool asks to have mirrored: where it is in `arguments`, and its header name part. */
export interface ToolHeaderDeclaration {
  /** The chain of `properties` keys from the schema root to the annotated property. */
  readonly path: readonly string[];
  /** The `x-mcp-header` value: the header is `Mcp-Param-{name}`. */
  readonly name: string;
}

/** What `validateToolHeaders` found: the declarations of a valid tool, or why it is invalid. */
export type ToolHeaderCheck = { readonly ok: true; readonly declarations: readonly ToolHeaderDeclaration[] } | { readonly ok: false; readonly reason: string };

/** RFC 9110 field-name token (`1*tchar`): no space, control character or delimiter, ASCII only. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The property types an `x-mcp-header` may annotate; `number` is excluded by the spec (floats do not round-trip as text). */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
/**
 * Keywords whose subschemas are not statically reachable through `properties` alone: an
 * annotation under any of them makes the tool invalid, so the walk visits them to find one.
 * `$ref` is never followed (a `$defs` target is visited in place, as unreachable).
 */
const UNREACHABLE_SINGLE = ['items', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'not', 'if', 'then', 'else'];
const UNREACHABLE_ARRAY = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const UNREACHABLE_MAP = ['patternProperties', 'dependentSchemas', '$defs', 'definitions', 'dependencies'];

/**
 * Checks the `x-mcp-header` annotations of a tool's `inputSchema` against the spec's rules: only
 * on properties reached from the root through `properties` keys alone; a non-empty RFC 9110
 * token; on a `string`, `integer` or `boolean` property (a type list may add `"null"`); unique
 * ignoring case. A tool without annotations is valid with no declarations.
 */
export function validateToolHeaders(tool: { readonly inputSchema?: unknown }): ToolHeaderCheck {
  const declarations: ToolHeaderDeclaration[] = [];
  const seen = new Map<string, string>();

  const visit = (node: unknown, path: readonly string[], reachable: boolean): string | undefined => {
    if (!isObject(node)) return undefined;
    if (Object.hasOwn(node, X_MCP_HEADER)) {
      const problem = checkDeclaration(node, path, reachable, seen);
      if (problem !== undefined) return problem;
      declarations.push({ path, name: node[X_MCP_HEADER] as string });
    }
    const properties = node.properties;
    if (isObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const problem = visit(child, [...path, key], reachable);
        if (problem !== undefined) return problem;
      }
    }
    for (const [keyword, sub] of subschemas(node)) {
      const problem = visit(sub, [...path, `<${keyword}>`], false);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };

  const reason = visit(tool.inputSchema, [], true);
  return reason === undefined ? { ok: true, declarations } : { ok: false, reason };
}

function checkDeclaration(schema: Record<string, unknown>, path: readonly string[], reachable: boolean, seen: Map<string, string>): string | undefined {
  const where = path.length === 0 ? 'the schema root' : `property ${path.join('.')}`;
  const name = schema[X_MCP_HEADER];
  if (!reachable || path.length === 0) return `${X_MCP_HEADER} on ${where} is not reached through "properties" alone (it may not sit under items, a composition, a condition, $defs or the root)`;
  if (typeof name !== 'string' || name === '') return `${X_MCP_HEADER} on ${where} must be a non-empty string`;
  if (!TOKEN.test(name)) return `${X_MCP_HEADER} ${JSON.stringify(name)} on ${where} is not an HTTP header name token (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  const type = primitiveType(schema.type);
  if (type === undefined) return `${X_MCP_HEADER} ${JSON.stringify(name)} on ${where} needs a string, integer or boolean property, not ${JSON.stringify(schema.type ?? 'untyped')}`;
  const lower = name.toLowerCase();
  const earlier = seen.get(lower);
  if (earlier !== undefined) return `${X_MCP_HEADER} ${JSON.stringify(name)} on ${where} repeats ${JSON.stringify(earlier)} (header names ignore case)`;
  seen.set(lower, name);
  return undefined;
}

/** The one permitted primitive a `type` names (alone, or with "null"), else undefined. */
function primitiveType(type: unknown): string | undefined {
  if (typeof type === 'string') return HEADER_TYPES.has(type) ? type : undefined;
  if (!Array.isArray(type)) return undefined;
  const named = type.filter((t) => t !== 'null');
  return named.length === 1 && typeof named[0] === 'string' && HEADER_TYPES.has(named[0]) ? named[0] : undefined;
}

function* subschemas(node: Record<string, unknown>): Generator<[string, unknown]> {
  for (const keyword of UNREACHABLE_SINGLE) if (node[keyword] !== undefined) yield [keyword, node[keyword]];
  for (const keyword of UNREACHABLE_ARRAY) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const sub of list) yield [keyword, sub];
    else if (list !== undefined) yield [keyword, list];
  }
  for (const keyword of UNREACHABLE_MAP) {
    const map = node[keyword];
    if (isObject(map)) for (const sub of Object.values(map)) yield [keyword, sub];
  }
}

// ---- values ----

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';

/**
 * A header value for `value`: as it is when it is a safe plain field value (visible ASCII,
 * interior spaces and tabs), else `=?base64?{UTF-8 as Base64}?=`. Also encoded: a value with
 * leading or trailing whitespace (HTTP parsing strips it), one that looks like the sentinel
 * (it would be decoded), and the empty string (some intermediaries drop empty fields, and the
 * server rejects a call whose mirrored argument lost its header).
 */
export function encodeHeaderValue(value: string): string {
  return isPlainHeaderValue(value) ? value : `${SENTINEL_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_SUFFIX}`;
}

function isPlainHeaderValue(value: string): boolean {
  if (value === '' || value !== value.replace(/^[ \t]+|[ \t]+$/g, '')) return false;
  if (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 0x09 && (c < 0x20 || c > 0x7e)) return false;
  }
  return true;
}

/** The text of an argument value for its header: strings as they are, integers in decimal, booleans lower case. Undefined: no header. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // A number that is not a safe integer cannot be mirrored faithfully; the server's own schema check answers it.
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * The `Mcp-Param-*` headers of one `tools/call`: per declaration, the argument at its path,
 * converted and encoded. An argument that is absent or null gets no header (the spec's "omit"),
 * and so does one that is no string, boolean or safe integer.
 */
export function paramHeaders(declarations: readonly ToolHeaderDeclaration[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const declaration of declarations) {
    let value: unknown = args;
    for (const key of declaration.path) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    const text = value === null ? undefined : headerText(value);
    if (text !== undefined) headers[`mcp-param-${declaration.name.toLowerCase()}`] = encodeHeaderValue(text);
  }
  return headers;
}

/**
 * Which body field `Mcp-Name` mirrors, per method: the three of the spec's table, and the task
 * methods of the tasks extension (the official SDK checks those too).
 */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * The standard headers of one message: `Mcp-Method` always, `Mcp-Name` for the methods that
 * name their target (encoded like any mirrored value). Lower-case names, as fetch sends them.
 */
export function standardHeaders(method: string, params: unknown): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-method': encodeHeaderValue(method) };
  const field = NAME_SOURCE[method];
  const name = field !== undefined && isObject(params) ? params[field] : undefined;
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  return headers;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
