// Checks the frames of a 2026-07-28 session that speaks the tasks extension: the extension's own
// messages (tasks/get, tasks/update, tasks/cancel, their results, a CreateTaskResult answering
// tools/call, notifications/tasks) against the schemas the extension's maintainers generate from
// its specification (the official `@modelcontextprotocol/ext-tasks` package, `core/v2`), everything
// else (the listen request with `taskIds` included, whose filter the core schema leaves open)
// against 2026-07-28 itself.
import type * as TasksV2 from '@modelcontextprotocol/ext-tasks/core/v2' with { 'resolution-mode': 'import' };
import type { Frame } from '../../src/protocol/connection';
import { validateMessage, validateWire } from './wireSchema';

const REQUESTS: Readonly<Record<string, string>> = { 'tasks/get': 'GetTaskRequest', 'tasks/update': 'UpdateTaskRequest', 'tasks/cancel': 'CancelTaskRequest' };
const RESULTS: Readonly<Record<string, string>> = { 'tasks/get': 'GetTaskResult', 'tasks/update': 'UpdateTaskResult', 'tasks/cancel': 'CancelTaskResult' };
const NOTIFICATIONS: Readonly<Record<string, string>> = { 'notifications/tasks': 'TaskStatusNotification' };

let schemas: typeof TasksV2 | undefined;

/** Loads the extension's schemas (an ESM-only package); await it (in a `before`) before validating. */
export async function loadTasksSchemas(): Promise<void> {
  schemas ??= await import('@modelcontextprotocol/ext-tasks/core/v2');
}

/** Validates `value` against a definition of the extension's schema (`CreateTaskResult` is `CreateTaskResultV2Schema`). */
export function validateTasksWire(definition: string, value: unknown): { ok: true } | { ok: false; errors: string } {
  if (!schemas) throw new Error('validateTasksWire: await loadTasksSchemas() first');
  const schema = (schemas as unknown as Record<string, { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } } | undefined>)[`${definition}V2Schema`];
  if (!schema) return { ok: false, errors: `${definition} is not defined in the tasks extension's schemas` };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true };
  return { ok: false, errors: (parsed.error?.issues ?? []).map((i) => `/${i.path.map(String).join('/')} ${i.message}`).join('; ') };
}

/** Every problem in `frames` (empty when all are valid), one readable line each. */
export function tasksWireProblems(frames: readonly Frame[]): string[] {
  const methods = new Map<string, string>(); // `${direction}:${id}` of a request -> its method
  const out: string[] = [];
  for (const f of frames) {
    for (const m of (Array.isArray(f.message) ? f.message : [f.message]) as any[]) {
      if (typeof m?.method === 'string' && m.id !== undefined) methods.set(`${f.direction}:${m.id}`, m.method);
      const requestMethod = m && m.id !== undefined && !('method' in m) ? methods.get(`${f.direction === 'send' ? 'receive' : 'send'}:${m.id}`) : undefined;
      const check = checkOne(m, f.direction, requestMethod);
      if (!check.ok) out.push(`${f.direction} ${JSON.stringify(m).slice(0, 240)}: ${check.errors}`);
    }
  }
  return out;
}

function checkOne(m: any, direction: 'send' | 'receive', requestMethod: string | undefined): { ok: true } | { ok: false; errors: string } {
  const wire = direction === 'send' ? 'outbound' : 'inbound';
  if (typeof m?.method === 'string') {
    const definition = m.id !== undefined ? (direction === 'send' ? REQUESTS[m.method] : undefined) : direction === 'receive' ? NOTIFICATIONS[m.method] : undefined;
    if (definition) return both(validateWire('2026-07-28', m.id !== undefined ? 'JSONRPCRequest' : 'JSONRPCNotification', m), validateTasksWire(definition, m));
    return validateMessage('2026-07-28', m, wire, requestMethod);
  }
  if (m && 'result' in m && requestMethod !== undefined) {
    const definition = RESULTS[requestMethod] ?? (requestMethod === 'tools/call' && m.result?.resultType === 'task' ? 'CreateTaskResult' : undefined);
    if (definition) return both(validateWire('2026-07-28', 'JSONRPCResultResponse', m), validateTasksWire(definition, m.result));
  }
  return validateMessage('2026-07-28', m, wire, requestMethod);
}

function both(a: { ok: true } | { ok: false; errors: string }, b: { ok: true } | { ok: false; errors: string }) {
  return !a.ok ? a : b;
}
