// The task store: fed by the tool-call use case while a task runs (status, message, progress),
// ended with its outcome, cancelled from outside the call (the tree's Cancel), filled from
// tasks/list, and bounded. Against the real server-everything (`simulate-research-query`) and
// the SDK fixture with a tool that may run as a task; the history notes each task's id and status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpClient, Tool } from '../../src/client';
import { taskSchemas, type Task } from '../../src/client/schemas';
import { callTool } from '../../src/usecases/callTool';
import { CallHistory } from '../../src/usecases/history';
import { LISTED_TASKS_KEPT, ListedTaskWatcher, MAX_POLLED, MAX_RELIST_MS, MIN_RELIST_MS, listedTaskPlan, refreshListedTasks } from '../../src/usecases/listedTasks';
import { LISTED_ORIGIN, TaskEntry, TaskStore } from '../../src/usecases/taskStore';
import { UNSEEN_MARK, describeTaskGroup, describeTaskState, unseenTasksBadge } from '../../src/usecases/taskText';
import { EVERYTHING, WireRecorder, connectStdio, fixture, waitFor } from '../client/support';

const RESEARCH = 'simulate-research-query';

function task(id: string, status: Task['status'], extra: Partial<Task> = {}): Task {
  return { taskId: id, status, createdAt: '2025-11-25T10:00:00.000Z', lastUpdatedAt: '2025-11-25T10:00:00.000Z', ttl: 60_000, ...extra };
}

describe('TaskStore on its own', () => {
  test('a followed task: updates in order, ended with its outcome; running ones first, then the newest ended', () => {
    let now = 1000;
    const store = new TaskStore({ now: () => now, keepEnded: 2 });
    const changes: string[] = [];
    const ended: TaskEntry[] = [];
    store.onDidChange((id) => changes.push(id));
    store.onDidEnd((e) => ended.push(e));
    const a = store.follow('s', 'slow', 'the tool panel', () => {});
    a.update({ task: task('a', 'working', { statusMessage: 'one', pollInterval: 500 }), elapsedMs: 0 });
    now = 2000;
    a.update({ task: task('a', 'working', { statusMessage: 'two' }), elapsedMs: 1000, progress: { progress: 1, total: 4 } });
    const entry = store.get('s', 'a')!;
    assert.equal(entry.statusMessage, 'two');
    assert.deepEqual(entry.progress, { progress: 1, total: 4 });
    assert.equal(entry.createdAt, 1000, 'a call’s own start, not the server’s clock');
    assert.equal(entry.pollIntervalMs, 500, 'kept from the first update');
    assert.equal(entry.toolName, 'slow');
    assert.ok(store.hasRunning());
    for (const id of ['b', 'c', 'd']) {
      const f = store.follow('s', 'quick', 'chat (@mcp)', () => {});
      now += 10;
      f.update({ task: task(id, 'working'), elapsedMs: 0 });
      f.update({ task: task(id, 'completed'), elapsedMs: 5 });
      f.end({ kind: 'answered', result: { content: [{ type: 'text', text: id }] } });
    }
    // Two ended ones are kept (the newest), the running one stays first.
    assert.deepEqual(store.list('s').map((e) => e.taskId), ['a', 'd', 'c']);
    assert.deepEqual(ended.map((e) => e.taskId), ['b', 'c', 'd']);
    assert.equal(ended[2].outcome?.kind, 'answered');
    assert.ok(changes.length >= 8);
    // A call that failed without a terminal status (the connection closed) ends as failed.
    a.end({ kind: 'failed', failure: { kind: 'local', reason: 'server-exited', message: 'gone' } });
    assert.equal(store.get('s', 'a')!.status, 'failed');
    assert.ok(!store.hasRunning());
  });

  test('listed tasks are added, refreshed and dropped when the server no longer holds them; a followed one is never taken over', async () => {
    const store = new TaskStore();
    const cancelled: string[] = [];
    const f = store.follow('s', 'mine', 'the tool panel', () => {});
    f.update({ task: task('mine', 'working'), elapsedMs: 0 });
    store.listed('s', [task('mine', 'working'), task('old', 'working', { statusMessage: 'still at it' }), task('done', 'completed')], async (id) => (cancelled.push(id), task(id, 'cancelled')));
    assert.equal(store.get('s', 'mine')!.origin, 'the tool panel');
    assert.equal(store.get('s', 'old')!.origin, LISTED_ORIGIN);
    assert.equal(store.get('s', 'old')!.createdAt, Date.parse('2025-11-25T10:00:00.000Z'), 'the server’s creation time');
    assert.equal(await store.cancel('s', 'old', 'from a test'), true);
    assert.deepEqual(cancelled, ['old']);
    assert.equal(store.get('s', 'old')!.status, 'cancelled');
    assert.equal(await store.cancel('s', 'done', 'from a test'), false, 'an ended task is not cancelled again');
    store.listed('s', [task('done', 'completed')]);
    assert.equal(store.get('s', 'old'), undefined, 'no longer held by the server');
    assert.ok(store.get('s', 'mine'), 'followed by a call here');
  });

  test('watch: a task shown somewhere is watched until the viewer goes', () => {
    const store = new TaskStore();
    const f = store.follow('s', 't', 'the tool panel', () => {});
    f.update({ task: task('w', 'working'), elapsedMs: 0 });
    const viewer = store.watch('s', 'w');
    assert.equal(store.get('s', 'w')!.watched, true);
    viewer.dispose();
    assert.equal(store.get('s', 'w')!.watched, false);
  });

  test('a task that ended unseen stays marked on its row and in the badge until something shows it', () => {
    const store = new TaskStore();
    const f = store.follow('s', 't', 'the tool panel', () => {}, { q: 1 });
    f.update({ task: task('u', 'working'), elapsedMs: 0 });
    store.markUnseen('s', 'u');
    assert.equal(store.get('s', 'u')!.unseen, undefined, 'a running task is not news yet');
    f.end({ kind: 'answered', result: { content: [] } });
    store.markUnseen('s', 'u');
    const entry = store.get('s', 'u')!;
    assert.equal(entry.unseen, true);
    assert.equal(store.unseenCount(), 1);
    assert.ok(describeTaskState({ status: entry.status, unseen: entry.unseen, elapsedMs: 3000 }).startsWith(`${UNSEEN_MARK} · completed`));
    assert.equal(unseenTasksBadge(store.unseenCount())?.value, 1);
    store.watch('s', 'u').dispose();
    assert.equal(store.get('s', 'u')!.unseen, undefined, 'opened once: no longer marked');
    assert.equal(unseenTasksBadge(store.unseenCount()), undefined);
  });
});

