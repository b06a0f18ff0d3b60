import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeHeaderValue, paramHeaders, standardHeaders, validateToolHeaders } from '../../src/protocol/httpHeaders';

const tool = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ inputSchema: { type: 'object', properties, ...extra } });
const reason = (t: { inputSchema?: unknown }): string => {
  const check = validateToolHeaders(t);
  assert.equal(check.ok, false, 'expected an invalid tool');
  return (check as { reason: string }).reason;
};

test('a tool without x-mcp-header is valid with no declarations; annotated string, integer and boolean properties are declared with their paths', () => {
  assert.deepEqual(validateToolHeaders(tool({ q: { type: 'string' } })), { ok: true, declarations: [] });
  assert.deepEqual(validateToolHeaders({}), { ok: true, declarations: [] });
  const check = validateToolHeaders(
    tool({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      options: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } } },
      maybe: { type: ['string', 'null'], 'x-mcp-header': 'Maybe' },
    }),
  );
  assert.deepEqual(check, {
    ok: true,
    declarations: [
      { path: ['region'], name: 'Region' },
      { path: ['priority'], name: 'Priority' },
      { path: ['options', 'dry'], name: 'Dry-Run' },
      { path: ['maybe'], name: 'Maybe' },
    ],
  });
});

test('every invalid declaration of the conformance scenario is rejected, with a reason that names the property', () => {
  assert.match(reason(tool({ value: { type: 'string', 'x-mcp-header': '' } })), /value must be a non-empty string/);
  assert.match(reason(tool({ data: { type: 'object', 'x-mcp-header': 'Data' } })), /needs a string, integer or boolean property, not "object"/);
  assert.match(reason(tool({ items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } })), /not "array"/);
  assert.match(reason(tool({ nil: { type: 'null', 'x-mcp-header': 'Nil' } })), /not "null"/);
  assert.match(reason(tool({ score: { type: 'number', 'x-mcp-header': 'Score' } })), /not "number"/);
  assert.match(reason(tool({ untyped: { 'x-mcp-header': 'Untyped' } })), /not "untyped"/);
  assert.match(reason(tool({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } })), /property b repeats "Region"/);
  assert.match(reason(tool({ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } })), /"myfield" on property b repeats "MyField" \(header names ignore case\)/);
  for (const bad of ['My Region', 'Region:Primary', 'Région', 'Region\t1', 'Region\r\n', 'a/b', '(x)']) {
    assert.match(reason(tool({ value: { type: 'string', 'x-mcp-header': bad } })), /not an HTTP header name token/, bad);
  }
  assert.match(reason(tool({ value: { type: 'string', 'x-mcp-header': 42 } })), /must be a non-empty string/);
});

test('a declaration that is not reached through properties alone makes the tool invalid; $ref is never followed', () => {
  const annotated = { type: 'string', 'x-mcp-header': 'Hidden' };
  assert.match(reason({ inputSchema: { type: 'object', 'x-mcp-header': 'Root' } }), /the schema root/);
  assert.match(reason(tool({ list: { type: 'array', items: annotated } })), /property list\.<items>/);
  assert.match(reason(tool({}, { anyOf: [{ properties: { x: annotated } }] })), /<anyOf>\.x/);
  assert.match(reason(tool({}, { oneOf: [{ properties: { x: annotated } }] })), /<oneOf>/);
  assert.match(reason(tool({}, { allOf: [{ properties: { x: annotated } }] })), /<allOf>/);
  assert.match(reason(tool({}, { if: { properties: { x: annotated } } })), /<if>/);
  assert.match(reason(tool({}, { $defs: { hidden: annotated } })), /<\$defs>/);
  assert.match(reason(tool({}, { additionalProperties: annotated })), /<additionalProperties>/);
  assert.match(reason(tool({}, { patternProperties: { '^x': annotated } })), /<patternProperties>/);
  // A $ref to an annotated definition: the definition itself is where the annotation is found invalid.
  assert.match(reason(tool({ x: { $ref: '#/$defs/hidden' } }, { $defs: { hidden: annotated } })), /<\$defs>/);
  // A reference alone declares nothing and is not fetched or resolved.
  assert.deepEqual(validateToolHeaders(tool({ x: { $ref: 'https://example.com/schema.json' } })), { ok: true, declarations: [] });
});

