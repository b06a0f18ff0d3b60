// The tree keeps still: rows whose text moves with time ("asked 5m ago", a running task's elapsed
// time) are redrawn alone, when their text changes, at the pace of its precision, and only while the
// view is visible; a change of the task store redraws only the rows whose text it changed. Driven
// with the tree's own text functions (rowTime.ts, treeNodes.ts) on a stepped clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { relativeTime, relativeTimeChangesAt, rootsDescription } from '../../../src/extension/tree/rowTime';
import { TreeRowClock, type RowClockTimers } from '../../../src/extension/tree/treeRowClock';
import { isRunning, taskDescription, tasksDescription } from '../../../src/extension/tree/treeNodes';
import type { TaskEntry } from '../../../src/usecases/taskStore';
import { elapsedChangesAfter, formatElapsed } from '../../../src/usecases/taskText';

/** A clock the test steps: timers run in time order as `advance` passes them. */
function steppedClock(start: number) {
  let now = start;
  let wakeups = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 0;
  const clock: RowClockTimers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.set(++next, { at: now + ms, fn });
      return next;
    },
    clearTimeout: (h) => void timers.delete(h as number),
  };
  return {
    clock,
    get now() {
      return now;
    },
    get wakeups() {
      return wakeups;
    },
    pending: () => timers.size,
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        wakeups++;
        due[1].fn();
      }
      now = end;
    },
  };
}

const T0 = Date.UTC(2026, 10, 29, 3, 0, 0);

function task(id: string, status: TaskEntry['status'], createdAt: number, extra: Partial<TaskEntry> = {}): TaskEntry {
  return { serverId: 's', taskId: id, toolName: 'simulate-research-query', status, createdAt, updatedAt: createdAt, origin: 'the tool panel', followed: true, watched: false, ...extra };
}

/** The tree's rows for one server: Roots (asked at `askedAt`), the Tasks group and its task rows, from a mutable store. */
function tree(start: number, askedAt: number, tasks: TaskEntry[]) {
  const time = steppedClock(start);
  const redraws: string[][] = [];
  const rows = new TreeRowClock<{ key: string }>((nodes) => redraws.push(nodes.map((n) => n.key)), time.clock);
  const store = { tasks };
  const drawRoots = () => rows.drawn('roots:s', { key: 'roots' }, (now) => ({ text: rootsDescription(1, askedAt, now), changesAt: relativeTimeChangesAt(askedAt, now) }));
  const drawGroup = () => rows.drawn('tasks:s', { key: 'tasks' }, () => ({ text: tasksDescription(store.tasks) }));
  const drawTask = (id: string) =>
    rows.drawn(`tasks:s/${id}`, { key: id }, (now) => {
      const t = store.tasks.find((x) => x.taskId === id);
      return t && { text: `${t.status} ${taskDescription(t, now)}`, ...(isRunning(t) ? { changesAt: t.createdAt + elapsedChangesAfter(now - t.createdAt, 'minutes') } : {}) };
    });
  drawRoots();
  drawGroup();
  for (const t of tasks) drawTask(t.taskId);
  return { time, rows, redraws, store, drawTask };
}