describe('TaskStore fed by the tool-call use case (server-everything)', () => {
  let client: McpClient;
  let wire: WireRecorder;
  let tool: Tool;

  before(async () => {
    ({ client, wire } = await connectStdio('node', EVERYTHING, { capabilities: { elicitation: { form: {} } } }));
    tool = (await client.listTools()).find((t) => t.name === RESEARCH)!;
  });

  after(async () => {
    await client.close();
  });

  test('a task call is followed to completion; the history notes its id and final status', { timeout: 30_000 }, async () => {
    const store = new TaskStore();
    const history = new CallHistory();
    const messages: string[] = [];
    store.onDidChange(() => {
      const m = store.list('ev')[0]?.statusMessage;
      if (m && messages.at(-1) !== m) messages.push(m);
    });
    const outcome = await callTool({ serverId: 'ev', tool, arguments: { mode: 'value', value: { topic: 'reefs' } }, origin: 'the tool panel' }, { client: () => client, tasks: store, record: (e) => history.add(e) });
    assert.equal(outcome.kind, 'answered');
    const [entry] = store.list('ev');
    assert.equal(entry.status, 'completed');
    assert.equal(entry.toolName, RESEARCH);
    assert.deepEqual(entry.arguments, { topic: 'reefs' }, 'what the call sent: Open Result puts it back in the form');
    assert.equal(entry.outcome?.kind, 'answered');
    assert.ok(entry.endedAt! >= entry.createdAt);
    assert.ok(messages.some((m) => m.startsWith('Gathering sources')), JSON.stringify(messages));
    const [kept] = history.list('ev');
    assert.deepEqual(kept.task, { id: entry.taskId, status: 'completed' });
    // The note survives a save and a restore.
    assert.deepEqual(CallHistory.restore(history.toJSON()).list('ev')[0].task, kept.task);
  });

  test('Cancel from the store (not from the call’s caller) sends tasks/cancel; the history says cancelled', { timeout: 30_000 }, async () => {
    const store = new TaskStore();
    const history = new CallHistory();
    const cancelling = new Promise<void>((resolve) => {
      const sub = store.onDidChange(() => {
        const running = store.list('ev')[0];
        if (running?.statusMessage?.startsWith('Analyzing')) {
          sub.dispose();
          void store.cancel('ev', running.taskId, 'you pressed Cancel in the MCP Host view').then(() => resolve());
        }
      });
    });
    const outcome = await callTool({ serverId: 'ev', tool, arguments: { mode: 'value', value: { topic: 'moraines' } }, origin: 'the tool panel' }, { client: () => client, tasks: store, record: (e) => history.add(e) });
    await cancelling;
    assert.equal(outcome.kind, 'failed');
    const [entry] = store.list('ev');
    assert.equal(entry.status, 'cancelled');
    assert.ok(wire.sent('tasks/cancel').some((m) => m.params.taskId === entry.taskId), 'tasks/cancel was sent');
    assert.equal(history.list('ev')[0].outcome, 'cancelled');
    assert.deepEqual(history.list('ev')[0].task, { id: entry.taskId, status: 'cancelled' });
  });

  test('tasks/list fills the store with the tasks the server holds (as after a restart of the window)', { timeout: 30_000 }, async () => {
    const store = new TaskStore();
    assert.equal(await refreshListedTasks(store, 'ev', client), true);
    const listed = store.list('ev');
    assert.ok(listed.length >= 2, JSON.stringify(listed));
    assert.ok(listed.every((e) => e.origin === LISTED_ORIGIN && !e.followed));
    assert.ok(listed.some((e) => e.status === 'completed') && listed.some((e) => e.status === 'cancelled'));
  });
});

