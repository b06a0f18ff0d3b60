// `sampling/createMessage`: a server asks the host's language model for a completion, and the
// user stays in control. The service parses and gates the request, applies the user's standing
// policy for the server, waits its turn in the server's dialog lane, lets the user approve, edit
// or reject it, runs it on a model (chosen by the server's hints, else the user's pick), lets the
// user review and edit the answer, then returns it. The user may also answer it themselves (the
// only way when no model is available). Every step is logged to the server's channel.
// Pure logic: the dialog, the model picker and the language models come in as interfaces.
import * as z from '../protocol/zod';
import type { RequestContext } from '../protocol/connection';
import { WireError, errorMessage } from '../protocol/errors';
import { ErrorCodes, formatZodIssues } from '../protocol/messages';
import { AUDIO_TYPES, IMAGE_TYPES, MAX_INLINE_BYTES, base64Bytes, normalizeMimeType } from '../content/mediaTypes';
import { DialogQueue, QUEUE_LIMIT_NOTE, QueueCancelledError, QueueFullError, abortReason, describeAbort, untilCancelled } from './dialogQueue';
import { ModelInfo, ModelPreferencesView, chooseModel, describeModel } from './modelSelection';
import { SamplingPolicy, SamplingPolicyStore, decide, describePolicy } from './policy';
import { ServerRequestLog, ServerIdentity, clip } from './types';

// ---------------------------------------------------------------------------------------------
// The request on the wire

// Built on first use (z.lazy), when a sampling request arrives: building zod schemas is most of what loading
// the extension runs, and activation needs none of these.
const Text = z.lazy(() => z.looseObject({ type: z.literal('text'), text: z.string() }));
const Image = z.lazy(() => z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() }));
const Audio = z.lazy(() => z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string() }));
const ToolUse = z.lazy(() => z.looseObject({ type: z.literal('tool_use') }));
const ToolResult = z.lazy(() => z.looseObject({ type: z.literal('tool_result') }));
const Block = z.lazy(() => z.discriminatedUnion('type', [Text, Image, Audio, ToolUse, ToolResult]));
const Message = z.lazy(() => z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([Block, z.array(Block)]) }));
const Priority = z.lazy(() => z.optional(z.number().check(z.gte(0), z.lte(1))));

/** CreateMessageRequestParams of MCP 2025-11-25 (older versions are subsets). */
export const CreateMessageParamsSchema = z.lazy(() => z.looseObject({
  messages: z.array(Message),
  maxTokens: z.int(),
  systemPrompt: z.optional(z.string()),
  includeContext: z.optional(z.enum(['none', 'thisServer', 'allServers'])),
  temperature: z.optional(z.number()),
  stopSequences: z.optional(z.array(z.string())),
  metadata: z.optional(z.record(z.string(), z.unknown())),
  modelPreferences: z.optional(
    z.looseObject({
      hints: z.optional(z.array(z.looseObject({ name: z.optional(z.string()) }))),
      costPriority: Priority,
      speedPriority: Priority,
      intelligencePriority: Priority,
    }),
  ),
  tools: z.optional(z.array(z.unknown())),
  toolChoice: z.optional(z.unknown()),
  task: z.optional(z.unknown()),
}));
export type CreateMessageParams = z.infer<typeof CreateMessageParamsSchema>;
type SamplingBlock = z.infer<typeof Block>;

/** Most text characters of one request the host accepts (a flood of text is refused, not shown). */
const MAX_REQUEST_TEXT = 2_000_000;

/**
 * Checks a request against what this host declared (`sampling: {}` — no `tools`, no `context`).
 * Throws WireError(-32602) with a readable message; returns the parsed params.
 */
