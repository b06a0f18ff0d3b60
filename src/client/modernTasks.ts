// Tasks of protocol 2026-07-28: the `io.modelcontextprotocol/tasks` extension (SEP-2663). The
// client declares the extension in the capabilities of the requests that are ready for a task;
// the server decides per call whether `tools/call` answers with its result or with a task
// (`resultType: "task"`). A task is followed with `tasks/get` (at its `pollIntervalMs`) and with
// `notifications/tasks` on the subscriptions/listen stream; its input requests are answered by the
// client's input handlers (the same dialogs as a request's input rounds) and sent with
// `tasks/update`; its result or error comes inlined once it completes or fails; `tasks/cancel`
// asks it to stop. The extension has no `tasks/list` and no progress on tasks.
// The caller sees the same TaskUpdate as for a 2025-11-25 task (client/tasks.ts).
import { Disposable } from '../protocol/disposable';
import { McpLocalError, ResponseError } from '../protocol/errors';
import type { RequestOptions } from '../protocol/connection';
import { formatZodIssues } from '../protocol/messages';
import type * as z from '../protocol/zod';
import { onDemand } from '../protocol/zodOnDemand';
import type { ExtensionScope, McpClient } from './client';
import { CallToolResult, LATEST_PROTOCOL_VERSION, TASK_STATUSES, Task, schemasFor, sessionSchemas } from './schemas';
import { TASKS_EXTENSION } from './eras/modernEra';
import { CANCEL_TIMEOUT_MS, FollowedTask, MAX_POLL_MS, TaskCallOptions, TaskTurn, TaskWire, followTask, pollDelay } from './taskLoop';

export { TASKS_EXTENSION };

/** What the requests of this module declare, and the result type the extension adds. */
const TASKS_SCOPE: ExtensionScope = { extensions: { [TASKS_EXTENSION]: {} }, resultTypes: ['task'] };

/**
 * While the server has agreed to send `notifications/tasks` for the task, tasks/get only backs
 * them up: this many poll intervals apart (at least 2 s, within the polling bounds).
 */
const BACKUP_POLLS = 5;
const MIN_BACKUP_MS = 2000;

/** A task as tasks/get, notifications/tasks and a CreateTaskResult carry it, status-specific fields inlined. */
const detailedTaskSchema = onDemand((z) =>
  z.looseObject({
    taskId: z.string(),
    status: z.enum(TASK_STATUSES),
    statusMessage: z.optional(z.string()),
    createdAt: z.string(),
    lastUpdatedAt: z.string(),
    ttlMs: z.nullable(z.number()),
    pollIntervalMs: z.optional(z.number()),
    inputRequests: z.optional(z.record(z.string(), sessionSchemas().inputRequest)),
    result: z.optional(z.record(z.string(), z.unknown())),
    error: z.optional(z.looseObject({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) })),
  }),
);
type DetailedTask = z.infer<ReturnType<typeof detailedTaskSchema>>;

// What the server offers, for callers that need no more of this module (the tree at activation).
export { offersTasksExtension, serverOffersTasks } from './taskOffer';

/** The modern task in the shape the 2025-11-25 one has (`ttl`, `pollInterval`), which callers already show. */
function asTask(task: DetailedTask): Task {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
    ...(task.pollIntervalMs === undefined ? {} : { pollInterval: task.pollIntervalMs }),
  };
}

/** Reads a task; a status without the field it must carry is an invalid result. */
function readTask(method: string, raw: unknown): DetailedTask {
  const parsed = detailedTaskSchema().safeParse(raw);
  if (!parsed.success) throw new McpLocalError('invalid-result', `${method}: ${formatZodIssues(parsed.error, 'result', raw)}`, { result: raw });
  const task = parsed.data;
  const missing = task.status === 'completed' && !task.result ? 'result' : task.status === 'failed' && !task.error ? 'error' : task.status === 'input_required' && !task.inputRequests ? 'inputRequests' : undefined;
  if (missing) throw new McpLocalError('invalid-result', `${method}: a ${task.status} task must carry ${missing}`, { result: raw });
  return task;
}

/**
 * Routes `notifications/tasks` of one client to the calls following each task (the client takes
 * one handler per notification method).
 */
class TaskNotifications {
  private readonly following = new Map<string, Set<(task: DetailedTask) => void>>();
  private readonly registration: Disposable;

  constructor(private readonly client: McpClient) {
    this.registration = client.onNotification('notifications/tasks', (params) => {
      const parsed = detailedTaskSchema().safeParse(params);
      if (parsed.success) for (const listener of this.following.get(parsed.data.taskId) ?? []) listener(parsed.data);
    });
  }

  follow(taskId: string, listener: (task: DetailedTask) => void): Disposable {
    let listeners = this.following.get(taskId);
    if (!listeners) this.following.set(taskId, (listeners = new Set()));
    listeners.add(listener);
    return Disposable.from(() => {
      listeners.delete(listener);
      if (listeners.size === 0) this.following.delete(taskId);
      if (this.following.size === 0) {
        this.registration.dispose();
        notifications.delete(this.client);
      }
    });
  }
}

const notifications = new WeakMap<McpClient, TaskNotifications>();

function notificationsOf(client: McpClient): TaskNotifications {
  let found = notifications.get(client);
  if (!found) notifications.set(client, (found = new TaskNotifications(client)));
  return found;
}

/**
 * Calls `name` declaring the tasks extension. The server answers with the tool's result (no task)
 * or with a task, which is then followed to its end (client/taskLoop.ts): the result it completes
 * with, a ResponseError for the JSON-RPC error it failed with, 'cancelled' when the server
 * cancelled it. Aborting `options.signal` sends `tasks/cancel` and rejects with 'cancelled'; so
 * does a failure to answer the task's input requests (nothing is left running for no one).
 * `ttlMs` does not apply: the server alone sets a task's time to live in this extension.
 */
