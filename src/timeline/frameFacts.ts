// What the timeline needs to know of one JSON-RPC frame, read once as it passes: its kind, method,
// id, the name a person knows the call by (a tool's name, a resource's URI), and the fields that
// link it to a call (a progress token, a cancelled request's id, a task id, an input round's
// state). Reads a few fields only, never walks the payload: a 50 MiB result costs what a ping does.
import { isRecord } from '../protocol/jsonShape';

interface RequestFacts {
  readonly kind: 'request';
  readonly method: string;
  readonly idKey: string;
  readonly name?: string;
  readonly progressToken?: string;
  readonly taskId?: string;
  readonly continuesInput?: string | true;
}

interface NotificationFacts {
  readonly kind: 'notification';
  readonly method: string;
  readonly name?: string;
  readonly progressToken?: string;
  readonly progress?: number;
  readonly total?: number;
  readonly cancels?: string;
  readonly taskId?: string;
  readonly taskStatus?: string;
}

interface ResponseFacts {
  readonly kind: 'response';
  readonly idKey: string;
  readonly failed: boolean;
  readonly errorText?: string;
  /** An error answer's `code` and `data`, as they came (the era probe's answers are read by them). */
  readonly error?: { readonly code: unknown; readonly data: unknown };
  readonly createdTaskId?: string;
  readonly inputRequired?: { readonly requestState?: string };
  readonly protocolVersion?: string;
}

/**
 * The facts of one frame. `idKey` is the id as text: a number's digits, a string's JSON (quoted),
 * so 1 and "1" stay apart.
 */
export type FrameFacts = RequestFacts | NotificationFacts | ResponseFacts | { readonly kind: 'invalid'; readonly method: string };

type Writable<T> = { -readonly [K in keyof T]: T[K] };

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
    // Built field by field: a literal with spreads of optional fields costs an object per field.
    const facts: Writable<RequestFacts> = { kind: 'request', method, idKey: typeof id === 'number' ? String(id) : JSON.stringify(id) };
    if (!params) return facts;
    const name = requestName(method, params);
    if (name !== undefined) facts.name = name;
    const meta = isRecord(params._meta) ? params._meta : undefined;
    const progressToken = meta ? tokenKey(meta.progressToken) : undefined;
    if (progressToken !== undefined) facts.progressToken = progressToken;
    if (method.startsWith('tasks/') && typeof params.taskId === 'string') facts.taskId = params.taskId;
    // A modern request sent again with the answers to an input round (`inputResponses`, `requestState`).
    if (typeof params.requestState === 'string') facts.continuesInput = params.requestState;
    else if (params.inputResponses !== undefined) facts.continuesInput = true;
    return facts;
  }
  if (id !== undefined && ('result' in message || 'error' in message)) {
    const idKey = typeof id === 'number' ? String(id) : JSON.stringify(id);
    if ('error' in message) {
      const error = isRecord(message.error) ? message.error : {};
      return { kind: 'response', idKey, failed: true, error: { code: error.code, data: error.data }, errorText: clip(`${typeof error.code === 'number' ? `${error.code} ` : ''}${typeof error.message === 'string' ? error.message : 'error'}`) };
    }
    const result = isRecord(message.result) ? message.result : undefined;
    const facts: Writable<ResponseFacts> = { kind: 'response', idKey, failed: result?.isError === true };
    if (!result) return facts;
    if (result.isError === true) facts.errorText = 'the result has isError: true';
    if (isRecord(result.task) && typeof result.task.taskId === 'string') facts.createdTaskId = result.task.taskId;
    if (result.resultType === 'input_required') facts.inputRequired = typeof result.requestState === 'string' ? { requestState: result.requestState } : {};
    if (typeof result.protocolVersion === 'string') facts.protocolVersion = result.protocolVersion;
    return facts;
  }
  return { kind: 'invalid', method: '(not JSON-RPC)' };
}

function notificationFacts(method: string, params: Record<string, unknown> | undefined): FrameFacts {
  const facts: Writable<NotificationFacts> = { kind: 'notification', method };
  if (!params) return facts;
  switch (method) {
    case 'notifications/progress': {
      const token = tokenKey(params.progressToken);
      if (token !== undefined) facts.progressToken = token;
      if (typeof params.progress === 'number') facts.progress = params.progress;
      if (typeof params.total === 'number') facts.total = params.total;
      if (typeof params.message === 'string') facts.name = clip(params.message);
      break;
    }
    case 'notifications/cancelled':
      if (params.requestId !== undefined && params.requestId !== null) facts.cancels = typeof params.requestId === 'number' ? String(params.requestId) : JSON.stringify(params.requestId);
      if (typeof params.reason === 'string') facts.name = clip(params.reason);
      break;
    case 'notifications/tasks/status':
      if (typeof params.taskId === 'string') facts.taskId = params.taskId;
      if (typeof params.status === 'string') facts.taskStatus = facts.name = params.status;
      break;
    case 'notifications/message': {
      const level = typeof params.level === 'string' ? params.level : undefined;
      const logger = typeof params.logger === 'string' ? params.logger : undefined;
      if (level !== undefined) facts.name = logger !== undefined ? `${level} [${clip(logger)}]` : level;
      break;
    }
    case 'notifications/resources/updated':
      if (typeof params.uri === 'string') facts.name = clip(params.uri);
      break;
    default:
      break;
  }
  return facts;
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
