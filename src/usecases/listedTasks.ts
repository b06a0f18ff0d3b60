// Tasks a server holds that no call of this window follows (they outlived a restart, a reload or
// the panel that started them): listed with `tasks/list` into the task store, at most
// LISTED_TASKS_KEPT of them (the store says what was left). A server may list any number, so
// they are not each followed: a listed task someone shows (a panel: the store's `watched`) gets
// tasks/get at its pollInterval, at most MAX_POLLED at a time; the others are brought up to date
// by listing again, less often the more the server lists. Tasks a call of this window follows
// are polled by that call (client/tasks.ts, client/modernTasks.ts), not here. Legacy era
// (2025-11-25) servers that declare `tasks.list`; the 2026-07-28 extension has no tasks/list.
import type { McpClient } from '../client/client';
import { cancelTask, describeLeftTasks, getTask, isTerminal, listTasks, serverCancelsTasks, serverListsTasks } from '../client/tasks';
import { Disposable } from '../protocol/disposable';
import { LISTED_ORIGIN, TaskEntry, TaskStore } from './taskStore';

/** Listed tasks the editor keeps per server (the tree shows each). */
export const LISTED_TASKS_KEPT = 200;
/** Watched listed tasks polled with tasks/get at a time. */
export const MAX_POLLED = 10;
const MIN_POLL_MS = 1000;
const MAX_POLL_MS = 30_000;
/** Listing again: every 30 s for up to 100 listed tasks, 30 s more per 100, at most every 10 min. */
export const MIN_RELIST_MS = 30_000;
export const MAX_RELIST_MS = 600_000;

/** Lists the server's tasks into the store; false when the server lists none (no `tasks.list`). */
export async function refreshListedTasks(store: TaskStore, serverId: string, client: McpClient): Promise<boolean> {
  if (!serverListsTasks(client)) return false;
  const listing = await listTasks(client, { maxTasks: LISTED_TASKS_KEPT });
  store.listed(serverId, listing.tasks, serverCancelsTasks(client) ? (taskId) => cancelTask(client, taskId) : undefined, describeLeftTasks(listing) || undefined);
  return true;
}

/** What the watcher does next (see listedTaskPlan). */
export interface ListedTaskPlan {
  /** The listed tasks someone waits on, to get with tasks/get. */
  readonly poll: readonly TaskEntry[];
  /** When to poll them (none to poll: undefined). */
  readonly pollInMs?: number;
  /** When to list again: running listed tasks nobody watches (undefined: none). */
  readonly relistInMs?: number;
}

/**
 * The watcher's decisions, from the server's tasks as the store holds them: poll the running listed
 * tasks someone watches (at most MAX_POLLED, at the shortest of their pollIntervals, within 1–30 s),
 * and list again for the running ones nobody watches, backing off with the size of the list (the
 * longest wait when the server listed more than was kept).
 */
export function listedTaskPlan(entries: readonly TaskEntry[], leftSome: boolean): ListedTaskPlan {
  const poll: TaskEntry[] = [];
  let listedRunning = 0;
  let unwatched = 0;
  let shortest = MAX_POLL_MS;
  for (const e of entries) {
    if (e.origin !== LISTED_ORIGIN || e.followed || isTerminal(e.status)) continue;
    listedRunning++;
    if (!e.watched) unwatched++;
    else if (poll.length < MAX_POLLED) {
      poll.push(e);
      shortest = Math.min(shortest, e.pollIntervalMs ?? MIN_POLL_MS);
    }
  }
  const relist = leftSome ? MAX_RELIST_MS : Math.min(MAX_RELIST_MS, MIN_RELIST_MS * Math.max(1, Math.ceil(listedRunning / 100)));
  return {
    poll,
    ...(poll.length > 0 ? { pollInMs: Math.max(MIN_POLL_MS, shortest) } : {}),
    ...(unwatched > 0 ? { relistInMs: relist } : {}),
  };
}

/**
 * Follows the listed tasks of one server's client that are still running, as listedTaskPlan says,
 * until they end, the client closes or this is disposed.
 */
export class ListedTaskWatcher implements Disposable {
  private pollTimer: NodeJS.Timeout | undefined;
  private relistTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly store: TaskStore,
    private readonly serverId: string,
    private readonly client: McpClient,
  ) {
    this.subscriptions = [store.onDidChange((id) => id === serverId && this.schedule()), client.onClose(() => this.dispose())];
    this.schedule();
  }

  private plan(): ListedTaskPlan {
    return listedTaskPlan(this.store.list(this.serverId), this.store.unlisted(this.serverId) !== undefined);
  }

  private schedule(): void {
    if (this.disposed) return;
    const plan = this.plan();
    if (!this.pollTimer && plan.pollInMs !== undefined) this.pollTimer = unrefTimer(() => void this.poll(), plan.pollInMs);
    if (!this.relistTimer && plan.relistInMs !== undefined) this.relistTimer = unrefTimer(() => void this.relist(), plan.relistInMs);
  }

  private async poll(): Promise<void> {
    for (const entry of this.plan().poll) {
      if (this.disposed) return;
      try {
        this.store.refreshed(this.serverId, await getTask(this.client, entry.taskId));
      } catch {
        // Gone from the server (past its ttl) or the connection closed: the next tasks/list tells.
      }
    }
    this.pollTimer = undefined;
    this.schedule();
  }

  private async relist(): Promise<void> {
    try {
      if (!this.disposed) await refreshListedTasks(this.store, this.serverId, this.client);
    } catch {
      // The connection closed, or the server failed the list: the next one may do better.
    }
    this.relistTimer = undefined;
    this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.relistTimer) clearTimeout(this.relistTimer);
    for (const s of this.subscriptions) s.dispose();
  }
}

function unrefTimer(fn: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(fn, ms);
  timer.unref?.();
  return timer;
}
