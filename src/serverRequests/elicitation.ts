// `elicitation/create`: a server asks the user for information, either with a form (a restricted
// JSON Schema of flat, primitive fields) or by sending them to a URL (a sign-in, a payment page).
// The service gates the mode against what the host declared (-32602 otherwise), checks the schema
// is the restricted kind, queues the request in the server's dialog lane, shows it, and answers
// accept (with checked content, schema defaults filling what the user left empty), decline or
// cancel. URL mode opens the URL only after the user agreed, through an injected opener, and
// never fetches it. `notifications/elicitation/complete` and the -32042 error of a tool call that
// needs URLs visited first are handled here too. Pure logic: no `vscode`.
import * as z from '../protocol/zod';
import type { RequestContext } from '../protocol/connection';
import { Emitter, Event } from '../protocol/events';
import { WireError, errorMessage } from '../protocol/errors';
import { ErrorCodes, formatZodIssues } from '../protocol/messages';
import { FieldError, FieldModel, FormState, ObjectField, buildFormModel } from '../forms/model';
import { validate } from '../forms/fieldChecks';
import { initialState, toArguments } from '../forms/state';
import { isRecord } from '../protocol/jsonShape';
import type { Json } from '../schema/json';
import { DialogQueue, QUEUE_LIMIT_NOTE, QueueCancelledError, QueueFullError, abortReason, describeAbort, untilCancelled } from './dialogQueue';
import { ServerRequestLog, ServerIdentity, clip } from './types';
import { UrlAssessment, assessUrl } from '../content/urlSafety';

export type ElicitationMode = 'form' | 'url';

/** A value of accepted form content (ElicitResult.content). */
export type ElicitValue = string | number | boolean | string[];

