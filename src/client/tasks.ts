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
import { CallToolResult, LATEST_PROTOCOL_VERSION, Task, Tool, schemasFor, taskSchemas } from './schemas';
import { CANCEL_TIMEOUT_MS, FollowedTask, TaskCallOptions, TaskTurn, TaskWire, followTask, pollDelay } from './taskLoop';

export { CANCEL_TIMEOUT_MS, MAX_POLL_MS, isTerminal, pause, pollDelay, taskCancelledError } from './taskLoop';
export type { TaskCallOptions, TaskUpdate } from './taskLoop';

/** How a tool may be called (`execution.taskSupport`); anything else reads as "forbidden". */
export type TaskSupport = 'required' | 'optional' | 'forbidden';

export function taskSupportOf(tool: Pick<Tool, 'execution'>): TaskSupport {
  const support = tool.execution?.taskSupport;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/** True when the server runs tools/call as tasks the client asks for per tool (2025-11-25 `tasks.requests.tools.call`). */
export function serverRunsToolTasks(client: McpClient): boolean {
  return client.taskOffer().toolCalls === 'per-tool';
}

/** The tool's result, with the task it came from. */
export interface TaskCallResult {
  readonly result: CallToolResult;
  readonly task: Task;
}

/** What a running task call listens for: its task's status, and progress under its request's token. */
interface TaskListener {
  /** Unknown until tools/call is answered; notifications of no known task go to `status` meanwhile. */
  taskId: string | undefined;
  progressToken: RequestId | undefined;
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
        const parsed = taskSchemas().getTaskResult.safeParse(params);
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

/** A task call's progress route on the connection: TaskEvents tells the caller. */
const heardByTheRouter = (): void => {};

function router(client: McpClient): TaskEvents {
  let found = routers.get(client);
  if (!found) {
    found = new TaskEvents(client);
    routers.set(client, found);
  }
  return found;
}

/**
 * Calls `name` as a task and waits for its result (client/taskLoop.ts follows it). Aborting
 * `options.signal` sends `tasks/cancel` (and `notifications/cancelled` for a request still open)
 * and rejects with 'cancelled'. A task that failed or was cancelled by the server rejects with
 * what it said.
 */
export async function callToolAsTask(client: McpClient, name: string, args: Record<string, unknown>, options: TaskCallOptions = {}): Promise<TaskCallResult> {
  const { ttlMs, onTask, onStatus, signal, ...request } = options;
  const followed = new FollowedTask<Task>((task) => task, onStatus);
  const onProgress = (p: Progress) => {
    request.onProgress?.(p);
    followed.reportProgress(p);
  };
  // Listening starts before the request leaves: progress and status may come in the same read as
  // the answer. The router hears every progress under the call's token, before the answer and
  // after it, so the connection's own route (which makes it send the token) tells no one: each
  // progress is told once.
  const listener: TaskListener = { taskId: undefined, progressToken: undefined, status: (t) => followed.update(t), progress: onProgress };
  const watching = router(client).watch(listener);
  let created;
  try {
    created = await client.methodRequest('tools/call', { name, arguments: args, task: ttlMs === undefined ? {} : { ttl: ttlMs } }, taskSchemas().createTaskResult, {
      ...request,
      ...(signal ? { signal } : {}),
      // The connection sends the request's id as its progress token.
      onRequestId: (id) => (listener.progressToken = id),
      onProgress: heardByTheRouter,
    });
  } catch (error) {
    watching.dispose();
    throw error;
  }
  listener.taskId = created.task.taskId;
  onTask?.(created.task);
  followed.begin(created.task);
  return followTask(new LegacyTaskWire(client, created.task.taskId), followed, name, signal, watching);
}

/**
 * The 2025-11-25 wire of a task: `tasks/result` is opened once the task completes or needs input
 * (the server asks its questions while it is open) and its answer is the call's; `tasks/get`
 * polls at the task's pollInterval until then.
 */
class LegacyTaskWire implements TaskWire<Task> {
  private resultRequest: Promise<CallToolResult> | undefined;
  private resultSettled = false;

  constructor(
    private readonly client: McpClient,
    private readonly taskId: string,
  ) {}

  view(task: Task): Task {
    return task;
  }

  async advance(task: Task, turn: TaskTurn): Promise<CallToolResult | undefined> {
    if (task.status === 'completed' || task.status === 'failed' || task.status === 'input_required') this.fetchResult(turn);
    return this.resultSettled && this.resultRequest ? await this.resultRequest : undefined;
  }

  delay(task: Task): number {
    return pollDelay(task);
  }

  needsPoll(): boolean {
    return !this.resultSettled;
  }

  poll(signal: AbortSignal): Promise<Task> {
    return this.client.methodRequest('tasks/get', { taskId: this.taskId }, taskSchemas().getTaskResult, { signal });
  }

  cancel(): Promise<Task> {
    return cancelTask(this.client, this.taskId, { timeoutMs: CANCEL_TIMEOUT_MS });
  }

  private fetchResult(turn: TaskTurn): void {
    if (this.resultRequest) return;
    const schema = schemasFor(this.client.protocolVersion ?? LATEST_PROTOCOL_VERSION).callToolResult;
    this.resultRequest = this.client.methodRequest('tasks/result', { taskId: this.taskId }, schema, { timeoutMs: 0, signal: turn.signal, mayAskUser: true }).finally(() => {
      this.resultSettled = true;
      turn.wake();
    });
    this.resultRequest.catch(() => {});
  }
}

/** `tasks/get`: the task's current state. */
export function getTask(client: McpClient, taskId: string, options?: RequestOptions): Promise<Task> {
  return client.methodRequest('tasks/get', { taskId }, taskSchemas().getTaskResult, options);
}

/** `tasks/cancel`: asks the server to stop the task; answers with its state after. */
export function cancelTask(client: McpClient, taskId: string, options?: RequestOptions): Promise<Task> {
  if (!client.taskOffer().cancelsListed) return Promise.reject(client.missing('tasks/cancel', 'tasks.cancel'));
  return client.methodRequest('tasks/cancel', { taskId }, taskSchemas().getTaskResult, options);
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
  const refusal = client.eraCodec ? client.eraCodec.taskListRefusal() : client.missing('tasks/list', 'tasks.list');
  if (refusal) throw refusal;
  const tasks: Task[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    if (pages >= client.maxPages) return { tasks, pages, stopped: 'pages' };
    const page = await client.methodRequest('tasks/list', cursor === undefined ? {} : { cursor }, taskSchemas().listTasksResult, request);
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
  return client.taskOffer().lists;
}

/** True when the server answers `tasks/cancel` for a listed task (2025-11-25 `tasks.cancel`). */
export function serverCancelsTasks(client: McpClient): boolean {
  return client.taskOffer().cancelsListed;
}

/** `tasks/result` of a tool task: waits until the task ends, then its tool result (for a task this window did not call). */
export function toolTaskResult(client: McpClient, taskId: string, options?: RequestOptions): Promise<CallToolResult> {
  return client.methodRequest('tasks/result', { taskId }, schemasFor(client.protocolVersion ?? LATEST_PROTOCOL_VERSION).callToolResult, { timeoutMs: 0, mayAskUser: true, ...options });
}
