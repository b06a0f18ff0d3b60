import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonEqual } from '../../src/schema/json';
import { formatJsonPath, jsonDiff, valueNote } from '../../src/schema/jsonDiff';
import { ServerOffer, describeOfferChange, diffOffers, isDataChange, parseOfferSnapshot, summarizeDataChanges } from '../../src/usecases/offerDiff';

const echo = (description: string) => ({
  name: 'echo',
  description: 'Echoes',
  inputSchema: { type: 'object' as const, properties: { message: { type: 'string', description } }, required: ['message'] },
});

function offer(extra: Partial<ServerOffer> = {}): ServerOffer {
  return { serverInfo: { name: 'notes', version: '1.0.0' }, protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, ...extra };
}

describe('jsonDiff', () => {
  test('reports nested changes with their paths, in document order', () => {
    const changes = jsonDiff({ a: { b: 1, c: [1, 2] }, gone: true }, { a: { b: 2, c: [1, 2], d: 'x' } });
    assert.deepEqual(
      changes.map((c) => [c.kind, formatJsonPath(c.path)]),
      [
        ['changed', 'a.b'],
        ['added', 'a.d'],
        ['removed', 'gone'],
      ],
    );
  });

  test('arrays of plain values are one value; arrays of objects go index by index', () => {
    assert.deepEqual(jsonDiff({ required: ['a', 'b'] }, { required: ['b', 'a'] }).map((c) => formatJsonPath(c.path)), ['required']);
    const content = jsonDiff({ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }, { type: 'text', text: 'c' }] });
    assert.deepEqual(
      content.map((c) => [c.kind, formatJsonPath(c.path)]),
      [
        ['changed', 'content[0].text'],
        ['added', 'content[1]'],
      ],
    );
  });

  test('ignores the JSON Pointers it is given, whole subtrees included', () => {
    const a = { id: 1, result: { _meta: { at: 1 }, value: 'x' } };
    const b = { id: 2, result: { _meta: { at: 2 }, value: 'x' } };
    assert.equal(jsonDiff(a, b).length, 2);
    assert.deepEqual(jsonDiff(a, b, { ignore: ['/id', '/result/_meta'] }), []);
  });

  test('stops at maxChanges', () => {
    const a = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const b = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i + 1]));
    assert.equal(jsonDiff(a, b, { maxChanges: 7 }).length, 7);
  });

  test('key order does not matter; odd keys are quoted in paths', () => {
    assert.ok(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }));
    assert.ok(!jsonEqual([1, 2], [2, 1]));
    assert.equal(formatJsonPath(['properties', 'a.b', 0, 'x y']), 'properties["a.b"][0]["x y"]');
  });
});

describe('diffOffers', () => {
  test('a changed parameter description is named with its path', () => {
    const changes = diffOffers(offer({ tools: [echo('Text to echo')] }), offer({ tools: [echo('Text to send back')] }));
    assert.deepEqual(changes.map(describeOfferChange), ['tool echo: inputSchema.properties.message.description changed ("Text to echo" → "Text to send back")']);
  });

  test('added and removed items, capabilities and instructions', () => {
    const before = offer({ instructions: 'v1', tools: [echo('x'), { name: 'retire', inputSchema: { type: 'object' as const } }], prompts: [{ name: 'greet' }] });
    const after = offer({ instructions: 'v2', capabilities: { tools: { listChanged: true }, logging: {} }, tools: [echo('x'), { name: 'shout', inputSchema: { type: 'object' as const } }] });
    assert.deepEqual(diffOffers(before, after).map(describeOfferChange), ['capabilities: logging added ({})', 'instructions changed ("v1" → "v2")', 'tool retire: removed', 'tool shout: added', 'prompt greet: removed']);
  });

  test('the server version counts only when asked; the name always', () => {
    const a = offer();
    const b = offer({ serverInfo: { name: 'notes', version: '1.0.1' } });
    assert.deepEqual(diffOffers(a, b), []);
    assert.deepEqual(diffOffers(a, b, { serverVersion: true }).map(describeOfferChange), ['server version changed ("1.0.0" → "1.0.1")']);
    assert.deepEqual(diffOffers(a, offer({ serverInfo: { name: 'jots', version: '1.0.0' } })).map(describeOfferChange), ['server name changed ("notes" → "jots")']);
  });

  test('resources by URI and templates by URI template', () => {
    const before = offer({ resources: [{ uri: 'notes://1', name: 'one' }], resourceTemplates: [{ uriTemplate: 'notes://{id}', name: 'note' }] });
    const after = offer({ resources: [{ uri: 'notes://1', name: 'first' }], resourceTemplates: [] });
    assert.deepEqual(diffOffers(before, after).map(describeOfferChange), ['resource notes://1: name changed ("one" → "first")', 'template notes://{id}: removed']);
  });

  test('a snapshot that is not one is refused with what it lacks', () => {
    assert.throws(() => parseOfferSnapshot([], 'a.json'), /a\.json is not an inspect snapshot/);
    assert.throws(() => parseOfferSnapshot({ tools: [] }, 'b.json'), /no serverInfo, protocolVersion and capabilities/);
    assert.throws(() => parseOfferSnapshot({ ...offer(), tools: {} }, 'c.json'), /"tools" is not a list/);
  });
});

describe('what changed, as a reader sees it', () => {
  const offer = (tools: object[], resources: object[]): ServerOffer => ({ serverInfo: { name: 'notes', version: '1' }, protocolVersion: '2025-11-25', capabilities: { tools: {}, resources: {} }, tools: tools as never, resources: resources as never });

  test('every changed line says from what to what: a long description clipped around where it differs', () => {
    const before = offer([{ name: 'list_notes', description: 'Lists every note the server holds, newest first, with their ids.', inputSchema: { type: 'object' } }], []);
    const after = offer([{ name: 'list_notes', description: 'Lists every note the server holds, oldest first, with their ids.', inputSchema: { type: 'object', properties: { limit: { type: 'integer' } } } }], []);
    assert.deepEqual(diffOffers(before, after).map(describeOfferChange), [
      'tool list_notes: description changed ("…rver holds, newest first, with their ids…" → "…rver holds, oldest first, with their ids…")',
      'tool list_notes: inputSchema.properties added ({1 key})',
    ]);
    assert.equal(valueNote({ kind: 'changed', before: { a: 1 }, after: [1, 2] }), ' ({1 key} → [2 items])');
  });

  test('data changes (resources coming and going) are told apart and summed up', () => {
    const before = offer([{ name: 'add_note', inputSchema: { type: 'object' } }], [{ uri: 'notes://note/1', name: 'one' }, { uri: 'notes://note/2', name: 'two' }]);
    const after = offer([{ name: 'add_note', inputSchema: { type: 'object' } }], [{ uri: 'notes://note/2', name: 'Two' }, { uri: 'notes://note/3', name: 'three' }, { uri: 'notes://note/4', name: 'four' }]);
    const changes = diffOffers(before, after);
    assert.ok(changes.every(isDataChange));
    assert.equal(summarizeDataChanges(changes), '2 resources added · 1 removed · 1 changed');
    assert.equal(isDataChange({ subject: 'tool', name: 'add_note', kind: 'removed', path: [] }), false);
  });
});