describe('tree row clock', () => {
  test('idle servers, view visible for ten minutes: only the Roots row, once a minute as its "asked Nm ago" changes', () => {
    const { time, redraws } = tree(T0, T0 - 5 * 60_000 - 20_000, [task('done', 'completed', T0 - 600_000, { endedAt: T0 - 590_000 })]);
    time.advance(10 * 60_000);
    // "5m ago" → … → "15m ago": ten changes, one redraw of one row each; nothing else moved.
    assert.deepEqual(redraws, Array.from({ length: 10 }, () => ['roots']));
    // One wake-up per change, not one per second (or per 10 s).
    assert.equal(time.wakeups, 10);
  });

  test('three idle servers, view visible for a minute: no row whose text did not change is redrawn', () => {
    const time = steppedClock(T0 + 10_000);
    const redraws: string[][] = [];
    const rows = new TreeRowClock<{ key: string }>((nodes) => redraws.push(nodes.map((n) => n.key)), time.clock);
    // a was asked 5m 20s ago (one change in the minute, at 6m), b two hours ago, c never; no tasks.
    const asked: Record<string, number | undefined> = { a: T0 - 5 * 60_000 - 20_000, b: T0 - 2 * 3600_000, c: undefined };
    for (const id of ['a', 'b', 'c']) {
      rows.drawn(`roots:${id}`, { key: `roots:${id}` }, (now) => ({ text: rootsDescription(1, asked[id], now), ...(asked[id] !== undefined ? { changesAt: relativeTimeChangesAt(asked[id]!, now) } : {}) }));
      rows.drawn(`tasks:${id}`, { key: `tasks:${id}` }, () => ({ text: tasksDescription([]) }));
    }
    time.advance(60_000);
    assert.deepEqual(redraws, [['roots:a']]);
    assert.equal(time.wakeups, 1, 'one wake-up in the minute');
  });

  test('seconds while it counts seconds, then minutes, then hours', () => {
    const askedAt = T0;
    const { time, redraws } = tree(T0, askedAt, []);
    time.advance(59_000);
    assert.equal(redraws.length, 58, '"just now", then 2s … 59s ago: one redraw per second');
    redraws.length = 0;
    time.advance(3600_000 - 59_000);
    assert.equal(redraws.length, 60, '1m … 59m ago, then 1h ago: one per minute');
    redraws.length = 0;
    time.advance(3600_000);
    assert.equal(redraws.length, 1, '2h ago: one in the next hour');
    assert.equal(relativeTime(askedAt, time.now), '2h ago');
    assert.equal(relativeTimeChangesAt(askedAt, askedAt + 2 * 86_400_000), undefined, 'a date never changes by itself');
  });

  test('a running task: only its row, once a minute (its Cancel Task holds still); the group and the other rows not at all', () => {
    // Roots asked two days ago: a date, which never moves.
    const { time, redraws, store } = tree(T0, T0 - 2 * 86_400_000, [task('run', 'working', T0 - 500), task('done', 'completed', T0 - 60_000, { endedAt: T0 - 50_000 })]);
    time.advance(5_000);
    assert.deepEqual(redraws, [], 'seconds are not counted on the row');
    assert.equal(taskDescription(store.tasks[0], time.now), 'working · under 1 min');
    time.advance(5 * 60_000);
    assert.deepEqual(redraws, [['run'], ['run'], ['run'], ['run'], ['run']]);
    assert.equal(taskDescription(store.tasks[0], time.now), 'working · 5 min');
    assert.equal(taskDescription(store.tasks[1], time.now), 'completed · 10 s', 'an ended task keeps its exact time');
    assert.equal(formatElapsed(65_000), '1 min 5 s', 'the panel still counts seconds');
  });

  test('a store change redraws only the rows whose text it changed', () => {
    const { time, rows, redraws, store } = tree(T0, T0 - 30 * 60_000 - 1, [task('a', 'working', T0, { statusMessage: 'Gathering sources' }), task('b', 'working', T0)]);
    // The server polled and nothing changed: nothing is redrawn.
    rows.check((key) => key.startsWith('tasks:s'));
    assert.deepEqual(redraws, []);
    // Task a waits for input: its row alone (its icon and menu follow the status; the group still says "2 running").
    store.tasks = [{ ...store.tasks[0], status: 'input_required' }, store.tasks[1]];
    rows.check((key) => key.startsWith('tasks:s'));
    assert.deepEqual(redraws, [['a']]);
    // Task b completes: its row and the group's count.
    store.tasks = [store.tasks[0], { ...store.tasks[1], status: 'completed', endedAt: time.now }];
    rows.check((key) => key.startsWith('tasks:s'));
    assert.deepEqual(redraws[1], ['tasks', 'b']);
  });

  test('hidden, nothing is redrawn and no timer runs; shown again, what changed is redrawn once', () => {
    const { time, rows, redraws } = tree(T0, T0 - 5 * 60_000, [task('run', 'working', T0)]);
    rows.setVisible(false);
    assert.equal(time.pending(), 0);
    time.advance(3 * 60_000);
    assert.deepEqual(redraws, []);
    rows.setVisible(true);
    assert.deepEqual(redraws, [['roots', 'run']]);
    assert.equal(time.pending(), 1);
  });

  test('a row that is gone is forgotten; a full redraw registers the rows again', () => {
    const { time, rows, redraws, store, drawTask } = tree(T0, T0 - 30 * 60_000 - 1, [task('run', 'working', T0)]);
    store.tasks = [];
    rows.check((key) => key.startsWith('tasks:s/'));
    assert.equal(rows.node('tasks:s/run'), undefined);
    time.advance(10_000);
    assert.deepEqual(redraws, []);
    rows.clear();
    assert.equal(time.pending(), 0);
    store.tasks = [task('next', 'working', time.now)];
    drawTask('next');
    time.advance(60_000);
    assert.deepEqual(redraws, [['next']]);
  });
});
