// Tasks of the 2025-11-25 protocol (legacy era): a tool call the server runs in the background.
// `tools/call` with `task` answers at once with a task; the client follows it through
// `notifications/tasks/status` and `tasks/get` (at the server's `pollInterval`), fetches the tool's
// result with `tasks/result` once it completes (or once it waits on input: the server delivers its
// questions while tasks/result is open), and sends `tasks/cancel` when the caller gives up.
import { Disposable } from '../protocol/disposable';
import { McpLocalError } from '../protocol/errors';
import type { Progress, RequestOptions } from '../protocol/connection';
import type { RequestId } from '../protocol/messages';
import type { McpClient } from './client';
import { CallToolResult, CreateTaskResultSchema, GetTaskResultSchema, LATEST_PROTOCOL_VERSION, ListTasksResultSchema, Task, TaskStatus, Tool, schemasFor } from './schemas';

/** How a tool may be called (`execution.taskSupport`); anything else reads as "forbidden". */
export type TaskSupport = 'required' | 'optional' | 'forbidden';

/** Polling bounds: a server's pollInterval is honoured within them (a 0 would spin, an hour would stall). */
const DEFAULT_POLL_MS = 1000;
const MIN_POLL_MS = 100;
export const MAX_POLL_MS = 30_000;
/** How long tasks/cancel may take when the caller gives up (the connection closes after). */
export const CANCEL_TIMEOUT_MS = 5000;

