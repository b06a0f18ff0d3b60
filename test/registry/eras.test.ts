// The registry with servers of both eras: the era each spoke is remembered for restarts, the
// entry's protocolVersion pins it, a modern server's list_changed comes on subscriptions/listen,
// and its lists are reused for their ttlMs.
import { afterEach, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Frame } from '../../src/protocol/connection';
import { disposeRegistries, entries, makeRegistry, node, prepare, sharedFixture, waitFor } from './support';

afterEach(disposeRegistries);

suite('ServerRegistry: both eras', { timeout: 60_000 }, () => {
  test('a modern server: lists with their freshness, list changes over subscriptions/listen, stale lists fetched again', async () => {
    const { registry, logsOf } = makeRegistry();
    const frames: Frame[] = [];
    registry.onDidCreateClient(({ client }) => client.onFrame((f) => frames.push(f)));
    const list = entries({ modern: node(sharedFixture('eras.mjs'), '--modern-only') });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    assert.equal(h.client?.era, 'modern');
    assert.ok(logsOf(h.id).some((l) => /^initialized: eras-modern 2\.0\.0, protocol 2026-07-28 \(modern era\)$/.test(l)), logsOf(h.id).join('\n'));
    assert.ok(h.tools?.some((t) => t.name === 'echo'));
    const tools = h.listFreshness.tools!;
    assert.equal(tools.freshUntil! - tools.fetchedAt, 30_000, 'tools/list said ttlMs 30000');
    assert.equal(tools.cacheScope, 'public');
    const resources = h.listFreshness.resources!;
    assert.equal(resources.freshUntil, resources.fetchedAt, 'ttlMs 0: stale at once');

    const sentCount = (method: string) => frames.filter((f) => f.direction === 'send' && (f.message as { method?: string }).method === method).length;
    const before = { tools: sentCount('tools/list'), resources: sentCount('resources/list') };
    await h.refreshIfStale('tools');
    await h.refreshIfStale('resources');
    assert.equal(sentCount('tools/list'), before.tools, 'a fresh list is reused');
    assert.equal(sentCount('resources/list'), before.resources + 1, 'a stale list is fetched again');

    await h.client!.callTool('add-tool');
    await waitFor(() => h.tools?.some((t) => t.name === 'extra'), 5000, 'the new tool in the cached list');
  });

  test('an entry pinned to legacy speaks initialize to a server of both eras; a legacy server is not probed after a restart', async () => {
    const { registry } = makeRegistry();
    const frames: Frame[] = [];
    registry.onDidCreateClient(({ client }) => client.onFrame((f) => frames.push(f)));
    const list = entries({ pinned: { ...node(sharedFixture('eras.mjs')), protocolVersion: 'legacy' }, old: node(sharedFixture('versioned.mjs'), '--version', '2025-06-18') });
    await registry.update(list, prepare);
    const [pinned, old] = list.map((e) => registry.get(e.id)!);
    assert.equal(pinned.client?.era, 'legacy');
    assert.equal(old.client?.era, 'legacy');
    assert.equal(old.client?.protocolVersion, '2025-06-18');
    const probes = () => frames.filter((f) => f.direction === 'send' && (f.message as { method?: string }).method === 'server/discover').length;
    assert.equal(probes(), 1, 'only the unpinned server was probed');
    await registry.restart(old.id);
    await waitFor(() => old.status.kind === 'running' && old.client?.state.kind === 'ready', 10_000, 'the restart');
    assert.equal(probes(), 1, 'the remembered era needs no probe');
  });
});