describe('listed tasks followed with tasks/get until they end (SDK fixture)', () => {
  let client: McpClient;
  let wire: WireRecorder;

  before(async () => {
    ({ client, wire } = await connectStdio('node', [fixture('optionalTask.mjs')]));
  });

  after(async () => {
    await client.close();
  });

  test('a task started elsewhere (its call gone) is listed as working, then followed to completed', { timeout: 20_000 }, async () => {
    // A task-augmented call nobody follows: as if the panel that made it had closed with the window.
    await client.methodRequest('tools/call', { name: 'brew', arguments: { what: 'cocoa' }, task: {} }, taskSchemas().createTaskResult);
    const store = new TaskStore();
    await refreshListedTasks(store, 'opt', client);
    const [listed] = store.list('opt');
    assert.equal(listed.status, 'working');
    // Only a task someone waits on is polled: a panel shows this one.
    const shown = store.watch('opt', listed.taskId);
    const watcher = new ListedTaskWatcher(store, 'opt', client);
    try {
      await waitFor(() => store.get('opt', listed.taskId)?.status === 'completed', 10_000, 'the listed task to complete');
      assert.ok(wire.sent('tasks/get').some((m) => m.params.taskId === listed.taskId));
    } finally {
      shown.dispose();
      watcher.dispose();
    }
  });
});

