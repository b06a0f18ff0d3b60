import type * as z from '../protocol/zod';
import { ConnectionDiagnostic, Frame, JsonRpcConnection, NotificationHandler, Progress, RequestHandler, RequestOptions } from '../protocol/connection';
import { Disposable, DisposableStore } from '../protocol/disposable';
import { McpLocalError } from '../protocol/errors';
import { Emitter, Event } from '../protocol/events';
import { formatZodIssues } from '../protocol/messages';
import { ConnectionStats } from '../protocol/stats';
import { Transport, TransportCloseInfo, TransportLog } from '../protocol/transport';
import {
  CallToolResult,
  CompleteResult,
  CompleteResultSchema,
  EmptyResultSchema,
  GetPromptResult,
  Implementation,
  InitializeResult,
  InitializeResultSchema,
  LATEST_PROTOCOL_VERSION,
  LogMessage,
  LogMessageParamsSchema,
  LoggingLevel,
  Prompt,
  ProtocolVersion,
  ReadResourceResult,
  ReadResourceResultSchema,
  Resource,
  ResourceTemplate,
  ResourceUpdatedParamsSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  ServerCapabilities,
  Tool,
  VersionedSchemas,
  LIST_ITEM_SCHEMAS,
  ListItem,
  ListKey,
  MAX_LIST_ITEM_DEPTH,
  SkippedListItem,
  isSupportedVersion,
  listPageSchema,
  schemasFor,
} from './schemas';
import { measureJson } from '../protocol/jsonShape';

/** A root the client exposes to servers. */
export interface Root {
  readonly uri: string;
  readonly name?: string;
}

/** Supplies the current roots whenever a server asks for them. */
export interface RootsProvider {
  listRoots(): readonly Root[] | Promise<readonly Root[]>;
}

export interface McpClientOptions {
  readonly clientInfo: Implementation;
  /** The version offered in `initialize`; the newest supported one by default. */
  readonly protocolVersion?: ProtocolVersion;
  /** Default timeout for every request, in ms (60 s). */
  readonly requestTimeoutMs?: number;
  /** Answers `roots/list`; when set, the client declares `roots: { listChanged: true }`. */
  readonly roots?: RootsProvider;
  /** Further client capabilities to declare (sampling, elicitation, ...). */
  readonly capabilities?: Record<string, unknown>;
  /** How many pages a list may have before the client stops following `nextCursor`. */
  readonly maxPages?: number;
}

/** Where a client is in the MCP lifecycle. */
export type ClientState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'initializing' }
  | { readonly kind: 'ready'; readonly version: ProtocolVersion; readonly result: InitializeResult }
  | { readonly kind: 'closed'; readonly error?: Error; readonly info?: TransportCloseInfo };

/** What a `roots/list` request from the server was answered with, and when. */
export interface RootsListed {
  readonly roots: readonly Root[];
  readonly time: number;
}

type Capability = 'tools' | 'resources' | 'prompts' | 'completions' | 'logging';

/**
 * An MCP client over one transport: runs the lifecycle (initialize, version negotiation,
 * initialized, shutdown), gates requests on declared capabilities, and validates every
 * result against the negotiated version's shapes.
 */
export class McpClient implements Disposable {
  private connection: JsonRpcConnection | undefined;
  private _state: ClientState = { kind: 'idle' };
  private readonly store = new DisposableStore();
  private lastRoots: RootsListed | undefined;
  private readonly extraHandlers = new Map<string, RequestHandler>();
  private readonly extraNotificationHandlers = new Map<string, NotificationHandler>();

