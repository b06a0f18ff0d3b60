// Saved calls as tests: a file (`.vscode/mcp-tests.json`) of tool calls, reads and prompts with
// what their answers must say. The editor's Testing view and `mcp-host test` run the same checks.
import { parse as parseJsonc, ParseError, printParseErrorCode } from 'jsonc-parser';
import type { CallToolResult, Tool } from '../client/schemas';
import { errorMessage } from '../protocol/errors';
import { truncate } from '../protocol/text';
import { isRecord } from '../protocol/jsonShape';
import { jsonEqual } from '../schema/json';
import { resolvePointer } from '../schema/jsonPointer';
import { sharedSchemaValidator } from '../schema/validator';
import { compileSafePattern } from '../schema/safePattern';
import { toolResultDisplay } from './resultModel';

/** What one test does. */
export type SavedTestAction =
  | { readonly kind: 'tool'; readonly tool: string; readonly arguments: Record<string, unknown> }
  | { readonly kind: 'read'; readonly uri: string }
  | { readonly kind: 'prompt'; readonly prompt: string; readonly arguments: Record<string, string> };

/** A check on a value inside the answer, found by a JSON Pointer. */
export interface JsonExpectation {
  readonly pointer: string;
  /** The value there equals this (deep equality). */
  readonly equals?: unknown;
  /** The pointer finds a value (true) or none (false). */
  readonly exists?: boolean;
  /** The value there is a string containing this. */
  readonly contains?: string;
  /** The value there is of this JSON type (`integer` too): survives a value that changes run to run. */
  readonly type?: JsonTypeName;
  /** The value there is a string matching this pattern (ECMA-262, run by the linear-time engine). */
  readonly pattern?: string;
}

/** The JSON types a `type` expectation names. */
export const JSON_TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
export type JsonTypeName = (typeof JSON_TYPE_NAMES)[number];

/** The JSON type of a value, as `type` expectations name them (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): JsonTypeName | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') return typeof value as JsonTypeName;
  return 'undefined';
}

/** What the answer must say. Every field is optional; a test without any only checks that the request succeeds. */
export interface Expectations {
  readonly isError?: boolean;
  /** Text the answer's text parts contain (all of them, when a list). */
  readonly textContains?: string | readonly string[];
  readonly json?: readonly JsonExpectation[];
  /** The structured content matches the tool's outputSchema. */
  readonly outputSchema?: boolean;
  /** The answer comes within this many milliseconds. */
  readonly maxMs?: number;
}

export interface SavedTest {
  readonly name: string;
  /** The server's name, as the workspace's config (or the file's own `servers`) names it. */
  readonly server: string;
  readonly action: SavedTestAction;
  readonly expect: Expectations;
}

/** A test file: the tests, and optionally servers in the `.vscode/mcp.json` format. */
export interface SavedTestFile {
  readonly tests: readonly SavedTest[];
  /** `servers` (and `inputs`) as `.vscode/mcp.json` writes them, when the file brings its own. */
  readonly config?: { readonly servers: Record<string, unknown>; readonly inputs?: unknown[] };
}

/** One failed assertion: what was expected, what came. */
export interface AssertionFailure {
  readonly assertion: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
}

/** How a test went. `error`: it could not run (server did not start, request failed). */
export interface SavedTestResult {
  readonly name: string;
  readonly server: string;
  readonly outcome: 'passed' | 'failed' | 'error';
  readonly failures: readonly AssertionFailure[];
  readonly ms: number;
  readonly error?: string;
}

export { SAVED_TESTS_FILE } from './savedTestsFile';

