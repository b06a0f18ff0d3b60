import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SUPPORTED_PROTOCOL_VERSIONS, isPlainLogMessage, isPlainTextResult, schemasFor, sessionSchemas } from '../../src/client/schemas';

const corpus: unknown[] = [
  { content: [] },
  { content: [{ type: 'text', text: 'hi' }] },
  { content: [{ type: 'text', text: 'hi', _meta: { a: 1 } }], isError: true, _meta: {}, extra: 1 },
  { content: [{ type: 'text', text: 'hi' }], structuredContent: { n: 1 } },
  { content: [{ type: 'text', text: 'hi' }], structuredContent: [1, 2] },
  { content: [{ type: 'text', text: 'hi' }], structuredContent: 'x' },
  { content: [{ type: 'text', text: 1 }] },
  { content: [{ type: 'text' }] },
  { content: [{ type: 'text', text: 'hi', _meta: [] }] },
  { content: [{ type: 'text', text: 'hi', annotations: { priority: 'high' } }] },
  { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
  { content: [{ type: 'bogus' }] },
  { content: [null] },
  { content: {} },
  { content: [{ type: 'text', text: 'hi' }], isError: 'yes' },
  { content: [{ type: 'text', text: 'hi' }], _meta: 'm' },
  {},
  [],
  null,
  'text',
];

test('the hand-checked tool result accepts only what the zod schema accepts, for every version', () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    const schema = schemasFor(version).callToolResult;
    for (const v of corpus) {
      const fast = isPlainTextResult(v, version >= '2025-06-18');
      const parsed = schema.safeParse(v);
      if (fast) assert.ok(parsed.success, `${version}: the fast path accepted what zod refuses: ${JSON.stringify(v)}`);
      // Through the schema object the connection uses, a refused value still gets zod's explanation.
      if (!parsed.success) assert.ok(parsed.error.issues.length > 0, JSON.stringify(v));
    }
  }
  assert.equal(isPlainTextResult({ content: [{ type: 'text', text: 'hi' }] }, true), true, 'the common case takes the fast path');
});

test('a log message taken without parsing is one the zod schema accepts, and unchanged by it', () => {
  const messages: unknown[] = [
    { level: 'info', data: 'hi' },
    { level: 'info', logger: 'flood', data: { n: 1 } },
    { level: 'emergency', data: null, _meta: { a: 1 }, extra: [1] },
    { level: 'warning' },
    Object.create({ data: 'inherited' }, { level: { value: 'info', enumerable: true } }),
    { level: 'info', logger: undefined, data: 1 },
    { level: 'warn', data: 'x' },
    { level: 'INFO', data: 'x' },
    { level: 1, data: 'x' },
    { level: 'info', logger: 2, data: 'x' },
    { level: 'info', logger: null, data: 'x' },
    { logger: 'x', data: 'x' },
    { level: 'toString', data: 'x' },
    { level: '__proto__', data: 'x' },
    JSON.parse('{"level":"info","__proto__":{"logger":5},"data":"x"}'),
    [],
    ['info'],
    null,
    'info',
    {},
  ];
  let fastOnes = 0;
  for (const m of messages) {
    const parsed = sessionSchemas().logMessageParams.safeParse(m);
    if (!isPlainLogMessage(m)) continue;
    fastOnes++;
    assert.ok(parsed.success, `taken without parsing, refused by zod: ${JSON.stringify(m)}`);
    assert.deepEqual(parsed.data, m, 'the schema would have passed it on unchanged');
  }
  assert.equal(fastOnes, 4, 'the well-formed messages take the fast path');
});
