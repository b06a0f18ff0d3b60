// The modern era's multi round-trip requests (2026-07-28): a result of type "input_required" has
// its input requests answered by the same handlers that answer a legacy server's requests, and
// the request goes again under a new id with `inputResponses` and `requestState` as they came.
import type { RequestContext, RequestOptions } from '../../protocol/connection';
import { Disposable } from '../../protocol/disposable';
import { McpLocalError } from '../../protocol/errors';
import { formatZodIssues } from '../../protocol/messages';
import type * as z from '../../protocol/zod';
import type { ExtensionScope, ServerRequestHandlers } from '../clientContract';
import { InputRequest, sessionSchemas } from '../schemas';
import type { EraSession } from './eraCodec';

const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** Results reached through input rounds: they answer that exchange only and are never cached. */
const retriedResults = new WeakSet<object>();

/** True for a result the client got by answering the server's input requests (never cache it). */
export function isRetriedResult(result: unknown): boolean {
  return typeof result === 'object' && result !== null && retriedResults.has(result);
}

/** Builds the `_meta` of one round's request (the codec's: version, capabilities, log level). */
export type MetaFor = (extra: unknown, extensions?: Readonly<Record<string, object>>) => Record<string, unknown>;

/**
 * A modern request: `_meta` added; a result without `resultType` or with "complete" is the
 * answer; "input_required" has its input requests answered and the request sent again, for at
 * most `maxInputRounds` rounds; a type an extension of `scope` adds is returned as it came; any
 * other type is an error.
 */
export async function requestWithInputRounds<T>(session: EraSession, metaFor: MetaFor, method: string, params: Record<string, unknown>, schema: z.ZodMiniType<T> | undefined, options: RequestOptions = {}, inputHandlers?: ServerRequestHandlers, scope?: ExtensionScope): Promise<T> {
  const maxRounds = session.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  const { _meta, inputResponses: ownResponses, requestState: ownState, ...rest } = params;
  // The caller's own inputResponses go out once (tasks/update carries them); later rounds carry the answers of the rounds.
  let answers = typeof ownResponses === 'object' && ownResponses !== null ? (ownResponses as Record<string, unknown>) : undefined;
  let state = typeof ownState === 'string' ? ownState : undefined;
  for (let round = 0; ; round++) {
    const sent: Record<string, unknown> = { ...rest, _meta: metaFor(_meta, scope?.extensions) };
    if (answers !== undefined) sent.inputResponses = answers;
    if (state !== undefined) sent.requestState = state;
    const raw = await session.connection.request<Record<string, unknown>>(method, sent, undefined, options);
    const resultType = raw.resultType;
    if (resultType === undefined || resultType === 'complete') return completeResult(method, raw, schema, round);
    if (typeof resultType === 'string' && scope?.resultTypes?.includes(resultType)) return raw as T;
    const input = readInputRequired(method, raw, round, maxRounds);
    answers = input.inputRequests === undefined ? undefined : await answerInput(session, method, rest, round + 1, input.inputRequests, options.signal, inputHandlers);
    state = input.requestState;
  }
}

function completeResult<T>(method: string, raw: Record<string, unknown>, schema: z.ZodMiniType<T> | undefined, round: number): T {
  if (!schema) return raw as T;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new McpLocalError('invalid-result', `${method}: ${formatZodIssues(parsed.error, 'result', raw)}`, { result: raw });
  // An answer reached through input rounds belongs to those answers: never reuse it.
  if (round > 0) retriedResults.add(parsed.data as object);
  return parsed.data;
}

/** An "input_required" result, checked: it asks for something, and within the round limit. */
function readInputRequired(method: string, raw: Record<string, unknown>, round: number, maxRounds: number): { inputRequests?: Record<string, InputRequest>; requestState?: string } {
  const resultType = raw.resultType;
  if (resultType !== 'input_required') {
    throw new McpLocalError('invalid-result', `${method}: the server answered with resultType ${JSON.stringify(resultType)}, which this client does not know (it knows "complete" and "input_required")`, { result: raw });
  }
  const input = sessionSchemas().inputRequiredResult.safeParse(raw);
  if (!input.success) throw new McpLocalError('invalid-result', `${method}: ${formatZodIssues(input.error, 'result', raw)}`, { result: raw });
  if (input.data.inputRequests === undefined && input.data.requestState === undefined) {
    throw new McpLocalError('invalid-result', `${method}: the server asked for input but sent neither inputRequests nor requestState`, { result: raw });
  }
  if (round >= maxRounds) {
    throw new McpLocalError('invalid-result', `${method}: the server still asked for input after ${maxRounds} rounds; stopped (the limit is ${maxRounds})`, { rounds: round });
  }
  return input.data;
}

/** Answers one round of input requests, all at once, through the server-request handlers. */
export async function answerInput(session: EraSession, method: string, params: Record<string, unknown>, round: number, requests: Record<string, InputRequest>, signal?: AbortSignal, inputHandlers?: ServerRequestHandlers): Promise<Record<string, unknown>> {
  const target = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const methods = Object.fromEntries(Object.entries(requests).map(([key, r]) => [key, r.method]));
  const info = { method, ...(target === undefined ? {} : { target }), round, requests: methods };
  session.fireInputRound({ ...info, waiting: true });
  const controller = new AbortController();
  // Input requests are the client's to answer: when the call is given up (Cancel, a timeout),
  // it is this side that closes them, and the dialogs say so rather than blame the server.
  const abort = () => {
    const reason: unknown = signal?.reason;
    controller.abort(reason instanceof McpLocalError ? reason : new McpLocalError('cancelled', reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : `${method}: cancelled`));
  };
  signal?.addEventListener('abort', abort, { once: true });
  const closed = session.onClose(() => controller.abort(new McpLocalError('closed', `${method}: the connection closed while answering the server's input requests`)));
  try {
    const entries = await Promise.all(Object.entries(requests).map(([key, request]) => answerOne(session, method, key, request, controller.signal, inputHandlers)));
    return Object.fromEntries(entries);
  } finally {
    signal?.removeEventListener('abort', abort);
    closed.dispose();
    session.fireInputRound({ ...info, waiting: false });
  }
}

async function answerOne(session: EraSession, method: string, key: string, request: InputRequest, signal: AbortSignal, inputHandlers?: ServerRequestHandlers): Promise<readonly [string, object]> {
  const handler = inputHandlers?.[request.method] ?? session.handlerFor(request.method);
  if (!handler) {
    throw new McpLocalError('capability', `${method}: the server asked for ${request.method} (input ${JSON.stringify(key)}), which this client does not answer`, { inputMethod: request.method });
  }
  const context: RequestContext = { id: key, method: request.method, signal, waitOnUser: () => Disposable.None };
  try {
    const answer = await handler(request.params, context);
    return [key, answer && typeof answer === 'object' ? answer : {}] as const;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new McpLocalError('cancelled', `${method}: the server's ${request.method} input request (${JSON.stringify(key)}) was not answered: ${why}`, { inputMethod: request.method });
  }
}