export function parseCreateMessage(params: unknown): CreateMessageParams {
  const parsed = CreateMessageParamsSchema.safeParse(params ?? {});
  if (!parsed.success) throw new WireError(ErrorCodes.InvalidParams, `Invalid sampling request: ${formatZodIssues(parsed.error, 'params', params)}`);
  const p = parsed.data;
  if (p.tools !== undefined || p.toolChoice !== undefined) {
    throw new WireError(ErrorCodes.InvalidParams, 'Sampling with tools is not supported: this client did not declare sampling.tools');
  }
  if (p.task !== undefined) throw new WireError(ErrorCodes.InvalidParams, 'Task-augmented sampling is not supported: this client did not declare tasks');
  if (p.messages.length === 0) throw new WireError(ErrorCodes.InvalidParams, 'Invalid sampling request: params.messages is empty');
  if (p.maxTokens < 1) throw new WireError(ErrorCodes.InvalidParams, 'Invalid sampling request: params.maxTokens must be at least 1');
  let chars = p.systemPrompt?.length ?? 0;
  for (const m of p.messages) {
    for (const block of blocksOf(m.content)) {
      if (block.type === 'tool_use' || block.type === 'tool_result') {
        throw new WireError(ErrorCodes.InvalidParams, `Sampling messages with ${block.type} content need sampling.tools, which this client did not declare`);
      }
      if (block.type === 'text') chars += block.text.length;
    }
  }
  if (chars > MAX_REQUEST_TEXT) throw new WireError(ErrorCodes.InvalidParams, `The sampling request has ${chars} characters of text; this client accepts at most ${MAX_REQUEST_TEXT}`);
  return p;
}

function blocksOf(content: SamplingBlock | SamplingBlock[]): SamplingBlock[] {
  return Array.isArray(content) ? content : [content];
}

// ---------------------------------------------------------------------------------------------
// The request as the dialog shows it

/** One content block as shown. Text parts carry an id: the edits name them. */
export type SamplingPart =
  | { readonly kind: 'text'; readonly id: string; readonly text: string }
  | { readonly kind: 'image' | 'audio'; readonly mimeType: string; readonly dataUri: string; readonly bytes: number }
  | { readonly kind: 'unshown'; readonly type: string; readonly mimeType?: string; readonly bytes: number; readonly reason: string };

export interface SamplingRequestView {
  /** The JSON-RPC id of the request, for the log and the title. */
  readonly requestId: string;
  readonly messages: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly parts: readonly SamplingPart[] }>;
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly modelPreferences?: ModelPreferencesView;
  /** The request's `metadata`, as JSON text. */
  readonly metadata?: string;
  /** Which model will answer, when known before approval, and why. */
  readonly plannedModel?: { readonly label: string; readonly reason: string };
  /** False when VS Code has no language model: the user can only answer it themselves, or reject it. */
  readonly modelsAvailable?: boolean;
  /** Why no model is offered although VS Code lists some (they failed or answered nothing here). */
  readonly noModelReason?: string;
}

/** The model name the server sees when the user wrote the answer and left the name as it was. */
export const SELF_ANSWER_MODEL = 'human';

function mediaPart(kind: 'image' | 'audio', data: string, rawMime: string): SamplingPart {
  const mimeType = normalizeMimeType(rawMime);
  const bytes = base64Bytes(data);
  if (bytes === undefined) return { kind: 'unshown', type: kind, ...(mimeType ? { mimeType } : {}), bytes: 0, reason: 'the data is not valid base64' };
  const allowed = kind === 'image' ? IMAGE_TYPES : AUDIO_TYPES;
  if (mimeType === undefined || !allowed.has(mimeType)) {
    return { kind: 'unshown', type: kind, mimeType: mimeType ?? rawMime.slice(0, 100), bytes, reason: `${JSON.stringify(rawMime.slice(0, 100))} is not a ${kind} type shown inline` };
  }
  if (bytes > MAX_INLINE_BYTES) return { kind: 'unshown', type: kind, mimeType, bytes, reason: 'too large to show' };
  // Built here, by the host, from an allow-listed type and checked base64: the webview only places it.
  return { kind, mimeType, bytes, dataUri: `data:${mimeType};base64,${data.replace(/\s+/g, '')}` };
}