export async function callToolWithTasks(client: McpClient, name: string, args: Record<string, unknown>, options: TaskCallOptions = {}): Promise<{ readonly result: CallToolResult; readonly task?: Task }> {
  const { ttlMs: _ttl, onTask, onStatus, signal, ...request } = options;
  const answer = await client.extensionRequest('tools/call', { name, arguments: args }, TASKS_SCOPE, { ...request, ...(signal ? { signal } : {}), mayAskUser: true });
  if (answer.resultType !== 'task') return { result: readResult(client, 'tools/call', answer) };
  const task = readTask('tools/call', answer);
  const followed = new FollowedTask<DetailedTask>(asTask, onStatus);
  onTask?.(asTask(task));
  followed.begin(task);
  const following = notificationsOf(client).follow(task.taskId, (next) => followed.update(next));
  const listening = client.listenToTask(task.taskId, TASKS_SCOPE);
  return followTask(new ModernTaskWire(client, task.taskId, name), followed, name, signal, Disposable.from(() => (following.dispose(), listening.dispose())));
}

/** The tool's result as the session's version shapes it. */
function readResult(client: McpClient, method: string, raw: unknown): CallToolResult {
  const parsed = schemasFor(client.protocolVersion ?? LATEST_PROTOCOL_VERSION).callToolResult.safeParse(raw);
  if (!parsed.success) throw new McpLocalError('invalid-result', `${method}: ${formatZodIssues(parsed.error, 'result', raw)}`, { result: raw });
  return parsed.data;
}

/**
 * The 2026-07-28 wire of a task: its result or error comes inlined in the task; its input
 * requests are answered by the client's input handlers and sent with `tasks/update`; while the
 * server has agreed to send `notifications/tasks`, tasks/get only backs them up.
 */
class ModernTaskWire implements TaskWire<DetailedTask> {
  /** Input request keys are unique over a task's life: each is answered once, though polls repeat it. */
  private readonly answered = new Set<string>();
  private rounds = 0;

  constructor(
    private readonly client: McpClient,
    private readonly taskId: string,
    private readonly name: string,
  ) {}

  view(task: DetailedTask): Task {
    return asTask(task);
  }

  async advance(task: DetailedTask, turn: TaskTurn): Promise<CallToolResult | undefined> {
    switch (task.status) {
      case 'completed':
        return readResult(this.client, 'tasks/get', task.result);
      case 'failed': {
        const error = task.error!;
        throw new ResponseError(`task ${this.taskId} of ${this.name}`, error.code, error.message, error.data);
      }
      case 'input_required':
        await this.answerInput(task, turn);
        return undefined;
      case 'working':
      case 'cancelled':
        return undefined;
      default: {
        const never: never = task.status;
        throw new McpLocalError('invalid-result', `task ${this.taskId}: unknown status ${JSON.stringify(never)}`);
      }
    }
  }

  /** Answers the input requests not answered yet; unanswered, the task would wait for ever, so it is abandoned (cancelled). */
  private async answerInput(task: DetailedTask, turn: TaskTurn): Promise<void> {
    const fresh = Object.entries(task.inputRequests ?? {}).filter(([key]) => !this.answered.has(key));
    if (fresh.length === 0) return;
    for (const [key] of fresh) this.answered.add(key);
    let responses: Record<string, unknown>;
    try {
      responses = await this.client.answerInputRequests('tools/call', { name: this.name }, ++this.rounds, Object.fromEntries(fresh), turn.signal);
    } catch (error) {
      turn.abandon();
      throw error;
    }
    await this.client.extensionRequest('tasks/update', { taskId: this.taskId, inputResponses: responses }, TASKS_SCOPE, { signal: turn.signal });
  }

  delay(task: DetailedTask): number {
    const poll = pollDelay(asTask(task));
    return this.client.isTaskListened(this.taskId) ? Math.min(MAX_POLL_MS, Math.max(MIN_BACKUP_MS, poll * BACKUP_POLLS)) : poll;
  }

  /** A notification woke the loop: it carries the whole task, so no tasks/get is needed now. */
  needsPoll(task: DetailedTask, seen: string): boolean {
    return task.lastUpdatedAt === seen;
  }

  async poll(signal: AbortSignal): Promise<DetailedTask> {
    return readTask('tasks/get', await this.client.extensionRequest('tasks/get', { taskId: this.taskId }, TASKS_SCOPE, { signal }));
  }

  /** The acknowledgement says nothing of the task's state (cancellation is cooperative): a tasks/get tells it. */
  async cancel(): Promise<DetailedTask> {
    await cancelModernTask(this.client, this.taskId, { timeoutMs: CANCEL_TIMEOUT_MS });
    return readTask('tasks/get', await this.client.extensionRequest('tasks/get', { taskId: this.taskId }, TASKS_SCOPE, { timeoutMs: CANCEL_TIMEOUT_MS }));
  }
}

/** `tasks/cancel`: asks the server to stop the task; the acknowledgement says nothing of its state (cancellation is cooperative). */
export async function cancelModernTask(client: McpClient, taskId: string, options?: RequestOptions): Promise<void> {
  await client.extensionRequest('tasks/cancel', { taskId }, TASKS_SCOPE, options);
}

/** `tasks/get`: the task's current state, in the 2025-11-25 shape, with what it inlines beside it. */
export async function getModernTask(client: McpClient, taskId: string, options?: RequestOptions): Promise<{ readonly task: Task; readonly detailed: DetailedTask }> {
  const detailed = readTask('tasks/get', await client.extensionRequest('tasks/get', { taskId }, TASKS_SCOPE, options));
  return { task: asTask(detailed), detailed };
}

export type { DetailedTask };
