// Crash handling with real processes: a server that exits right after initialize is restarted
// with exponential back-off, at most N times in a sliding window of M minutes, then left in
// error with its last message and stderr.
import { after, afterEach, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServerHandle } from '../../src/registry/serverRegistry';
import { disposeRegistries, entries, fixture, isAlive, makeRegistry, node, prepare, waitFor, waitForStatus } from './support';

afterEach(disposeRegistries);

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-crash-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Times (ms since `t0`) of the log lines matching `re`. */
function timesOf(lines: { text: string; at: number }[], re: RegExp): number[] {
  return lines.filter((l) => re.test(l.text)).map((l) => l.at);
}

suite('ServerRegistry: crashes', { timeout: 60_000 }, () => {
  test('restarts with exponential back-off, then gives up after N restarts in M minutes', async () => {
    const timed: { id: string; text: string; at: number }[] = [];
    const t0 = Date.now();
    const { registry } = makeRegistry({
      restart: { maxRestarts: 3, windowMinutes: 1, backoffMs: 100 },
      log: (id, _level, text) => timed.push({ id, text, at: Date.now() - t0 }),
    });
    const list = entries({ crashy: node(fixture('lifecycle.mjs'), 'exit-after-init') });
    const statuses: ServerHandle['status'][] = [];
    registry.onDidChange((x) => statuses.push(x.status));
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;

    await waitForStatus(h, 'error', (x) => x.status.kind === 'error' && x.status.restart === undefined, 15_000);
    const text = timed.map((l) => l.text);
    assert.deepEqual(
      text.filter((l) => l.startsWith('restarting in') || l.startsWith('gave up')),
      [
        'restarting in 100 ms (restart 1 of 3 within 1 minute)',
        'restarting in 200 ms (restart 2 of 3 within 1 minute)',
        'restarting in 400 ms (restart 3 of 3 within 1 minute)',
        'gave up after 3 restarts in 1 minute',
      ],
    );
    assert.equal(text.filter((l) => l.startsWith('starting: ')).length, 4, 'the first start and three restarts');
    assert.equal(text.filter((l) => l === 'the server exited unexpectedly (code 3)').length, 4);
    // The back-off really waited: each start comes at least the announced delay after its announcement.
    const announced = timesOf(timed, /^restarting in/);
    const starts = timesOf(timed, /^starting: /).slice(1);
    [100, 200, 400].forEach((delay, i) => assert.ok(starts[i] - announced[i] >= delay - 5, `restart ${i + 1}: ${starts[i] - announced[i]} ms < ${delay} ms`));

    assert.equal(h.status.kind, 'error');
    if (h.status.kind === 'error') {
      assert.equal(h.status.message, 'the server exited unexpectedly (code 3); gave up after 3 restarts in 1 minute');
      assert.ok(h.status.stderrTail.some((l) => /^crashing on purpose \(pid \d+\)$/.test(l)), JSON.stringify(h.status.stderrTail));
    }
    assert.equal(h.restarts, 3);
    assert.equal(h.lastError, 'the server exited unexpectedly (code 3)');
    assert.deepEqual(h.lastExit && [h.lastExit.code, h.lastExit.signal], [3, null]);
    assert.equal(h.client, undefined);
    // While a restart was pending the status said so.
    const pending = statuses.filter((s) => s.kind === 'error' && s.restart);
    assert.deepEqual(
      pending.map((s) => (s.kind === 'error' ? [s.restart!.attempt, s.restart!.maxRestarts, s.restart!.delayMs] : [])),
      [
        [1, 3, 100],
        [2, 3, 200],
        [3, 3, 400],
      ],
    );
    assert.ok(timed.every((l) => l.id === h.id));

    // A manual start resets the window.
    await registry.start(h.id);
    await waitForStatus(h, 'error', (x) => x.status.kind === 'error' && x.restarts === 1);
  });

  test('recovers: a server that crashes twice and then stays up ends up running', async () => {
    const { registry } = makeRegistry({ restart: { maxRestarts: 3, windowMinutes: 1, backoffMs: 50 } });
    const state = path.join(tmp, 'recover.count');
    const list = entries({ flaky: node(fixture('lifecycle.mjs'), 'exit-after-init', '--crash-times', '2', '--state', state) });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    await waitForStatus(h, 'running', (x) => x.restarts === 2 && x.tools !== undefined, 10_000);
    assert.equal(await fs.readFile(state, 'utf8'), '2');
    assert.ok(isAlive(h.pid));
    assert.equal(h.lastError, 'the server exited unexpectedly (code 3)', 'the last failure is kept for the tooltip');
    const result = await h.client!.callTool('pid');
    assert.equal(result.content[0].type === 'text' && result.content[0].text, String(h.pid));
  });

  test('the window slides: crashes further apart than the window never exhaust the budget', async () => {
    // One restart allowed per 0.3 s, restarts 0.4 s apart: every crash finds the window empty.
    const { registry, logsOf } = makeRegistry({ restart: { maxRestarts: 1, windowMinutes: 0.005, backoffMs: 400 } });
    const state = path.join(tmp, 'slide.count');
    const list = entries({ flaky: node(fixture('lifecycle.mjs'), 'exit-after-init', '--crash-times', '3', '--state', state) });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    await waitForStatus(h, 'running', (x) => x.restarts === 3, 10_000);
    assert.deepEqual(
      logsOf(h.id).filter((l) => l.startsWith('restarting')),
      Array(3).fill('restarting in 400 ms (restart 1 of 1 within 0.3 seconds)'),
    );

    // The same crashes with a long window: one restart, then it gives up.
    const { registry: strict } = makeRegistry({ restart: { maxRestarts: 1, windowMinutes: 5, backoffMs: 50 } });
    const state2 = path.join(tmp, 'strict.count');
    const list2 = entries({ flaky: node(fixture('lifecycle.mjs'), 'exit-after-init', '--crash-times', '3', '--state', state2) });
    await strict.update(list2, prepare);
    const h2 = strict.get(list2[0].id)!;
    await waitForStatus(h2, 'error', (x) => x.status.kind === 'error' && !x.status.restart, 10_000);
    assert.equal(h2.status.kind === 'error' && h2.status.message, 'the server exited unexpectedly (code 3); gave up after 1 restart in 5 minutes');
    assert.equal(await fs.readFile(state2, 'utf8'), '2');
  });

  test('maxRestarts 0 turns restarts off', async () => {
    const { registry } = makeRegistry({ restart: { maxRestarts: 0, windowMinutes: 1 } });
    const list = entries({ crashy: node(fixture('lifecycle.mjs'), 'exit-after-init') });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    await waitForStatus(h, 'error');
    assert.equal(h.status.kind === 'error' && h.status.message, 'the server exited unexpectedly (code 3); automatic restarts are off');
    assert.equal(h.restarts, 0);
  });

  test('stop() during a pending restart cancels it and nothing runs afterwards', async () => {
    const { registry, logsOf } = makeRegistry({ restart: { maxRestarts: 3, windowMinutes: 1, backoffMs: 2000 } });
    const list = entries({ crashy: node(fixture('lifecycle.mjs'), 'exit-after-init') });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    await waitForStatus(h, 'error', (x) => x.status.kind === 'error' && x.status.restart !== undefined);
    await registry.stop(h.id);
    assert.equal(h.status.kind, 'stopped');
    await new Promise((r) => setTimeout(r, 2300));
    assert.equal(h.status.kind, 'stopped');
    assert.equal(logsOf(h.id).filter((l) => l.startsWith('starting: ')).length, 1);
    assert.equal(h.client, undefined);
  });

  test('a crash of one server leaves the others running', async () => {
    const { registry } = makeRegistry({ restart: { maxRestarts: 1, windowMinutes: 1, backoffMs: 50 } });
    const list = entries({ crashy: node(fixture('lifecycle.mjs'), 'exit-after-init'), steady: node(fixture('lifecycle.mjs'), 'ok') });
    await registry.update(list, prepare);
    const [crashy, steady] = registry.list();
    const pid = steady.pid;
    await waitFor(() => crashy.status.kind === 'error' && !crashy.status.restart, 10_000, 'crashy to give up');
    assert.equal(steady.status.kind, 'running');
    assert.equal(steady.pid, pid);
    assert.equal(steady.restarts, 0);
  });
});
