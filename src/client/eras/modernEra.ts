// The codec of protocol 2026-07-28 (the modern era): every request carries `_meta` (version,
// capabilities, client, log level) and may come back asking for input (inputRounds.ts); list
// changes, resource updates and task status come on a `subscriptions/listen` stream
// (client/listen.ts); there is no `ping`, `logging/setLevel`, `resources/subscribe` or roots
// notification; tasks are the `io.modelcontextprotocol/tasks` extension (client/modernTasks.ts).
import type { RequestOptions } from '../../protocol/connection';
import { Disposable } from '../../protocol/disposable';
import { McpLocalError, ResponseError } from '../../protocol/errors';
import { ErrorCodes } from '../../protocol/messages';
import type * as z from '../../protocol/zod';
import type { ExtensionScope, McpClientOptions, ServerRequestHandlers } from '../clientContract';
import { SubscriptionListener } from '../listen';
import { Implementation, InputRequest, LoggingLevel, META, ModernProtocolVersion, SessionVersion, sessionSchemas } from '../schemas';
import { EraCodec, EraSession, TaskOffer, answersRoots } from './eraCodec';
import { answerInput, requestWithInputRounds } from './inputRounds';

/** The tasks extension's identifier, in capabilities on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What a modern client declares in each request: roots without list changes (a server asks again), no `tasks` capability. */
export function modernCapabilities(options: McpClientOptions): Record<string, unknown> {
  const caps: Record<string, unknown> = { ...options.capabilities };
  if (answersRoots(options)) caps.roots = {};
  delete caps.tasks;
  return caps;
}

/** The `_meta` every modern request carries: version, capabilities, client, and the log level when one was set. */
export function modernRequestMeta(options: McpClientOptions, version: SessionVersion, logLevel?: LoggingLevel, extra?: unknown, extensions?: Readonly<Record<string, object>>): Record<string, unknown> {
  const meta: Record<string, unknown> = typeof extra === 'object' && extra !== null ? { ...(extra as Record<string, unknown>) } : {};
  meta[META.protocolVersion] = version;
  const caps = modernCapabilities(options);
  // Extensions declared for this request alone (ExtensionScope) join the client's own.
  if (extensions) caps.extensions = { ...(caps.extensions as Record<string, object> | undefined), ...extensions };
  meta[META.clientCapabilities] = caps;
  meta[META.clientInfo] = options.clientInfo as Implementation;
  if (logLevel !== undefined) meta[META.logLevel] = logLevel;
  return meta;
}

export class ModernEra implements EraCodec {
  readonly era = 'modern' as const;
  readonly handshake = 'modern (server/discover, per-request _meta)';
  readonly listsCarryCacheHints = true;
  readonly probeErrorsExpected = false;
  private logLevel: LoggingLevel | undefined;
  private subscriptionListener: SubscriptionListener | undefined;

  constructor(
    private readonly session: EraSession,
    readonly version: ModernProtocolVersion,
  ) {}

  get loggingLevel(): LoggingLevel | undefined {
    return this.logLevel;
  }

  taskFlagRefusal(): string {
    return `--task does not apply to a 2026-07-28 server: ${this.taskOffer().offered ? 'with the tasks extension the server decides which calls run as tasks' : `it does not offer the tasks extension (${TASKS_EXTENSION})`}`;
  }

  clientCapabilities(): Record<string, unknown> {
    return modernCapabilities(this.session.options);
  }

  send<T>(method: string, params: Record<string, unknown> | undefined, schema: z.ZodMiniType<T> | undefined, options?: RequestOptions, inputHandlers?: ServerRequestHandlers, scope?: ExtensionScope): Promise<T> {
    const metaFor = (extra: unknown, extensions?: Readonly<Record<string, object>>) => modernRequestMeta(this.session.options, this.version, this.logLevel, extra, extensions);
    return requestWithInputRounds(this.session, metaFor, method, params ?? {}, schema, options, inputHandlers, scope);
  }

  answerInputRequests(method: string, params: Record<string, unknown>, round: number, requests: Record<string, InputRequest>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return answerInput(this.session, method, params, round, requests, signal);
  }

