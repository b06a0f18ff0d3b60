// The one loop that follows a tool call's task to its end, for the tasks of both eras: the
// 2025-11-25 `tasks` capability (client/tasks.ts) and the 2026-07-28 tasks extension
// (client/modernTasks.ts) differ in how a task is read, asked after, answered and stopped (their
// TaskWire), not in how it is followed: notifications and `tasks/get` move it on (an older one is
// ignored), the caller hears of each change, the loop waits the task's poll interval or until
// woken, and a caller who gives up gets the task cancelled on the server.
import type { Disposable } from '../protocol/disposable';
import { McpLocalError } from '../protocol/errors';
import type { Progress, RequestOptions } from '../protocol/connection';
import type { CallToolResult, Task, TaskStatus } from './schemas';

/** Polling bounds: a server's pollInterval is honoured within them (a 0 would spin, an hour would stall). */
const DEFAULT_POLL_MS = 1000;
const MIN_POLL_MS = 100;
export const MAX_POLL_MS = 30_000;
/** How long tasks/cancel may take when the caller gives up (the connection closes after). */
export const CANCEL_TIMEOUT_MS = 5000;

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** What the caller is told each time the task's state changes (status or message), and on progress. */
export interface TaskUpdate {
  readonly task: Task;
  /** Since the call was sent. */
  readonly elapsedMs: number;
  /** The last progress the server reported for the call, if any. */
  readonly progress?: Progress;
}

export interface TaskCallOptions extends RequestOptions {
  /** The retention asked for (`task.ttl`, ms); the server decides. */
  readonly ttlMs?: number;
  /** The task was created (its id is known). */
  readonly onTask?: (task: Task) => void;
  readonly onStatus?: (update: TaskUpdate) => void;
}

/** A task as each era's wire carries it: at least what the loop reads. */
export interface WireTask {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly lastUpdatedAt: string;
}

/** What the loop gives a wire while it advances a task. */
export interface TaskTurn {
  /** Aborted when the caller gives up. */
  readonly signal: AbortSignal;
  /** Ends the current pause early (a result arrived). */
  wake(): void;
  /** The task cannot go on without the client (its input was not answered): cancel it on the server. */
  abandon(): void;
}

/** One era's wire of tasks, for the loop. */
export interface TaskWire<W extends WireTask> {
  /** The task in the 2025-11-25 shape callers show. */
  view(task: W): Task;
  /** What the task's state asks for now: its result when there is one (throws for a failed task), else undefined. */
  advance(task: W, turn: TaskTurn): Promise<CallToolResult | undefined>;
  /** The pause before the next `tasks/get`. */
  delay(task: W): number;
  /** Whether a `tasks/get` is needed after a pause (`seen`: the task's lastUpdatedAt before it). */
  needsPoll(task: W, seen: string): boolean;
  /** `tasks/get`. */
  poll(signal: AbortSignal): Promise<W>;
  /** `tasks/cancel`; resolves with the task's state after when the era tells it. */
  cancel(): Promise<W | undefined>;
}

/**
 * The state of one followed task: what notifications (which may come before the task is known)
 * and polls update, and what the caller is told.
 */
export class FollowedTask<W extends WireTask> {
  private current: W | undefined;
  /**
   * Updates and progress that came before the task's id was known, in arrival order: one read
   * with the answer may carry several (a slow reader gets the answer and the steps after it at once).
   */
  private readonly early: Array<{ readonly task: W } | { readonly progress: Progress }> = [];
  private progress: Progress | undefined;
  private wakeLoop: (() => void) | undefined;
  private readonly started = performance.now();

  constructor(
    private readonly view: (task: W) => Task,
    private readonly onStatus?: (update: TaskUpdate) => void,
  ) {}

  get task(): W {
    return this.current!;
  }

  /** The task is known (the call was answered with it). */
  begin(task: W): void {
    this.current = task;
    this.tell();
    for (const next of this.early.splice(0)) {
      if ('task' in next) this.update(next.task);
      else this.reportProgress(next.progress);
    }
  }

  /** A notification or a tasks/get answer: moves the task on unless it is another's, older, or the task has ended. */
  update(next: W): void {
    const task = this.current;
    if (!task) return void this.early.push({ task: next });
    if (next.taskId !== task.taskId || next.lastUpdatedAt < task.lastUpdatedAt || isTerminal(task.status)) return;
    const changed = next.status !== task.status || next.statusMessage !== task.statusMessage;
    this.current = next;
    if (changed) this.tell();
    this.wakeLoop?.();
  }

  /** Progress the server reported for the call. */
  reportProgress(progress: Progress): void {
    if (!this.current) return void this.early.push({ progress });
    this.progress = progress;
    this.tell();
  }

  wake(): void {
    this.wakeLoop?.();
  }

  /** Waits `ms`, or less when woken or aborted. */
  async pause(ms: number, signal: AbortSignal): Promise<void> {
    await pause(ms, signal, (w) => (this.wakeLoop = w));
    this.wakeLoop = undefined;
  }

  private tell(): void {
    if (this.current) this.onStatus?.({ task: this.view(this.current), elapsedMs: performance.now() - this.started, ...(this.progress ? { progress: this.progress } : {}) });
  }
}

/**
 * Follows a created task to its end: its result, or the error it failed with; 'cancelled' when
 * the server cancelled it. Aborting `signal` (or a wire's `abandon`) sends `tasks/cancel` and
 * rejects with 'cancelled'. `listening` is disposed at the end, whatever it holds.
 */
export async function followTask<W extends WireTask>(wire: TaskWire<W>, followed: FollowedTask<W>, name: string, signal: AbortSignal | undefined, listening: Disposable): Promise<{ readonly result: CallToolResult; readonly task: Task }> {
  const cancel = new AbortController();
  const onAbort = () => cancel.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let abandoned = false;
  const turn: TaskTurn = { signal: cancel.signal, wake: () => followed.wake(), abandon: () => (abandoned = true) };
  try {
    for (;;) {
      const task = followed.task;
      if (cancel.signal.aborted) throw taskCancelledError(wire.view(task));
      if (task.status === 'cancelled') throw new McpLocalError('cancelled', `task ${task.taskId} of ${name} was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
      const result = await wire.advance(task, turn);
      if (result) return { result, task: wire.view(followed.task) };
      const seen = followed.task.lastUpdatedAt;
      await followed.pause(wire.delay(followed.task), cancel.signal);
      if (cancel.signal.aborted || isTerminal(followed.task.status) || !wire.needsPoll(followed.task, seen)) continue;
      try {
        followed.update(await wire.poll(cancel.signal));
      } catch (error) {
        if (!cancel.signal.aborted) throw error;
      }
    }
  } catch (error) {
    if ((cancel.signal.aborted || abandoned) && !isTerminal(followed.task.status)) {
      await wire
        .cancel()
        .then((after) => after && followed.update(after))
        .catch(() => {});
      if (cancel.signal.aborted) throw taskCancelledError(wire.view(followed.task));
    }
    throw error;
  } finally {
    listening.dispose();
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The error of a call given up while its task ran: what the server said of the task after tasks/cancel. */
export function taskCancelledError(task: Task): McpLocalError {
  return new McpLocalError('cancelled', `cancelled task ${task.taskId} (tasks/cancel sent; the server says ${task.status})`);
}

/** The pause before the next tasks/get: the task's pollInterval, within the bounds. */
export function pollDelay(task: Task): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollInterval ?? DEFAULT_POLL_MS));
}

/** Waits `ms`, or less when woken (a status notification, the result) or aborted. */
export function pause(ms: number, signal: AbortSignal, setWake: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    setWake(done);
  });
}