  private readonly _onDidChangeState = this.store.add(new Emitter<ClientState>());
  readonly onDidChangeState: Event<ClientState> = this._onDidChangeState.event;
  private readonly _onToolsListChanged = this.store.add(new Emitter<void>());
  readonly onToolsListChanged: Event<void> = this._onToolsListChanged.event;
  private readonly _onResourcesListChanged = this.store.add(new Emitter<void>());
  readonly onResourcesListChanged: Event<void> = this._onResourcesListChanged.event;
  private readonly _onPromptsListChanged = this.store.add(new Emitter<void>());
  readonly onPromptsListChanged: Event<void> = this._onPromptsListChanged.event;
  private readonly _onResourceUpdated = this.store.add(new Emitter<string>());
  /** A subscribed resource changed; the event carries its URI. */
  readonly onResourceUpdated: Event<string> = this._onResourceUpdated.event;
  private readonly _onLogMessage = this.store.add(new Emitter<LogMessage>());
  /** `notifications/message` from the server. */
  readonly onLogMessage: Event<LogMessage> = this._onLogMessage.event;
  private readonly _onRootsListed = this.store.add(new Emitter<RootsListed>());
  /** The server asked for roots and got this answer. */
  readonly onRootsListed: Event<RootsListed> = this._onRootsListed.event;
  /** The connection's frames, forwarded only while `onFrame` has listeners (see forwardFrames). */
  private frameForwarding: Disposable | undefined;
  private readonly _onFrame = this.store.add(
    new Emitter<Frame>(undefined, {
      onFirstListener: () => this.forwardFrames(),
      onLastListener: () => {
        this.frameForwarding?.dispose();
        this.frameForwarding = undefined;
      },
    }),
  );
  /**
   * Every JSON-RPC frame in both directions. The client subscribes to the connection's frames
   * only while this has listeners, so with no trace or log listening no frame is built.
   */
  readonly onFrame: Event<Frame> = this._onFrame.event;
  private readonly _onDiagnostic = this.store.add(new Emitter<ConnectionDiagnostic>());
  /** Stray or late responses, invalid messages: dropped, never fatal. */
  readonly onDiagnostic: Event<ConnectionDiagnostic> = this._onDiagnostic.event;
  private readonly _onTransportLog = this.store.add(new Emitter<TransportLog>());
  /** stderr lines and stdout noise from the transport. */
  readonly onTransportLog: Event<TransportLog> = this._onTransportLog.event;
  private readonly _onClose = this.store.add(new Emitter<TransportCloseInfo>());
  readonly onClose: Event<TransportCloseInfo> = this._onClose.event;

  constructor(readonly options: McpClientOptions) {}

  get state(): ClientState {
    return this._state;
  }

  /** The negotiated protocol version, once initialized. */
  get protocolVersion(): ProtocolVersion | undefined {
    return this._state.kind === 'ready' ? this._state.version : undefined;
  }

  /** The raw initialize result, once initialized. */
  get initializeResult(): InitializeResult | undefined {
    return this._state.kind === 'ready' ? this._state.result : undefined;
  }

  get serverInfo(): Implementation | undefined {
    return this.initializeResult?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.initializeResult?.capabilities;
  }

  get instructions(): string | undefined {
    return this.initializeResult?.instructions;
  }

  /** The last `roots/list` answer, if the server has asked. */
  get rootsListed(): RootsListed | undefined {
    return this.lastRoots;
  }

  /** The capabilities this client declares in `initialize`. */
  get clientCapabilities(): Record<string, unknown> {
    const caps: Record<string, unknown> = { ...this.options.capabilities };
    if (this.options.roots) caps.roots = { listChanged: true };
    return caps;
  }

