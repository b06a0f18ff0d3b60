// The tool-call use case, one for every place a user calls a tool (the tool panel, `mcp-host
// call`, later the chat participant): read and check the arguments → confirm a tool that may
// change things → call it with progress and a timeout → keep it in the history → log. A failure
// with -32042 "URL elicitation required" is offered to the user and, when they say so, the whole
// call runs again. No `vscode`: the caller passes ports for what it shows and asks.
import type { InputRound, McpClient, Progress } from '../client/client';
import type { CallToolResult, Task, Tool } from '../client/schemas';
import { TaskUpdate, callToolAsTask, serverRunsToolTasks, taskSupportOf } from '../client/tasks';
import { callToolWithTasks, offersTasksExtension } from '../client/modernTasks';
import { FieldError, FieldModel, FormState, buildFormModel } from '../forms/model';
import { checkForm, validate } from '../forms/fieldChecks';
import { parseJsonInput } from '../forms/state';
import { McpLocalError, ResponseError } from '../protocol/errors';
import { isRecord } from '../protocol/jsonShape';
import type { LogSeverity } from '../protocol/logging';
import { ErrorCodes } from '../protocol/messages';
import { Redact, redactJson, redactKnownShapes } from '../protocol/redaction';
import { SchemaValidator, sharedSchemaValidator } from '../schema/validator';
import type { HistoryOutcome, NewHistoryEntry } from './history';
import { CallFailure, ToolResultDisplay, describeFailure, summarizeFailure, summarizeResult, toolResultDisplay } from './resultModel';
import { confirmationReason, needsConfirmation } from './toolPolicy';
import type { TaskFollower, TaskStore } from './taskStore';

/** The arguments as the user gave them. */
export type ToolArguments =
  /** A form, as the webview holds it (numbers as typed, choices as indices). */
  | { readonly mode: 'form'; readonly state?: FormState | undefined }
  /** JSON text typed by the user. */
  | { readonly mode: 'json'; readonly text: string }
  /** Arguments already parsed (the CLI's --args). */
  | { readonly mode: 'value'; readonly value: Record<string, unknown> };

/**
 * Reads the arguments and checks them against the tool's inputSchema (one check: ajv, worded per
 * field): the value to send, and every problem with its path. For live validation too.
 */
export function readToolArguments(model: FieldModel, input: ToolArguments, validator: SchemaValidator = sharedSchemaValidator): { value: Record<string, unknown>; errors: FieldError[] } {
  const options = { validator };
  if (input.mode === 'form') {
    const { value, errors } = checkForm(model, input.state, options);
    return { value: (value ?? {}) as Record<string, unknown>, errors };
  }
  let value: unknown;
  if (input.mode === 'value') value = input.value;
  else {
    const parsed = input.text.trim() === '' ? { ok: true as const, value: {} } : parseJsonInput(input.text);
    if (!parsed.ok) return { value: {}, errors: [parsed.error] };
    value = parsed.value;
  }
  if (!isRecord(value)) return { value: {}, errors: [{ path: '', keyword: 'type', message: 'the arguments must be a JSON object' }] };
  return { value, errors: validate(model, value, options) };
}

export interface ToolCallRequest {
  readonly serverId: string;
  /**
   * The tool as the server lists it. Only its name when the caller has not listed the tools (the
   * CLI sends what it was given): then the server alone checks the arguments and nothing is confirmed.
   */
  readonly tool: Tool | { readonly name: string };
  /** The form model of the tool's inputSchema, when the caller has built it already. */
  readonly model?: FieldModel;
  readonly arguments: ToolArguments;
  /** The request timeout (reset by each progress report); the client's default when absent. */
  readonly timeout?: { readonly seconds: number; /** Where it comes from, for the log ("the server's setting"). */ readonly note?: string };
  /** Who calls, for the log: "the tool panel". */
  readonly origin: string;
  /** Cancels the call (and any retry); a running task is cancelled with tasks/cancel. */
  readonly signal?: AbortSignal;
  /** Run as a task a tool that allows one (`execution.taskSupport: "optional"`); a "required" one always is. */
  readonly task?: boolean;
}

/** One attempt as it starts (a retry after a URL elicitation is another attempt). */
export interface ToolCallAttempt {
  readonly startedAt: number;
  readonly arguments: Record<string, unknown>;
}

/** How one attempt ended. */
export type ToolCallEnd =
  /** The server answered (`isError` results included). `display` is built when a port needs it. */
  | { readonly kind: 'answered'; readonly result: CallToolResult; readonly display?: ToolResultDisplay; readonly durationMs: number }
  | { readonly kind: 'failed'; readonly error: unknown; readonly failure: CallFailure; readonly durationMs: number };

/** What a call came to. */
export type ToolCallOutcome =
  /** The arguments have problems: nothing was sent. */
  | { readonly kind: 'invalid'; readonly errors: readonly FieldError[] }
  /** The user did not confirm. */
  | { readonly kind: 'declined' }
  /** There is no running server to call (the client lookup failed). */
  | { readonly kind: 'unavailable'; readonly error: unknown; readonly failure: CallFailure }
  /** The last attempt's end. */
  | ToolCallEnd;

