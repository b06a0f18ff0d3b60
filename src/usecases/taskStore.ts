// The tasks of every server as MCP Host shows them (the tree's Tasks group, the tool panel's
// status area, the completion notice): the ones calls in this window follow — fed by the
// tool-call use case, whoever called (panel, chat, app) — and the ones a server lists
// (`tasks/list`), which may have outlived a restart or the panel that started them. Era-neutral:
// it reads TaskUpdate (client/tasks.ts), which both eras' task clients report. No `vscode`.
import type { Progress } from '../protocol/connection';
import { Disposable } from '../protocol/disposable';
import { Emitter, Event } from '../protocol/events';
import type { CallToolResult, Task, TaskStatus } from '../client/schemas';
import { TaskUpdate, isTerminal } from '../client/tasks';
import type { CallFailure } from './resultModel';

/** How a task ended, when this window saw it end. */
export type TaskOutcome = { readonly kind: 'answered'; readonly result: CallToolResult } | { readonly kind: 'failed'; readonly failure: CallFailure };

/** Who started a task found on the server rather than by a call of this window. */
export const LISTED_ORIGIN = 'tasks/list';

/** One task, as shown. */
export interface TaskEntry {
  readonly serverId: string;
  readonly taskId: string;
  /** The tool it runs; unknown for a task only listed by the server. */
  readonly toolName?: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** The last progress the server reported for it. */
  readonly progress?: Progress;
  /** Epoch ms: when the call started, or when the server says it created the task. */
  readonly createdAt: number;
  /** Epoch ms of the last change seen. */
  readonly updatedAt: number;
  /** Epoch ms when it reached a terminal status here. */
  readonly endedAt?: number;
  readonly pollIntervalMs?: number;
  /** Retention the server grants, ms (null: unlimited). */
  readonly ttlMs?: number | null;
  /** "the tool panel", "chat (@mcp)", or LISTED_ORIGIN. */
  readonly origin: string;
  /** A call of this window follows it (its Cancel goes through that call). */
  readonly followed: boolean;
  /** Set once ended here: the result or the failure. */
  readonly outcome?: TaskOutcome;
  /** Something shows it now (a panel): its completion needs no notice. */
  readonly watched: boolean;
  /** What the call sent (a call of this window): its panel's form shows them again. */
  readonly arguments?: Record<string, unknown>;
  /** It ended unseen and its notice may have gone unread: marked until something shows it. */
  readonly unseen?: boolean;
}

/** What a call that runs as a task tells the store. */
export interface TaskFollower {
  /** The task's state changed (status, message, progress). */
  update(update: TaskUpdate): void;
  /** The call ended: its result or failure (the status is the task's last). */
  end(outcome: TaskOutcome): void;
}

interface Held {
  entry: TaskEntry;
  /** Cancels the task: through its call when followed, else tasks/cancel. */
  cancel?: (reason: string) => Promise<unknown> | void;
  viewers: number;
}

export interface TaskStoreOptions {
  /** Ended tasks kept per server (20); running ones are never dropped. */
  readonly keepEnded?: number;
  readonly now?: () => number;
}

export class TaskStore implements Disposable {
  private readonly servers = new Map<string, Map<string, Held>>();
  /** Per server, what its last tasks/list left unlisted, in words (only when it left some). */
  private readonly unlistedNotes = new Map<string, string>();
  private readonly keepEnded: number;
  private readonly _onDidChange = new Emitter<string>();
  /** Fires with the server whose tasks changed. */
  readonly onDidChange: Event<string> = this._onDidChange.event;
  private readonly _onDidEnd = new Emitter<TaskEntry>();
  /** A followed task ended (completed, failed or cancelled), with its outcome. */
  readonly onDidEnd: Event<TaskEntry> = this._onDidEnd.event;

