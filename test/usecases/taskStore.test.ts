// The task store: fed by the tool-call use case while a task runs (status, message, progress),
// ended with its outcome, cancelled from outside the call (the tree's Cancel), filled from
// tasks/list, and bounded. Against the real server-everything (`simulate-research-query`) and
// the SDK fixture with a tool that may run as a task; the history notes each task's id and status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpClient, Tool } from '../../src/client';
import { CreateTaskResultSchema, type Task } from '../../src/client/schemas';
import { callTool } from '../../src/usecases/callTool';
import { CallHistory } from '../../src/usecases/history';
import { ListedTaskWatcher, refreshListedTasks } from '../../src/usecases/listedTasks';
import { LISTED_ORIGIN, TaskEntry, TaskStore } from '../../src/usecases/taskStore';
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
    await client.taskRequest('tools/call', { name: 'brew', arguments: { what: 'cocoa' }, task: {} }, CreateTaskResultSchema);
    const store = new TaskStore();
    await refreshListedTasks(store, 'opt', client);
    const [listed] = store.list('opt');
    assert.equal(listed.status, 'working');
    const watcher = new ListedTaskWatcher(store, 'opt', client);
    try {
      await waitFor(() => store.get('opt', listed.taskId)?.status === 'completed', 10_000, 'the listed task to complete');
      assert.ok(wire.sent('tasks/get').some((m) => m.params.taskId === listed.taskId));
    } finally {
      watcher.dispose();
    }
  });
});
