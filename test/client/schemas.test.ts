import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SUPPORTED_PROTOCOL_VERSIONS, isPlainTextResult, schemasFor } from '../../src/client/schemas';

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