/** Reads a test file (JSON with comments); throws an Error naming the test and field that is wrong. */
export function parseSavedTests(text: string, where: string): SavedTestFile {
  const errors: ParseError[] = [];
  const root: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length) throw new Error(`${where}: ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}`);
  if (!isRecord(root) || !Array.isArray(root.tests)) throw new Error(`${where}: expected {"tests": [...]}`);
  const seen = new Set<string>();
  const tests = root.tests.map((value, i): SavedTest => {
    const at = `${where}: tests[${i}]`;
    if (!isRecord(value)) throw new Error(`${at} is not an object`);
    const name = typeof value.name === 'string' && value.name.trim() ? value.name : undefined;
    if (!name) throw new Error(`${at} needs a "name"`);
    if (seen.has(name)) throw new Error(`${at}: the name ${JSON.stringify(name)} is used twice`);
    seen.add(name);
    if (typeof value.server !== 'string' || !value.server) throw new Error(`${at} (${name}) needs a "server"`);
    return { name, server: value.server, action: actionOf(value, `${at} (${name})`), expect: expectationsOf(value.expect, `${at} (${name})`) };
  });
  let config: SavedTestFile['config'];
  if (root.servers !== undefined) {
    if (!isRecord(root.servers)) throw new Error(`${where}: "servers" must be an object (the .vscode/mcp.json format)`);
    config = { servers: root.servers, ...(Array.isArray(root.inputs) ? { inputs: root.inputs } : {}) };
  }
  return { tests, ...(config ? { config } : {}) };
}

/** The text the answer shows: text parts of a result, text contents of a read, text messages of a prompt. */
export function answerText(answer: unknown): string {
  const texts: string[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 8) return;
    if (Array.isArray(v)) v.forEach((x) => visit(x, depth + 1));
    else if (isRecord(v)) {
      if (typeof v.text === 'string') texts.push(v.text);
      for (const key of ['content', 'contents', 'messages', 'resource']) if (key in v) visit(v[key], depth + 1);
    }
  };
  visit(answer, 0);
  return texts.join('\n');
}

/**
 * The assertions a test's answer breaks (none when it passes). `answer` is the result as the
 * server sent it; `tool` the tool's definition when the server listed it (for `outputSchema`).
 */
export function checkExpectations(test: SavedTest, answer: unknown, ms: number, tool?: Tool): AssertionFailure[] {
  const failures: AssertionFailure[] = [];
  const fail = (assertion: string, expected: unknown, actual: unknown, message: string) => failures.push({ assertion, expected, actual, message });
  const e = test.expect;
  const isError = isRecord(answer) && answer.isError === true;
  if (e.isError !== undefined && e.isError !== isError) fail('isError', e.isError, isError, e.isError ? 'the tool did not report an error' : `the tool reported an error: ${truncateText(answerText(answer))}`);
  if (e.isError === undefined && isError) fail('isError', false, true, `the tool reported an error: ${truncateText(answerText(answer))}`);
  const wanted = e.textContains === undefined ? [] : typeof e.textContains === 'string' ? [e.textContains] : e.textContains;
  if (wanted.length) {
    const text = answerText(answer);
    for (const piece of wanted) if (!text.includes(piece)) fail('textContains', piece, truncateText(text), `the answer's text does not contain ${JSON.stringify(piece)}`);
  }
  for (const check of e.json ?? []) {
    const value = resolvePointer(answer, `#${check.pointer}`);
    const found = value !== undefined;
    if (check.exists !== undefined && check.exists !== found) fail(`json ${check.pointer}`, check.exists ? 'a value' : 'no value', found ? value : 'nothing', check.exists ? `nothing at ${check.pointer}` : `a value at ${check.pointer}`);
    if ('equals' in check && !jsonEqual(value, check.equals)) fail(`json ${check.pointer}`, check.equals, value, `${check.pointer} is ${found ? JSON.stringify(value) : 'absent'}, not ${JSON.stringify(check.equals)}`);
    if (check.contains !== undefined && !(typeof value === 'string' && value.includes(check.contains))) fail(`json ${check.pointer}`, check.contains, value, `${check.pointer} does not contain ${JSON.stringify(check.contains)}`);
    const type = jsonTypeOf(value);
    if (check.type !== undefined && !(type === check.type || (check.type === 'number' && type === 'integer'))) fail(`json ${check.pointer}`, `a value of type ${check.type}`, found ? value : 'nothing', `${check.pointer} is ${found ? `of type ${type === 'integer' ? 'number' : type}` : 'absent'}, not ${check.type}`);
    if (check.pattern !== undefined) {
      const compiled = compileSafePattern(check.pattern);
      if (!compiled.ok) fail(`json ${check.pointer}`, check.pattern, value, `the pattern ${check.pattern} cannot be used: ${compiled.reason}`);
      else if (!(typeof value === 'string' && compiled.test(value))) fail(`json ${check.pointer}`, `matches ${check.pattern}`, found ? value : 'nothing', `${check.pointer} does not match ${check.pattern}`);
    }
  }
  if (e.outputSchema && test.action.kind === 'tool') {
    if (!tool?.outputSchema) fail('outputSchema', 'a tool with an outputSchema', tool ? 'no outputSchema' : 'the tool is not listed', `${test.action.tool} declares no outputSchema to check against`);
    else {
      const verdict = toolResultDisplay(answer as CallToolResult, tool.outputSchema, sharedSchemaValidator).verdict;
      if (verdict.kind === 'missing') fail('outputSchema', 'structuredContent', 'none', 'the result has no structuredContent although the tool declares an outputSchema');
      else if (verdict.kind === 'invalid') fail('outputSchema', 'matches the outputSchema', verdict.errors.map((x) => x.message), `the structured content does not match the outputSchema: ${verdict.errors.map((x) => x.message).join('; ')}`);
    }
  }
  if (e.maxMs !== undefined && ms > e.maxMs) fail('maxMs', e.maxMs, Math.round(ms), `the answer took ${Math.round(ms)} ms, more than ${e.maxMs} ms`);
  return failures;
}

