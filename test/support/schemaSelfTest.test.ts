// Proves the wire validator itself: the spec's own examples pass, broken messages fail, and
// method → definition picking matches each version's naming.
import { test, suite } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  SCHEMA_VERSIONS,
  assertWire,
  definitionFor,
  hasDefinition,
  schemaDir,
  validateMessage,
  validateWire,
  type SchemaVersion,
} from './wireSchema';

const EXAMPLES_VERSION: SchemaVersion = '2026-07-28';

function exampleFiles(): { definition: string; file: string }[] {
  const root = path.join(schemaDir(), EXAMPLES_VERSION, 'examples');
  const out: { definition: string; file: string }[] = [];
  for (const definition of fs.readdirSync(root).sort()) {
    for (const name of fs.readdirSync(path.join(root, definition)).sort()) {
      if (name.endsWith('.json')) out.push({ definition, file: path.join(root, definition, name) });
    }
  }
  return out;
}

const initialize2025 = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'mcp-host', version: '0.1.0' } },
};

suite('wireSchema: the spec examples of 2026-07-28', () => {
  const examples = exampleFiles();
  test('there are examples to check', () => {
    assert.ok(examples.length > 50, `only ${examples.length} examples found`);
  });
  for (const { definition, file } of examples) {
    test(`${definition}/${path.basename(file)} validates`, () => {
      assert.ok(hasDefinition(EXAMPLES_VERSION, definition), `${definition} is not in the schema`);
      assertWire(EXAMPLES_VERSION, definition, JSON.parse(fs.readFileSync(file, 'utf8')));
    });
  }
});

suite('wireSchema: broken messages fail', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

  test('a CallToolRequest without params.name fails in every version', () => {
    for (const version of SCHEMA_VERSIONS) {
      const check = validateWire(version, 'CallToolRequest', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta, arguments: {} } });
      assert.equal(check.ok, false, version);
      assert.match(check.ok ? '' : check.errors, /name/);
    }
  });

  test('a wrong method constant fails', () => {
    const check = validateWire(EXAMPLES_VERSION, 'CallToolRequest', { jsonrpc: '2.0', id: 1, method: 'tools/cal', params: { _meta: meta, name: 'x' } });
    assert.equal(check.ok, false);
  });

  test('a resource without uri fails ListResourcesResult', () => {
    for (const version of SCHEMA_VERSIONS) {
      const check = validateWire(version, 'ListResourcesResult', { resources: [{ name: 'no-uri' }], resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
      assert.equal(check.ok, false, version);
    }
  });

  test('`tools` that is not an array fails ListToolsResult', () => {
    assert.equal(validateWire('2025-06-18', 'ListToolsResult', { tools: 'not-an-array' }).ok, false);
  });

  test('formats: a uri needs a scheme and blob data must be base64', () => {
    assert.equal(validateWire('2025-06-18', 'Resource', { name: 'a', uri: 'relative/path' }).ok, false);
    assert.equal(validateWire('2025-06-18', 'Resource', { name: 'a', uri: 'file:///tmp/a.txt' }).ok, true);
    assert.equal(validateWire('2025-06-18', 'BlobResourceContents', { uri: 'file:///a', blob: 'not base64!' }).ok, false);
    assert.equal(validateWire('2025-06-18', 'BlobResourceContents', { uri: 'file:///a', blob: 'aGk=' }).ok, true);
  });

  test('an unknown definition name is reported, not thrown', () => {
    const check = validateWire('2024-11-05', 'NoSuchThing', {});
    assert.deepEqual(check, { ok: false, errors: 'NoSuchThing is not defined in MCP 2024-11-05' });
  });
});