export function samplingView(requestId: string, p: CreateMessageParams): SamplingRequestView {
  const messages = p.messages.map((m, i) => ({
    role: m.role,
    parts: blocksOf(m.content).map((b, j): SamplingPart => {
      switch (b.type) {
        case 'text':
          return { kind: 'text', id: partId(i, j), text: b.text };
        case 'image':
        case 'audio':
          return mediaPart(b.type, b.data, b.mimeType);
        default:
          return { kind: 'unshown', type: b.type, bytes: 0, reason: 'not supported by this client' };
      }
    }),
  }));
  const prefs = p.modelPreferences;
  const hints = (prefs?.hints ?? []).map((h) => h.name).filter((n): n is string => typeof n === 'string' && n.trim() !== '');
  return {
    requestId,
    messages,
    maxTokens: p.maxTokens,
    ...(p.systemPrompt !== undefined ? { systemPrompt: p.systemPrompt } : {}),
    ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    ...(p.stopSequences !== undefined ? { stopSequences: p.stopSequences } : {}),
    ...(p.includeContext !== undefined ? { includeContext: p.includeContext } : {}),
    ...(prefs
      ? {
          modelPreferences: {
            hints,
            ...(prefs.costPriority !== undefined ? { costPriority: prefs.costPriority } : {}),
            ...(prefs.speedPriority !== undefined ? { speedPriority: prefs.speedPriority } : {}),
            ...(prefs.intelligencePriority !== undefined ? { intelligencePriority: prefs.intelligencePriority } : {}),
          },
        }
      : {}),
    ...(p.metadata !== undefined ? { metadata: JSON.stringify(p.metadata, null, 2) } : {}),
  };
}

export function partId(message: number, part: number): string {
  return `m${message}p${part}`;
}

// ---------------------------------------------------------------------------------------------
// Edits, the run, the result

/** What the user changed before approving. Absent fields stay as the server sent them. */
export interface SamplingEdits {
  /** New text of text parts, by part id. */
  readonly texts?: Readonly<Record<string, string>>;
  /** `''` removes the system prompt. */
  readonly systemPrompt?: string;
  readonly maxTokens?: number;
}

/** One content block as the language model gets it. */
export type RunPart = { readonly type: 'text'; readonly text: string } | { readonly type: 'image' | 'audio'; readonly mimeType: string; readonly data: string };

/** What the language model gets. */
export interface SamplingRun {
  readonly systemPrompt?: string;
  readonly messages: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly parts: readonly RunPart[] }>;
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
}

/** The request with the user's edits applied; also the list of what was edited, for the log. */
export function applyEdits(p: CreateMessageParams, edits: SamplingEdits = {}): { run: SamplingRun; edited: string[] } {
  const edited: string[] = [];
  const messages = p.messages.map((m, i) => ({
    role: m.role,
    parts: blocksOf(m.content).flatMap((b, j): RunPart[] => {
      if (b.type === 'text') {
        const replacement = edits.texts?.[partId(i, j)];
        if (replacement !== undefined && replacement !== b.text) {
          edited.push(`message ${i + 1} text`);
          return [{ type: 'text', text: replacement }];
        }
        return [{ type: 'text', text: b.text }];
      }
      if (b.type === 'image' || b.type === 'audio') return [{ type: b.type, mimeType: normalizeMimeType(b.mimeType) ?? b.mimeType, data: b.data.replace(/\s+/g, '') }];
      return [];
    }),
  }));
  let systemPrompt = p.systemPrompt;
  if (edits.systemPrompt !== undefined && edits.systemPrompt !== (p.systemPrompt ?? '')) {
    edited.push('system prompt');
    systemPrompt = edits.systemPrompt === '' ? undefined : edits.systemPrompt;
  }
  let maxTokens = p.maxTokens;
  if (edits.maxTokens !== undefined && edits.maxTokens !== p.maxTokens) {
    edited.push(`maxTokens ${p.maxTokens} → ${edits.maxTokens}`);
    maxTokens = edits.maxTokens;
  }
  return {
    run: {
      messages,
      maxTokens,
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
      ...(p.stopSequences !== undefined && p.stopSequences.length > 0 ? { stopSequences: p.stopSequences } : {}),
    },
    edited,
  };
}