  constructor(private readonly options: TaskStoreOptions = {}) {
    this.keepEnded = Math.max(1, options.keepEnded ?? 20);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The tasks of a server: running first (oldest first), then ended ones (newest first). */
  list(serverId: string): TaskEntry[] {
    const all = [...(this.servers.get(serverId)?.values() ?? [])].map((h) => h.entry);
    const running = all.filter((e) => !isTerminal(e.status)).sort((a, b) => a.createdAt - b.createdAt);
    const ended = all.filter((e) => isTerminal(e.status)).sort((a, b) => (b.endedAt ?? b.updatedAt) - (a.endedAt ?? a.updatedAt));
    return [...running, ...ended];
  }

  get(serverId: string, taskId: string): TaskEntry | undefined {
    return this.servers.get(serverId)?.get(taskId)?.entry;
  }

  /** True while any task of any server runs (the tree's clock ticks only then). */
  hasRunning(): boolean {
    for (const tasks of this.servers.values()) for (const h of tasks.values()) if (!isTerminal(h.entry.status)) return true;
    return false;
  }

  /**
   * A call runs `toolName` as a task: the store follows it from its first update on. `cancel`
   * cancels the call (which sends tasks/cancel).
   */
  follow(serverId: string, toolName: string, origin: string, cancel: (reason: string) => void, args?: Record<string, unknown>): TaskFollower {
    let taskId: string | undefined;
    return {
      update: (u) => {
        taskId = u.task.taskId;
        const held = this.held(serverId, u.task, { toolName, origin, followed: true, ...(args ? { arguments: args } : {}) });
        held.cancel = cancel;
        this.apply(held, u.task, u.progress);
      },
      end: (outcome) => {
        const held = taskId === undefined ? undefined : this.servers.get(serverId)?.get(taskId);
        if (!held) return;
        // A call that failed without a terminal status (the connection closed) ended here all the same.
        const status: TaskStatus = isTerminal(held.entry.status) ? held.entry.status : outcome.kind === 'answered' ? 'completed' : outcome.failure.kind === 'local' && outcome.failure.reason === 'cancelled' ? 'cancelled' : 'failed';
        held.entry = { ...held.entry, status, outcome, endedAt: this.now(), updatedAt: this.now() };
        held.cancel = undefined;
        this.trim(serverId);
        this._onDidChange.fire(serverId);
        this._onDidEnd.fire(held.entry);
      },
    };
  }

  /**
   * What the server's `tasks/list` says: tasks this window does not follow are added (or
   * updated); `cancel` sends tasks/cancel for one of them. A listed task the server no longer
   * holds is dropped unless a call of this window follows it. `unlisted` says what the listing
   * left on the server (it stops at a bound), shown with the server's tasks.
   */
  listed(serverId: string, tasks: readonly Task[], cancel?: (taskId: string) => Promise<Task>, unlisted?: string): void {
    if (unlisted) this.unlistedNotes.set(serverId, unlisted);
    else this.unlistedNotes.delete(serverId);
    const known = this.servers.get(serverId);
    const ids = new Set(tasks.map((t) => t.taskId));
    if (known) for (const [id, h] of known) if (!h.entry.followed && !ids.has(id)) known.delete(id);
    for (const task of tasks) {
      const held = this.held(serverId, task, { origin: LISTED_ORIGIN, followed: false });
      if (held.entry.followed) continue;
      if (cancel) held.cancel = async () => this.apply(held, await cancel(task.taskId));
      this.apply(held, task, undefined, false);
    }
    this.trim(serverId);
    this._onDidChange.fire(serverId);
  }

  /** What the server's last tasks/list left unlisted, in words; undefined when it listed them all. */
  unlisted(serverId: string): string | undefined {
    return this.unlistedNotes.get(serverId);
  }

  /** A later state of a listed task (a tasks/get of it). */
  refreshed(serverId: string, task: Task): void {
    const held = this.servers.get(serverId)?.get(task.taskId);
    if (held && !held.entry.followed) this.apply(held, task);
  }

  /** Cancels a running task; false when it is not running (or cannot be cancelled from here). */
  async cancel(serverId: string, taskId: string, reason: string): Promise<boolean> {
    const held = this.servers.get(serverId)?.get(taskId);
    if (!held || isTerminal(held.entry.status) || !held.cancel) return false;
    await held.cancel(reason);
    return true;
  }

  /** Something shows the task (a panel) until the Disposable is disposed. */
  watch(serverId: string, taskId: string): Disposable {
    const held = this.servers.get(serverId)?.get(taskId);
    if (!held) return Disposable.None;
    held.viewers++;
    const { unseen: _seen, ...entry } = held.entry;
    held.entry = { ...entry, watched: true };
    // Whoever follows listed tasks polls only the watched ones: they hear of it.
    this._onDidChange.fire(serverId);
    return Disposable.from(() => {
      held.viewers = Math.max(0, held.viewers - 1);
      held.entry = { ...held.entry, watched: held.viewers > 0 };
      this._onDidChange.fire(serverId);
    });
  }

  /** Marks an ended task nothing showed (its notice may vanish unread) until something shows it. */
  markUnseen(serverId: string, taskId: string): void {
    const held = this.servers.get(serverId)?.get(taskId);
    if (!held || held.entry.watched || !isTerminal(held.entry.status)) return;
    held.entry = { ...held.entry, unseen: true };
    this._onDidChange.fire(serverId);
  }

  /** How many ended tasks of every server are marked unseen. */
  unseenCount(): number {
    let n = 0;
    for (const tasks of this.servers.values()) for (const h of tasks.values()) if (h.entry.unseen) n++;
    return n;
  }

  /** The server is gone: its listed tasks go (a restart lists them again); followed ones end with their calls. */
  serverStopped(serverId: string): void {
    const known = this.servers.get(serverId);
    this.unlistedNotes.delete(serverId);
    if (!known) return;
    for (const [id, h] of known) if (!h.entry.followed && !isTerminal(h.entry.status)) known.delete(id);
    this._onDidChange.fire(serverId);
  }

  private held(serverId: string, task: Task, as: { toolName?: string; origin: string; followed: boolean; arguments?: Record<string, unknown> }): Held {
    let tasks = this.servers.get(serverId);
    if (!tasks) this.servers.set(serverId, (tasks = new Map()));
    let held = tasks.get(task.taskId);
    if (!held) {
      const created = Date.parse(task.createdAt);
      const entry: TaskEntry = {
        serverId,
        taskId: task.taskId,
        ...(as.toolName !== undefined ? { toolName: as.toolName } : {}),
        status: task.status,
        // A call's own start is the elapsed time's origin; a listed task has only the server's word.
        createdAt: as.followed || !Number.isFinite(created) ? this.now() : created,
        updatedAt: this.now(),
        origin: as.origin,
        followed: as.followed,
        watched: false,
        ...(as.arguments ? { arguments: as.arguments } : {}),
      };
      held = { entry, viewers: 0 };
      tasks.set(task.taskId, held);
    } else if (as.followed && !held.entry.followed) {
      // Listed first, then a call of this window turned out to follow it.
      held.entry = { ...held.entry, followed: true, origin: as.origin, ...(as.toolName !== undefined ? { toolName: as.toolName } : {}), ...(as.arguments ? { arguments: as.arguments } : {}) };
    }
    return held;
  }

  private apply(held: Held, task: Task, progress?: Progress, fire = true): void {
    const e = held.entry;
    const ended = isTerminal(task.status) && !isTerminal(e.status);
    const { statusMessage: _drop, ...rest } = e;
    held.entry = {
      ...rest,
      status: task.status,
      ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
      ...(progress ?? e.progress ? { progress: progress ?? e.progress } : {}),
      ...(task.pollInterval !== undefined ? { pollIntervalMs: task.pollInterval } : {}),
      ttlMs: task.ttl,
      updatedAt: this.now(),
      ...(ended ? { endedAt: this.now() } : {}),
    };
    if (fire) this._onDidChange.fire(e.serverId);
  }

  /** Keeps the newest `keepEnded` ended tasks of a server. */
  private trim(serverId: string): void {
    const tasks = this.servers.get(serverId);
    if (!tasks) return;
    const ended = [...tasks.values()].filter((h) => isTerminal(h.entry.status) && h.viewers === 0).sort((a, b) => (b.entry.endedAt ?? b.entry.updatedAt) - (a.entry.endedAt ?? a.entry.updatedAt));
    for (const h of ended.slice(this.keepEnded)) tasks.delete(h.entry.taskId);
  }

  dispose(): void {
    this._onDidChange.dispose();
    this._onDidEnd.dispose();
    this.servers.clear();
    this.unlistedNotes.clear();
  }
}
