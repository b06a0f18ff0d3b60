// What the timeline needs to know of one JSON-RPC frame, read once as it passes: its kind, method,
// id, the name a person knows the call by (a tool's name, a resource's URI), and the fields that
// link it to a call (a progress token, a cancelled request's id, a task id, an input round's
// state). Reads a few fields only, never walks the payload: a 50 MiB result costs what a ping does.
import { isRecord } from '../../protocol/jsonShape';

/** The facts of one frame. `idKey` is the JSON text of the id, so 1 and "1" stay apart. */
export type FrameFacts =
  | { readonly kind: 'request'; readonly method: string; readonly idKey: string; readonly name?: string; readonly progressToken?: string; readonly taskId?: string; readonly continuesInput?: string | true }
  | { readonly kind: 'notification'; readonly method: string; readonly name?: string; readonly progressToken?: string; readonly progress?: number; readonly total?: number; readonly cancels?: string; readonly taskId?: string; readonly taskStatus?: string }
  | { readonly kind: 'response'; readonly idKey: string; readonly failed: boolean; readonly errorText?: string; readonly createdTaskId?: string; readonly inputRequired?: { readonly requestState?: string }; readonly protocolVersion?: string }
  | { readonly kind: 'invalid'; readonly method: string };

/** Longest name kept (a URI or an elicitation message can be long). */
const MAX_NAME = 120;

/** Reads the facts of `message` (anything: a server may send garbage, which becomes `invalid`). */
export function frameFacts(message: unknown): FrameFacts {
  if (Array.isArray(message)) return { kind: 'invalid', method: '(batch)' };
  if (!isRecord(message)) return { kind: 'invalid', method: '(not an object)' };
  const { id, method } = message;
  const params = isRecord(message.params) ? message.params : undefined;
  if (typeof method === 'string') {
    if (id === undefined || id === null) return notificationFacts(method, params);
    const meta = params && isRecord(params._meta) ? params._meta : undefined;
    const progressToken = meta ? tokenKey(meta.progressToken) : undefined;
    const taskId = method.startsWith('tasks/') && params && typeof params.taskId === 'string' ? params.taskId : undefined;
    // A modern request sent again with the answers to an input round (`inputResponses`, `requestState`).
    const continuesInput: string | true | undefined = !params ? undefined : typeof params.requestState === 'string' ? params.requestState : params.inputResponses !== undefined ? true : undefined;
    return {
      kind: 'request',
      method,
      idKey: JSON.stringify(id),
      ...optional('name', requestName(method, params)),
      ...optional('progressToken', progressToken),
      ...optional('taskId', taskId),
      ...optional('continuesInput', continuesInput),
    };
  }
  if (id !== undefined && ('result' in message || 'error' in message)) {
    const idKey = JSON.stringify(id);
    if ('error' in message) {
      const error = isRecord(message.error) ? message.error : {};
      return { kind: 'response', idKey, failed: true, errorText: clip(`${typeof error.code === 'number' ? `${error.code} ` : ''}${typeof error.message === 'string' ? error.message : 'error'}`) };
    }
    const result = isRecord(message.result) ? message.result : undefined;
    const task = result && isRecord(result.task) ? result.task : undefined;
    return {
      kind: 'response',
      idKey,
      failed: result?.isError === true,
      ...(result?.isError === true ? { errorText: 'the result has isError: true' } : {}),
      ...optional('createdTaskId', task && typeof task.taskId === 'string' ? task.taskId : undefined),
      ...(result?.resultType === 'input_required' ? { inputRequired: typeof result.requestState === 'string' ? { requestState: result.requestState } : {} } : {}),
      ...optional('protocolVersion', typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined),
    };
  }
  return { kind: 'invalid', method: '(not JSON-RPC)' };
}

function notificationFacts(method: string, params: Record<string, unknown> | undefined): FrameFacts {
  switch (method) {
    case 'notifications/progress': {
      const progress = typeof params?.progress === 'number' ? params.progress : undefined;
      const total = typeof params?.total === 'number' ? params.total : undefined;
      return { kind: 'notification', method, ...optional('progressToken', tokenKey(params?.progressToken)), ...optional('progress', progress), ...optional('total', total), ...optional('name', typeof params?.message === 'string' ? clip(params.message) : undefined) };
    }
    case 'notifications/cancelled':
      return { kind: 'notification', method, ...optional('cancels', params && params.requestId !== undefined ? JSON.stringify(params.requestId) : undefined), ...optional('name', typeof params?.reason === 'string' ? clip(params.reason) : undefined) };
    case 'notifications/tasks/status': {
      const taskId = typeof params?.taskId === 'string' ? params.taskId : undefined;
      const status = typeof params?.status === 'string' ? params.status : undefined;
      return { kind: 'notification', method, ...optional('taskId', taskId), ...optional('taskStatus', status), ...optional('name', status) };
    }
    case 'notifications/message': {
      const level = typeof params?.level === 'string' ? params.level : undefined;
      const logger = typeof params?.logger === 'string' ? params.logger : undefined;
      return { kind: 'notification', method, ...optional('name', level && logger ? `${level} [${clip(logger)}]` : level) };
    }
    case 'notifications/resources/updated':
      return { kind: 'notification', method, ...optional('name', typeof params?.uri === 'string' ? clip(params.uri) : undefined) };
    default:
      return { kind: 'notification', method };
  }
}

/** The name a person knows a request by, where the method has one. */
function requestName(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (!params) return undefined;
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return typeof params.name === 'string' ? clip(params.name) : undefined;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return typeof params.uri === 'string' ? clip(params.uri) : undefined;
    case 'completion/complete': {
      const ref = isRecord(params.ref) ? params.ref : undefined;
      const argument = isRecord(params.argument) && typeof params.argument.name === 'string' ? params.argument.name : undefined;
      const of = ref && (typeof ref.name === 'string' ? ref.name : typeof ref.uri === 'string' ? ref.uri : undefined);
      return of ? clip(argument ? `${of} · ${argument}` : of) : undefined;
    }
    case 'logging/setLevel':
      return typeof params.level === 'string' ? params.level : undefined;
    case 'elicitation/create':
      return typeof params.message === 'string' ? clip(params.message) : undefined;
    default:
      return method.startsWith('tasks/') && typeof params.taskId === 'string' ? clip(params.taskId) : undefined;
  }
}

/** A progress token as a key (a token may be a string or a number). */
function tokenKey(token: unknown): string | undefined {
  return typeof token === 'string' || typeof token === 'number' ? JSON.stringify(token) : undefined;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length <= MAX_NAME ? line : `${line.slice(0, MAX_NAME - 1)}…`;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
