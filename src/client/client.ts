import type * as z from '../protocol/zod';
import { ConnectionDiagnostic, Frame, JsonRpcConnection, NotificationHandler, Progress, RequestHandler, RequestOptions } from '../protocol/connection';
import { Disposable, DisposableStore } from '../protocol/disposable';
import { McpLocalError } from '../protocol/errors';
import { Emitter, Event } from '../protocol/events';
import { ToolHeaderDeclaration, validateToolHeaders } from '../protocol/httpHeaders';
import { ConnectionStats } from '../protocol/stats';
import { Transport, TransportCloseInfo, TransportLog } from '../protocol/transport';
import { ClientState, DEFAULT_MAX_PAGES, ExtensionScope, InputRound, McpClientOptions, RootsListed, ServerRequestHandlers } from './clientContract';
import type { EraCodec, EraSession, TaskOffer } from './eras/eraCodec';
import { legacyCapabilities } from './eras/legacyEra';
import { FetchPage, ListOptions, listAll } from './lists';
import { EraNegotiation, NegotiationHost } from './negotiation';
import { routeServerNotifications } from './serverNotifications';
import {
  CallToolResult,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  Implementation,
  InitializeResult,
  InputRequest,
  LATEST_PROTOCOL_VERSION,
  ListItem,
  ListKey,
  LogMessage,
  LoggingLevel,
  Prompt,
  ProtocolEra,
  ReadResourceResult,
  readResourceResultSchema,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  SessionVersion,
  Tool,
  VersionedSchemas,
  schemasFor,
  sessionSchemas,
} from './schemas';

export * from './clientContract';
export { cacheHintOf, shorterHint } from './lists';
export type { ListOptions } from './lists';
export { isRetriedResult } from './eras/inputRounds';
export type { EraCodec, TaskOffer } from './eras/eraCodec';

type Capability = 'tools' | 'resources' | 'prompts' | 'completions' | 'logging';

/**
 * An MCP client over one transport: runs the lifecycle (the handshake of the era it negotiates,
 * negotiation.ts; shutdown), gates requests on declared capabilities, validates every result
 * against the negotiated version's shapes, and sends through its era's codec (client/eras/),
 * which decides how each request goes on the wire.
 */
export class McpClient implements Disposable {
  private connection: JsonRpcConnection | undefined;
  /** The transport given to connect(); only the tool-header hook of listTools asks it anything. */
  private transport: Transport | undefined;
  private _state: ClientState = { kind: 'idle' };
  /** The wire of the session's era, once the handshake found it. */
  private codec: EraCodec | undefined;
  private readonly store = new DisposableStore();
  private lastRoots: RootsListed | undefined;
  private readonly extraHandlers = new Map<string, RequestHandler>();
  private readonly extraNotificationHandlers = new Map<string, NotificationHandler>();
  private builtins: Map<string, RequestHandler> | undefined;
  private readonly _onInputRound = this.store.add(new Emitter<InputRound>());
  /** A modern request waits on (then got) the answers to the server's input requests: a UI can say "waiting for input". */
  readonly onInputRound: Event<InputRound> = this._onInputRound.event;

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
  get protocolVersion(): SessionVersion | undefined {
    return this._state.kind === 'ready' ? this._state.version : undefined;
  }

  /** The era of the session, once ready. */
  get era(): ProtocolEra | undefined {
    return this._state.kind === 'ready' ? this._state.era : undefined;
  }

  /** The raw initialize result, once initialized (legacy era only: a modern session has its discover result instead). */
  get initializeResult(): InitializeResult | undefined {
    return this._state.kind === 'ready' && this._state.discover === undefined ? this._state.result : undefined;
  }

  /** The `server/discover` result as it came, once ready (modern era only). */
  get discoverResult(): DiscoverResult | undefined {
    return this._state.kind === 'ready' ? this._state.discover : undefined;
  }

  get serverInfo(): Implementation | undefined {
    return this._state.kind === 'ready' ? this._state.result.serverInfo : undefined;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this._state.kind === 'ready' ? this._state.result.capabilities : undefined;
  }

  get instructions(): string | undefined {
    return this._state.kind === 'ready' ? this._state.result.instructions : undefined;
  }

  /** The last `roots/list` answer, if the server has asked. */
  get rootsListed(): RootsListed | undefined {
    return this.lastRoots;
  }

  /** The wire of the session's era, once ready: what callers ask instead of branching on the era. */
  get eraCodec(): EraCodec | undefined {
    return this._state.kind === 'ready' ? this.codec : undefined;
  }

