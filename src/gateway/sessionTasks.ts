// The tasks one gateway session created, so that it reaches only those: the gateway relays every
// client's requests over MCP Host's one session with the server, where every task is visible to
// whoever asks. A task request naming another's task (another gateway client's, MCP Host's own)
// gets the answer a task that does not exist gets, and `tasks/list` is cut to the session's own.
// Both eras: the 2025-11-25 `tasks/*` methods and a CreateTaskResult (`{ task: { taskId } }`),
// and the 2026-07-28 tasks extension (`tasks/get`, `tasks/update`, `tasks/cancel`; a result of
// `resultType: "task"` carries `taskId` itself).
import { WireError } from '../protocol/errors';
import { ErrorCodes } from '../protocol/messages';

/** The one task method that names no task. */
const LIST = 'tasks/list';

export class SessionTasks {
  private readonly owned = new Set<string>();

  /** Refuses a task request (any `tasks/*` but tasks/list) that names a task this session did not create. */
  check(method: string, params: Record<string, unknown> | undefined): void {
    if (!method.startsWith('tasks/') || method === LIST) return;
    const taskId = params?.taskId;
    if (typeof taskId === 'string' && this.owned.has(taskId)) return;
    // The same answer as for a task that does not exist: whether another's exists is not told.
    throw new WireError(ErrorCodes.InvalidParams, `${method}: no task ${JSON.stringify(taskId)} was created in this session`);
  }

  /** The result of a relayed request, with the task it created noted; tasks/list's cut to this session's tasks. */
  follow(method: string, result: Record<string, unknown>): Record<string, unknown> {
    if (method === LIST) {
      const tasks = result.tasks;
      if (!Array.isArray(tasks)) return result;
      return { ...result, tasks: tasks.filter((t) => typeof (t as { taskId?: unknown })?.taskId === 'string' && this.owned.has((t as { taskId: string }).taskId)) };
    }
    const created = createdTaskId(result);
    if (created !== undefined) this.owned.add(created);
    return result;
  }
}

/** The task id a result created: a 2025-11-25 CreateTaskResult, or a 2026-07-28 result of type "task". */
function createdTaskId(result: Record<string, unknown>): string | undefined {
  const task = result.task;
  if (task && typeof task === 'object' && typeof (task as { taskId?: unknown }).taskId === 'string') return (task as { taskId: string }).taskId;
  if (result.resultType === 'task' && typeof result.taskId === 'string') return result.taskId;
  return undefined;
}
