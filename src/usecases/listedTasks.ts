// Tasks a server holds that no call of this window follows (they outlived a restart, a reload or
// the panel that started them): listed with `tasks/list` into the task store, and followed with
// `tasks/get` at their pollInterval until they end. Legacy era (2025-11-25) servers that declare
// `tasks.list`; others list nothing.
import type { McpClient } from '../client/client';
import { cancelTask, getTask, isTerminal, listTasks, serverCancelsTasks, serverListsTasks } from '../client/tasks';
import { Disposable } from '../protocol/disposable';
import { LISTED_ORIGIN, TaskStore } from './taskStore';

const MIN_POLL_MS = 1000;
const MAX_POLL_MS = 30_000;

/** Lists the server's tasks into the store; false when the server lists none (no `tasks.list`). */
export async function refreshListedTasks(store: TaskStore, serverId: string, client: McpClient): Promise<boolean> {
  if (!serverListsTasks(client)) return false;
  const tasks = await listTasks(client);
  store.listed(serverId, tasks, serverCancelsTasks(client) ? (taskId) => cancelTask(client, taskId) : undefined);
  return true;
}

/**
 * Follows the listed tasks of one server's client that are still running, one tasks/get each at
 * their pollInterval (kept within 1–30 s), until they end, the client closes or this is disposed.
 */
export class ListedTaskWatcher implements Disposable {
  private timer: NodeJS.Timeout | undefined;
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

  private running() {
    return this.store.list(this.serverId).filter((e) => e.origin === LISTED_ORIGIN && !e.followed && !isTerminal(e.status));
  }

  private schedule(): void {
    if (this.disposed || this.timer) return;
    const running = this.running();
    if (running.length === 0) return;
    const delay = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, Math.min(...running.map((e) => e.pollIntervalMs ?? MIN_POLL_MS))));
    this.timer = setTimeout(() => void this.poll(), delay);
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    for (const entry of this.running()) {
      if (this.disposed) return;
      try {
        this.store.refreshed(this.serverId, await getTask(this.client, entry.taskId));
      } catch {
        // Gone from the server (past its ttl) or the connection closed: the next tasks/list tells.
      }
    }
    this.timer = undefined;
    this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}
