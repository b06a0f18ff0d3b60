// The editor's side of the era probe (issue 19): a server that exits on `server/discover` is
// started again within the same start, with initialize; the era each server spoke is kept in a
// store that outlives the registry (the editor's global state), so a new window does not probe;
// the quiet time comes from the setting. Fixtures: probeEras.mjs.
import { afterEach, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Frame } from '../../src/protocol/connection';
import { ServerRegistry } from '../../src/registry/serverRegistry';
import { PersistentEraStore } from '../../src/registry/eraStore';
import { disposeRegistries, entries, makeRegistry, node, prepare, sharedFixture } from './support';

afterEach(disposeRegistries);

/** A global state in memory: what a new window of the editor would find. */
function memoryState(): { store: () => PersistentEraStore; value: () => unknown } {
  let saved: unknown;
  return { store: () => new PersistentEraStore({ read: () => saved, write: (v) => (saved = structuredClone(v)) }), value: () => saved };
}

function sentMethods(registry: ServerRegistry): () => string[] {
  const frames: Frame[] = [];
  registry.onDidCreateClient(({ client }) => client.onFrame((f) => frames.push(f)));
  return () => frames.filter((f) => f.direction === 'send').map((f) => (f.message as { method?: string }).method ?? '');
}

suite('ServerRegistry: the era probe', { timeout: 60_000 }, () => {
  test('a server that exits on the probe is started again at once with initialize, said in the log; a new registry on the same state does not probe', async () => {
    const state = memoryState();
    const list = entries({ strict: node(sharedFixture('probeEras.mjs'), '--mode', 'exit-unknown') });
    const { registry, logsOf } = makeRegistry({ eraStore: state.store() });
    const sent = sentMethods(registry);
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    assert.equal(h.client?.era, 'legacy');
    assert.equal(logsOf(h.id).filter((l) => /exited during the server\/discover probe .*starting it once more with initialize/.test(l)).length, 1, logsOf(h.id).join('\n'));
    assert.deepEqual(sent().slice(0, 2), ['server/discover', 'initialize']);
    assert.equal(h.restarts, 0, 'the restart for the probe is no crash');

    const next = makeRegistry({ eraStore: state.store() });
    const sentNext = sentMethods(next.registry);
    await next.registry.update(list, prepare);
    const again = next.registry.get(list[0].id)!;
    assert.equal(again.status.kind, 'running', JSON.stringify(again.status));
    assert.equal(sentNext()[0], 'initialize');
    assert.ok(next.logsOf(again.id).some((l) => /^era: legacy \(2025-11-25\), as this server spoke before: initialize without a server\/discover probe$/.test(l)), next.logsOf(again.id).join('\n'));
    // The state names no command line.
    assert.doesNotMatch(JSON.stringify(state.value()), /probeEras|exit-unknown/);
  });

  test('a server that crashes at start (a missing token on stderr) is started once, its stderr reason kept, nothing remembered', async () => {
    const state = memoryState();
    const list = entries({ crash: node(sharedFixture('crashAtStart.mjs'), '--mode', 'missing-token') });
    const { registry, logsOf } = makeRegistry({ eraStore: state.store() });
    const sent = sentMethods(registry);
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'error', JSON.stringify(h.status));
    const logs = logsOf(h.id).join('\n');
    assert.doesNotMatch(logs, /starting it once more|as this server spoke before/, logs);
    assert.deepEqual(sent(), ['server/discover'], 'started once');
    assert.match(h.status.kind === 'error' ? h.status.message : '', /exited with code 1 at start, before answering anything; stderr: .*No access token was provided/);
    assert.equal(state.value(), undefined, 'no era was saved');
  });

  test('a server that ignores the probe: legacy after the quiet time of the setting, said in the log at info level', async () => {
    const list = entries({ quiet: node(sharedFixture('probeEras.mjs'), '--mode', 'ignore-unknown') });
    const { registry, logs } = makeRegistry({ probeTimeoutMs: 300 });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    assert.equal(h.client?.era, 'legacy');
    const decision = logs.find((l) => l.id === h.id && /server\/discover: no answer 300 ms after the server's last output; using initialize/.test(l.text));
    assert.equal(decision?.level, 'info', JSON.stringify(logs));
  });

  test('a modern server is remembered as modern in the state', async () => {
    const state = memoryState();
    const list = entries({ modern: node(sharedFixture('eras.mjs'), '--modern-only') });
    const { registry } = makeRegistry({ eraStore: state.store() });
    await registry.update(list, prepare);
    assert.equal(registry.get(list[0].id)!.client?.era, 'modern');
    assert.deepEqual(Object.values(state.value() as Record<string, { era: string; version: string }>).map((e) => [e.era, e.version]), [['modern', '2026-07-28']]);
  });
});