export function taskSupportOf(tool: Pick<Tool, 'execution'>): TaskSupport {
  const support = tool.execution?.taskSupport;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** The server's `tasks` capability (2025-11-25), loosely read. */
function serverTasks(client: McpClient): Record<string, unknown> | undefined {
  const tasks = (client.serverCapabilities as Record<string, unknown> | undefined)?.tasks;
  return tasks && typeof tasks === 'object' ? (tasks as Record<string, unknown>) : undefined;
}

/** True when the server says it runs tools/call as tasks (`tasks.requests.tools.call`). */
export function serverRunsToolTasks(client: McpClient): boolean {
  const tools = (serverTasks(client)?.requests as Record<string, unknown> | undefined)?.tools as Record<string, unknown> | undefined;
  return client.era === 'legacy' && tools?.call !== undefined;
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

/** The tool's result, with the task it came from. */
export interface TaskCallResult {
  readonly result: CallToolResult;
  readonly task: Task;
}

/** What a running task call listens for: its task's status, and progress under its request's token. */
interface TaskListener {
  /** Unknown until tools/call is answered; notifications of no known task go to `status` meanwhile. */
  readonly taskId: string | undefined;
  readonly progressToken: RequestId | undefined;
  status(task: Task): void;
  progress(progress: Progress): void;
}

/**
 * Routes `notifications/tasks/status` of one client to the calls waiting on each task, and
 * `notifications/progress` that goes on after the task-augmented tools/call was answered (the
 * specification keeps the request's progress token alive until the task ends; the connection
 * forgets it with the answer).
 */
class TaskEvents {
  private readonly waiting = new Set<TaskListener>();
  private readonly registrations: Disposable[];

  constructor(private readonly client: McpClient) {
    this.registrations = [
      client.onNotification('notifications/tasks/status', (params) => {
        const parsed = GetTaskResultSchema.safeParse(params);
        if (parsed.success) for (const l of this.waiting) if (l.taskId === undefined || l.taskId === parsed.data.taskId) l.status(parsed.data);
      }),
      client.onNotification('notifications/progress', (params) => {
        if (typeof params?.progress !== 'number' || params.progressToken === undefined) return;
        const progress: Progress = { progress: params.progress, total: typeof params.total === 'number' ? params.total : undefined, message: typeof params.message === 'string' ? params.message : undefined };
        for (const l of this.waiting) if (l.progressToken === params.progressToken) l.progress(progress);
      }),
    ];
  }

  watch(listener: TaskListener): Disposable {
    this.waiting.add(listener);
    return Disposable.from(() => {
      this.waiting.delete(listener);
      if (this.waiting.size === 0) {
        for (const r of this.registrations) r.dispose();
        routers.delete(this.client);
      }
    });
  }
}

const routers = new WeakMap<McpClient, TaskEvents>();

function router(client: McpClient): TaskEvents {
  let found = routers.get(client);
  if (!found) {
    found = new TaskEvents(client);
    routers.set(client, found);
  }
  return found;
}

/**
 * Calls `name` as a task and waits for its result. Aborting `options.signal` sends `tasks/cancel`
 * (and `notifications/cancelled` for a request still open) and rejects with 'cancelled'. A task
 * that failed or was cancelled by the server rejects with what it said.
 */
export async function callToolAsTask(client: McpClient, name: string, args: Record<string, unknown>, options: TaskCallOptions = {}): Promise<TaskCallResult> {
  const { ttlMs, onTask, onStatus, signal, ...request } = options;
  const started = performance.now();
  let progress: Progress | undefined;
  /** Set once tools/call is answered (`known`). */
  let task!: Task;
  let known = false;
  /** Status notifications that came before the task's id was known (one read with the answer may carry them). */
  const early: Task[] = [];
  const tell = () => known && onStatus?.({ task, elapsedMs: performance.now() - started, ...(progress ? { progress } : {}) });
  // A notification or a tasks/get answer moves the task on; stale ones (older lastUpdatedAt) are ignored.
  let wake: (() => void) | undefined;
  const update = (next: Task) => {
    if (!known) return void early.push(next);
    if (next.taskId !== task.taskId || next.lastUpdatedAt < task.lastUpdatedAt) return;
    const changed = next.status !== task.status || next.statusMessage !== task.statusMessage;
    task = next;
    if (changed) tell();
    wake?.();
  };
  const onProgress = (p: Progress) => {
    progress = p;
    request.onProgress?.(p);
    tell();
  };
  // Listening starts before the request leaves: progress and status may come in the same read as the answer.
  const listener: { taskId: string | undefined; progressToken: RequestId | undefined; status: (t: Task) => void; progress: (p: Progress) => void } = { taskId: undefined, progressToken: undefined, status: update, progress: onProgress };
  const watching = router(client).watch(listener);
  let created;
  try {
    created = await client.methodRequest('tools/call', { name, arguments: args, task: ttlMs === undefined ? {} : { ttl: ttlMs } }, CreateTaskResultSchema, {
      ...request,
      ...(signal ? { signal } : {}),
      // The connection sends the request's id as its progress token.
      onRequestId: (id) => (listener.progressToken = id),
      onProgress,
    });
  } catch (error) {
    watching.dispose();
    throw error;
  }
  task = created.task;
  known = true;
  listener.taskId = task.taskId;
  onTask?.(task);
  tell();
  for (const next of early.splice(0)) update(next);
  const cancel = new AbortController();
  const onAbort = () => cancel.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  // tasks/result: opened once the task completes or needs input (the server asks its questions while it is open).
  let resultRequest: Promise<CallToolResult> | undefined;
  let resultSettled = false;
  const schema = schemasFor(client.protocolVersion ?? LATEST_PROTOCOL_VERSION).callToolResult;
  const fetchResult = () => {
    resultRequest ??= client
      .methodRequest('tasks/result', { taskId: task.taskId }, schema, { timeoutMs: 0, signal: cancel.signal, mayAskUser: true })
      .finally(() => {
        resultSettled = true;
        wake?.();
      });
    resultRequest.catch(() => {});
    return resultRequest;
  };
  try {
    for (;;) {
      if (cancel.signal.aborted) throw taskCancelledError(task);
      if (task.status === 'cancelled') throw new McpLocalError('cancelled', `task ${task.taskId} of ${name} was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
      // Opens tasks/result once; its promise is kept (rejection handled) and awaited below when it settles.
      if (task.status === 'completed' || task.status === 'failed' || task.status === 'input_required') void fetchResult();
      if (resultSettled && resultRequest) {
        const result = await resultRequest;
        return { result, task };
      }
      await pause(pollDelay(task), cancel.signal, (w) => (wake = w));
      wake = undefined;
      if (cancel.signal.aborted || resultSettled || isTerminal(task.status)) continue;
      try {
        update(await client.methodRequest('tasks/get', { taskId: task.taskId }, GetTaskResultSchema, { signal: cancel.signal }));
      } catch (error) {
        if (!cancel.signal.aborted) throw error;
      }
    }
  } catch (error) {
    if (cancel.signal.aborted && !isTerminal(task.status)) {
      await cancelTask(client, task.taskId, { timeoutMs: CANCEL_TIMEOUT_MS })
        .then((answer) => {
          task = answer;
          tell();
        })
        .catch(() => {});
      throw taskCancelledError(task);
    }
    throw error;
  } finally {
    watching.dispose();
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

/** `tasks/get`: the task's current state. */
export function getTask(client: McpClient, taskId: string, options?: RequestOptions): Promise<Task> {
  return client.methodRequest('tasks/get', { taskId }, GetTaskResultSchema, options);
}

/** `tasks/cancel`: asks the server to stop the task; answers with its state after. */
export function cancelTask(client: McpClient, taskId: string, options?: RequestOptions): Promise<Task> {
  if (serverTasks(client)?.cancel === undefined) return Promise.reject(client.missing('tasks/cancel', 'tasks.cancel'));
  return client.methodRequest('tasks/cancel', { taskId }, GetTaskResultSchema, options);
}

/** How many tasks a listing keeps by default: a server may hold any number (issue 32: 1.5 million in 1,500 pages). */
export const MAX_LISTED_TASKS = 1000;

export interface ListTasksOptions extends RequestOptions {
  /** Stop once this many tasks are listed (MAX_LISTED_TASKS); the rest are left on the server. */
  readonly maxTasks?: number;
}

/** What `tasks/list` gave: the tasks kept, and when the listing stopped before the server's end, why. */
export interface TaskListing {
  readonly tasks: Task[];
  readonly pages: number;
  /** Set when tasks were left unlisted: `tasks` (maxTasks reached) or `pages` (the client's page bound). */
  readonly stopped?: 'tasks' | 'pages';
}

/**
 * `tasks/list`, page after page, until the server's last page, `maxTasks` tasks or the client's page
 * bound (the one every list has); the listing says where it stopped. A repeated cursor is an error.
 */
export async function listTasks(client: McpClient, options: ListTasksOptions = {}): Promise<TaskListing> {
  const { maxTasks = MAX_LISTED_TASKS, ...request } = options;
  if (client.era === 'modern') {
    // SEP-2663 dropped tasks/list: a server cannot tell whose tasks are whose without sessions.
    throw new McpLocalError('capability', `tasks/list: ${client.serverInfo?.name ?? 'the server'} speaks protocol 2026-07-28, whose tasks extension (io.modelcontextprotocol/tasks) has no tasks/list: a client follows only the tasks it started`, { capability: 'tasks.list' });
  }
  if (serverTasks(client)?.list === undefined) throw client.missing('tasks/list', 'tasks.list');
  const tasks: Task[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    if (pages >= client.maxPages) return { tasks, pages, stopped: 'pages' };
    const page = await client.methodRequest('tasks/list', cursor === undefined ? {} : { cursor }, ListTasksResultSchema, request);
    pages++;
    // One at a time: spreading a page of any size into push() would overflow the stack.
    for (const task of page.tasks) {
      if (tasks.length >= maxTasks) return { tasks, pages, stopped: 'tasks' };
      tasks.push(task);
    }
    cursor = page.nextCursor;
    if (cursor !== undefined && tasks.length >= maxTasks) return { tasks, pages, stopped: 'tasks' };
    // A server that hands out the same cursor again would keep us here forever.
    if (cursor !== undefined && seen.has(cursor)) throw new McpLocalError('invalid-result', `tasks/list: the server sent the cursor ${JSON.stringify(cursor)} twice`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return { tasks, pages };
}

/** What a listing left unlisted, in words ("" when it listed everything). */
export function describeLeftTasks(listing: Pick<TaskListing, 'tasks' | 'pages' | 'stopped'>): string {
  const count = `${listing.tasks.length.toLocaleString('en-US')} task${listing.tasks.length === 1 ? '' : 's'}`;
  const pages = `${listing.pages.toLocaleString('en-US')} page${listing.pages === 1 ? '' : 's'}`;
  switch (listing.stopped) {
    case undefined:
      return '';
    case 'tasks':
      return `listed the first ${count} (${pages}); the server holds more, which were left unlisted`;
    case 'pages':
      return `stopped after ${pages} (${count}): the server kept returning nextCursor; the rest were left unlisted`;
  }
}

/** True when the server answers `tasks/list` (2025-11-25 `tasks.list`). */
export function serverListsTasks(client: McpClient): boolean {
  return client.era === 'legacy' && serverTasks(client)?.list !== undefined;
}

/** True when the server answers `tasks/cancel` (2025-11-25 `tasks.cancel`). */
export function serverCancelsTasks(client: McpClient): boolean {
  return client.era === 'legacy' && serverTasks(client)?.cancel !== undefined;
}

/** `tasks/result` of a tool task: waits until the task ends, then its tool result (for a task this window did not call). */
export function toolTaskResult(client: McpClient, taskId: string, options?: RequestOptions): Promise<CallToolResult> {
  return client.methodRequest('tasks/result', { taskId }, schemasFor(client.protocolVersion ?? LATEST_PROTOCOL_VERSION).callToolResult, { timeoutMs: 0, mayAskUser: true, ...options });
}