suite('wireSchema: definitionFor', () => {
  test('picks request and notification definitions by method and direction', () => {
    assert.deepEqual(definitionFor(initialize2025, 'outbound'), { definition: 'InitializeRequest', subject: 'message' });
    assert.deepEqual(definitionFor({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'outbound'), { definition: 'InitializedNotification', subject: 'message' });
    assert.deepEqual(definitionFor({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, 'outbound'), { definition: 'RootsListChangedNotification', subject: 'message' });
    assert.deepEqual(definitionFor({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, 'outbound'), { definition: 'CancelledNotification', subject: 'message' });
    assert.deepEqual(definitionFor({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } }, 'outbound'), { definition: 'CallToolRequest', subject: 'message' });
    assert.deepEqual(definitionFor({ jsonrpc: '2.0', id: 's1', method: 'roots/list' }, 'inbound'), { definition: 'ListRootsRequest', subject: 'message' });
    assert.equal(definitionFor({ jsonrpc: '2.0', id: 2, method: 'roots/list' }, 'outbound'), undefined);
    assert.equal(definitionFor({ jsonrpc: '2.0', id: 2, method: 'foo/bar' }, 'inbound'), undefined);
  });

  test('picks the result definition of the request a response answers', () => {
    const rootsReply = { jsonrpc: '2.0', id: 's2', result: { roots: [] } };
    assert.deepEqual(definitionFor(rootsReply, 'outbound', 'roots/list'), { definition: 'ListRootsResult', subject: 'result' });
    assert.deepEqual(definitionFor({ jsonrpc: '2.0', id: 1, result: {} }, 'inbound', 'ping'), { definition: 'EmptyResult', subject: 'result' });
    assert.deepEqual(definitionFor({ jsonrpc: '2.0', id: 1, result: {} }, 'inbound', 'tools/call'), { definition: 'CallToolResult', subject: 'result' });
    assert.deepEqual(definitionFor({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'x' } }, 'outbound'), { definition: 'JSONRPCErrorResponse', subject: 'message' });
  });

  test('every definition it can pick exists in at least one version', () => {
    const methods = [
      ...['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read', 'resources/subscribe',
        'resources/unsubscribe', 'prompts/list', 'prompts/get', 'logging/setLevel', 'completion/complete', 'tasks/get', 'tasks/result', 'tasks/list',
        'tasks/cancel', 'server/discover', 'subscriptions/listen'].map((method) => ({ method, direction: 'outbound' as const })),
      ...['ping', 'sampling/createMessage', 'roots/list', 'elicitation/create'].map((method) => ({ method, direction: 'inbound' as const })),
    ];
    for (const { method, direction } of methods) {
      const request = definitionFor({ jsonrpc: '2.0', id: 1, method }, direction);
      const result = definitionFor({ jsonrpc: '2.0', id: 1, result: {} }, direction === 'outbound' ? 'inbound' : 'outbound', method);
      for (const target of [request, result]) {
        assert.ok(target, method);
        assert.ok(SCHEMA_VERSIONS.some((v) => hasDefinition(v, target.definition)), `${target.definition} (${method}) is in no schema`);
      }
    }
  });
});

suite('wireSchema: validateMessage per version', () => {
  test('an initialize request is valid up to 2025-11-25 and not part of 2026-07-28', () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const) {
      assert.deepEqual(validateMessage(version, initialize2025, 'outbound'), { ok: true }, version);
    }
    assert.equal(validateMessage('2026-07-28', initialize2025, 'outbound').ok, false);
  });

  test('envelope errors are caught (wrong jsonrpc)', () => {
    assert.equal(validateMessage('2025-06-18', { ...initialize2025, jsonrpc: '1.0' }, 'outbound').ok, false);
  });

  test('a method sent the wrong way fails', () => {
    assert.equal(validateMessage('2025-06-18', { jsonrpc: '2.0', id: 1, method: 'roots/list' }, 'outbound').ok, false);
    assert.equal(validateMessage('2025-06-18', { jsonrpc: '2.0', id: 1, method: 'roots/list' }, 'inbound').ok, true);
    assert.equal(validateMessage('2025-06-18', { jsonrpc: '2.0', id: 1, method: 'foo/bar' }, 'inbound').ok, false);
  });

  test('2026-07-28 has no server → client requests', () => {
    const check = validateMessage('2026-07-28', { jsonrpc: '2.0', id: 1, method: 'roots/list' }, 'inbound');
    assert.equal(check.ok, false);
  });

  test('a reply to roots/list is checked as ListRootsResult', () => {
    assert.equal(validateMessage('2025-06-18', { jsonrpc: '2.0', id: 's2', result: { roots: [{ uri: 'file:///work' }] } }, 'outbound', 'roots/list').ok, true);
    assert.equal(validateMessage('2025-06-18', { jsonrpc: '2.0', id: 's2', result: { roots: 'nope' } }, 'outbound', 'roots/list').ok, false);
  });

  test('an error response without id is valid only from 2025-11-25 on', () => {
    const error = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
    assert.equal(validateMessage('2025-06-18', error, 'outbound').ok, false);
    assert.equal(validateMessage('2025-11-25', error, 'outbound').ok, true);
  });

  test('batches are valid only in 2025-03-26', () => {
    const batch = [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ];
    // 2025-03-26's JSONRPCMessage allows batches of requests/notifications or of responses, not a mix.
    assert.equal(validateMessage('2025-03-26', [batch[0]], 'inbound').ok, true);
    assert.equal(validateMessage('2025-03-26', batch, 'inbound').ok, false);
    assert.equal(validateMessage('2025-06-18', [batch[0]], 'inbound').ok, false);
  });

  test('2026-07-28 results need resultType, and input_required results are accepted', () => {
    const complete = { content: [{ type: 'text', text: 'hi' }] };
    assert.equal(validateMessage('2025-11-25', { jsonrpc: '2.0', id: 1, result: complete }, 'inbound', 'tools/call').ok, true);
    assert.equal(validateMessage('2026-07-28', { jsonrpc: '2.0', id: 1, result: complete }, 'inbound', 'tools/call').ok, false);
    assert.equal(validateMessage('2026-07-28', { jsonrpc: '2.0', id: 1, result: { ...complete, resultType: 'complete' } }, 'inbound', 'tools/call').ok, true);
    const inputRequired = { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } };
    assert.equal(validateMessage('2026-07-28', { jsonrpc: '2.0', id: 1, result: inputRequired }, 'inbound', 'tools/call').ok, true);
  });
});