  /**
   * Starts the transport and runs the handshake. Resolves with the initialize result once
   * `notifications/initialized` was sent. Rejects (and closes) when the server answers a
   * version this client does not support.
   */
  async connect(transport: Transport, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<InitializeResult> {
    if (this._state.kind !== 'idle') throw new McpLocalError('usage', 'connect() can only be called once per client');
    const connection = new JsonRpcConnection(transport, { defaultTimeoutMs: this.options.requestTimeoutMs, uncancellableMethods: ['initialize'] });
    this.connection = connection;
    this.store.add(connection);
    if (this._onFrame.hasListeners) this.forwardFrames();
    this.store.add(connection.onDiagnostic((d) => this._onDiagnostic.fire(d)));
    this.store.add(connection.onTransportLog((l) => this._onTransportLog.fire(l)));
    this.store.add(
      connection.onClose((info) => {
        if (this._state.kind !== 'closed') this.setState({ kind: 'closed', info });
        this._onClose.fire(info);
      }),
    );
    this.registerHandlers(connection);
    this.setState({ kind: 'initializing' });

    try {
      await transport.start();
    } catch (error) {
      this.setState({ kind: 'closed', error: error as Error });
      throw error;
    }

    const offered = this.options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
    let result: InitializeResult;
    try {
      result = await connection.request(
        'initialize',
        { protocolVersion: offered, capabilities: this.clientCapabilities, clientInfo: this.options.clientInfo },
        InitializeResultSchema,
        { timeoutMs: options.timeoutMs, signal: options.signal },
      );
    } catch (error) {
      await this.fail(error as Error);
      throw error;
    }

    if (!isSupportedVersion(result.protocolVersion)) {
      const error = new McpLocalError(
        'version',
        `the server answered protocol version ${JSON.stringify(result.protocolVersion)}, which this client does not support (it offered ${offered}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
        { offered, answered: result.protocolVersion },
      );
      await this.fail(error);
      throw error;
    }

    // Before `initialized`: HTTP sends the version with every message after the handshake.
    transport.setProtocolVersion?.(result.protocolVersion);
    this.setState({ kind: 'ready', version: result.protocolVersion, result });
    await connection.notify('notifications/initialized');
    return result;
  }

  // ---- lists ----
  // Each item is checked on its own: a malformed one is skipped and reported through
  // `onSkipped`, so one sloppy tool never hides the others.

  listTools(options?: ListOptions): Promise<Tool[]> {
    return this.listAll('tools/list', 'tools', 'tools', options);
  }

  listResources(options?: ListOptions): Promise<Resource[]> {
    return this.listAll('resources/list', 'resources', 'resources', options);
  }

  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
    return this.listAll('resources/templates/list', 'resources', 'resourceTemplates', options);
  }

  listPrompts(options?: ListOptions): Promise<Prompt[]> {
    return this.listAll('prompts/list', 'prompts', 'prompts', options);
  }

  // ---- operations ----

  callTool(name: string, args: Record<string, unknown> = {}, options?: RequestOptions): Promise<CallToolResult> {
    return this.gated('tools/call', 'tools', { name, arguments: args }, this.schemas().callToolResult, { ...options, mayAskUser: true });
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.gated('resources/read', 'resources', { uri }, ReadResourceResultSchema as z.ZodMiniType<ReadResourceResult>, { ...options, mayAskUser: true });
  }

  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    this.requireReady('resources/subscribe');
    if (!this.serverCapabilities?.resources?.subscribe) throw this.missing('resources/subscribe', 'resources.subscribe');
    await this.connection!.request('resources/subscribe', { uri }, EmptyResultSchema, options);
  }

  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    this.requireReady('resources/unsubscribe');
    if (!this.serverCapabilities?.resources?.subscribe) throw this.missing('resources/unsubscribe', 'resources.subscribe');
    await this.connection!.request('resources/unsubscribe', { uri }, EmptyResultSchema, options);
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: RequestOptions): Promise<GetPromptResult> {
    return this.gated('prompts/get', 'prompts', { name, arguments: args }, this.schemas().getPromptResult, { ...options, mayAskUser: true });
  }

  /** `completion/complete` for a prompt argument or a resource template variable. */
  complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options?: RequestOptions,
  ): Promise<CompleteResult> {
    const params: Record<string, unknown> = { ref, argument };
    if (context) params.context = context;
    return this.gated('completion/complete', 'completions', params, CompleteResultSchema as z.ZodMiniType<CompleteResult>, options);
  }

  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    await this.gated('logging/setLevel', 'logging', { level }, EmptyResultSchema, options);
  }

  /** Pings the server; resolves with the round-trip time in ms. Allowed before initialization. */
  async ping(options?: RequestOptions): Promise<number> {
    if (!this.connection || this._state.kind === 'closed' || this._state.kind === 'idle') throw new McpLocalError('not-initialized', 'ping: the client is not connected');
    const started = performance.now();
    await this.connection.request('ping', undefined, EmptyResultSchema, options);
    return performance.now() - started;
  }

  /** Tells the server the roots changed (`notifications/roots/list_changed`), once initialized. */
  async rootsChanged(): Promise<void> {
    if (!this.options.roots || this._state.kind !== 'ready') return;
    await this.connection!.notify('notifications/roots/list_changed');
  }

  /**
   * Sends any request, validated by `schema`. For methods without a helper; still refused
   * before initialization.
   */
  request<T>(method: string, params: Record<string, unknown> | undefined, schema: z.ZodMiniType<T>, options?: RequestOptions): Promise<T> {
    this.requireReady(method);
    return this.connection!.request(method, params, schema, options);
  }

  /**
   * Answers requests the server sends for `method` (sampling, elicitation, ...). May be called
   * before `connect()`, so a handler is in place before the server can send its first request.
   */
  onRequest(method: string, handler: RequestHandler): Disposable {
    this.extraHandlers.set(method, handler);
    const registered = this.connection?.onRequest(method, handler);
    return Disposable.from(() => {
      if (this.extraHandlers.get(method) === handler) this.extraHandlers.delete(method);
      registered?.dispose();
    });
  }

  /**
   * Handles notifications the server sends for `method` that this client has no event for
   * (for example `notifications/elicitation/complete`). May be called before `connect()`.
   */
  onNotification(method: string, handler: NotificationHandler): Disposable {
    this.extraNotificationHandlers.set(method, handler);
    const registered = this.connection?.onNotification(method, handler);
    return Disposable.from(() => {
      if (this.extraNotificationHandlers.get(method) === handler) this.extraNotificationHandlers.delete(method);
      registered?.dispose();
    });
  }

  stats(): ConnectionStats | undefined {
    return this.connection?.stats();
  }

  /** Shuts down: pending requests are cancelled on the wire, then the transport closes. */
  async close(): Promise<void> {
    const connection = this.connection;
    if (!connection) {
      this.setState({ kind: 'closed' });
      return;
    }
    await connection.close();
    if (this._state.kind !== 'closed') this.setState({ kind: 'closed', info: connection.closeInfo });
  }

  /** Subscribes to the connection's frames (once there is a connection and while someone listens). */
  private forwardFrames(): void {
    if (!this.connection || this.frameForwarding) return;
    this.frameForwarding = this.connection.onFrame((f) => this._onFrame.fire(f));
  }

  dispose(): void {
    void this.close().catch(() => {});
    this.store.dispose();
  }

  // ---- internals ----

  private registerHandlers(connection: JsonRpcConnection): void {
    const roots = this.options.roots;
    if (roots) {
      this.store.add(
        connection.onRequest('roots/list', async () => {
          const list = await roots.listRoots();
          const answer = list.map((r) => (r.name === undefined ? { uri: r.uri } : { uri: r.uri, name: r.name }));
          this.lastRoots = { roots: answer, time: Date.now() };
          this._onRootsListed.fire(this.lastRoots);
          return { roots: answer };
        }),
      );
    }
    this.store.add(connection.onRequest('ping', () => ({})));
    for (const [method, handler] of this.extraHandlers) this.store.add(connection.onRequest(method, handler));
    for (const [method, handler] of this.extraNotificationHandlers) this.store.add(connection.onNotification(method, handler));
    this.store.add(connection.onNotification('notifications/tools/list_changed', () => this._onToolsListChanged.fire()));
    this.store.add(connection.onNotification('notifications/resources/list_changed', () => this._onResourcesListChanged.fire()));
    this.store.add(connection.onNotification('notifications/prompts/list_changed', () => this._onPromptsListChanged.fire()));
    this.store.add(
      connection.onNotification('notifications/resources/updated', (params) => {
        const parsed = ResourceUpdatedParamsSchema.safeParse(params);
        if (parsed.success) this._onResourceUpdated.fire(parsed.data.uri);
        else this._onDiagnostic.fire({ kind: 'invalid-message', text: `notifications/resources/updated: ${formatZodIssues(parsed.error, 'params', params)}` });
      }),
    );
    this.store.add(
      connection.onNotification('notifications/message', (params) => {
        const parsed = LogMessageParamsSchema.safeParse(params);
        if (parsed.success) this._onLogMessage.fire(parsed.data);
        else this._onDiagnostic.fire({ kind: 'invalid-message', text: `notifications/message: ${formatZodIssues(parsed.error, 'params', params)}` });
      }),
    );
  }

  private schemas(): VersionedSchemas {
    return schemasFor(this.protocolVersion ?? LATEST_PROTOCOL_VERSION);
  }

  private setState(state: ClientState): void {
    this._state = state;
    this._onDidChangeState.fire(state);
  }

  private async fail(error: Error): Promise<void> {
    this.setState({ kind: 'closed', error });
    await this.connection?.close('the handshake failed').catch(() => {});
  }

  private requireReady(method: string): void {
    switch (this._state.kind) {
      case 'ready':
        return;
      case 'idle':
      case 'initializing':
        throw new McpLocalError('not-initialized', `${method}: the client is not initialized yet (only ping may be sent before the initialize result)`);
      case 'closed':
        throw new McpLocalError('closed', `${method}: the client is closed`);
      default: {
        const never: never = this._state;
        throw new Error(`unknown state ${JSON.stringify(never)}`);
      }
    }
  }

  private missing(method: string, capability: string): McpLocalError {
    const server = this.serverInfo?.name ?? 'the server';
    return new McpLocalError('capability', `${method}: ${server} did not declare the ${capability} capability, so the request was not sent`, { capability });
  }

  private gated<T>(method: string, capability: Capability, params: Record<string, unknown>, schema: z.ZodMiniType<T>, options?: RequestOptions): Promise<T> {
    try {
      this.requireReady(method);
      if (!this.serverCapabilities?.[capability]) throw this.missing(method, capability);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.connection!.request(method, params, schema, options);
  }

  private async listAll<K extends ListKey>(method: string, capability: Capability, key: K, options: ListOptions = {}): Promise<ListItem[K][]> {
    const { onSkipped, ...request } = options;
    const itemSchema = LIST_ITEM_SCHEMAS[key] as unknown as z.ZodMiniType<ListItem[K]>;
    const maxPages = this.options.maxPages ?? 1000;
    const items: ListItem[K][] = [];
    const skipped: SkippedListItem[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= maxPages) {
        throw new McpLocalError('invalid-result', `${method}: stopped after ${maxPages} pages; the server keeps returning nextCursor`, { items: items.length });
      }
      const result = await this.gated(method, capability, cursor === undefined ? {} : { cursor }, listPageSchema(key), request);
      for (const raw of result[key]) {
        const index = items.length + skipped.length;
        const checked = checkListItem(itemSchema, raw, `${key}[${index}]`);
        if ('problem' in checked) skipped.push({ index, ...nameOf(raw), problem: checked.problem });
        else items.push(checked.item);
      }
      cursor = result.nextCursor;
      if (cursor === undefined) {
        if (skipped.length > 0) onSkipped?.(skipped);
        return items;
      }
      if (seen.has(cursor)) {
        throw new McpLocalError('invalid-result', `${method}: the server returned nextCursor ${JSON.stringify(cursor)} twice; stopped to avoid a loop`, { items: items.length });
      }
      seen.add(cursor);
    }
  }
}

/** Options of the list requests. */
export interface ListOptions extends RequestOptions {
  /** Called once per list with the items left out as malformed (only when there are any). */
  onSkipped?: (skipped: readonly SkippedListItem[]) => void;
}

function checkListItem<T>(schema: z.ZodMiniType<T>, raw: unknown, path: string): { item: T } | { problem: string } {
  if (measureJson(raw, { maxDepth: MAX_LIST_ITEM_DEPTH }).exceeded) return { problem: `${path} is nested more than ${MAX_LIST_ITEM_DEPTH} levels deep` };
  const parsed = schema.safeParse(raw);
  return parsed.success ? { item: parsed.data } : { problem: formatZodIssues(parsed.error, path, raw) };
}

function nameOf(raw: unknown): { name?: string } {
  if (typeof raw !== 'object' || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const name = typeof r.name === 'string' ? r.name : typeof r.uri === 'string' ? r.uri : typeof r.uriTemplate === 'string' ? r.uriTemplate : undefined;
  return name === undefined ? {} : { name: name.length > 100 ? `${name.slice(0, 100)}…` : name };
}

export type { Progress, RequestOptions, Frame };
