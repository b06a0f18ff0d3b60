// The host as the receiver of 2025-11-25 tasks: a server may send `sampling/createMessage` or
// `elicitation/create` with `task` (when the host declares `tasks.requests`), and is then answered
// at once with a CreateTaskResult while the same dialog runs in the background. The server follows
// the task with `tasks/get` (and `notifications/tasks/status`, which this side sends on each
// change), fetches the answer with `tasks/result`, may `tasks/list` what it gave and
// `tasks/cancel` a task, which closes its dialog. One ReceivedTasks per connection: a task belongs
// to the session that created it.
import type { RequestContext, RequestHandler } from '../protocol/connection';
import { Disposable } from '../protocol/disposable';
import { ResponseError, WireError, errorMessage } from '../protocol/errors';
import { isRecord } from '../protocol/jsonShape';
import type { LogSeverity } from '../protocol/logging';
import { ErrorCodes } from '../protocol/messages';
import type { Task, TaskStatus } from '../client/schemas';
import { isTerminal } from '../client/taskLoop';

/** The requests a server may ask this host to run as tasks, and what the status message says meanwhile. */
const RECEIVABLE: Readonly<Record<string, string>> = {
  'sampling/createMessage': 'Waiting for the user to review the sampling request in MCP Host',
  'elicitation/create': 'Waiting for the user to answer in MCP Host',
};

/** `_meta` key that ties a tasks/result answer to its task (2025-11-25). */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** Retention bounds: a server's `ttl` is honoured within them (none given: the default). */
const DEFAULT_TTL_MS = 10 * 60_000;
const MIN_TTL_MS = 10_000;
const MAX_TTL_MS = 60 * 60_000;
/** How often a server is told to poll; status notifications come between polls anyway. */
const POLL_INTERVAL_MS = 1000;
/** More tasks than this at once from one server are refused (a flood would queue dialogs without end). */
const MAX_TASKS = 100;
const LIST_PAGE = 50;

/** `tasks` for the client capabilities, given the request methods that may run as tasks. */
export function receivedTasksCapability(methods: { sampling: boolean; elicitation: boolean }): Record<string, unknown> | undefined {
  if (!methods.sampling && !methods.elicitation) return undefined;
  const requests: Record<string, unknown> = {};
  if (methods.sampling) requests.sampling = { createMessage: {} };
  if (methods.elicitation) requests.elicitation = { create: {} };
  return { list: {}, cancel: {}, requests };
}

export interface ReceivedTasksOptions {
  /** Sends `notifications/tasks/status` to the server. */
  notify(method: string, params: Record<string, unknown>): Promise<void> | void;
  /** Holds every timeout of ours while a task waits on the user (the server's call may need the answer). */
  pauseTimeouts(): Disposable;
  log?(level: LogSeverity, text: string): void;
  readonly now?: () => number;
}

interface Held {
  task: Task;
  readonly method: string;
  readonly abort: AbortController;
  /** Settles once the task is terminal. */
  readonly done: Promise<void>;
  answer?: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };
  expiry?: NodeJS.Timeout;
  hold?: Disposable;
}

export class ReceivedTasks implements Disposable {
  private readonly tasks = new Map<string, Held>();
  private disposed = false;

  constructor(private readonly options: ReceivedTasksOptions) {}

  /**
   * Wraps the handler of `method`: a request with `task` becomes a task run in the background
   * (answered with `{ task }`), any other request goes to `handler` as it is.
   */
  augment(method: string, handler: RequestHandler): RequestHandler {
    if (!(method in RECEIVABLE)) return handler;
    return (params, ctx) => {
      if (!isRecord(params) || params.task === undefined) return handler(params, ctx);
      if (!isRecord(params.task)) throw new WireError(ErrorCodes.InvalidParams, `${method}: "task" must be an object`);
      return { task: this.start(method, params, handler, ctx) };
    };
  }

  /** The handlers of tasks/get, tasks/result, tasks/list and tasks/cancel. */
  handlers(): Record<string, RequestHandler> {
    return {
      'tasks/get': (params) => this.snapshot(this.find(params, 'tasks/get')),
      'tasks/result': (params) => this.result(this.find(params, 'tasks/result')),
      'tasks/list': (params) => this.list(params),
      'tasks/cancel': (params) => this.cancel(this.find(params, 'tasks/cancel')),
    };
  }

