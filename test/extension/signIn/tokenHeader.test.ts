// The config edit of "Set Token": the entry's Authorization header names a password input, which
// the file's inputs declare; comments and the rest of the file stay as they were.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'jsonc-parser';
import { tokenInputId, withTokenHeader } from '../../../src/extension/signIn/tokenHeader';

const input = { id: tokenInputId('docs api'), type: 'promptString' as const, description: 'Token for "docs api"', password: true };

test('withTokenHeader: adds the header and the input, keeps comments; replaces another spelling; idempotent', () => {
  const text = '{\n  // my servers\n  "servers": {\n    "docs api": { "type": "http", "url": "https://docs.example/mcp", "headers": { "authorization": "Bearer old-literal", "X-Trace": "1" } },\n    "other": { "type": "http", "url": "https://other.example/mcp" }\n  }\n}\n';
  const out = withTokenHeader(text, 'docs api', input)!;
  assert.equal(input.id, 'docs-api-token');
  assert.match(out, /\/\/ my servers/);
  const value = parse(out) as { servers: Record<string, { headers?: Record<string, string> }>; inputs: unknown[] };
  assert.deepEqual(value.servers['docs api'].headers, { 'X-Trace': '1', Authorization: 'Bearer ${input:docs-api-token}' });
  assert.equal(value.servers.other.headers, undefined);
  assert.deepEqual(value.inputs, [input]);
  assert.ok(!out.includes('old-literal'), 'the literal credential is gone from the file');
  assert.equal(withTokenHeader(out, 'docs api', input), out, 'a second Set Token changes nothing in the file');
});

test('withTokenHeader: .mcp.json style (mcpServers) and an existing inputs list; undefined for an unknown entry', () => {
  const text = JSON.stringify({ inputs: [{ id: 'x', type: 'promptString' }], mcpServers: { docs: { type: 'http', url: 'https://docs.example/mcp' } } }, null, 2);
  const one = { ...input, id: tokenInputId('docs') };
  const value = parse(withTokenHeader(text, 'docs', one)!) as { mcpServers: { docs: { headers: Record<string, string> } }; inputs: Array<{ id: string }> };
  assert.equal(value.mcpServers.docs.headers.Authorization, 'Bearer ${input:docs-token}');
  assert.deepEqual(value.inputs.map((i) => i.id), ['x', 'docs-token']);
  assert.equal(withTokenHeader(text, 'missing', one), undefined);
});