/** What the use case needs from its caller; every port but `client` is optional. */
export interface ToolCallPorts {
  /** The client of the server, looked up when the call starts; throws or rejects when there is none. */
  client(): McpClient | Promise<McpClient>;
  readonly validator?: SchemaValidator;
  /** Asks before calling a tool that may change things (see toolPolicy); false cancels. Absent: never asks. */
  confirm?(tool: Tool, reason: string, args: Record<string, unknown>): Promise<boolean>;
  /** An attempt starts. */
  onStart?(attempt: ToolCallAttempt): void;
  /** A progress report of the running attempt. */
  onProgress?(progress: Progress): void;
  /** The attempt's timeout paused (the server waits on the user) or resumed. */
  onTimeoutPaused?(paused: boolean): void;
  /** A modern server asked for input during the call (multi round-trip, or a task's input requests: `taskId`): `waiting` while it is answered. */
  onInputRound?(round: InputRound): void;
  /** The call runs as a task: its state changed (status, message, progress). */
  onTaskStatus?(update: TaskUpdate): void;
  /** Where running and recent tasks are kept (the tree and the panels show them; Cancel there cancels the call). */
  readonly tasks?: Pick<TaskStore, 'follow'>;
  /** An attempt ended (before any retry). */
  onEnd?(end: ToolCallEnd): void;
  /** Keeps each attempt in the call history. */
  record?(entry: NewHistoryEntry): void;
  /** Writes a line to the server's log. */
  log?(level: LogSeverity, text: string): void;
  /**
   * Removes secrets from a failure's texts before any port, the history or the caller gets them
   * (the logs' redaction, protocol/redaction). Absent: URL credentials and Authorization headers only.
   */
  redact?(text: string): string;
  /** Offers the URLs of a -32042 failure; true when the call should run again. */
  resolveUrlElicitation?(error: ResponseError): Promise<boolean>;
}

/** Runs one tool call through its steps (see the file comment) and says what it came to. */
export async function callTool(request: ToolCallRequest, ports: ToolCallPorts): Promise<ToolCallOutcome> {
  const validator = ports.validator ?? sharedSchemaValidator;
  const tool = 'inputSchema' in request.tool ? request.tool : undefined;
  const name = request.tool.name;
  let args: Record<string, unknown>;
  if (tool) {
    const checked = readToolArguments(request.model ?? buildFormModel(tool.inputSchema), request.arguments, validator);
    // Invalid input is never sent.
    if (checked.errors.length > 0) return { kind: 'invalid', errors: checked.errors };
    args = checked.value;
    if (ports.confirm && needsConfirmation(tool) && !(await ports.confirm(tool, confirmationReason(tool), args))) return { kind: 'declined' };
  } else if (request.arguments.mode === 'value') args = request.arguments.value;
  else return { kind: 'invalid', errors: [{ path: '', keyword: 'json', message: 'arguments without the tool’s inputSchema must be given as a value' }] };

  let client: McpClient;
  try {
    client = await ports.client();
  } catch (error) {
    return { kind: 'unavailable', error, failure: redactedFailure(error, ports) };
  }
  const startedAt = Date.now();
  const started = performance.now();
  ports.onStart?.({ startedAt, arguments: args });
  const timeout = request.timeout;
  ports.log?.('info', `Calling tool ${name} from ${request.origin}${timeout ? ` (timeout ${timeout.seconds} s${timeout.note ? `, ${timeout.note}` : ''})` : ''}.`);
  let end: ToolCallEnd;
  let task: Task | undefined;
  // Once the call is a task, its input rounds are the task's (answered with tasks/update).
  const inputRounds = ports.onInputRound ? client.onInputRound((r) => r.method === 'tools/call' && r.target === name && ports.onInputRound!(task ? { ...r, taskId: task.taskId } : r)) : undefined;
  let follower: TaskFollower | undefined;
  // The caller's signal, and the task store's Cancel (the tree's, a panel's that did not start the call).
  const abort = new AbortController();
  const forward = () => abort.abort(request.signal?.reason);
  if (request.signal?.aborted) forward();
  else request.signal?.addEventListener('abort', forward, { once: true });
  try {
    const options = {
      ...(timeout ? { timeoutMs: Math.round(timeout.seconds * 1000) } : {}),
      // Each progress report restarts the timeout: a long call that keeps reporting is not cut off.
      resetTimeoutOnProgress: true,
      signal: abort.signal,
      ...(ports.onTimeoutPaused ? { onTimeoutPaused: ports.onTimeoutPaused } : {}),
      ...(ports.onProgress ? { onProgress: ports.onProgress } : {}),
    };
    // 2026-07-28 tasks extension: the server decides per call whether it answers with a task.
    const modernTasks = offersTasksExtension(client);
    const asTask = !modernTasks && (await runsAsTask(client, request, tool));
    if (asTask) ports.log?.('info', `Tool ${name} runs as a task.`);
    const taskOptions = {
      ...options,
      onTask: (t: Task) => {
        task = t;
        if (modernTasks) ports.log?.('info', `Tool ${name} runs as a task (${t.taskId}): the server chose to.`);
      },
      onStatus: (update: TaskUpdate) => {
        task = update.task;
        follower ??= ports.tasks?.follow(request.serverId, name, request.origin, (reason) => abort.abort(reason), args);
        follower?.update(update);
        ports.onTaskStatus?.(update);
      },
    };
    const result = modernTasks
      ? (await callToolWithTasks(client, name, args, taskOptions)).result
      : asTask
        ? (await callToolAsTask(client, name, args, taskOptions)).result
        : await client.callTool(name, args, options);
    const durationMs = performance.now() - started;
    // Building the display checks structuredContent and may render Markdown: only when someone shows or keeps it.
    const display = ports.onEnd || ports.record || ports.log ? toolResultDisplay(result, tool?.outputSchema, validator) : undefined;
    end = { kind: 'answered', result, durationMs, ...(display ? { display } : {}) };
    follower?.end({ kind: 'answered', result });
    ports.onEnd?.(end);
    if (display) {
      ports.record?.({ serverId: request.serverId, kind: 'tool', name, arguments: args, outcome: display.isError ? 'tool-error' : 'ok', summary: summarizeResult(display), durationMs, time: startedAt, result, origin: request.origin, ...taskOf(task) });
      logAnswer(ports, name, display, durationMs);
    }
  } catch (error) {
    const durationMs = performance.now() - started;
    const failure = redactedFailure(error, ports);
    end = { kind: 'failed', error, failure, durationMs };
    follower?.end({ kind: 'failed', failure });
    ports.onEnd?.(end);
    const outcome: HistoryOutcome = McpLocalError.is(error, 'cancelled') ? 'cancelled' : McpLocalError.is(error, 'timeout') ? 'timeout' : 'error';
    ports.record?.({ serverId: request.serverId, kind: 'tool', name, arguments: args, outcome, summary: summarizeFailure(failure), durationMs, time: startedAt, failure, origin: request.origin, ...taskOf(task) });
    ports.log?.(outcome === 'cancelled' ? 'info' : 'warn', `Tool ${name}: ${summarizeFailure(failure)}${task ? ` (task ${task.taskId}, ${task.status})` : ''}`);
    // The server needs the user to visit a URL first: offer it, then run the same call again.
    if (error instanceof ResponseError && error.code === ErrorCodes.UrlElicitationRequired && ports.resolveUrlElicitation && (await ports.resolveUrlElicitation(error))) {
      ports.log?.('info', `Retrying tool ${name} after URL elicitation.`);
      inputRounds?.dispose();
      return callTool(request, ports);
    }
  } finally {
    inputRounds?.dispose();
    request.signal?.removeEventListener('abort', forward);
  }
  return end;
}