export type ElicitResult =
  | { readonly action: 'accept'; readonly content?: Record<string, ElicitValue> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

// ---------------------------------------------------------------------------------------------
// Parsing and gating

// Built on first use (z.lazy), when an elicitation request arrives: building zod schemas is most of what loading
// the extension runs, and activation needs none of these.
const FormParams = z.lazy(() => z.looseObject({
  mode: z.optional(z.literal('form')),
  message: z.string(),
  requestedSchema: z.looseObject({ type: z.literal('object'), properties: z.record(z.string(), z.unknown()), required: z.optional(z.array(z.string())) }),
}));
const UrlParams = z.lazy(() => z.looseObject({
  mode: z.literal('url'),
  message: z.string(),
  elicitationId: z.string().check(z.minLength(1)),
  url: z.string(),
}));
export type ElicitFormParams = z.infer<typeof FormParams>;
export type ElicitUrlParams = z.infer<typeof UrlParams>;

export type ParsedElicitation = { readonly mode: 'form'; readonly params: ElicitFormParams; readonly model: ObjectField } | { readonly mode: 'url'; readonly params: ElicitUrlParams };

/**
 * Reads an `elicitation/create` request. A missing mode means form (MCP before 2025-11-25). A mode
 * the host did not declare, a malformed request or a schema outside the restricted subset is a
 * WireError(-32602).
 */
export function parseElicitation(params: unknown, declared: readonly ElicitationMode[]): ParsedElicitation {
  const raw = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const mode = raw.mode === undefined ? 'form' : raw.mode;
  if (mode !== 'form' && mode !== 'url') {
    throw new WireError(ErrorCodes.InvalidParams, `Unsupported elicitation mode ${JSON.stringify(mode)}; this client declared: ${declared.join(', ') || 'none'}`);
  }
  if (!declared.includes(mode)) {
    throw new WireError(ErrorCodes.InvalidParams, `Elicitation mode "${mode}" was not declared by this client (declared: ${declared.join(', ') || 'none'})`);
  }
  if (mode === 'url') {
    if (raw.task !== undefined) throw new WireError(ErrorCodes.InvalidParams, 'Task-augmented elicitation is not supported: this client did not declare tasks');
    const parsed = UrlParams.safeParse(raw);
    if (!parsed.success) throw new WireError(ErrorCodes.InvalidParams, `Invalid elicitation request: ${formatZodIssues(parsed.error, 'params', raw)}`);
    return { mode, params: parsed.data };
  }
  if (raw.task !== undefined) throw new WireError(ErrorCodes.InvalidParams, 'Task-augmented elicitation is not supported: this client did not declare tasks');
  const parsed = FormParams.safeParse(raw);
  if (!parsed.success) throw new WireError(ErrorCodes.InvalidParams, `Invalid elicitation request: ${formatZodIssues(parsed.error, 'params', raw)}`);
  const problems = restrictedSchemaProblems(parsed.data.requestedSchema);
  if (problems.length > 0) throw new WireError(ErrorCodes.InvalidParams, `Invalid elicitation schema: ${problems.slice(0, 3).join('; ')}`);
  const model = buildFormModel(parsed.data.requestedSchema) as ObjectField;
  return { mode, params: parsed.data, model };
}

const PRIMITIVE_KINDS: ReadonlySet<FieldModel['kind']> = new Set(['string', 'number', 'boolean', 'enum', 'multiSelect']);

/**
 * Why a requested schema is not MCP's restricted subset: an object of flat properties, each a
 * string (formats, length limits, enum/oneOf/enumNames), number/integer (ranges), boolean, or an
 * array of string choices (items enum or anyOf const). Empty when it is.
 */
export function restrictedSchemaProblems(schema: unknown): string[] {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties)) return ['requestedSchema must be an object schema with properties'];
  const problems: string[] = [];
  const model = buildFormModel(schema);
  if (model.kind !== 'object') return ['requestedSchema must be an object schema with properties'];
  for (const [name, prop] of Object.entries(schema.properties)) {
    const where = `property ${JSON.stringify(name)}`;
    if (!isRecord(prop)) {
      problems.push(`${where} is not a schema`);
      continue;
    }
    const type = prop.type;
    if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean' && type !== 'array') {
      problems.push(`${where} has type ${JSON.stringify(type)}; only string, number, integer, boolean and arrays of string choices are allowed`);
      continue;
    }
    const field = model.properties.find((p) => p.name === name)?.field;
    if (!field || !PRIMITIVE_KINDS.has(field.kind)) {
      problems.push(`${where} is not a flat field (${type === 'array' ? 'an array must list string choices in items.enum or items.anyOf' : 'nested or combined schemas are not allowed'})`);
      continue;
    }
    if ((field.kind === 'enum' || field.kind === 'multiSelect') && !field.options.every((o) => typeof o.value === 'string')) {
      problems.push(`${where} has choices that are not strings`);
    }
  }
  if (Array.isArray(schema.required)) {
    for (const r of schema.required) if (typeof r !== 'string' || !Object.prototype.hasOwnProperty.call(schema.properties, r)) problems.push(`required names ${JSON.stringify(r)}, which is not a property`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Form content

export type ContentCheck = { readonly ok: true; readonly content: Record<string, ElicitValue> } | { readonly ok: false; readonly errors: readonly FieldError[] };

function isElicitValue(v: unknown): v is ElicitValue {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
}

/**
 * Checks content against the requested schema's model: schema defaults fill the fields left
 * empty, then every value must satisfy its field; keys outside the schema are errors.
 */
export function checkContent(model: ObjectField, content: Readonly<Record<string, unknown>>): ContentCheck {
  const filled: Record<string, unknown> = { ...content };
  for (const p of model.properties) {
    if (filled[p.name] === undefined && p.field.default !== undefined) filled[p.name] = p.field.default;
  }
  const errors: FieldError[] = [...validate(model, filled, { closeRoot: true })];
  for (const [key, value] of Object.entries(filled)) {
    if (value !== undefined && !isElicitValue(value) && !errors.some((e) => e.path === `/${key}`)) errors.push({ path: `/${key}`, keyword: 'type', message: 'must be a string, number, boolean or list of strings' });
  }
  if (errors.length > 0) return { ok: false, errors };
  const out: Record<string, ElicitValue> = {};
  for (const [key, value] of Object.entries(filled)) if (value !== undefined) out[key] = value as ElicitValue;
  return { ok: true, content: out };
}

/** Reads the form state the user filled (text typed, choice indices) and checks it. */
export function checkFormState(model: ObjectField, state: FormState | undefined): ContentCheck {
  const reading = toArguments({ ...model, required: true }, state ?? {});
  const value = (isRecord(reading.value) ? reading.value : {}) as Record<string, Json>;
  const checked = checkContent(model, value);
  if (reading.errors.length === 0) return checked;
  const unreadable = new Set(reading.errors.map((e) => e.path));
  const rest = checked.ok ? [] : checked.errors.filter((e) => !unreadable.has(e.path));
  return { ok: false, errors: [...reading.errors, ...rest] };
}

/** The state a fresh form starts with: schema defaults in place. */
export function initialFormState(model: ObjectField): FormState {
  return initialState({ ...model, required: true }) ?? {};
}

// ---------------------------------------------------------------------------------------------
// Views

export interface ElicitFormView {
  readonly requestId: string;
  readonly message: string;
  readonly model: ObjectField;
  readonly state: FormState;
}

export interface ElicitUrlView {
  readonly requestId: string;
  readonly message: string;
  readonly elicitationId: string;
  readonly url: Extract<UrlAssessment, { kind: 'openable' }>;
  /** Set when the URL comes from a tool call's -32042 error rather than a request. */
  readonly fromToolError?: boolean;
}

export type FormAnswer = { readonly action: 'accept'; readonly content: Record<string, ElicitValue> } | { readonly action: 'decline' } | { readonly action: 'cancel' };
export type UrlAnswer = 'open' | 'decline' | 'cancel';

/** The user side of elicitation. Each dialog closes when `signal` aborts. */
export interface ElicitationPrompter {
  /**
   * Shows a form. Accept resolves only with content `check` passed; `check` also serves the
   * live validation while the user types.
   */
  form(server: ServerIdentity, view: ElicitFormView, check: (state: FormState | undefined) => ContentCheck, signal: AbortSignal): Promise<FormAnswer>;
  /** Asks whether to open a URL. */
  url(server: ServerIdentity, view: ElicitUrlView, signal: AbortSignal): Promise<UrlAnswer>;
  /**
   * After the URLs of a -32042 error were opened: wait for the server's completion (`completed`
   * resolves then) or the user's "retry now"; resolves false when the user gives up.
   */
  awaitCompletion(server: ServerIdentity, views: readonly ElicitUrlView[], completed: Promise<void>, signal: AbortSignal): Promise<boolean>;
  /** A message outside any dialog. */
  notify(server: ServerIdentity, level: 'info' | 'warning' | 'error', text: string): void;
}

/** Opens a URL outside the editor (vscode.env.openExternal); false when it was not opened. */
export type UrlOpener = (href: string) => Promise<boolean>;

// ---------------------------------------------------------------------------------------------
// Completions of URL elicitations

export interface PendingUrl {
  readonly serverId: string;
  readonly elicitationId: string;
  readonly domain: string;
  readonly message: string;
  readonly openedAt: number;
}

/** Most URL elicitations remembered per server while waiting for their completion. */
const MAX_PENDING = 100;

/** URL elicitations the user opened, until `notifications/elicitation/complete` names them. */
export class ElicitationCompletions {
  private readonly pending = new Map<string, Map<string, PendingUrl>>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly _onDidComplete = new Emitter<PendingUrl>();
  /** A known elicitation completed (unknown ids are ignored, as the spec asks). */
  readonly onDidComplete: Event<PendingUrl> = this._onDidComplete.event;

  expect(entry: PendingUrl): void {
    let forServer = this.pending.get(entry.serverId);
    if (!forServer) {
      forServer = new Map();
      this.pending.set(entry.serverId, forServer);
    }
    forServer.set(entry.elicitationId, entry);
    if (forServer.size > MAX_PENDING) forServer.delete(forServer.keys().next().value as string);
  }

  isPending(serverId: string, elicitationId: string): boolean {
    return this.pending.get(serverId)?.has(elicitationId) ?? false;
  }

  /** The server says an elicitation completed; returns it when it was pending. */
  complete(serverId: string, elicitationId: string): PendingUrl | undefined {
    const entry = this.pending.get(serverId)?.get(elicitationId);
    if (!entry) return undefined;
    this.pending.get(serverId)!.delete(elicitationId);
    this._onDidComplete.fire(entry);
    for (const wake of [...(this.waiters.get(key(serverId, elicitationId)) ?? [])]) wake();
    return entry;
  }

  /** Resolves once every id completed (ids not pending count as completed). */
  waitAll(serverId: string, elicitationIds: readonly string[], signal: AbortSignal): Promise<void> {
    const open = elicitationIds.filter((id) => this.isPending(serverId, id));
    if (open.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const left = new Set(open);
      const cleanups: Array<() => void> = [];
      const done = () => {
        for (const c of cleanups) c();
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(new QueueCancelledError(abortReason(signal)));
      };
      for (const id of open) {
        const k = key(serverId, id);
        const wake = () => {
          left.delete(id);
          if (left.size === 0) {
            done();
            resolve();
          }
        };
        let set = this.waiters.get(k);
        if (!set) {
          set = new Set();
          this.waiters.set(k, set);
        }
        set.add(wake);
        cleanups.push(() => {
          const s = this.waiters.get(k);
          s?.delete(wake);
          if (s && s.size === 0) this.waiters.delete(k);
        });
      }
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Forgets one pending URL (it was never opened). */
  forgetOne(serverId: string, elicitationId: string): void {
    this.pending.get(serverId)?.delete(elicitationId);
  }

  /** Forgets a server's pending URLs (it stopped: its ids mean nothing to the next process). */
  forget(serverId: string): void {
    this.pending.delete(serverId);
  }

  dispose(): void {
    this._onDidComplete.dispose();
  }
}

function key(serverId: string, elicitationId: string): string {
  return `${serverId}\u0000${elicitationId}`;
}

// ---------------------------------------------------------------------------------------------
// The -32042 error

/** The URL elicitations a tool call's -32042 error lists; undefined when it is not that error. */
export function urlElicitationsFromError(error: unknown): { elicitations: ElicitUrlParams[]; invalid: number } | undefined {
  if (!isRecord(error) && !(error instanceof Error)) return undefined;
  const e = error as { code?: unknown; data?: unknown };
  if (e.code !== ErrorCodes.UrlElicitationRequired || !isRecord(e.data) || !Array.isArray(e.data.elicitations)) return undefined;
  const elicitations: ElicitUrlParams[] = [];
  let invalid = 0;
  for (const item of e.data.elicitations) {
    const parsed = UrlParams.safeParse(isRecord(item) && item.mode === undefined ? { ...item, mode: 'url' } : item);
    if (parsed.success) elicitations.push(parsed.data);
    else invalid++;
  }
  return { elicitations, invalid };
}

// ---------------------------------------------------------------------------------------------
// The service

export interface ElicitationServiceOptions {
  readonly queue: DialogQueue;
  readonly prompter: ElicitationPrompter;
  readonly openUrl: UrlOpener;
  readonly log: ServerRequestLog;
  /** The modes the host declared in its capabilities. */
  readonly modes: readonly ElicitationMode[];
  readonly completions?: ElicitationCompletions;
  readonly now?: () => number;
}

export class ElicitationService {
  readonly completions: ElicitationCompletions;

  constructor(private readonly options: ElicitationServiceOptions) {
    this.completions = options.completions ?? new ElicitationCompletions();
  }

  /** The capability object to declare: `{ form: {}, url: {} }` for the declared modes. */
  capability(): Record<string, Record<string, never>> {
    const out: Record<string, Record<string, never>> = {};
    for (const m of this.options.modes) out[m] = {};
    return out;
  }

  handler(server: ServerIdentity): (params: Record<string, unknown> | undefined, ctx: RequestContext) => Promise<ElicitResult> {
    return (params, ctx) => this.handle(server, params, ctx);
  }

  /** `notifications/elicitation/complete` from a server. */
  onCompleteNotification(server: ServerIdentity, params: unknown): void {
    const id = isRecord(params) && typeof params.elicitationId === 'string' ? params.elicitationId : undefined;
    if (id === undefined) {
      this.options.log(server.id, 'warn', 'notifications/elicitation/complete without an elicitationId: ignored');
      return;
    }
    const entry = this.completions.complete(server.id, id);
    if (!entry) {
      this.options.log(server.id, 'debug', `elicitation ${id} completed, but it is not one this window is waiting for: ignored`);
      return;
    }
    this.options.log(server.id, 'info', `elicitation ${id} (${entry.domain}) completed`);
    this.options.prompter.notify(server, 'info', `${server.name}: the step at ${entry.domain} is complete.`);
  }

  async handle(server: ServerIdentity, params: unknown, ctx: Pick<RequestContext, 'id' | 'signal'>): Promise<ElicitResult> {
    const tag = `elicitation #${String(ctx.id)}`;
    const say = (level: Parameters<ServerRequestLog>[1], text: string) => this.options.log(server.id, level, `${tag}: ${text}`);
    let parsed: ParsedElicitation;
    try {
      parsed = parseElicitation(params, this.options.modes);
    } catch (error) {
      say('warn', `refused: ${(error as Error).message}`);
      throw error;
    }
    if (parsed.mode === 'form') {
      say('info', `form request: ${clip(parsed.params.message, 500)} (fields: ${parsed.model.properties.map((p) => p.name).join(', ') || 'none'})`);
    } else {
      say('info', `URL request ${parsed.params.elicitationId}: ${clip(parsed.params.message, 500)} → ${clip(parsed.params.url, 500)}`);
    }
    try {
      const result = await this.options.queue.run(server.id, ctx.signal, (signal) => (parsed.mode === 'form' ? this.runForm(server, String(ctx.id), parsed, signal, say) : this.runUrl(server, String(ctx.id), parsed.params, signal, say)));
      return result;
    } catch (error) {
      if (error instanceof QueueFullError) {
        say('warn', `refused: ${error.message} (${QUEUE_LIMIT_NOTE}) → error ${ErrorCodes.TooManyRequests}`);
        this.options.prompter.notify(server, 'warning', `${server.name} sends more sampling or elicitation requests than MCP Host queues (${error.limit}); the extra ones were refused.`);
        throw new WireError(ErrorCodes.TooManyRequests, `Too many requests are waiting for the user: ${error.message}`);
      }
      if (error instanceof QueueCancelledError || ctx.signal.aborted) say('info', describeAbort(ctx.signal));
      throw error;
    }
  }

  private async runForm(server: ServerIdentity, requestId: string, parsed: Extract<ParsedElicitation, { mode: 'form' }>, signal: AbortSignal, say: (level: Parameters<ServerRequestLog>[1], text: string) => void): Promise<ElicitResult> {
    const model = parsed.model;
    const view: ElicitFormView = { requestId, message: parsed.params.message, model, state: initialFormState(model) };
    const answer = await untilCancelled(this.options.prompter.form(server, view, (state) => checkFormState(model, state), signal), signal);
    switch (answer.action) {
      case 'accept': {
        // The dialog checked it; checked again here so nothing unchecked reaches the server.
        const checked = checkContent(model, answer.content);
        if (!checked.ok) {
          say('error', `the form returned content that does not match the schema: ${checked.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
          throw new WireError(ErrorCodes.InternalError, 'The client produced invalid content');
        }
        const defaults = Object.keys(checked.content).filter((k) => answer.content[k] === undefined && checked.content[k] !== undefined);
        say('info', `accepted: ${Object.keys(checked.content).join(', ') || 'no fields'}${defaults.length ? ` (defaults used for ${defaults.join(', ')})` : ''}`);
        return { action: 'accept', content: checked.content };
      }
      case 'decline':
        say('info', 'declined by the user');
        return { action: 'decline' };
      case 'cancel':
        say('info', 'cancelled by the user');
        return { action: 'cancel' };
      default: {
        const never: never = answer;
        throw new Error(`unknown answer ${JSON.stringify(never)}`);
      }
    }
  }

  private urlView(requestId: string, params: ElicitUrlParams, fromToolError: boolean): ElicitUrlView | { blocked: string } {
    const assessment = assessUrl(params.url);
    if (assessment.kind === 'blocked') return { blocked: assessment.reason };
    return { requestId, message: params.message, elicitationId: params.elicitationId, url: assessment, ...(fromToolError ? { fromToolError } : {}) };
  }

  /** Asks, then opens. Returns what to answer. */
  private async consentAndOpen(server: ServerIdentity, view: ElicitUrlView, signal: AbortSignal, say: (level: Parameters<ServerRequestLog>[1], text: string) => void): Promise<'accept' | 'decline' | 'cancel'> {
    if (view.url.warnings.length > 0) say('info', `warnings shown: ${view.url.warnings.map((w) => w.kind).join(', ')}`);
    const answer = await untilCancelled(this.options.prompter.url(server, view, signal), signal);
    if (answer !== 'open') {
      say('info', `${answer === 'decline' ? 'declined' : 'cancelled'} by the user; the URL was not opened`);
      return answer;
    }
    // Expected before it opens: the page may report completion before the opener returns.
    this.completions.expect({ serverId: server.id, elicitationId: view.elicitationId, domain: view.url.domain, message: view.message, openedAt: (this.options.now ?? Date.now)() });
    const opened = await this.options.openUrl(view.url.href).catch((error: unknown) => {
      say('warn', `opening the URL failed: ${errorMessage(error)}`);
      return false;
    });
    if (!opened) {
      this.completions.forgetOne(server.id, view.elicitationId);
      say('info', 'the user agreed, but the URL was not opened (VS Code did not open it)');
      return 'cancel';
    }
    say('info', `the user opened ${view.url.href}`);
    return 'accept';
  }

  private async runUrl(server: ServerIdentity, requestId: string, params: ElicitUrlParams, signal: AbortSignal, say: (level: Parameters<ServerRequestLog>[1], text: string) => void): Promise<ElicitResult> {
    const view = this.urlView(requestId, params, false);
    if ('blocked' in view) {
      say('warn', `refused the URL: ${view.blocked} → error ${ErrorCodes.InvalidParams}`);
      this.options.prompter.notify(server, 'warning', `${server.name} asked you to open a URL that MCP Host does not open: ${view.blocked}.`);
      throw new WireError(ErrorCodes.InvalidParams, `The URL was refused: ${view.blocked}`);
    }
    const action = await this.consentAndOpen(server, view, signal, say);
    return { action };
  }

  /**
   * Opens a link something other than an elicitation asks for (an MCP App's `ui/open-link`) after
   * the same consent dialog: the URL assessed (refused when parsers could read it differently),
   * the domain highlighted, opened only on "Open". `message` says who asks.
   */
  async openLinkWithConsent(server: ServerIdentity, url: string, message: string, signal: AbortSignal): Promise<'opened' | 'declined' | { readonly refused: string }> {
    const assessment = assessUrl(url);
    const say = (level: Parameters<ServerRequestLog>[1], text: string) => this.options.log(server.id, level, `open link: ${text}`);
    if (assessment.kind === 'blocked') {
      say('warn', `refused ${JSON.stringify(url.slice(0, 300))}: ${assessment.reason}`);
      return { refused: assessment.reason };
    }
    return this.options.queue.run(server.id, signal, async (laneSignal) => {
      const answer = await untilCancelled(this.options.prompter.url(server, { requestId: 'open-link', message, elicitationId: '', url: assessment }, laneSignal), laneSignal);
      if (answer !== 'open') {
        say('info', `${answer === 'decline' ? 'declined' : 'cancelled'} by the user; ${assessment.href} was not opened`);
        return 'declined' as const;
      }
      const opened = await this.options.openUrl(assessment.href).catch(() => false);
      say('info', opened ? `the user opened ${assessment.href}` : `the user agreed, but VS Code did not open ${assessment.href}`);
      return opened ? ('opened' as const) : ('declined' as const);
    });
  }

  /**
   * A tool call failed with -32042 "URL elicitation required": offers each listed URL with the
   * same consent UI, then waits for the server to report completion (or the user's "retry now").
   * Resolves true when the caller should retry the tool call, false otherwise (not that error,
   * a URL declined or blocked, the user gave up).
   */
  async handleUrlElicitationRequired(server: ServerIdentity, error: unknown, signal: AbortSignal = new AbortController().signal): Promise<boolean> {
    const found = urlElicitationsFromError(error);
    if (!found) return false;
    const say = (level: Parameters<ServerRequestLog>[1], text: string) => this.options.log(server.id, level, `URL elicitation required (-32042): ${text}`);
    if (!this.options.modes.includes('url')) {
      say('warn', 'this client did not declare URL elicitation; not handled');
      return false;
    }
    if (found.invalid > 0) say('warn', `${found.invalid} malformed elicitation(s) in the error data were skipped`);
    if (found.elicitations.length === 0) {
      say('warn', 'the error lists no usable URL');
      return false;
    }
    say('info', `${found.elicitations.length} URL(s) to visit: ${found.elicitations.map((e) => clip(e.url, 300)).join(', ')}`);
    try {
      return await this.options.queue.run(server.id, signal, async (laneSignal) => {
        const opened: ElicitUrlView[] = [];
        for (const params of found.elicitations) {
          const view = this.urlView('tool-error', params, true);
          if ('blocked' in view) {
            say('warn', `refused the URL ${clip(params.url, 300)}: ${view.blocked}`);
            this.options.prompter.notify(server, 'warning', `${server.name} asked you to open a URL that MCP Host does not open: ${view.blocked}.`);
            return false;
          }
          const action = await this.consentAndOpen(server, view, laneSignal, say);
          if (action !== 'accept') return false;
          opened.push(view);
        }
        const waiting = new AbortController();
        const onAbort = () => waiting.abort(laneSignal.reason);
        laneSignal.addEventListener('abort', onAbort, { once: true });
        const completed = this.completions.waitAll(server.id, opened.map((v) => v.elicitationId), waiting.signal);
        completed.catch(() => {});
        try {
          const retry = await this.options.prompter.awaitCompletion(server, opened, completed, laneSignal);
          say('info', retry ? 'retrying the tool call' : 'the user gave up; the tool call is not retried');
          return retry;
        } finally {
          laneSignal.removeEventListener('abort', onAbort);
          waiting.abort('done');
        }
      });
    } catch (e) {
      if (e instanceof QueueFullError) {
        say('warn', `not shown: ${e.message}`);
        return false;
      }
      if (e instanceof QueueCancelledError) return false;
      throw e;
    }
  }
}