  checkExtensionScope(): void {}

  /** A modern server has no `ping`: the round trip is a `server/discover`, which every one answers. */
  async ping(options?: RequestOptions): Promise<void> {
    await this.send('server/discover', {}, sessionSchemas().discoverResult, options);
  }

  /** No logging/setLevel: the level goes in the `_meta` of every request from now on. */
  setLoggingLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    return Promise.resolve();
  }

  describeLoggingLevel(level: LoggingLevel): string {
    return `log level ${level} goes in each request's _meta`;
  }

  /** The URI joins the `subscriptions/listen` stream (opened anew with it). */
  subscribe(uri: string, options?: RequestOptions): Promise<void> {
    return this.listener().subscribe(uri, options);
  }

  unsubscribe(uri: string, options?: RequestOptions): Promise<void> {
    return this.listener().unsubscribe(uri, options);
  }

  /** A modern server asks for roots when it needs them: there is nothing to tell. */
  async rootsChanged(): Promise<void> {}

  /** The client sends a modern server no notifications of its own. */
  async notify(): Promise<void> {}

  /** -32020: the headers sent from the tool's declarations disagree with the server, whose declarations may have changed since the list. */
  relistsToolsAfter(error: unknown): boolean {
    return error instanceof ResponseError && error.code === ErrorCodes.HeaderMismatch;
  }

  /** List changes come on a subscriptions/listen stream, opened now when the server offers any. */
  start(): void {
    this.listener().start();
  }

  /** Only the current stream's notifications count. */
  accepts(params: Record<string, unknown> | undefined): boolean {
    return this.subscriptionListener?.accepts(params) ?? true;
  }

  acknowledged(params: Record<string, unknown> | undefined): void {
    this.subscriptionListener?.acknowledged(params);
  }

  /** The stream is opened anew with the task's id, and again without it once disposed. */
  listenToTask(taskId: string, scope: ExtensionScope): Disposable {
    const listener = this.listener();
    listener.watchTask(taskId, scope);
    return Disposable.from(() => listener.unwatchTask(taskId));
  }

  isTaskListened(taskId: string): boolean {
    return this.subscriptionListener?.isTaskAcknowledged(taskId) ?? false;
  }

  taskOffer(): TaskOffer {
    const extensions = (this.session.serverCapabilities as Record<string, unknown>).extensions;
    const offered = typeof extensions === 'object' && extensions !== null && (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
    return { offered, toolCalls: offered ? 'server-decides' : 'none', lists: false, cancelsListed: false };
  }

  /** SEP-2663 dropped tasks/list: a server cannot tell whose tasks are whose without sessions. */
  taskListRefusal(): McpLocalError {
    return new McpLocalError('capability', `tasks/list: ${this.session.serverInfo.name} speaks protocol 2026-07-28, whose tasks extension (${TASKS_EXTENSION}) has no tasks/list: a client follows only the tasks it started`, { capability: 'tasks.list' });
  }

  /** Without `resultType`, `ttlMs` and `cacheScope` (unknown to the legacy schemas). */
  asLegacyResult(result: Record<string, unknown>): Record<string, unknown> {
    if (!('resultType' in result) && !('ttlMs' in result) && !('cacheScope' in result)) return result;
    const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
    return rest;
  }

  dispose(): void {
    this.subscriptionListener?.dispose();
  }

  /** The notification stream, created on first use. */
  private listener(): SubscriptionListener {
    if (!this.subscriptionListener) {
      const caps = this.session.serverCapabilities;
      const lists = { toolsListChanged: caps.tools?.listChanged === true, resourcesListChanged: caps.resources?.listChanged === true, promptsListChanged: caps.prompts?.listChanged === true };
      this.subscriptionListener = new SubscriptionListener(
        lists,
        (params, options, scope) => this.send('subscriptions/listen', params, sessionSchemas().emptyResult, options, undefined, scope),
        (text) => this.session.note(text),
      );
    }
    return this.subscriptionListener;
  }
}
