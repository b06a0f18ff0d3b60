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
import * as z from '../protocol/zod';
import type { ExtensionScope, McpClient } from './client';
import { CallToolResult, InputRequestSchema, LATEST_PROTOCOL_VERSION, TASK_STATUSES, Task, schemasFor } from './schemas';
import { CANCEL_TIMEOUT_MS, MAX_POLL_MS, TaskCallOptions, isTerminal, pause, pollDelay, taskCancelledError } from './tasks';

/** The extension's identifier, in capabilities on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What the requests of this module declare, and the result type the extension adds. */
const TASKS_SCOPE: ExtensionScope = { extensions: { [TASKS_EXTENSION]: {} }, resultTypes: ['task'] };

/**
 * While the server has agreed to send `notifications/tasks` for the task, tasks/get only backs
 * them up: this many poll intervals apart (at least 2 s, within the polling bounds).
 */
const BACKUP_POLLS = 5;
const MIN_BACKUP_MS = 2000;

/** A task as tasks/get, notifications/tasks and a CreateTaskResult carry it, status-specific fields inlined. */
const DetailedTaskSchema = z.looseObject({
  taskId: z.string(),
  status: z.enum(TASK_STATUSES),
  statusMessage: z.optional(z.string()),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: z.nullable(z.number()),
  pollIntervalMs: z.optional(z.number()),
  inputRequests: z.optional(z.record(z.string(), InputRequestSchema)),
  result: z.optional(z.record(z.string(), z.unknown())),
  error: z.optional(z.looseObject({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) })),
});
type DetailedTask = z.infer<typeof DetailedTaskSchema>;

/** True when the server declares the extension (modern era only: it does not exist before 2026-07-28). */
export function offersTasksExtension(client: McpClient): boolean {
  const extensions = (client.serverCapabilities as Record<string, unknown> | undefined)?.extensions;
  return client.era === 'modern' && typeof extensions === 'object' && extensions !== null && (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
}

/**
 * True when the server runs tool calls as tasks in its era: the 2025-11-25 `tasks` capability, or
 * the 2026-07-28 tasks extension (where the server decides per call). The editor's Tasks group
 * shows for such a server before its first task.
 */
export function serverOffersTasks(client: McpClient): boolean {
  return (client.era !== 'modern' && (client.serverCapabilities as Record<string, unknown> | undefined)?.tasks !== undefined) || offersTasksExtension(client);
}

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
  const parsed = DetailedTaskSchema.safeParse(raw);
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
      const parsed = DetailedTaskSchema.safeParse(params);
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
 * or with a task, which is then followed to its end: the result it completes with, a ResponseError
 * for the JSON-RPC error it failed with, 'cancelled' when the server cancelled it. Aborting
 * `options.signal` sends `tasks/cancel` and rejects with 'cancelled'; so does a failure to answer
 * the task's input requests (nothing is left running for no one). `ttlMs` does not apply: the
 * server alone sets a task's time to live in this extension.
 */
export async function callToolWithTasks(client: McpClient, name: string, args: Record<string, unknown>, options: TaskCallOptions = {}): Promise<{ readonly result: CallToolResult; readonly task?: Task }> {
  const { ttlMs: _ttl, onTask, onStatus, signal, ...request } = options;
  const started = performance.now();
  const schema = schemasFor(client.protocolVersion ?? LATEST_PROTOCOL_VERSION).callToolResult;
  const readResult = (method: string, raw: unknown): CallToolResult => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new McpLocalError('invalid-result', `${method}: ${formatZodIssues(parsed.error, 'result', raw)}`, { result: raw });
    return parsed.data;
  };
  const answer = await client.extensionRequest('tools/call', { name, arguments: args }, TASKS_SCOPE, { ...request, ...(signal ? { signal } : {}), mayAskUser: true });
  if (answer.resultType !== 'task') return { result: readResult('tools/call', answer) };

  let task = readTask('tools/call', answer);
  const taskId = task.taskId;
  const tell = () => onStatus?.({ task: asTask(task), elapsedMs: performance.now() - started });
  let wake: (() => void) | undefined;
  // A notification or a tasks/get answer moves the task on; an older one (lastUpdatedAt) is ignored.
  const update = (next: DetailedTask) => {
    if (next.taskId !== taskId || next.lastUpdatedAt < task.lastUpdatedAt || isTerminal(task.status)) return;
    const changed = next.status !== task.status || next.statusMessage !== task.statusMessage;
    task = next;
    if (changed) tell();
    wake?.();
  };
  onTask?.(asTask(task));
  tell();
  const following = notificationsOf(client).follow(taskId, update);
  const listening = client.listenToTask(taskId, TASKS_SCOPE);
  const cancel = new AbortController();
  const onAbort = () => cancel.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  // Input request keys are unique over a task's life: each is answered once, though polls repeat it.
  const answered = new Set<string>();
  let rounds = 0;
  let giveUp = false;
  try {
    for (;;) {
      if (cancel.signal.aborted) throw taskCancelledError(asTask(task));
      switch (task.status) {
        case 'completed':
          return { result: readResult('tasks/get', task.result), task: asTask(task) };
        case 'failed': {
          const error = task.error!;
          throw new ResponseError(`task ${taskId} of ${name}`, error.code, error.message, error.data);
        }
        case 'cancelled':
          throw new McpLocalError('cancelled', `task ${taskId} of ${name} was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
        case 'input_required': {
          const fresh = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
          if (fresh.length === 0) break;
          for (const [key] of fresh) answered.add(key);
          let responses: Record<string, unknown>;
          try {
            responses = await client.answerInputRequests('tools/call', { name }, ++rounds, Object.fromEntries(fresh), cancel.signal);
          } catch (error) {
            // Unanswered, the task would wait for ever: it is cancelled.
            giveUp = true;
            throw error;
          }
          await client.extensionRequest('tasks/update', { taskId, inputResponses: responses }, TASKS_SCOPE, { signal: cancel.signal });
          break;
        }
        case 'working':
          break;
        default: {
          const never: never = task.status;
          throw new McpLocalError('invalid-result', `task ${taskId}: unknown status ${JSON.stringify(never)}`);
        }
      }
      const poll = pollDelay(asTask(task));
      const seen = task.lastUpdatedAt;
      await pause(client.isTaskListened(taskId) ? Math.min(MAX_POLL_MS, Math.max(MIN_BACKUP_MS, poll * BACKUP_POLLS)) : poll, cancel.signal, (w) => (wake = w));
      wake = undefined;
      // A notification woke the loop: it carries the whole task, so no tasks/get is needed now.
      if (cancel.signal.aborted || task.lastUpdatedAt !== seen) continue;
      try {
        update(readTask('tasks/get', await client.extensionRequest('tasks/get', { taskId }, TASKS_SCOPE, { signal: cancel.signal })));
      } catch (error) {
        if (!cancel.signal.aborted) throw error;
      }
    }
  } catch (error) {
    if ((cancel.signal.aborted || giveUp) && !isTerminal(task.status)) {
      await cancelModernTask(client, taskId, { timeoutMs: CANCEL_TIMEOUT_MS })
        .then(async () => update(readTask('tasks/get', await client.extensionRequest('tasks/get', { taskId }, TASKS_SCOPE, { timeoutMs: CANCEL_TIMEOUT_MS }))))
        .catch(() => {});
      if (cancel.signal.aborted) throw taskCancelledError(asTask(task));
    }
    throw error;
  } finally {
    following.dispose();
    listening.dispose();
    signal?.removeEventListener('abort', onAbort);
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