/** What a model produced. */
export interface ModelAnswer {
  readonly text: string;
  /** "endTurn", "maxTokens", "stopSequence", or a provider's own reason. */
  readonly stopReason?: string;
}

/** CreateMessageResult (2025-11-25): one assistant text block. */
export interface CreateMessageResult {
  readonly role: 'assistant';
  readonly content: { readonly type: 'text'; readonly text: string };
  readonly model: string;
  readonly stopReason?: string;
  readonly [key: string]: unknown;
}

export function createMessageResult(model: ModelInfo, answer: ModelAnswer): CreateMessageResult {
  return {
    role: 'assistant',
    content: { type: 'text', text: answer.text },
    model: model.id,
    ...(answer.stopReason !== undefined ? { stopReason: answer.stopReason } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The people and machines the service talks to

export type SamplingRequestDecision =
  | {
      readonly kind: 'approve';
      readonly edits?: SamplingEdits;
      /** Also stop asking for this server's requests. */
      readonly remember?: 'allowSession' | 'allowAlways';
    }
  | { readonly kind: 'reject'; readonly remember?: 'never' }
  /** The user wrote the answer: no model runs; `model` is the name the server sees (the user's choice). */
  | { readonly kind: 'answer'; readonly text: string; readonly model: string };

export type SamplingResponseDecision = { readonly kind: 'send'; readonly text: string } | { readonly kind: 'reject' };

/** The answer as the dialog shows it for review. */
export interface SamplingAnswerView {
  readonly model: string;
  readonly modelLabel: string;
  readonly text: string;
  readonly stopReason?: string;
}

/** One request's dialog. The service calls `close()` last, whatever happened. */
export interface SamplingDialog {
  /** Resolves with the user's decision on the request. */
  decide(): Promise<SamplingRequestDecision>;
  /** The model is working on it. */
  generating(model: ModelInfo): void;
  /** Resolves once the user sent (maybe edited) or rejected the answer. */
  review(answer: SamplingAnswerView): Promise<SamplingResponseDecision>;
  /** The request failed after approval: say why before the dialog closes. */
  failed(text: string): void;
  /** The model answered nothing: the request is shown again for the person to answer (or reject), saying `reason`; `decide()` gives their choice. */
  offerSelfAnswer?(reason: string): void;
  close(): void;
  /** Aborts when the user closes the dialog: a running model request stops, and the request is rejected. */
  readonly closed?: AbortSignal;
}

export interface SamplingPrompter {
  /** Shows a request to the user. `signal` aborts when the server cancels: the dialog closes. */
  open(server: ServerIdentity, request: SamplingRequestView, signal: AbortSignal): SamplingDialog;
  /** No hint named an available model: the user picks one (undefined when dismissed). */
  pickModel(server: ServerIdentity, models: readonly ModelInfo[], signal: AbortSignal): Promise<ModelInfo | undefined>;
  /** A message outside any dialog (no model available, a request refused by policy). */
  notify(server: ServerIdentity, level: 'info' | 'warning' | 'error', text: string): void;
  /** A request ran without a dialog (allowed by policy): a passing hint that it happened. */
  ranUnattended?(server: ServerIdentity, model: ModelInfo): void;
  /** A request was refused without a dialog (the user's "never" for this server): a passing hint too. */
  refusedUnattended?(server: ServerIdentity): void;
}

/** A model that cannot answer here (no permission, no quota): not offered again this session. */
export class ModelUnusableError extends Error {}

/** The host's language models. */
export interface LanguageModels {
  /** What is available now; empty when none. */
  models(): Promise<readonly ModelInfo[]>;
  /** Runs the request; rejects when the model fails. Must stop when `signal` aborts. */
  generate(model: ModelInfo, run: SamplingRun, signal: AbortSignal): Promise<ModelAnswer>;
}

export interface SamplingServiceOptions {
  readonly queue: DialogQueue;
  readonly policies: SamplingPolicyStore;
  readonly prompter: SamplingPrompter;
  readonly models: LanguageModels;
  readonly log: ServerRequestLog;
}

/**
 * Answers `sampling/createMessage` for every server. `handler(server)` gives the RequestHandler to
 * register on that server's client.
 */
export class SamplingService {
  /** The model each server's requests last ran on after the user picked it, for this session. */
  private readonly picks = new Map<string, string>();
  /** Models that answered nothing or cannot answer here, with why: not offered again until VS Code restarts. */
  private readonly unusable = new Map<string, string>();

  constructor(private readonly options: SamplingServiceOptions) {}

  /** The request handler for one server's client. */
  handler(server: ServerIdentity): (params: Record<string, unknown> | undefined, ctx: RequestContext) => Promise<CreateMessageResult> {
    return (params, ctx) => this.handle(server, params, ctx);
  }

  async handle(server: ServerIdentity, params: unknown, ctx: Pick<RequestContext, 'id' | 'signal'>): Promise<CreateMessageResult> {
    const { log } = this.options;
    const tag = `sampling #${String(ctx.id)}`;
    const say = (level: Parameters<ServerRequestLog>[1], text: string) => log(server.id, level, `${tag}: ${text}`);
    let p: CreateMessageParams;
    try {
      p = parseCreateMessage(params);
    } catch (error) {
      say('warn', `refused: ${(error as Error).message}`);
      throw error;
    }
    this.logRequest(say, p);

    const policy = this.options.policies.get(server.id);
    if (decide(policy) === 'deny') {
      say('info', `rejected by your setting for this server (${describePolicy(policy)}) → error ${ErrorCodes.UserRejected}`);
      this.options.prompter.refusedUnattended?.(server);
      throw new WireError(ErrorCodes.UserRejected, 'User rejected sampling request');
    }
    try {
      return await this.options.queue.run(server.id, ctx.signal, (signal) => this.run(server, p, String(ctx.id), policy, signal, say));
    } catch (error) {
      if (error instanceof QueueFullError) {
        say('warn', `refused: ${error.message} (${QUEUE_LIMIT_NOTE}) → error ${ErrorCodes.TooManyRequests}`);
        this.options.prompter.notify(server, 'warning', `${server.name} sends more sampling or elicitation requests than MCP Host queues (${error.limit}); the extra ones were refused.`);
        throw new WireError(ErrorCodes.TooManyRequests, `Too many requests are waiting for the user: ${error.message}`);
      }
      if (error instanceof QueueCancelledError || ctx.signal.aborted) {
        say('info', describeAbort(ctx.signal));
      }
      throw error;
    }
  }

  private logRequest(say: (level: Parameters<ServerRequestLog>[1], text: string) => void, p: CreateMessageParams): void {
    const hints = (p.modelPreferences?.hints ?? []).map((h) => h.name).filter(Boolean);
    const facts = [
      `${p.messages.length} message${p.messages.length === 1 ? '' : 's'}`,
      `maxTokens ${p.maxTokens}`,
      p.temperature !== undefined ? `temperature ${p.temperature}` : undefined,
      hints.length > 0 ? `model hints ${hints.map((h) => JSON.stringify(h)).join(', ')}` : undefined,
      p.includeContext && p.includeContext !== 'none' ? `includeContext ${p.includeContext} (not supported, ignored)` : undefined,
    ].filter(Boolean);
    say('info', `request: ${facts.join(', ')}`);
    if (p.systemPrompt !== undefined) say('info', `  system: ${clip(p.systemPrompt)}`);
    p.messages.forEach((m) => {
      for (const b of blocksOf(m.content)) say('info', `  ${m.role}: ${b.type === 'text' ? clip(b.text) : `[${b.type}${'mimeType' in b ? ` ${String(b.mimeType)}` : ''}]`}`);
    });
  }

  private async run(
    server: ServerIdentity,
    p: CreateMessageParams,
    requestId: string,
    policy: SamplingPolicy,
    signal: AbortSignal,
    say: (level: Parameters<ServerRequestLog>[1], text: string) => void,
  ): Promise<CreateMessageResult> {
    const { prompter, models: lm, policies } = this.options;
    const listed = await lm.models();
    if (signal.aborted) throw new QueueCancelledError(abortReason(signal));
    const available = listed.filter((m) => !this.unusable.has(m.id));
    const skipped = listed.filter((m) => this.unusable.has(m.id)).map((m) => `${describeModel(m)} ${this.unusable.get(m.id)}`);
    if (skipped.length > 0) say('info', `not offered: ${skipped.join('; ')}`);
    const view = samplingView(requestId, p);
    const choice = chooseModel(view.modelPreferences, available);
    const earlier = available.find((m) => m.id === this.picks.get(server.id));
    let model: ModelInfo | undefined = choice.kind === 'hint' ? choice.model : earlier;
    const planned = choice.kind === 'hint' ? { label: describeModel(choice.model), reason: `matches the server's hint ${JSON.stringify(choice.hint)}` } : earlier ? { label: describeModel(earlier), reason: 'your earlier pick for this server' } : undefined;

    // Without a model only a person can answer: the dialog opens whatever the standing policy.
    const noModel = available.length === 0;
    if (noModel) say('info', 'no language model is available: you can answer it yourself, or reject it');
    const ask = decide(policy) === 'ask' || noModel;
    const noModelReason = noModel && skipped.length > 0 ? `VS Code lists ${skipped.length === 1 ? 'a model' : 'models'} that cannot answer here: ${skipped.join('; ')}.` : undefined;
    const dialog = ask ? prompter.open(server, { ...view, ...(planned ? { plannedModel: planned } : {}), modelsAvailable: !noModel, ...(noModelReason ? { noModelReason } : {}) }, signal) : undefined;
    /** The person's own answer, or their rejection (which throws). */
    const answeredOrRejected = async (decision: SamplingRequestDecision): Promise<CreateMessageResult | undefined> => {
      if (decision.kind === 'answer') {
        const name = decision.model.trim() || SELF_ANSWER_MODEL;
        say('info', `answered by the user as model ${JSON.stringify(name)}, no model ran: ${clip(decision.text)}`);
        return { role: 'assistant', content: { type: 'text', text: decision.text }, model: name, stopReason: 'endTurn' };
      }
      if (decision.kind === 'reject') {
        if (decision.remember === 'never') {
          await policies.set(server.id, server.name, 'never');
          say('info', 'you chose never to allow sampling for this server');
        }
        say('info', `rejected by the user → error ${ErrorCodes.UserRejected}`);
        throw new WireError(ErrorCodes.UserRejected, 'User rejected sampling request');
      }
      return undefined;
    };
    try {
      let edits: SamplingEdits | undefined;
      if (dialog) {
        const decision = await untilCancelled(dialog.decide(), signal);
        const settled = await answeredOrRejected(decision);
        if (settled) return settled;
        if (decision.kind !== 'approve') throw new Error('unreachable');
        edits = decision.edits;
        if (decision.remember) {
          await policies.set(server.id, server.name, decision.remember);
          say('info', `sampling for this server is now ${describePolicy(decision.remember)}`);
        }
      } else {
        say('info', `approved by your setting for this server (${describePolicy(policy)})`);
      }
      if (noModel) {
        say('error', `approved, but no language model is available → error ${ErrorCodes.InternalError}`);
        throw new WireError(ErrorCodes.InternalError, 'No language model is available in the client to answer sampling requests');
      }
      const { run, edited } = applyEdits(p, edits);
      if (dialog) say('info', edited.length > 0 ? `approved by the user, edited: ${edited.join(', ')}` : 'approved by the user');

      if (!model) {
        model = await untilCancelled(prompter.pickModel(server, available, signal), signal);
        if (!model) {
          say('info', `no model picked → error ${ErrorCodes.UserRejected}`);
          throw new WireError(ErrorCodes.UserRejected, 'User rejected sampling request (no model was chosen)');
        }
        this.picks.set(server.id, model.id);
        say('info', `model picked by the user: ${describeModel(model)}`);
      } else {
        say('info', `model: ${describeModel(model)}${planned ? ` (${planned.reason})` : ''}`);
      }

      dialog?.generating(model);
      let answer: ModelAnswer;
      const started = Date.now();
      // The model stops when the server cancels or the user closes the dialog.
      const generation = new AbortController();
      const stopOnServer = () => generation.abort(signal.reason);
      const stopOnClose = () => generation.abort('the user closed the dialog');
      signal.addEventListener('abort', stopOnServer, { once: true });
      dialog?.closed?.addEventListener('abort', stopOnClose, { once: true });
      try {
        if (dialog?.closed?.aborted) stopOnClose();
        answer = await untilCancelled(lm.generate(model, run, generation.signal), generation.signal);
      } catch (error) {
        if (signal.aborted) throw error;
        if (dialog?.closed?.aborted) {
          say('info', `the user closed the dialog while the model was working → error ${ErrorCodes.UserRejected}`);
          throw new WireError(ErrorCodes.UserRejected, 'User rejected sampling request');
        }
        const text = errorMessage(error);
        if (error instanceof ModelUnusableError) this.unusable.set(model.id, `failed earlier in this session (${text})`);
        say('error', `the model failed: ${text} → error ${ErrorCodes.InternalError}`);
        dialog?.failed(`The model failed: ${text}`);
        if (!dialog) prompter.notify(server, 'error', `Sampling for ${server.name} failed: ${text}`);
        throw new WireError(ErrorCodes.InternalError, `The language model failed: ${text}`);
      } finally {
        signal.removeEventListener('abort', stopOnServer);
        dialog?.closed?.removeEventListener('abort', stopOnClose);
      }
      say('info', `answer from ${model.id} in ${Date.now() - started} ms (stopReason ${answer.stopReason ?? 'unknown'}): ${clip(answer.text)}`);
      if (answer.text.trim() === '') {
        // Nothing is not an answer (a model that is not signed in or has no quota can end its turn empty).
        const why = `answered with no text (stopReason ${answer.stopReason ?? 'unknown'})`;
        this.unusable.set(model.id, `${why} earlier in this session`);
        if (!dialog?.offerSelfAnswer) {
          dialog?.failed(`The model ${describeModel(model)} ${why}.`);
          say('error', `${model.id} ${why} → error ${ErrorCodes.InternalError}; it is not offered again until VS Code restarts`);
          if (!dialog) prompter.notify(server, 'error', `Sampling for ${server.name}: the model ${describeModel(model)} ${why}; the server got an error.`);
          throw new WireError(ErrorCodes.InternalError, `The language model ${model.id} returned no text`);
        }
        say('warn', `${model.id} ${why}: the request goes back to you to answer yourself or reject; the model is not offered again until VS Code restarts`);
        dialog.offerSelfAnswer(`The model ${describeModel(model)} ${why}, so there is nothing to send. Answer the request yourself, or reject it.`);
        const settled = await answeredOrRejected(await untilCancelled(dialog.decide(), signal));
        if (settled) return settled;
        throw new WireError(ErrorCodes.InternalError, `The language model ${model.id} returned no text`);
      }

      let finalText = answer.text;
      if (!dialog) {
        prompter.ranUnattended?.(server, model);
      } else {
        const review = await untilCancelled(dialog.review({ model: model.id, modelLabel: describeModel(model), text: answer.text, ...(answer.stopReason !== undefined ? { stopReason: answer.stopReason } : {}) }), signal);
        if (review.kind === 'reject') {
          say('info', `the user rejected the answer → error ${ErrorCodes.UserRejected}`);
          throw new WireError(ErrorCodes.UserRejected, 'User rejected the sampled response');
        }
        finalText = review.text;
        say('info', finalText === answer.text ? 'the user sent the answer' : `the user edited the answer before sending it: ${clip(finalText)}`);
      }
      return createMessageResult(model, { text: finalText, ...(answer.stopReason !== undefined ? { stopReason: answer.stopReason } : {}) });
    } finally {
      dialog?.close();
    }
  }
}