  /** The tasks held now (for tests and logs). */
  get size(): number {
    return this.tasks.size;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private start(method: string, params: Record<string, unknown>, handler: RequestHandler, ctx: RequestContext): Task {
    if (this.disposed) throw new WireError(ErrorCodes.InternalError, `${method}: the connection is closing`);
    if ([...this.tasks.values()].filter((t) => !isTerminal(t.task.status)).length >= MAX_TASKS) {
      throw new WireError(ErrorCodes.InvalidRequest, `${method}: ${MAX_TASKS} tasks of this server are running already`);
    }
    const { task: asked, ...request } = params;
    const requestedTtl = (asked as Record<string, unknown>).ttl;
    const ttl = typeof requestedTtl === 'number' && Number.isFinite(requestedTtl) ? Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, Math.round(requestedTtl))) : DEFAULT_TTL_MS;
    const at = new Date(this.now()).toISOString();
    const taskId = globalThis.crypto.randomUUID();
    const abort = new AbortController();
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const held: Held = { task: { taskId, status: 'working', statusMessage: RECEIVABLE[method], createdAt: at, lastUpdatedAt: at, ttl, pollInterval: POLL_INTERVAL_MS }, method, abort, done };
    this.tasks.set(taskId, held);
    held.expiry = setTimeout(() => this.forget(taskId), ttl);
    held.expiry.unref?.();
    this.options.log?.('info', `${method} #${String(ctx.id)} runs as task ${taskId} (the server asked for a task; kept ${Math.round(ttl / 1000)} s)`);
    // The request is answered now; what the dialog needs of a request context comes from the task.
    const context: RequestContext = {
      id: ctx.id,
      method,
      signal: abort.signal,
      waitOnUser: () => (held.hold ??= this.options.pauseTimeouts()),
    };
    Promise.resolve()
      .then(() => handler(request, context))
      .then(
        (value) => this.finish(held, 'completed', { ok: true, value }),
        (error: unknown) => this.finish(held, abort.signal.aborted ? 'cancelled' : 'failed', { ok: false, error }, abort.signal.aborted ? undefined : errorText(error)),
      )
      .finally(settle);
    return { ...held.task };
  }

  private finish(held: Held, status: TaskStatus, answer: NonNullable<Held['answer']>, message?: string): void {
    held.hold?.dispose();
    held.hold = undefined;
    if (isTerminal(held.task.status)) return; // cancelled already
    held.answer = answer;
    this.update(held, status, message);
    this.options.log?.(status === 'completed' ? 'info' : 'warn', `task ${held.task.taskId} (${held.method}) ${status}${message ? `: ${message}` : ''}`);
  }

  private update(held: Held, status: TaskStatus, statusMessage: string | undefined): void {
    const { statusMessage: _old, ...rest } = held.task;
    held.task = { ...rest, status, ...(statusMessage !== undefined ? { statusMessage } : {}), lastUpdatedAt: new Date(this.now()).toISOString() };
    if (this.disposed) return;
    void Promise.resolve(this.options.notify('notifications/tasks/status', { ...held.task })).catch(() => {});
  }

  private find(params: Record<string, unknown> | undefined, method: string): Held {
    const taskId = params?.taskId;
    if (typeof taskId !== 'string') throw new WireError(ErrorCodes.InvalidParams, `${method}: "taskId" must be a string`);
    const held = this.tasks.get(taskId);
    if (!held) throw new WireError(ErrorCodes.InvalidParams, `${method}: no task ${JSON.stringify(taskId.slice(0, 100))} (unknown, or past its ttl)`);
    return held;
  }

  private snapshot(held: Held): Task {
    return { ...held.task };
  }

  /** Blocks until the task is terminal, then answers what the request itself would have. */
  private async result(held: Held): Promise<unknown> {
    await held.done;
    const answer = held.answer;
    const related = { [RELATED_TASK_META]: { taskId: held.task.taskId } };
    if (held.task.status === 'cancelled' || !answer) throw new WireError(ErrorCodes.InvalidParams, `tasks/result: task ${held.task.taskId} was cancelled`, related);
    if (!answer.ok) {
      const e = answer.error;
      if (e instanceof WireError) throw new WireError(e.code, e.message, e.data);
      if (e instanceof ResponseError) throw new WireError(e.code, e.wireMessage, e.data);
      throw new WireError(ErrorCodes.InternalError, errorText(e));
    }
    const value = isRecord(answer.value) ? answer.value : {};
    return { ...value, _meta: { ...(isRecord(value._meta) ? value._meta : {}), ...related } };
  }

  private list(params: Record<string, unknown> | undefined): { tasks: Task[]; nextCursor?: string } {
    const all = [...this.tasks.values()].map((h) => ({ ...h.task }));
    const cursor = params?.cursor;
    let start = 0;
    if (cursor !== undefined) {
      start = typeof cursor === 'string' && /^\d+$/.test(cursor) ? Number(cursor) : NaN;
      if (!Number.isSafeInteger(start) || start > all.length) throw new WireError(ErrorCodes.InvalidParams, 'tasks/list: invalid cursor');
    }
    const page = all.slice(start, start + LIST_PAGE);
    return start + LIST_PAGE < all.length ? { tasks: page, nextCursor: String(start + LIST_PAGE) } : { tasks: page };
  }

  private cancel(held: Held): Task {
    if (isTerminal(held.task.status)) throw new WireError(ErrorCodes.InvalidParams, `tasks/cancel: task ${held.task.taskId} is ${held.task.status} already`);
    this.update(held, 'cancelled', 'Cancelled by the server');
    // The dialog closes (its request context is aborted); the task stays listed until its ttl.
    held.abort.abort('the server cancelled the task (tasks/cancel)');
    held.hold?.dispose();
    held.hold = undefined;
    this.options.log?.('info', `task ${held.task.taskId} (${held.method}) cancelled by the server`);
    return { ...held.task };
  }

  private forget(taskId: string): void {
    const held = this.tasks.get(taskId);
    if (!held) return;
    if (!isTerminal(held.task.status)) held.abort.abort('the task outlived its ttl');
    held.hold?.dispose();
    this.tasks.delete(taskId);
  }

  /** The connection closed: every running task's dialog closes, every timer goes. */
  dispose(): void {
    this.disposed = true;
    for (const held of this.tasks.values()) {
      if (held.expiry) clearTimeout(held.expiry);
      held.abort.abort('the connection closed');
      held.hold?.dispose();
    }
    this.tasks.clear();
  }
}

function errorText(error: unknown): string {
  if (error instanceof ResponseError) return error.wireMessage;
  return errorMessage(error);
}