/** A result from a test that ran (or could not run). */
export function testResult(test: SavedTest, failures: readonly AssertionFailure[], ms: number, error?: unknown): SavedTestResult {
  if (error !== undefined) return { name: test.name, server: test.server, outcome: 'error', failures: [], ms, error: errorMessage(error) };
  return { name: test.name, server: test.server, outcome: failures.length ? 'failed' : 'passed', failures, ms };
}

/** JUnit XML, as CI systems read it: one testsuite a server, one testcase a test. */
export function junitXml(results: readonly SavedTestResult[], suiteName = 'mcp-host'): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  const servers = [...new Set(results.map((r) => r.server))];
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failed = results.filter((r) => r.outcome === 'failed').length;
  const errored = results.filter((r) => r.outcome === 'error').length;
  lines.push(`<testsuites name="${esc(suiteName)}" tests="${results.length}" failures="${failed}" errors="${errored}" time="${secs(results.reduce((a, r) => a + r.ms, 0))}">`);
  for (const server of servers) {
    const mine = results.filter((r) => r.server === server);
    lines.push(`  <testsuite name="${esc(server)}" tests="${mine.length}" failures="${mine.filter((r) => r.outcome === 'failed').length}" errors="${mine.filter((r) => r.outcome === 'error').length}" time="${secs(mine.reduce((a, r) => a + r.ms, 0))}">`);
    for (const r of mine) {
      lines.push(`    <testcase classname="${esc(server)}" name="${esc(r.name)}" time="${secs(r.ms)}">`);
      for (const f of r.failures) lines.push(`      <failure type="${esc(f.assertion)}" message="${esc(f.message)}">expected: ${esc(JSON.stringify(f.expected) ?? 'undefined')}\nactual: ${esc(JSON.stringify(f.actual) ?? 'undefined')}</failure>`);
      if (r.outcome === 'error') lines.push(`      <error message="${esc(r.error ?? 'error')}"/>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

/** The lines of a result, as the CLI prints them: one for the test, then each failure with what was expected and what came. */
export function describeTestResult(r: SavedTestResult): string[] {
  const head = `${r.outcome === 'passed' ? 'PASS' : r.outcome === 'failed' ? 'FAIL' : 'ERROR'} ${r.server} › ${r.name} (${Math.round(r.ms)} ms)`;
  if (r.outcome === 'error') return [head, `  ${r.error}`];
  const shown = (value: unknown) => truncateText(typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'nothing'));
  return [head, ...r.failures.flatMap((f) => [`  ${f.message}`, `    expected: ${shown(f.expected)}`, `    actual:   ${shown(f.actual)}`])];
}

function actionOf(value: Record<string, unknown>, at: string): SavedTestAction {
  const kinds = ['tool', 'read', 'prompt'].filter((k) => value[k] !== undefined);
  if (kinds.length !== 1) throw new Error(`${at} needs exactly one of "tool", "read" or "prompt"`);
  const args = value.arguments ?? {};
  if (!isRecord(args)) throw new Error(`${at}: "arguments" must be an object`);
  if (typeof value.tool === 'string') return { kind: 'tool', tool: value.tool, arguments: args };
  if (typeof value.read === 'string') return { kind: 'read', uri: value.read };
  if (typeof value.prompt === 'string') {
    for (const [key, v] of Object.entries(args)) if (typeof v !== 'string') throw new Error(`${at}: prompt arguments are strings; "${key}" is not`);
    return { kind: 'prompt', prompt: value.prompt, arguments: args as Record<string, string> };
  }
  throw new Error(`${at}: "${kinds[0]}" must be a string`);
}

function expectationsOf(value: unknown, at: string): Expectations {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new Error(`${at}: "expect" must be an object`);
  const out: { -readonly [K in keyof Expectations]: Expectations[K] } = {};
  if (value.isError !== undefined) {
    if (typeof value.isError !== 'boolean') throw new Error(`${at}: expect.isError must be true or false`);
    out.isError = value.isError;
  }
  if (value.textContains !== undefined) {
    const t = value.textContains;
    if (!(typeof t === 'string' || (Array.isArray(t) && t.every((x) => typeof x === 'string')))) throw new Error(`${at}: expect.textContains must be a string or a list of strings`);
    out.textContains = t as string | string[];
  }
  if (value.json !== undefined) {
    if (!Array.isArray(value.json)) throw new Error(`${at}: expect.json must be a list of {pointer, equals|exists|contains}`);
    out.json = value.json.map((j, i) => {
      if (!isRecord(j) || typeof j.pointer !== 'string' || !(j.pointer === '' || j.pointer.startsWith('/'))) throw new Error(`${at}: expect.json[${i}] needs a "pointer" such as "/structuredContent/count"`);
      if (!('equals' in j) && j.exists === undefined && j.contains === undefined && j.type === undefined && j.pattern === undefined) throw new Error(`${at}: expect.json[${i}] needs "equals", "exists", "contains", "type" or "pattern"`);
      if (j.type !== undefined && !(JSON_TYPE_NAMES as readonly unknown[]).includes(j.type)) throw new Error(`${at}: expect.json[${i}].type must be one of ${JSON_TYPE_NAMES.join(', ')}`);
      if (j.pattern !== undefined && (typeof j.pattern !== 'string' || compileSafePattern(j.pattern).ok === false)) throw new Error(`${at}: expect.json[${i}].pattern must be a regular expression the safe engine runs`);
      if (j.exists !== undefined && typeof j.exists !== 'boolean') throw new Error(`${at}: expect.json[${i}].exists must be true or false`);
      if (j.contains !== undefined && typeof j.contains !== 'string') throw new Error(`${at}: expect.json[${i}].contains must be a string`);
      return { pointer: j.pointer, ...('equals' in j ? { equals: j.equals } : {}), ...(j.exists !== undefined ? { exists: j.exists as boolean } : {}), ...(j.contains !== undefined ? { contains: j.contains as string } : {}), ...(j.type !== undefined ? { type: j.type as JsonTypeName } : {}), ...(j.pattern !== undefined ? { pattern: j.pattern as string } : {}) };
    });
  }
  if (value.outputSchema !== undefined) {
    if (typeof value.outputSchema !== 'boolean') throw new Error(`${at}: expect.outputSchema must be true or false`);
    out.outputSchema = value.outputSchema;
  }
  if (value.maxMs !== undefined) {
    if (typeof value.maxMs !== 'number' || !(value.maxMs > 0)) throw new Error(`${at}: expect.maxMs must be a positive number`);
    out.maxMs = value.maxMs;
  }
  return out;
}

function truncateText(text: string): string {
  return truncate(text, 200);
}
