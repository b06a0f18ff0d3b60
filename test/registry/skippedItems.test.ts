// One malformed item no longer hides a list: the registry keeps the valid items, records the
// skipped ones (the tree shows them on the list's row) and logs each with the field that is wrong.
import { afterEach, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { disposeRegistries, entries, makeRegistry, node, prepare, sharedFixture } from './support';

afterEach(disposeRegistries);

suite('ServerRegistry: malformed list items', { timeout: 60_000 }, () => {
  test('valid items are kept, skipped ones recorded per list and logged; a stop clears them', async () => {
    const { registry, logsOf } = makeRegistry();
    const list = entries({ hostile: node(sharedFixture('hostile.mjs')) });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    assert.deepEqual(h.listErrors, {});
    assert.deepEqual(h.tools?.map((t) => t.name), ['echo', 'pattern-bomb', 'backreference', 'huge-schema', 'unique-bomb', 'deep-result']);
    assert.deepEqual(h.resources?.map((r) => r.uri), ['note://ok']);
    assert.deepEqual(h.templates?.map((t) => t.name), ['note']);
    assert.deepEqual(h.prompts?.map((p) => p.name), ['ok']);
    assert.deepEqual(
      h.skippedItems.tools?.map((s) => s.problem),
      ['tools[1].inputSchema.type must be one of "object"', 'tools[4].description must be a string'],
    );
    assert.deepEqual(h.skippedItems.resources?.map((s) => s.problem), ['resources[1].uri is required']);
    assert.deepEqual(h.skippedItems.templates?.map((s) => s.problem), ['resourceTemplates[1].uriTemplate must be a string']);
    assert.deepEqual(h.skippedItems.prompts?.map((s) => s.problem), ['prompts[1].name is required']);
    assert.ok(
      logsOf(h.id).includes('skipped 2 malformed tools: tools[1].inputSchema.type must be one of "object" ("no-type"); tools[4].description must be a string ("null-description")'),
      logsOf(h.id).join('\n'),
    );
    assert.ok(logsOf(h.id).includes('skipped 1 malformed resource template: resourceTemplates[1].uriTemplate must be a string ("numeric")'));

    await registry.stop(h.id);
    assert.deepEqual(h.skippedItems, {});
  });
});