  /** What the server offers of tasks in its era (nothing before the session is ready). */
  taskOffer(): TaskOffer {
    return this.eraCodec?.taskOffer() ?? { offered: false, toolCalls: 'none', lists: false, cancelsListed: false };
  }

  /** The capabilities this client declares (in `initialize`, or in every modern request's `_meta`). */
  get clientCapabilities(): Record<string, unknown> {
    return this.codec?.clientCapabilities() ?? legacyCapabilities(this.options);
  }

  /**
   * Starts the transport and runs the handshake of the era the options and the server lead to
   * (negotiation.ts): `initialize` and `notifications/initialized` (legacy), or `server/discover`
   * (modern). Resolves with the initialize result, or for a modern server the same facts from
   * its discover result. Rejects (and closes) when no version both sides speak is found.
   */
  async connect(transport: Transport, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<InitializeResult> {
    if (this._state.kind !== 'idle') throw new McpLocalError('usage', 'connect() can only be called once per client');
    const connection = new JsonRpcConnection(transport, { defaultTimeoutMs: this.options.requestTimeoutMs, uncancellableMethods: ['initialize', 'server/discover'] });
    this.connection = connection;
    this.transport = transport;
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
    try {
      return await new EraNegotiation(this.negotiationHost(connection), transport, connection, options).run();
    } catch (error) {
      await this.fail(error as Error);
      throw error;
    }
  }

  /** What the handshake and the era codecs are given of this client. */
  private negotiationHost(connection: JsonRpcConnection): NegotiationHost {
    return {
      options: this.options,
      // A decision of the handshake (which era and why): worth the user's log, unlike the transport's steps.
      lifecycle: (text) => this._onTransportLog.fire({ kind: 'lifecycle', text, level: 'info' }),
      eraSession: (result): EraSession => ({
        connection,
        options: this.options,
        serverCapabilities: result.capabilities,
        serverInfo: result.serverInfo,
        handlerFor: (method) => this.handlerFor(method),
        fireInputRound: (round) => this._onInputRound.fire(round),
        onClose: (listener) => this.onClose(() => listener()),
        note: (text) => this._onTransportLog.fire({ kind: 'lifecycle', text }),
        missing: (method, capability) => this.missing(method, capability),
      }),
      ready: (codec, result, discover) => {
        this.codec = codec;
        this.store.add(codec);
        this.setState({ kind: 'ready', era: codec.era, version: codec.version, result, ...(discover ? { discover } : {}) });
        codec.start();
      },
    };
  }

  // ---- lists (lists.ts) ----

  /**
   * On Streamable HTTP in the modern era, a tool whose `x-mcp-header` declarations break the
   * spec's rules is left out like a malformed one (reported through `onSkipped` with the reason,
   * which the host logs), and the transport gets the declarations of the others.
   */
  async listTools(options?: ListOptions): Promise<Tool[]> {
    const transport = this.transport;
    if (!transport?.mirrorsToolHeaders || !transport.setToolHeaders) return this.listAll('tools/list', 'tools', 'tools', options);
    const declarations = new Map<string, readonly ToolHeaderDeclaration[]>();
    const tools = await this.listAll('tools/list', 'tools', 'tools', options, (tool) => {
      const check = validateToolHeaders(tool);
      if (!check.ok) return `invalid x-mcp-header: ${check.reason}`;
      if (check.declarations.length > 0) declarations.set(tool.name, check.declarations);
      return undefined;
    });
    transport.setToolHeaders(declarations);
    return tools;
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

  async callTool(name: string, args: Record<string, unknown> = {}, options?: RequestOptions): Promise<CallToolResult> {
    const call = () => this.gated('tools/call', 'tools', { name, arguments: args }, this.schemas().callToolResult, { ...options, mayAskUser: true });
    try {
      return await call();
    } catch (error) {
      // Modern -32020: the headers sent from the tool's declarations disagree with the server,
      // whose declarations may have changed since the list: list the tools again and try once more.
      if (!this.codec?.relistsToolsAfter(error)) throw error;
      this._onTransportLog.fire({ kind: 'lifecycle', text: `tools/call ${name}: ${(error as Error).message}; listing the tools again and retrying once` });
      await this.listTools({ signal: options?.signal });
      return call();
    }
  }

  /**
   * A request of a method this class has no own wrapper for, in either era, sent as it is and its
   * result checked against `schema`: the tasks requests (client/tasks.ts) and the Skills
   * extension's (skills/catalog.ts), whose modules gate them on the server's declaration.
   */
  methodRequest<T>(method: string, params: Record<string, unknown>, schema: z.ZodMiniType<T>, options?: RequestOptions): Promise<T> {
    try {
      this.requireReady(method);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.send(method, params, schema, options);
  }

  /**
   * A modern request that declares the extensions of `scope` in its own capabilities; the result
   * comes back unparsed (its caller knows the extension's shapes). client/modernTasks.ts sends the
   * tasks extension's requests so.
   */
  extensionRequest(method: string, params: Record<string, unknown>, scope: ExtensionScope, options?: RequestOptions): Promise<Record<string, unknown>> {
    try {
      this.requireReady(method);
      this.codec!.checkExtensionScope(method);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.send(method, params, undefined, options, undefined, scope);
  }

  /**
   * Answers input requests a modern server asked for outside a request's own rounds (the input
   * requests of a task, client/modernTasks.ts): through the same handlers, firing onInputRound
   * for `method` and its `params` target as a request's rounds do.
   */
  answerInputRequests(method: string, params: Record<string, unknown>, round: number, requests: Record<string, InputRequest>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    try {
      this.requireReady(method);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.codec!.answerInputRequests(method, params, round, requests, signal);
  }

  /**
   * Modern era: asks the subscriptions/listen stream for `notifications/tasks` of `taskId` (the
   * tasks extension) until disposed. The stream is opened anew with the id, and again without it.
   */
  listenToTask(taskId: string, scope: ExtensionScope): Disposable {
    return this.eraCodec?.listenToTask(taskId, scope) ?? Disposable.None;
  }

  /** True once the server acknowledged sending `notifications/tasks` of `taskId` on the current stream. */
  isTaskListened(taskId: string): boolean {
    return this.codec?.isTaskListened(taskId) ?? false;
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.gated('resources/read', 'resources', { uri }, readResourceResultSchema(), { ...options, mayAskUser: true });
  }

  /**
   * Asks for `notifications/resources/updated` of `uri`: `resources/subscribe` on a legacy server;
   * on a modern one the URI joins the `subscriptions/listen` stream (opened anew with it).
   */
  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    this.requireReady('resources/subscribe');
    if (!this.serverCapabilities?.resources?.subscribe) throw this.missing('resources/subscribe', 'resources.subscribe');
    await this.codec!.subscribe(uri, options);
  }

  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    this.requireReady('resources/unsubscribe');
    if (!this.serverCapabilities?.resources?.subscribe) throw this.missing('resources/unsubscribe', 'resources.subscribe');
    await this.codec!.unsubscribe(uri, options);
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
    return this.gated('completion/complete', 'completions', params, sessionSchemas().completeResult as z.ZodMiniType<CompleteResult>, options);
  }

  /**
   * The level of `notifications/message` the server sends: `logging/setLevel` for a legacy server;
   * for a modern one the level goes in the `_meta` of every request from now on.
   */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    this.requireReady('logging/setLevel');
    if (!this.serverCapabilities?.logging) throw this.missing('logging/setLevel', 'logging');
    await this.codec!.setLoggingLevel(level, options);
  }

  /** Pauses the timeouts of every request until disposed (the user is signing in); nothing to pause before connect(). */
  pauseTimeouts(): Disposable {
    return this.connection?.pauseTimeouts() ?? Disposable.None;
  }

  /** The level set for a modern server's log messages (sent in each request's `_meta`), if any. */
  get loggingLevel(): LoggingLevel | undefined {
    return this.codec?.loggingLevel;
  }

  /**
   * Pings the server; resolves with the round-trip time in ms. Allowed before initialization. A
   * modern server has no `ping`: the round trip is a `server/discover`, which every one answers.
   */
  async ping(options?: RequestOptions): Promise<number> {
    if (!this.connection || this._state.kind === 'closed' || this._state.kind === 'idle') throw new McpLocalError('not-initialized', 'ping: the client is not connected');
    const started = performance.now();
    const codec = this.eraCodec;
    if (codec) await codec.ping(options);
    else await this.connection.request('ping', undefined, sessionSchemas().emptyResult, options);
    return performance.now() - started;
  }

  /** Tells a legacy server the roots changed (`notifications/roots/list_changed`); a modern one asks for roots when it needs them. */
  async rootsChanged(): Promise<void> {
    await this.eraCodec?.rootsChanged();
  }

  /** Sends a notification to a legacy server (the status of a task it asked this host to run). */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await this.eraCodec?.notify(method, params);
  }

  /**
   * Sends any request, validated by `schema`. For methods without a helper; still refused
   * before initialization. Modern requests get their `_meta` and input rounds like every other.
   */
  request<T>(method: string, params: Record<string, unknown> | undefined, schema: z.ZodMiniType<T>, options?: RequestOptions): Promise<T> {
    this.requireReady(method);
    return this.send(method, params, schema, options);
  }

  /**
   * Sends a request as another client wrote it (the gateway relays this way): the result is not
   * checked here (the asking client checks it). The server's requests it causes go to
   * `options.peerRequestHandlers` first, then to this client's own handlers: a modern server's input
   * requests, and a legacy server's own requests (sampling, elicitation, roots) that belong to it.
   */
  relay(method: string, params: Record<string, unknown> | undefined, options?: RequestOptions): Promise<Record<string, unknown>> {
    this.requireReady(method);
    return this.send(method, params, undefined, { ...options, mayAskUser: true }, options?.peerRequestHandlers?.handlers);
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

  /** The handlers given at construction, with `roots/list` from the roots provider and `ping`. */
  private builtinHandlers(): Map<string, RequestHandler> {
    if (this.builtins) return this.builtins;
    const handlers = new Map<string, RequestHandler>(Object.entries(this.options.handlers ?? {}));
    const roots = this.options.roots;
    if (roots) {
      handlers.set('roots/list', async () => {
        const list = await roots.listRoots();
        const answer = list.map((r) => (r.name === undefined ? { uri: r.uri } : { uri: r.uri, name: r.name }));
        this.lastRoots = { roots: answer, time: Date.now() };
        this._onRootsListed.fire(this.lastRoots);
        return { roots: answer };
      });
    }
    handlers.set('ping', () => ({}));
    this.builtins = handlers;
    return handlers;
  }

  private registerHandlers(connection: JsonRpcConnection): void {
    for (const [method, handler] of this.builtinHandlers()) this.store.add(connection.onRequest(method, handler));
    for (const [method, handler] of this.extraHandlers) this.store.add(connection.onRequest(method, handler));
    for (const [method, handler] of this.extraNotificationHandlers) this.store.add(connection.onNotification(method, handler));
    const sinks = {
      toolsListChanged: () => this._onToolsListChanged.fire(),
      resourcesListChanged: () => this._onResourcesListChanged.fire(),
      promptsListChanged: () => this._onPromptsListChanged.fire(),
      resourceUpdated: (uri: string) => this._onResourceUpdated.fire(uri),
      logMessage: (message: LogMessage) => this._onLogMessage.fire(message),
      diagnostic: (d: ConnectionDiagnostic) => this._onDiagnostic.fire(d),
    };
    for (const registration of routeServerNotifications(connection, () => this.codec, sinks)) this.store.add(registration);
  }

  private schemas(): VersionedSchemas {
    return schemasFor(this.protocolVersion ?? LATEST_PROTOCOL_VERSION);
  }

  private setState(state: ClientState): void {
    if (state.kind === 'closed') this.codec?.dispose();
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

  /** The error for a request not sent because the server did not declare `capability` (client/tasks.ts uses it too). */
  missing(method: string, capability: string): McpLocalError {
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
    return this.send(method, params, schema, options);
  }

  /** The one way requests leave a ready client: through its era's codec (a ready client has one). */
  private send<T>(method: string, params: Record<string, unknown> | undefined, schema: z.ZodMiniType<T> | undefined, options?: RequestOptions, inputHandlers?: ServerRequestHandlers, scope?: ExtensionScope): Promise<T> {
    return this.codec!.send(method, params, schema, options, inputHandlers, scope);
  }

  /** The handler for a server request: one attached with onRequest, else the one given at construction. */
  private handlerFor(method: string): RequestHandler | undefined {
    return this.extraHandlers.get(method) ?? this.builtinHandlers().get(method);
  }

  /** How many pages a list follows before it stops (the same bound for every list). */
  get maxPages(): number {
    return this.options.maxPages ?? DEFAULT_MAX_PAGES;
  }

  private listAll<K extends ListKey>(method: string, capability: Capability, key: K, options?: ListOptions, problemOf?: (item: ListItem[K]) => string | undefined): Promise<ListItem[K][]> {
    const fetchPage: FetchPage = (params, schema, request) => this.gated(method, capability, params, schema, request);
    return listAll(fetchPage, method, key, this.maxPages, options, problemOf);
  }
}

export type { Progress, RequestOptions, Frame };
