// What changed in a server's offer, seen through the real registry: a list_changed in one
// session, and a restart that brings another build.
import { afterEach, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OfferChangeRecord, OfferChangeTracker, describeOfferChangeRecord } from '../../src/usecases/offerChanges';
import { disposeRegistries, entries, makeRegistry, node, prepare, sharedFixture, waitFor } from './support';

afterEach(disposeRegistries);

suite('What changed: the offer tracker on a real registry', { timeout: 60_000 }, () => {
  test('a list_changed in the same session, then a restart into another build', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-offer-'));
    const buildFile = join(dir, 'build');
    writeFileSync(buildFile, '1');
    try {
      const { registry } = makeRegistry();
      const tracker = new OfferChangeTracker();
      const records: OfferChangeRecord[] = [];
      tracker.onDidRecord((r) => records.push(r));
      registry.onDidChange((h) => tracker.observe(h));
      const list = entries({ evolving: node(sharedFixture('evolving.mjs'), '--build-file', buildFile) });
      await registry.update(list, prepare);
      const h = registry.get(list[0].id)!;
      await registry.start(h.id);
      await waitFor(() => h.tools?.some((t) => t.name === 'evolve') === true, 10_000, 'the tools of build 1');
      assert.equal(records.length, 0, 'the first offer is only remembered');

      const client = await h.whenReady();
      await client.callTool('evolve', {});
      await waitFor(() => records.length === 1, 10_000, 'a record after list_changed');
      assert.equal(records[0].cause, 'lists');
      assert.equal(records[0].serverName, 'evolving');
      assert.deepEqual(describeOfferChangeRecord(records[0]), [
        'what changed in the lists: 3 changes',
        '  tool echo: inputSchema.properties.message.description changed ("Text to echo" → "Text to send back")',
        '  tool retire: removed',
        '  tool shout: added',
      ]);

      // A rebuild: the next session offers build 2 (no evolve tool, other instructions).
      writeFileSync(buildFile, '2');
      await registry.restart(h.id);
      await waitFor(() => records.length === 2, 10_000, 'a record after the restart');
      assert.equal(records[1].cause, 'restart');
      assert.deepEqual(describeOfferChangeRecord(records[1]).slice(1), ['  instructions changed ("v1" → "v2")', '  tool evolve: removed']);
      assert.equal(tracker.list().length, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a bounded record list, and a server without changes records nothing', () => {
    const tracker = new OfferChangeTracker({ maxRecords: 2 });
    const client = { serverInfo: { name: 's', version: '1' }, protocolVersion: '2025-11-25', serverCapabilities: { tools: {} }, instructions: undefined, era: 'legacy' };
    const server = (tools: { name: string }[]) => ({ id: 's', entry: { name: 's' }, status: { kind: 'running' }, client: client as never, tools: tools.map((t) => ({ ...t, inputSchema: { type: 'object' as const } })), resources: undefined, templates: undefined, prompts: undefined, listErrors: {} });
    tracker.observe(server([{ name: 'a' }]));
    assert.equal(tracker.observe(server([{ name: 'a' }])), undefined);
    for (const name of ['b', 'c', 'd']) tracker.observe(server([{ name }]));
    assert.equal(tracker.list().length, 2);
    assert.deepEqual(tracker.list()[1].changes.map((c) => `${c.name} ${c.kind}`), ['c removed', 'd added']);
    // Tools declared but not fetched yet: nothing to compare.
    assert.equal(tracker.observe({ ...server([]), tools: undefined }), undefined);
  });
});
