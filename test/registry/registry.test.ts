// ServerRegistry with real processes: starting server-everything, the update() diff, failures
// that stay with their server, start/stop/restart, secrets in logs, dispose.
import { afterEach, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Frame } from '../../src/protocol/connection';
import { McpLocalError } from '../../src/protocol/errors';
import { ServerEntry } from '../../src/config/types';
import { ServerHandle } from '../../src/registry/serverRegistry';
import { resolveEntry } from '../../src/config/variables';
import {
  EVERYTHING,
  NODE,
  REPO,
  disposeRegistries,
  entries,
  firstText,
  fixture,
  isAlive,
  makeRegistry,
  node,
  prepare,
  sharedFixture,
  variableContext,
  waitFor,
} from './support';

afterEach(disposeRegistries);

const byName = (list: readonly ServerEntry[], name: string) => list.find((e) => e.name === name)!;
/** The status kind, read through a function so TypeScript does not narrow it across awaits. */
const kindOf = (h: ServerHandle) => h.status.kind;

suite('ServerRegistry: lifecycle', { timeout: 60_000 }, () => {
  test('starts server-everything, logs each step, caches its lists, and dispose leaves no process', async () => {
    const { registry, logsOf } = makeRegistry();
    const [entry] = entries({ everything: node(...(EVERYTHING as [string, string])) });
    const frames: Frame[] = [];
    registry.onDidCreateClient(({ client }) => client.onFrame((f) => frames.push(f)));
    const statuses: string[] = [];
    registry.onDidChange((h) => statuses.push(h.status.kind));

    await registry.update([entry], prepare);
    const h = registry.get(entry.id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    assert.equal(statuses[0], 'starting');
    assert.ok(statuses.includes('running'));
    assert.ok(isAlive(h.pid), 'the server process is running');
    assert.equal(h.client?.state.kind, 'ready');
    // server-everything declares tools, resources and prompts: every list is fetched.
    assert.ok(h.tools && h.tools.some((t) => t.name === 'echo'), 'tools');
    assert.ok(h.resources && h.resources.length > 0, 'resources');
    assert.ok(h.templates && h.templates.length > 0, 'templates');
    assert.ok(h.prompts && h.prompts.length > 0, 'prompts');
    assert.deepEqual(h.listErrors, {});
    // The handshake was visible to onDidCreateClient subscribers: the era probe, then initialize.
    assert.deepEqual(frames.filter((f) => f.direction === 'send').slice(0, 2).map((f) => (f.message as { method: string }).method), ['server/discover', 'initialize']);

    const log = logsOf(entry.id);
    assert.equal(log.find((l) => l.startsWith('starting: ')), `starting: ${NODE} ${EVERYTHING.join(' ')} (cwd ${REPO})`);
    assert.ok(log.includes(`started (pid ${h.pid})`), log.join('\n'));
    assert.ok(log.some((l) => /^initialized: .+ .+, protocol \d{4}-\d{2}-\d{2} \(legacy era\)$/.test(l)), log.join('\n'));

    const pid = h.pid;
    await registry.dispose();
    assert.ok(!isAlive(pid), 'no process left after dispose');
    assert.equal(h.status.kind, 'stopped');
    assert.ok(logsOf(entry.id).some((l) => l.startsWith('stopped')));
    await registry.update([entry], prepare);
    assert.equal(registry.list().length, 1, 'update after dispose is ignored');
    assert.equal(h.client, undefined);
  });

  test('update() diff: unchanged keeps its process, changed restarts, new starts, removed stops', async () => {
    const { registry, logsOf } = makeRegistry();
    let changes = 0;
    registry.onDidChangeServers(() => changes++);
    const first = entries({
      keep: node(fixture('lifecycle.mjs'), 'ok'),
      change: node(fixture('lifecycle.mjs'), 'ok'),
    });
    await registry.update(first, prepare);
    assert.equal(changes, 1);
    const keep = registry.get(byName(first, 'keep').id)!;
    const change = registry.get(byName(first, 'change').id)!;
    assert.deepEqual([keep.status.kind, change.status.kind], ['running', 'running']);
    const keepClient = keep.client;
    const keepPid = keep.pid;
    const changePid = change.pid;

    // Same definition (different key order), one changed definition, one new one.
    const second = entries({
      added: node(fixture('lifecycle.mjs'), 'ok'),
      change: node(fixture('lifecycle.mjs'), 'ok', '--changed'),
      keep: { args: [fixture('lifecycle.mjs'), 'ok'], command: NODE },
    });
    assert.equal(byName(second, 'keep').fingerprint, byName(first, 'keep').fingerprint);
    await registry.update(second, prepare);
    assert.equal(registry.get(byName(second, 'keep').id), keep, 'the handle object is kept');
    assert.equal(keep.client, keepClient, 'unchanged: same client');
    assert.equal(keep.pid, keepPid, 'unchanged: same process');
    assert.ok(isAlive(keepPid));
    assert.equal(change.status.kind, 'running');
    assert.notEqual(change.pid, changePid, 'changed: a new process');
    assert.ok(!isAlive(changePid), 'changed: the old process is gone');
    assert.deepEqual(change.resolved?.type === 'stdio' && change.resolved.args.slice(-1), ['--changed']);
    assert.ok(logsOf(change.id).includes('configuration changed'));
    const added = registry.get(byName(second, 'added').id)!;
    assert.equal(added.status.kind, 'running');
    assert.deepEqual(registry.list().map((h) => h.entry.name), ['added', 'change', 'keep']);
    assert.equal(changes, 2);

    // Remove two: their processes are gone when update() resolves.
    const removedPids = [change.pid, added.pid];
    await registry.update(entries({ keep: node(fixture('lifecycle.mjs'), 'ok') }), prepare);
    assert.deepEqual(registry.list().map((h) => h.entry.name), ['keep']);
    assert.deepEqual(removedPids.map(isAlive), [false, false]);
    assert.deepEqual([change.status.kind, added.status.kind], ['stopped', 'stopped']);
    assert.equal(keep.pid, keepPid);
    assert.equal(registry.get(change.id), undefined);
  });

  test('a failing server never affects the others, and each failure says why', async () => {
    const { registry } = makeRegistry({ startTimeoutMs: 1500 });
    const list = entries({
      good: node(fixture('lifecycle.mjs'), 'ok'),
      missingCommand: { command: '/nonexistent/bin/mcp-server' },
      diesInHandshake: node(fixture('lifecycle.mjs'), 'exit-during-init'),
      badVersion: node(sharedFixture('versioned.mjs'), '--version', '1999-01-01'),
      hangs: node(fixture('lifecycle.mjs'), 'hang-init'),
      untrusted: node(fixture('lifecycle.mjs'), 'ok'),
      needsInput: { command: NODE, args: ['${input:token}'] },
      unknownVariable: { command: NODE, args: ['${workspaceRoot}'] },
      remote: { type: 'http', url: 'http://127.0.0.1:1/mcp' },
    });
    await registry.update(list, async (entry, signal) => (entry.name === 'untrusted' ? { blocked: 'the workspace is not trusted' } : prepare(entry, signal)));
    const status = (name: string) => registry.get(byName(list, name).id)!.status;
    const message = (name: string) => {
      const s = status(name);
      assert.equal(s.kind, 'error', `${name}: ${JSON.stringify(s)}`);
      return s.kind === 'error' ? s.message : '';
    };
    assert.equal(status('good').kind, 'running');
    assert.match(message('missingCommand'), /\/nonexistent\/bin\/mcp-server/);
    assert.match(message('diesInHandshake'), /exited with code 2/);
    const dies = status('diesInHandshake');
    assert.ok(dies.kind === 'error' && dies.stderrTail.includes('cannot start: missing API key'), JSON.stringify(dies));
    assert.match(message('badVersion'), /protocol version "1999-01-01", which this client does not support/);
    assert.equal(message('hangs'), 'the server did not answer initialize within 1500 ms');
    assert.deepEqual(status('untrusted'), { kind: 'blocked', reason: 'the workspace is not trusted' });
    assert.equal(message('needsInput'), 'could not prepare the server: the input "token" was cancelled');
    assert.equal(message('unknownVariable'), 'could not prepare the server: args[0]: unknown variable ${workspaceRoot}');
    assert.match(message('remote'), /127\.0\.0\.1:1/);
    // Start failures are not retried: they would fail the same way.
    for (const h of registry.list()) assert.equal(h.restarts, 0, h.entry.name);
    assert.ok(registry.get(byName(list, 'hangs').id)!.lastExit, 'the hanging server was killed');
    assert.equal(registry.list().filter((h) => h.client !== undefined).length, 1, 'only the good server has a client');
  });

  test('blocked servers are prepared again on update; a remote entry can become stdio', async () => {
    const { registry } = makeRegistry();
    let trusted = false;
    const gate = async (entry: ServerEntry, signal: AbortSignal) => (trusted ? prepare(entry, signal) : { blocked: 'untrusted' });
    const list = entries({ s: node(fixture('lifecycle.mjs'), 'ok') });
    await registry.update(list, gate);
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'blocked');
    trusted = true;
    await registry.update(list, gate);
    assert.equal(h.status.kind, 'running');

    const remote = entries({ r: { type: 'sse', url: 'http://localhost:1/sse' } });
    await registry.update(remote, prepare);
    const r = registry.get(remote[0].id)!;
    assert.equal(r.status.kind, 'error', 'nothing listens on port 1');
    assert.equal(r.resolved?.type, 'sse');
    const local = entries({ r: node(fixture('lifecycle.mjs'), 'ok') });
    await registry.update(local, prepare);
    assert.equal(r.status.kind, 'running');
  });

  test('stop, start, restart one server; stopAll and startAll; a stopped server stays stopped when its config changes', async () => {
    const { registry } = makeRegistry();
    const list = entries({ a: node(fixture('lifecycle.mjs'), 'ok'), b: node(fixture('lifecycle.mjs'), 'ok') });
    await registry.update(list, prepare);
    const [a, b] = registry.list();
    const pidA = a.pid;
    await registry.stop(a.id);
    assert.equal(kindOf(a), 'stopped');
    assert.ok(!isAlive(pidA));
    assert.equal(a.tools, undefined, 'lists are cleared when stopped');
    assert.equal(kindOf(b), 'running');

    // A changed config of a stopped server updates its entry but does not start it.
    const changed = entries({ a: node(fixture('lifecycle.mjs'), 'ok', '--v2'), b: node(fixture('lifecycle.mjs'), 'ok') });
    await registry.update(changed, prepare);
    assert.equal(kindOf(a), 'stopped');
    assert.equal(a.entry.fingerprint, byName(changed, 'a').fingerprint);

    await registry.start(a.id);
    assert.equal(kindOf(a), 'running');
    assert.deepEqual(a.resolved?.type === 'stdio' && a.resolved.args.slice(-1), ['--v2']);
    const pidA2 = a.pid;
    await registry.restart(a.id);
    assert.equal(kindOf(a), 'running');
    assert.notEqual(a.pid, pidA2);
    assert.ok(!isAlive(pidA2));

    const pids = registry.list().map((h) => h.pid);
    await registry.stopAll();
    assert.deepEqual(registry.list().map((h) => h.status.kind), ['stopped', 'stopped']);
    assert.deepEqual(pids.map(isAlive), [false, false]);
    await registry.startAll();
    assert.deepEqual(registry.list().map((h) => h.status.kind), ['running', 'running']);
    assert.ok(registry.list().every((h) => isAlive(h.pid)));
  });

  test('stop() during a slow handshake ends it at once', async () => {
    const { registry, logsOf } = makeRegistry({ startTimeoutMs: 30_000 });
    const list = entries({ slow: node(fixture('lifecycle.mjs'), 'hang-init') });
    const updating = registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    const pid = await waitFor(() => h.pid, 5000, 'the process to start');
    await registry.stop(h.id);
    await updating;
    assert.ok(!logsOf(h.id).some((l) => /timed out/.test(l)), `did not wait for the initialize timeout:\n${logsOf(h.id).join('\n')}`);
    assert.equal(h.status.kind, 'stopped');
    assert.ok(!isAlive(pid));
  });

  test('stop() while prepare waits for the user aborts its signal and does not wait', async () => {
    const { registry } = makeRegistry();
    const list = entries({ s: node(fixture('lifecycle.mjs'), 'ok') });
    let seen: AbortSignal | undefined;
    // A consent prompt nobody answers.
    const updating = registry.update(list, (_entry, signal) => {
      seen = signal;
      return new Promise(() => {});
    });
    const h = registry.get(list[0].id)!;
    await waitFor(() => seen, 2000, 'prepare to be called');
    assert.equal(h.status.kind, 'starting');
    await registry.stop(h.id);
    await updating;
    assert.equal(seen?.aborted, true);
    assert.equal(h.status.kind, 'stopped');
    assert.equal(h.client, undefined);
  });

  test('autoStart off: update() adds servers stopped; start() runs them', async () => {
    const { registry } = makeRegistry({ autoStart: false });
    assert.equal(registry.autoStart, false);
    const list = entries({ a: node(fixture('lifecycle.mjs'), 'ok'), r: { type: 'http', url: 'http://127.0.0.1:1/mcp' } });
    await registry.update(list, prepare);
    assert.deepEqual(registry.list().map((h) => h.status.kind), ['stopped', 'stopped']);
    await registry.startAll();
    assert.deepEqual(registry.list().map((h) => h.status.kind), ['running', 'error']);
  });

  test('the child gets exactly the resolved environment and cwd: null removes an inherited variable', async () => {
    process.env.MCP_HOST_TEST_REMOVE = 'inherited';
    process.env.MCP_HOST_TEST_KEEP = 'inherited';
    try {
      const { registry } = makeRegistry();
      const list = entries({ s: { command: NODE, args: [`\${workspaceFolder}/${fixture('lifecycle.mjs')}`, 'ok'], env: { MCP_HOST_TEST_REMOVE: null, MCP_HOST_TEST_SET: 'set-${workspaceFolderBasename}' }, cwd: 'test' } });
      await registry.update(list, prepare);
      const h = registry.get(list[0].id)!;
      assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
      const { env, cwd } = JSON.parse(firstText(await h.client!.callTool('env')));
      assert.equal(env.MCP_HOST_TEST_REMOVE, undefined);
      assert.equal(env.MCP_HOST_TEST_KEEP, 'inherited');
      assert.equal(env.MCP_HOST_TEST_SET, `set-${path.basename(REPO)}`);
      assert.equal(cwd, path.join(REPO, 'test'));
    } finally {
      delete process.env.MCP_HOST_TEST_REMOVE;
      delete process.env.MCP_HOST_TEST_KEEP;
    }
  });

  test('input values never reach the log; the command line is shown with them redacted', async () => {
    const { registry, logs } = makeRegistry();
    const list = entries(
      { s: { command: NODE, args: [fixture('lifecycle.mjs'), 'ok', '--token=${input:token}'], env: { TOKEN: '${input:token}' } } },
      [{ id: 'token', type: 'promptString', password: true }],
    );
    const ctx = variableContext({ token: 'hunter2-very-secret' });
    await registry.update(list, (entry) => resolveEntry(entry, ctx));
    const h: ServerHandle = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running');
    assert.deepEqual(h.resolved?.secretValues, ['hunter2-very-secret']);
    assert.equal(h.resolved?.type === 'stdio' && h.resolved.env.TOKEN, 'hunter2-very-secret');
    await registry.stop(h.id);
    assert.ok(logs.length > 3);
    assert.ok(!logs.some((l) => l.text.includes('hunter2')), logs.map((l) => l.text).join('\n'));
    assert.ok(logs.some((l) => l.text.startsWith('starting: ') && l.text.endsWith(`ok --token=•••• (cwd ${REPO})`)));
  });

  test('whenReady(): the client of a running server, after a start in progress, with start: true, and why not', async () => {
    const { registry } = makeRegistry({ autoStart: false });
    const [entry] = entries({ ready: node(fixture('lifecycle.mjs'), 'ok') });
    await registry.update([entry], prepare);
    const h = registry.get(entry.id)!;
    await assert.rejects(h.whenReady(), (e: unknown) => McpLocalError.is(e, 'closed') && /is not running \(stopped\) — start it first/.test(e.message));
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(h.whenReady({ signal: aborted.signal, start: true }), (e: unknown) => McpLocalError.is(e, 'cancelled'));
    assert.equal(kindOf(h), 'stopped', 'an aborted wait does not start the server');
    // Asked while the start is in progress: resolves once it is running.
    const starting = registry.start(entry.id);
    await waitFor(() => kindOf(h) === 'starting', 10_000, 'starting');
    const client = await h.whenReady();
    assert.equal(kindOf(h), 'running');
    assert.equal(client, h.client);
    assert.equal(client.state.kind, 'ready');
    await starting;
    assert.equal(await h.whenReady(), client, 'a running server answers at once with the same client');
    await registry.stop(entry.id);
    const again = await h.whenReady({ start: true });
    assert.equal(kindOf(h), 'running');
    assert.notEqual(again, client, 'start: true started a new process');
    await registry.update([], prepare);
    await assert.rejects(h.whenReady(), (e: unknown) => McpLocalError.is(e, 'closed') && /no server .* is configured/.test(e.message));
  });
});