/** What went wrong, secrets removed from its message and data: it goes to people, models and files. */
function redactedFailure(error: unknown, ports: ToolCallPorts): CallFailure {
  const redact: Redact = ports.redact ? (text) => ports.redact!(redactKnownShapes(text)) : redactKnownShapes;
  const failure = describeFailure(error);
  if (failure.kind !== 'protocol') return { ...failure, message: redact(failure.message) };
  const { data, ...rest } = failure;
  const kept = redactJson(data, redact);
  return { ...rest, message: redact(failure.message), ...(failure.meaning ? { meaning: redact(failure.meaning) } : {}), ...(kept !== undefined ? { data: kept } : {}) };
}

/** The history's note of the task a call ran as: its id and the status it ended in. */
function taskOf(task: Task | undefined): Pick<NewHistoryEntry, 'task'> {
  return task ? { task: { id: task.taskId, status: task.status } } : {};
}

/**
 * A tool the server lists with taskSupport "required" runs as a task; "optional" when asked. A tool
 * known only by name (the CLI) is looked up in the server's list when the server runs tool tasks.
 */
async function runsAsTask(client: McpClient, request: ToolCallRequest, listed: Tool | undefined): Promise<boolean> {
  if (!serverRunsToolTasks(client)) return false;
  const tool = listed ?? (await client.listTools(request.signal ? { signal: request.signal } : {})).find((t) => t.name === request.tool.name);
  const support = tool ? taskSupportOf(tool) : 'forbidden';
  return support === 'required' || (support === 'optional' && request.task === true) || (!tool && request.task === true);
}

function logAnswer(ports: ToolCallPorts, name: string, display: ToolResultDisplay, durationMs: number): void {
  ports.log?.(display.isError ? 'warn' : 'info', `Tool ${name} ${display.isError ? 'reported an error' : 'answered'} in ${Math.round(durationMs)} ms.`);
  if (display.verdict.kind === 'invalid' || display.verdict.kind === 'missing') {
    ports.log?.('warn', `Tool ${name}: structured content ${display.verdict.kind === 'missing' ? 'is missing although the tool declares an outputSchema' : 'does not match its outputSchema'}.`);
  }
  if (display.verdict.kind === 'unchecked') ports.log?.('info', `Tool ${name}: structured content not checked against its outputSchema: ${display.verdict.reason}.`);
}