test('values: plain ASCII as it is; non-ASCII, control characters, edge whitespace, the sentinel and the empty string as Base64', () => {
  assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
  assert.equal(encodeHeaderValue('us west 1'), 'us west 1');
  assert.equal(encodeHeaderValue('SELECT * FROM t'), 'SELECT * FROM t');
  // The spec's own examples.
  assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
  assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
  assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
  assert.equal(encodeHeaderValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  for (const value of ['\tindented', 'trailing ', 'line1\r\nline2', 'nul\u0000', 'del\u007f', '']) {
    const encoded = encodeHeaderValue(value);
    const m = /^=\?base64\?(.*)\?=$/.exec(encoded);
    assert.ok(m, `${JSON.stringify(value)} is encoded`);
    assert.equal(Buffer.from(m[1], 'base64').toString('utf8'), value);
  }
  assert.equal(encodeHeaderValue('=?base64?only the prefix'), '=?base64?only the prefix');
});

test('Mcp-Param headers: converted per type, found by path, omitted when absent, null or not mirrorable', () => {
  const check = validateToolHeaders(
    tool({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      debug: { type: 'boolean', 'x-mcp-header': 'Debug' },
      greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
      nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
      query: { type: 'string' },
    }),
  );
  assert.ok(check.ok);
  const headers = paramHeaders(check.declarations, { region: 'us-west1', priority: 42, verbose: false, debug: true, greeting: 'Hello, 世界', nested: { zone: 'b' }, query: 'SELECT 1' });
  assert.deepEqual(headers, {
    'mcp-param-region': 'us-west1',
    'mcp-param-priority': '42',
    'mcp-param-verbose': 'false',
    'mcp-param-debug': 'true',
    'mcp-param-greeting': '=?base64?SGVsbG8sIOS4lueVjA==?=',
    'mcp-param-zone': 'b',
  });
  assert.deepEqual(paramHeaders(check.declarations, { region: 'x', verbose: null, priority: 2 ** 60, nested: 'not an object' }), { 'mcp-param-region': 'x' });
  assert.deepEqual(paramHeaders(check.declarations, undefined), {});
  assert.deepEqual(paramHeaders(check.declarations, { region: { toString: 'x' }, priority: 1.5 }), {});
});

test('standard headers: Mcp-Method always, Mcp-Name for the methods that name a target, encoded like any value', () => {
  assert.deepEqual(standardHeaders('tools/list', {}), { 'mcp-method': 'tools/list' });
  assert.deepEqual(standardHeaders('tools/call', { name: 'my-hyphenated-tool', arguments: {} }), { 'mcp-method': 'tools/call', 'mcp-name': 'my-hyphenated-tool' });
  assert.deepEqual(standardHeaders('prompts/get', { name: 'p' }), { 'mcp-method': 'prompts/get', 'mcp-name': 'p' });
  assert.deepEqual(standardHeaders('resources/read', { uri: 'file:///path/to/file%20name.txt' }), { 'mcp-method': 'resources/read', 'mcp-name': 'file:///path/to/file%20name.txt' });
  assert.deepEqual(standardHeaders('resources/read', { uri: 'file:///tmp/ré sumé ' }), { 'mcp-method': 'resources/read', 'mcp-name': `=?base64?${Buffer.from('file:///tmp/ré sumé ').toString('base64')}?=` });
  assert.deepEqual(standardHeaders('tools/call', undefined), { 'mcp-method': 'tools/call' });
  assert.deepEqual(standardHeaders('resources/list', { uri: 'ignored' }), { 'mcp-method': 'resources/list' });
});
