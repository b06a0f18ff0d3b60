// One codec per protocol era: what a ready session sends, and how, where the two eras' wires
// differ (2025-11-25 and earlier: `initialize`, plain requests, `logging/setLevel`,
// `resources/subscribe`, the `tasks` capability; 2026-07-28: `_meta` on every request, input
// rounds, `subscriptions/listen`, the tasks extension). McpClient says "send this" and its codec
// decides how; no caller asks which era it is in. The handshake that picks the codec is in
// client/negotiation.ts (with the rules in era.ts and eraProbe.ts). This file and the era
// modules beside it are the only places an era is branched on (test/client/eraBranches.test.ts).
import type { JsonRpcConnection, RequestHandler, RequestOptions } from '../../protocol/connection';
import type { Disposable } from '../../protocol/disposable';
import type { McpLocalError } from '../../protocol/errors';
import type * as z from '../../protocol/zod';
import type { ExtensionScope, InputRound, McpClientOptions, ServerRequestHandlers } from '../clientContract';
import type { Implementation, InputRequest, LoggingLevel, ProtocolEra, ServerCapabilities, SessionVersion } from '../schemas';

/** What an era's codec needs of the client whose requests it sends. */
export interface EraSession {
  readonly connection: JsonRpcConnection;
  readonly options: McpClientOptions;
  /** The server's capabilities, as the handshake read them. */
  readonly serverCapabilities: ServerCapabilities;
  readonly serverInfo: Implementation;
  /** The handler for a server request: one attached with onRequest, else one given at construction. */
  handlerFor(method: string): RequestHandler | undefined;
  /** Tells onInputRound listeners of a round of input requests. */
  fireInputRound(round: InputRound): void;
  /** Called once when the connection closes. */
  onClose(listener: () => void): Disposable;
  /** A step of the era's wire worth a line in the transport log (the notification stream's). */
  note(text: string): void;
  /** The error of a request not sent because the server did not declare `capability`. */
  missing(method: string, capability: string): McpLocalError;
}

/** What the server offers of tasks in its era, as callers ask it (the Tasks group, tool calls, listings). */
export interface TaskOffer {
  /** The server runs some tool calls as tasks (the Tasks group shows before its first task). */
  readonly offered: boolean;
  /**
   * Who decides that a tool call runs as a task: the client per tool (`execution.taskSupport`,
   * client/tasks.ts), the server per call (the tasks extension, client/modernTasks.ts), or no one.
   */
  readonly toolCalls: 'per-tool' | 'server-decides' | 'none';
  /** `tasks/list` is answered: the tasks a server holds can be listed (with `tasks/get`). */
  readonly lists: boolean;
  /** `tasks/cancel` is answered for a listed task (one this window did not call). */
  readonly cancelsListed: boolean;
}

export interface EraCodec extends Disposable {
  readonly era: ProtocolEra;
  readonly version: SessionVersion;
  /** The handshake in words, for the server's details ("modern (server/discover, per-request _meta)"). */
  readonly handshake: string;
  /** Errors to `server/discover` are the era probe's, refused as a server of this era does (expected, not faults). */
  readonly probeErrorsExpected: boolean;
  /** Why a call cannot ask to run as a task (`--task`) in this era, or undefined when it can. */
  taskFlagRefusal(): string | undefined;
  /** The capabilities this client declares in this era (in `initialize`, or in every request's `_meta`). */
  clientCapabilities(): Record<string, unknown>;
  /**
   * The one way requests leave a ready client. `inputHandlers` answer the server's input
   * requests first (a relayed call's own client); `scope` declares extensions for this request
   * alone and names the result types they add (returned unparsed).
   */
  send<T>(method: string, params: Record<string, unknown> | undefined, schema: z.ZodMiniType<T> | undefined, options?: RequestOptions, inputHandlers?: ServerRequestHandlers, scope?: ExtensionScope): Promise<T>;
  /** Answers input requests asked for outside a request's own rounds (a task's), through the same handlers. */
  answerInputRequests(method: string, params: Record<string, unknown>, round: number, requests: Record<string, InputRequest>, signal?: AbortSignal): Promise<Record<string, unknown>>;
  /** Rejects a request that declares extensions of its own where the era has no per-request declaration. */
  checkExtensionScope(method: string): void;
  /** One round trip that every server of the era answers. */
  ping(options?: RequestOptions): Promise<void>;
  /** The level of the server's log messages (capability checked by the caller). */
  setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void>;
  /** The level set, when the era carries it on each request. */
  readonly loggingLevel: LoggingLevel | undefined;
  /** How the level reached the server, for the log ("sent logging/setLevel info"). */
  describeLoggingLevel(level: LoggingLevel): string;
  /** Asks for `notifications/resources/updated` of `uri` (capability checked by the caller). */
  subscribe(uri: string, options?: RequestOptions): Promise<void>;
  unsubscribe(uri: string, options?: RequestOptions): Promise<void>;
  /** Tells the server the roots changed, where the era has a notification for it. */
  rootsChanged(): Promise<void>;
  /** Sends a notification where the era lets the client send any (the status of a task the server asked this host to run). */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** True when a failed `tools/call` asks for the tools to be listed again and the call tried once more (-32020). */
  relistsToolsAfter(error: unknown): boolean;
  /** True when list results carry `ttlMs`/`cacheScope`: a stale list is fetched again when shown. */
  readonly listsCarryCacheHints: boolean;
  /** Starts what the session listens on once ready (the modern notification stream). */
  start(): void;
  /** Whether a list change or resource update belongs to what the client listens for now. */
  accepts(params: Record<string, unknown> | undefined): boolean;
  /** The server acknowledged a notification stream. */
  acknowledged(params: Record<string, unknown> | undefined): void;
  /** Asks for `notifications/tasks` of `taskId` until disposed (the tasks extension). */
  listenToTask(taskId: string, scope: ExtensionScope): Disposable;
  /** True once the server acknowledged sending the task's notifications. */
  isTaskListened(taskId: string): boolean;
  /** What the server offers of tasks. */
  taskOffer(): TaskOffer;
  /** The error of a `tasks/list` this era or server does not answer; undefined when it does. */
  taskListRefusal(): McpLocalError | undefined;
  /** A result as a 2025-11-25 client (the gateway's) expects it: the era's own fields removed. */
  asLegacyResult(result: Record<string, unknown>): Record<string, unknown>;
}

/** The capabilities both eras start from: the options', plus roots when the client answers `roots/list`. */
export function answersRoots(options: McpClientOptions): boolean {
  return options.roots !== undefined || options.handlers?.['roots/list'] !== undefined;
}