describe('listed tasks of a server that lists without end (issue 32, F1)', () => {
  const entry = (id: string, extra: Partial<TaskEntry> = {}): TaskEntry => ({ serverId: 's', taskId: id, status: 'working', createdAt: 0, updatedAt: 0, origin: LISTED_ORIGIN, followed: false, watched: false, pollIntervalMs: 100, ...extra });

  test('the plan polls only watched listed tasks, at most MAX_POLLED; the others wait for a relist that backs off', () => {
    // 600,000 listed tasks: a Math.min(...array) over them overflowed the stack.
    const many = Array.from({ length: 600_000 }, (_, i) => entry(`t${i}`));
    const idle = listedTaskPlan(many, false);
    assert.deepEqual(idle.poll, []);
    assert.equal(idle.pollInMs, undefined, 'nothing waited on: no tasks/get at all');
    assert.equal(idle.relistInMs, MAX_RELIST_MS, 'thousands listed: listed again at the longest wait');
    const few = Array.from({ length: 50 }, (_, i) => entry(`f${i}`));
    assert.equal(listedTaskPlan(few, false).relistInMs, MIN_RELIST_MS);
    assert.equal(listedTaskPlan(Array.from({ length: 250 }, (_, i) => entry(`m${i}`)), false).relistInMs, 3 * MIN_RELIST_MS);
    assert.equal(listedTaskPlan(few, true).relistInMs, MAX_RELIST_MS, 'the server holds more than was listed');
    const watched = many.map((e, i) => (i % 1000 === 0 ? { ...e, watched: true, pollIntervalMs: 2500 } : e));
    const plan = listedTaskPlan(watched, true);
    assert.equal(plan.poll.length, MAX_POLLED);
    assert.ok(plan.poll.every((e) => e.watched));
    assert.equal(plan.pollInMs, 2500);
    // Followed (a call polls it), ended or not listed: never the watcher's.
    const others = [entry('a', { watched: true, followed: true }), entry('b', { watched: true, status: 'completed' }), entry('c', { watched: true, origin: 'the tool panel' })];
    assert.deepEqual(listedTaskPlan(others, false), { poll: [] });
    // A pollInterval of 0 would spin: at least 1 s.
    assert.equal(listedTaskPlan([entry('z', { watched: true, pollIntervalMs: 0 })], false).pollInMs, 1000);
  });

  test('the tree’s Tasks group says when the server listed more than was kept', () => {
    const tasks = [entry('a'), entry('b', { status: 'completed' })];
    assert.deepEqual(describeTaskGroup(tasks), { description: '1 running · 1 recent' });
    const cut = describeTaskGroup(tasks, 'listed the first 200 tasks (1 page); the server holds more, which were left unlisted');
    assert.equal(cut.description, '1 running · 1 recent · more on the server, not listed');
    assert.match(cut.tooltip!, /^tasks\/list listed the first 200 tasks \(1 page\); the server holds more, which were left unlisted\. Only tasks open in a panel are followed/);
  });

  describe('against a raw server whose every tasks/list page has 1,000 tasks and a fresh nextCursor', () => {
    let client: McpClient;
    let wire: WireRecorder;
    before(async () => {
      ({ client, wire } = await connectStdio('node', [fixture('endlessTasks.mjs')]));
    });
    after(async () => client.close());

    test('listing keeps LISTED_TASKS_KEPT tasks and notes the rest were left; only the watched task gets tasks/get', { timeout: 20_000 }, async () => {
      const store = new TaskStore();
      assert.equal(await refreshListedTasks(store, 'endless', client), true);
      assert.equal(wire.sent('tasks/list').length, 1, 'one page holds more than is kept');
      assert.equal(store.list('endless').length, LISTED_TASKS_KEPT);
      assert.equal(store.unlisted('endless'), `listed the first ${LISTED_TASKS_KEPT} tasks (1 page); the server holds more, which were left unlisted`);
      const watcher = new ListedTaskWatcher(store, 'endless', client);
      try {
        // Each task asks for a poll every 100 ms: before, 200 tasks/get went out every second.
        await new Promise((r) => setTimeout(r, 1500));
        assert.equal(wire.sent('tasks/get').length, 0, 'no one waits on any listed task');
        const shown = store.watch('endless', 't0-7');
        await waitFor(() => wire.sent('tasks/get').length >= 2, 5000, 'the watched task to be polled');
        shown.dispose();
        assert.deepEqual([...new Set(wire.sent('tasks/get').map((m) => m.params.taskId))], ['t0-7']);
        assert.equal(wire.sent('tasks/list').length, 1, 'the next listing waits MAX_RELIST_MS');
      } finally {
        watcher.dispose();
      }
    });
  });
});
