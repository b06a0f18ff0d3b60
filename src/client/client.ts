import type * as z from '../protocol/zod';
import { ConnectionDiagnostic, Frame, JsonRpcConnection, NotificationHandler, Progress, RequestContext, RequestHandler, RequestOptions } from '../protocol/connection';
import { Disposable, DisposableStore } from '../protocol/disposable';
import { McpLocalError, ResponseError } from '../protocol/errors';
import { Emitter, Event } from '../protocol/events';
import { ToolHeaderDeclaration, validateToolHeaders } from '../protocol/httpHeaders';
import { ErrorCodes, formatZodIssues } from '../protocol/messages';
import { ConnectionStats } from '../protocol/stats';
import { Transport, TransportCloseInfo, TransportCloseReason, TransportLog } from '../protocol/transport';
import {
  CallToolResult,
  CompleteResult,
  CompleteResultSchema,
  DiscoverResult,
  DiscoverResultSchema,
  CacheHint,
  EmptyResultSchema,
  ImplementationSchema,
  MODERN_PROTOCOL_VERSIONS,
  InputRequest,
  InputRequiredResultSchema,
  META,
  ModernProtocolVersion,
  ProtocolEra,
  SessionVersion,
  GetPromptResult,
  Implementation,
  InitializeResult,
  InitializeResultSchema,
  LATEST_PROTOCOL_VERSION,
  LogMessage,
  LogMessageParamsSchema,
  isPlainLogMessage,
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
import { EraMemory, EraPlan, ProtocolPreference, RememberedEra, judgeProbeFailure, planEra } from './era';
import { DEFAULT_CONNECT_TIMEOUT_MS, EXITED_ON_PROBE, FAILED_AT_START, discoveredVersion, exitRefusedProbe, waitForProbe } from './eraProbe';
import { SubscriptionListener } from './listen';
import type { ExtensionScope } from './extensionScope';

/** A root the client exposes to servers. */
export interface Root {
  readonly uri: string;
  readonly name?: string;
}

/** Supplies the current roots whenever a server asks for them. */
export interface RootsProvider {
  listRoots(): readonly Root[] | Promise<readonly Root[]>;
}

/**
 * Answers for the requests a server makes of the client (`sampling/createMessage`,
 * `elicitation/create`, `roots/list`, ...), by method. The same handler answers a legacy server's
 * request and a modern server's input request (multi round-trip), so both eras share one policy.
 */
export type ServerRequestHandlers = Readonly<Record<string, RequestHandler>>;

/** A modern request is waiting while the client answers the server's input requests. */
export interface InputRound {
  /** The request being answered (`tools/call`, `prompts/get`, ...). */
  readonly method: string;
  /** Its `name` or `uri`, when it has one. */
  readonly target?: string;
  /** 1 for the first round of input. */
  readonly round: number;
  /** The methods of the input requests, by the server's key. */
  readonly requests: Readonly<Record<string, string>>;
  /** True while the answers are being made; false once they are (the retry follows). */
  readonly waiting: boolean;
  /**
   * The task whose input requests these are (2026-07-28 tasks extension), set by the caller that
   * follows it: the answers go back with tasks/update and the request is not sent again.
   */
  readonly taskId?: string;
}

export type { ExtensionScope } from './extensionScope';

export interface McpClientOptions {
  readonly clientInfo: Implementation;
  /** The version offered in `initialize`. Setting it pins the legacy era at that version unless `protocol` says otherwise. */
  readonly protocolVersion?: ProtocolVersion;
  /** Which era and version to speak: `auto` (the default) finds out per server; see ProtocolPreference. */
  readonly protocol?: ProtocolPreference;
  /** Where the era each server spoke is remembered, and this server's key there (`http:<origin>`, `stdio:<id>`). */
  readonly eraMemory?: { readonly memory: EraMemory; readonly key: string };
  /**
   * How long a stdio server may stay quiet after its last sign of life (spawn, a line of output)
   * while the `server/discover` probe waits, before it is taken for legacy (3 s).
   */
  readonly probeTimeoutMs?: number;
  /** Answers for the server's requests of the client; they serve both eras. */
  readonly handlers?: ServerRequestHandlers;
  /** How many rounds of input one modern request may ask for before it fails (8). */
  readonly maxInputRounds?: number;
  /** Default timeout for every request, in ms (60 s). */
  readonly requestTimeoutMs?: number;
  /** Answers `roots/list`; when set, the client declares `roots: { listChanged: true }`. */
  readonly roots?: RootsProvider;
  /** Further client capabilities to declare (sampling, elicitation, ...). */
  readonly capabilities?: Record<string, unknown>;
  /** How many pages a list may have before the client stops following `nextCursor` (DEFAULT_MAX_PAGES). */
  readonly maxPages?: number;
}

/** How many pages any list (tools, resources, prompts, tasks) follows by default. */
export const DEFAULT_MAX_PAGES = 1000;

/** Where a client is in the MCP lifecycle. */
export type ClientState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'initializing' }
  /**
   * `result` is the initialize result, or for a modern server the same facts read from its
   * `server/discover` result (which `discover` holds as it came).
   */
  | { readonly kind: 'ready'; readonly era: ProtocolEra; readonly version: SessionVersion; readonly result: InitializeResult; readonly discover?: DiscoverResult }
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
  /** The transport given to connect(); only the tool-header hook of listTools asks it anything. */
  private transport: Transport | undefined;
  private _state: ClientState = { kind: 'idle' };
  private readonly store = new DisposableStore();
  private lastRoots: RootsListed | undefined;
  private readonly extraHandlers = new Map<string, RequestHandler>();
  private readonly extraNotificationHandlers = new Map<string, NotificationHandler>();
  private builtins: Map<string, RequestHandler> | undefined;
  /** Modern era: the level sent in each request's `_meta` once setLoggingLevel chose one. */
  private logLevel: LoggingLevel | undefined;
  private subscriptionListener: SubscriptionListener | undefined;
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

  /** The raw initialize result, once initialized (legacy era only). */
  get initializeResult(): InitializeResult | undefined {
    return this._state.kind === 'ready' && this._state.era === 'legacy' ? this._state.result : undefined;
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

  /** The capabilities this client declares (in `initialize`, or in every modern request's `_meta`). */
  get clientCapabilities(): Record<string, unknown> {
    return this.capabilitiesFor(this.era ?? 'legacy');
  }

  private capabilitiesFor(era: ProtocolEra): Record<string, unknown> {
    const caps: Record<string, unknown> = { ...this.options.capabilities };
    // Modern servers learn of root changes by asking again: there is no list_changed to promise.
    if (this.options.roots || this.options.handlers?.['roots/list']) caps.roots = era === 'modern' ? {} : { listChanged: true };
    // 2025-11-25 tasks are of the legacy era: this client calls tools as tasks (client/tasks.ts), and
    // declares more when its options say so (the host as receiver: serverRequests/taskReceiver.ts).
    if (era === 'modern') delete caps.tasks;
    else if (caps.tasks === undefined) caps.tasks = {};
    return caps;
  }

  /**
   * Starts the transport and runs the handshake of the era the options and the server lead to:
   * `initialize` and `notifications/initialized` (legacy), or `server/discover` (modern). Resolves
   * with the initialize result, or for a modern server the same facts from its discover result.
   * Rejects (and closes) when no version both sides speak is found.
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

    const memory = this.options.eraMemory;
    const preference = this.options.protocol ?? this.options.protocolVersion ?? 'auto';
    const remembered = preference === 'auto' ? memory?.memory.get(memory.key) : undefined;
    const plan = planEra(preference, remembered);
    if (remembered) this.lifecycle(`era: ${remembered.era} (${remembered.version}), as this server spoke before${remembered.era === 'legacy' ? ': initialize without a server/discover probe' : ''}`);
    try {
      const result = plan.era === 'modern' ? await this.discover(transport, connection, plan, options) : undefined;
      const offered = plan.era === 'legacy' ? (plan.version as ProtocolVersion) : (this.options.protocolVersion ?? LATEST_PROTOCOL_VERSION);
      const ready = result ?? (await this.initializeOrDiscover(transport, connection, offered, plan, preference === 'auto', options));
      // A probe answered late says what the next start should speak, though this one went legacy.
      memory?.memory.remember(memory.key, this.lateModernEra ?? { era: this.era!, version: ready.protocolVersion });
      return ready;
    } catch (error) {
      // A remembered era that did not work is forgotten: the next start finds out again.
      if (remembered && memory?.memory.get(memory.key) === remembered) memory.memory.forget(memory.key);
      await this.fail(error as Error);
      throw error;
    }
  }

  /**
   * The modern start: `server/discover` at the planned version, once more at a version the
   * server names in a -32022 answer. Resolves undefined when the plan allows falling back and
   * the server shows no sign of the modern era (judgeProbeFailure).
   */
  private async discover(transport: Transport, connection: JsonRpcConnection, plan: EraPlan, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<InitializeResult | undefined> {
    const over = transport.stats().http ? 'http' : 'stdio';
    let version = plan.version as ModernProtocolVersion;
    for (let attempt = 0; ; attempt++) {
      // HTTP sends the version as a header from the first request on.
      transport.setProtocolVersion?.(version);
      let raw: Record<string, unknown>;
      try {
        const request = connection.request('server/discover', { _meta: this.requestMeta(version) }, undefined, { timeoutMs: options.timeoutMs, signal: options.signal });
        if (!(plan.fallback && over === 'stdio') || plan.remembered) raw = await request;
        else {
          // A server may ignore unknown requests: its silence, counted from its last output, means legacy.
          const quietMs = this.options.probeTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
          const signsOfLife = (listener: (e: unknown) => void) => connection.onTransportLog((l) => l.kind !== 'lifecycle' && listener(l));
          const waited = await waitForProbe(request, quietMs, signsOfLife);
          if (waited.kind === 'silent') {
            this.lifecycle(`server/discover: no answer ${quietMs} ms after the server's last output; using initialize (the legacy era)`);
            this.rememberLateDiscover(waited.late);
            return undefined;
          }
          raw = waited.value;
        }
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (!connection.isOpen) {
          if (over === 'stdio' && McpLocalError.is(error, 'server-exited')) throw this.exitedBeforeAnswering(error, plan);
          throw error;
        }
        const verdict = judgeProbeFailure(error, over);
        if (verdict.kind === 'retry' && attempt === 0) {
          version = verdict.version;
          continue;
        }
        if (verdict.kind === 'legacy' && plan.fallback) {
          this.lifecycle(`${(error as Error).message}; using initialize (the legacy era)`);
          return undefined;
        }
        if (verdict.kind === 'fail') throw verdict.error;
        throw pinnedError(version, error as Error);
      }
      const parsed = DiscoverResultSchema.safeParse(raw);
      if (!parsed.success) {
        // Something answered that is not a discover result: not a modern server.
        if (plan.fallback) return undefined;
        throw new McpLocalError('invalid-result', `server/discover: ${formatZodIssues(parsed.error, 'result', raw)}`, { result: raw });
      }
      const discover = parsed.data;
      const chosen = discover.supportedVersions.includes(version) ? version : MODERN_PROTOCOL_VERSIONS.find((v) => discover.supportedVersions.includes(v));
      if (!chosen) {
        if (plan.fallback) return undefined;
        throw new McpLocalError('version', `server/discover: the server supports ${discover.supportedVersions.join(', ') || 'no version'}, none of which this client speaks in the modern era (${MODERN_PROTOCOL_VERSIONS.join(', ')})`, { supported: discover.supportedVersions });
      }
      transport.setProtocolVersion?.(chosen);
      const serverInfo = ImplementationSchema.safeParse(discover._meta?.[META.serverInfo]);
      const result: InitializeResult = {
        protocolVersion: chosen,
        capabilities: discover.capabilities,
        serverInfo: serverInfo.success ? serverInfo.data : { name: 'unnamed server', version: '' },
        ...(discover.instructions === undefined ? {} : { instructions: discover.instructions }),
      };
      this.setState({ kind: 'ready', era: 'modern', version: chosen, result, discover });
      // List changes come on a subscriptions/listen stream, opened now when the server offers any.
      this.listener().start();
      return result;
    }
  }

  /**
   * A stdio server that exited before answering anything. Some servers exit on any request before
   * initialize: one that said so on stderr refused the probe, is of the legacy era, and its next
   * start (the memory tells it) goes straight to initialize. Any other exit is a start failure
   * (a missing variable, a crash): the probe played no part, and nothing is remembered.
   */
  private exitedBeforeAnswering(error: McpLocalError, plan: EraPlan): McpLocalError {
    const stderr = [...new Set([...((error.details.stderrExcerpt as readonly string[] | undefined) ?? []), ...((error.details.stderrTail as readonly string[] | undefined) ?? [])])];
    if (exitRefusedProbe(stderr)) {
      if (!plan.fallback) return error;
      const memory = this.options.eraMemory;
      memory?.memory.remember(memory.key, { era: 'legacy', version: this.options.protocolVersion ?? LATEST_PROTOCOL_VERSION });
      const next = memory ? 'the next start uses initialize' : 'a start with initialize may work';
      return new McpLocalError(error.kind, `${error.message} (it stopped while asked server/discover, as servers that allow nothing before initialize do: ${next})`, { ...error.details, [EXITED_ON_PROBE]: true });
    }
    const reason = error.details.reason as TransportCloseReason | undefined;
    const how = reason ? TransportCloseReason.describe(reason) : 'exited';
    const said = (error.details.stderrExcerpt as readonly string[] | undefined)?.length ? `; stderr: ${(error.details.stderrExcerpt as readonly string[]).join(' | ')}` : '';
    this.lifecycle(`the server ${how} before answering anything: it failed to start (its stderr does not speak of server/discover)`);
    return new McpLocalError(error.kind, `the server ${how} at start, before answering anything${said}`, { ...error.details, [FAILED_AT_START]: true });
  }

  /**
   * `initialize`; in `auto`, a -32022 answer naming a modern version this client speaks (a
   * modern-only server taken for legacy: it started too slowly for the probe, or the remembered
   * era is out of date) leads to `server/discover` at that version, on the same connection.
   */
  private async initializeOrDiscover(transport: Transport, connection: JsonRpcConnection, offered: ProtocolVersion, plan: EraPlan, auto: boolean, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<InitializeResult> {
    try {
      return await this.initialize(transport, connection, offered, plan.era === 'modern', options);
    } catch (error) {
      const verdict = auto && error instanceof ResponseError ? judgeProbeFailure(error, 'stdio') : undefined;
      if (verdict?.kind !== 'retry') throw error;
      this.lifecycle(`initialize: the server speaks only the modern era (${error instanceof Error ? error.message : ''}); using server/discover at ${verdict.version}`);
      const ready = await this.discover(transport, connection, { era: 'modern', version: verdict.version, fallback: false }, options);
      return ready!;
    }
  }

  /** The era a probe answered late showed (see rememberLateDiscover). */
  private lateModernEra: RememberedEra | undefined;

  /** A probe answered after the fallback to initialize: a modern server, remembered so its next start speaks its era. */
  private rememberLateDiscover(late: Promise<Record<string, unknown>>): void {
    late.then(
      (raw) => {
        const version = discoveredVersion(raw);
        const memory = this.options.eraMemory;
        if (!version || !memory) return;
        this.lateModernEra = { era: 'modern', version };
        memory.memory.remember(memory.key, this.lateModernEra);
        this.lifecycle(`server/discover was answered late: the server speaks ${version} (the modern era); its next start uses it`);
      },
      () => {},
    );
  }

  /** A decision of the handshake (which era and why): worth the user's log, unlike the transport's steps. */
  private lifecycle(text: string): void {
    this._onTransportLog.fire({ kind: 'lifecycle', text, level: 'info' });
  }

  /** The legacy start: `initialize`, then `notifications/initialized`. */
  private async initialize(transport: Transport, connection: JsonRpcConnection, offered: ProtocolVersion, probed: boolean, options: { timeoutMs?: number; signal?: AbortSignal }): Promise<InitializeResult> {
    // The probe told the transport a modern version; the handshake is of the legacy era.
    if (probed) transport.setProtocolVersion?.(offered);
    const result = await connection.request(
      'initialize',
      { protocolVersion: offered, capabilities: this.clientCapabilities, clientInfo: this.options.clientInfo },
      InitializeResultSchema,
      { timeoutMs: options.timeoutMs, signal: options.signal },
    );
    if (!isSupportedVersion(result.protocolVersion)) {
      throw new McpLocalError(
        'version',
        `the server answered protocol version ${JSON.stringify(result.protocolVersion)}, which this client does not support (it offered ${offered}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
        { offered, answered: result.protocolVersion },
      );
    }
    // Before `initialized`: HTTP sends the version with every message after the handshake.
    transport.setProtocolVersion?.(result.protocolVersion);
    this.setState({ kind: 'ready', era: 'legacy', version: result.protocolVersion, result });
    await connection.notify('notifications/initialized');
    return result;
  }

  /** The `_meta` every modern request carries: version, capabilities, client, and the log level when one was set. */
  private requestMeta(version: SessionVersion, extra?: unknown, extensions?: Readonly<Record<string, object>>): Record<string, unknown> {
    const meta: Record<string, unknown> = typeof extra === 'object' && extra !== null ? { ...(extra as Record<string, unknown>) } : {};
    meta[META.protocolVersion] = version;
    const caps = this.capabilitiesFor('modern');
    // Extensions declared for this request alone (ExtensionScope) join the client's own.
    if (extensions) caps.extensions = { ...(caps.extensions as Record<string, object> | undefined), ...extensions };
    meta[META.clientCapabilities] = caps;
    meta[META.clientInfo] = this.options.clientInfo;
    if (this.logLevel !== undefined) meta[META.logLevel] = this.logLevel;
    return meta;
  }

  // ---- lists ----
  // Each item is checked on its own: a malformed one is skipped and reported through
  // `onSkipped`, so one sloppy tool never hides the others.

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
      // -32020: the headers sent from the tool's declarations disagree with the server, whose
      // declarations may have changed since the list: list the tools again and try once more.
      if (!(this.era === 'modern' && error instanceof ResponseError && error.code === ErrorCodes.HeaderMismatch)) throw error;
      this._onTransportLog.fire({ kind: 'lifecycle', text: `tools/call ${name}: ${error.message}; listing the tools again and retrying once` });
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
      if (this.era !== 'modern') throw new McpLocalError('capability', `${method}: extensions are declared per request in protocol 2026-07-28; this session speaks ${this.protocolVersion}`);
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
    return this.answerInput(method, params, round, requests, signal);
  }

  /**
   * Modern era: asks the subscriptions/listen stream for `notifications/tasks` of `taskId` (the
   * tasks extension) until disposed. The stream is opened anew with the id, and again without it.
   */
  listenToTask(taskId: string, scope: ExtensionScope): Disposable {
    if (this.era !== 'modern') return Disposable.None;
    const listener = this.listener();
    listener.watchTask(taskId, scope);
    return Disposable.from(() => listener.unwatchTask(taskId));
  }

  /** True once the server acknowledged sending `notifications/tasks` of `taskId` on the current stream. */
  isTaskListened(taskId: string): boolean {
    return this.subscriptionListener?.isTaskAcknowledged(taskId) ?? false;
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.gated('resources/read', 'resources', { uri }, ReadResourceResultSchema as z.ZodMiniType<ReadResourceResult>, { ...options, mayAskUser: true });
  }

  /**
   * Asks for `notifications/resources/updated` of `uri`: `resources/subscribe` on a legacy server;
   * on a modern one the URI joins the `subscriptions/listen` stream (opened anew with it).
   */
  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    this.requireReady('resources/subscribe');
    if (!this.serverCapabilities?.resources?.subscribe) throw this.missing('resources/subscribe', 'resources.subscribe');
    if (this.era === 'modern') return this.listener().subscribe(uri, options);
    await this.connection!.request('resources/subscribe', { uri }, EmptyResultSchema, options);
  }

  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    this.requireReady('resources/unsubscribe');
    if (!this.serverCapabilities?.resources?.subscribe) throw this.missing('resources/unsubscribe', 'resources.subscribe');
    if (this.era === 'modern') return this.listener().unsubscribe(uri, options);
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

  /**
   * The level of `notifications/message` the server sends: `logging/setLevel` for a legacy server;
   * for a modern one the level goes in the `_meta` of every request from now on.
   */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    if (this.era === 'modern') {
      this.requireReady('logging/setLevel');
      if (!this.serverCapabilities?.logging) throw this.missing('logging/setLevel', 'logging');
      this.logLevel = level;
      return;
    }
    await this.gated('logging/setLevel', 'logging', { level }, EmptyResultSchema, options);
  }

  /** Pauses the timeouts of every request until disposed (the user is signing in); nothing to pause before connect(). */
  pauseTimeouts(): Disposable {
    return this.connection?.pauseTimeouts() ?? Disposable.None;
  }

  /** The level set for a modern server's log messages (sent in each request's `_meta`), if any. */
  get loggingLevel(): LoggingLevel | undefined {
    return this.logLevel;
  }

  /**
   * Pings the server; resolves with the round-trip time in ms. Allowed before initialization. A
   * modern server has no `ping`: the round trip is a `server/discover`, which every one answers.
   */
  async ping(options?: RequestOptions): Promise<number> {
    if (!this.connection || this._state.kind === 'closed' || this._state.kind === 'idle') throw new McpLocalError('not-initialized', 'ping: the client is not connected');
    const started = performance.now();
    if (this._state.kind === 'ready' && this._state.era === 'modern') await this.send('server/discover', {}, DiscoverResultSchema, options);
    else await this.connection.request('ping', undefined, EmptyResultSchema, options);
    return performance.now() - started;
  }

  /** Tells a legacy server the roots changed (`notifications/roots/list_changed`); a modern one asks for roots when it needs them. */
  async rootsChanged(): Promise<void> {
    if (!this.options.roots || this._state.kind !== 'ready' || this._state.era === 'modern') return;
    await this.connection!.notify('notifications/roots/list_changed');
  }

  /** Sends a notification to a legacy server (the status of a task it asked this host to run). */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this._state.kind !== 'ready' || this._state.era !== 'legacy') return;
    await this.connection!.notify(method, params);
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
    // A modern server sends these on a subscriptions/listen stream: only the current stream's count.
    const listed = (emitter: Emitter<void>) => (params: Record<string, unknown> | undefined) => {
      if (this.subscriptionListener?.accepts(params) ?? true) emitter.fire();
    };
    this.store.add(connection.onNotification('notifications/tools/list_changed', listed(this._onToolsListChanged)));
    this.store.add(connection.onNotification('notifications/resources/list_changed', listed(this._onResourcesListChanged)));
    this.store.add(connection.onNotification('notifications/prompts/list_changed', listed(this._onPromptsListChanged)));
    this.store.add(connection.onNotification('notifications/subscriptions/acknowledged', (params) => this.subscriptionListener?.acknowledged(params)));
    this.store.add(
      connection.onNotification('notifications/resources/updated', (params) => {
        if (!(this.subscriptionListener?.accepts(params) ?? true)) return;
        const parsed = ResourceUpdatedParamsSchema.safeParse(params);
        if (parsed.success) this._onResourceUpdated.fire(parsed.data.uri);
        else this._onDiagnostic.fire({ kind: 'invalid-message', text: `notifications/resources/updated: ${formatZodIssues(parsed.error, 'params', params)}` });
      }),
    );
    this.store.add(
      connection.onNotification('notifications/message', (params) => {
        if (isPlainLogMessage(params)) return this._onLogMessage.fire(params);
        const parsed = LogMessageParamsSchema.safeParse(params);
        if (parsed.success) this._onLogMessage.fire(parsed.data);
        else this._onDiagnostic.fire({ kind: 'invalid-message', text: `notifications/message: ${formatZodIssues(parsed.error, 'params', params)}` });
      }),
    );
  }

  /** The modern notification stream, created on first use. */
  private listener(): SubscriptionListener {
    if (!this.subscriptionListener) {
      const caps = this.serverCapabilities;
      const lists = { toolsListChanged: caps?.tools?.listChanged === true, resourcesListChanged: caps?.resources?.listChanged === true, promptsListChanged: caps?.prompts?.listChanged === true };
      this.subscriptionListener = new SubscriptionListener(
        lists,
        (params, options, scope) => this.send('subscriptions/listen', params, EmptyResultSchema, options, undefined, scope),
        (text) => this._onTransportLog.fire({ kind: 'lifecycle', text }),
      );
      this.store.add(this.subscriptionListener);
    }
    return this.subscriptionListener;
  }

  private schemas(): VersionedSchemas {
    return schemasFor(this.protocolVersion ?? LATEST_PROTOCOL_VERSION);
  }

  private setState(state: ClientState): void {
    if (state.kind === 'closed') this.subscriptionListener?.dispose();
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

  /** The one way requests leave a ready client: as they are to a legacy server, through the input rounds to a modern one. */
  private send<T>(method: string, params: Record<string, unknown> | undefined, schema: z.ZodMiniType<T> | undefined, options?: RequestOptions, inputHandlers?: ServerRequestHandlers, scope?: ExtensionScope): Promise<T> {
    if (this._state.kind === 'ready' && this._state.era === 'modern') return this.sendModern(method, params ?? {}, schema, this._state.version, options, inputHandlers, scope);
    return this.connection!.request(method, params, schema, options);
  }

  /**
   * A modern request: `_meta` added; a result without `resultType` or with "complete" is the
   * answer; "input_required" has its input requests answered by the same handlers that answer a
   * legacy server's requests, and the request is sent again under a new id with `inputResponses`
   * and `requestState` as they came, for at most `maxInputRounds` rounds; a type an extension of
   * `scope` adds is returned as it came; any other type is an error.
   */
  private async sendModern<T>(method: string, params: Record<string, unknown>, schema: z.ZodMiniType<T> | undefined, version: SessionVersion, options: RequestOptions = {}, inputHandlers?: ServerRequestHandlers, scope?: ExtensionScope): Promise<T> {
    const maxRounds = this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    const { _meta, inputResponses: ownResponses, requestState: ownState, ...rest } = params;
    // The caller's own inputResponses go out once (tasks/update carries them); later rounds carry the answers of the rounds.
    let answers = typeof ownResponses === 'object' && ownResponses !== null ? (ownResponses as Record<string, unknown>) : undefined;
    let state = typeof ownState === 'string' ? ownState : undefined;
    for (let round = 0; ; round++) {
      const sent: Record<string, unknown> = { ...rest, _meta: this.requestMeta(version, _meta, scope?.extensions) };
      if (answers !== undefined) sent.inputResponses = answers;
      if (state !== undefined) sent.requestState = state;
      const raw = await this.connection!.request<Record<string, unknown>>(method, sent, undefined, options);
      const resultType = raw.resultType;
      if (resultType === undefined || resultType === 'complete') {
        if (!schema) return raw as T;
        const parsed = schema.safeParse(raw);
        if (!parsed.success) throw new McpLocalError('invalid-result', `${method}: ${formatZodIssues(parsed.error, 'result', raw)}`, { result: raw });
        // An answer reached through input rounds belongs to those answers: never reuse it.
        if (round > 0) retriedResults.add(parsed.data as object);
        return parsed.data;
      }
      if (typeof resultType === 'string' && scope?.resultTypes?.includes(resultType)) return raw as T;
      if (resultType !== 'input_required') {
        throw new McpLocalError('invalid-result', `${method}: the server answered with resultType ${JSON.stringify(resultType)}, which this client does not know (it knows "complete" and "input_required")`, { result: raw });
      }
      const input = InputRequiredResultSchema.safeParse(raw);
      if (!input.success) throw new McpLocalError('invalid-result', `${method}: ${formatZodIssues(input.error, 'result', raw)}`, { result: raw });
      if (input.data.inputRequests === undefined && input.data.requestState === undefined) {
        throw new McpLocalError('invalid-result', `${method}: the server asked for input but sent neither inputRequests nor requestState`, { result: raw });
      }
      if (round >= maxRounds) {
        throw new McpLocalError('invalid-result', `${method}: the server still asked for input after ${maxRounds} rounds; stopped (the limit is ${maxRounds})`, { rounds: round });
      }
      answers = input.data.inputRequests === undefined ? undefined : await this.answerInput(method, rest, round + 1, input.data.inputRequests, options.signal, inputHandlers);
      state = input.data.requestState;
    }
  }

  /** Answers one round of input requests, all at once, through the server-request handlers. */
  private async answerInput(method: string, params: Record<string, unknown>, round: number, requests: Record<string, InputRequest>, signal?: AbortSignal, inputHandlers?: ServerRequestHandlers): Promise<Record<string, unknown>> {
    const target = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
    const methods = Object.fromEntries(Object.entries(requests).map(([key, r]) => [key, r.method]));
    const info = { method, ...(target === undefined ? {} : { target }), round, requests: methods };
    this._onInputRound.fire({ ...info, waiting: true });
    const controller = new AbortController();
    // Input requests are the client's to answer: when the call is given up (Cancel, a timeout),
    // it is this side that closes them, and the dialogs say so rather than blame the server.
    const abort = () => {
      const reason: unknown = signal?.reason;
      controller.abort(reason instanceof McpLocalError ? reason : new McpLocalError('cancelled', reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : `${method}: cancelled`));
    };
    signal?.addEventListener('abort', abort, { once: true });
    const closed = this.onClose(() => controller.abort(new McpLocalError('closed', `${method}: the connection closed while answering the server's input requests`)));
    try {
      const entries = await Promise.all(
        Object.entries(requests).map(async ([key, request]) => {
          const handler = inputHandlers?.[request.method] ?? this.handlerFor(request.method);
          if (!handler) {
            throw new McpLocalError('capability', `${method}: the server asked for ${request.method} (input ${JSON.stringify(key)}), which this client does not answer`, { inputMethod: request.method });
          }
          const context: RequestContext = { id: key, method: request.method, signal: controller.signal, waitOnUser: () => Disposable.None };
          try {
            const answer = await handler(request.params, context);
            return [key, answer && typeof answer === 'object' ? answer : {}] as const;
          } catch (error) {
            const why = error instanceof Error ? error.message : String(error);
            throw new McpLocalError('cancelled', `${method}: the server's ${request.method} input request (${JSON.stringify(key)}) was not answered: ${why}`, { inputMethod: request.method });
          }
        }),
      );
      return Object.fromEntries(entries);
    } finally {
      signal?.removeEventListener('abort', abort);
      closed.dispose();
      this._onInputRound.fire({ ...info, waiting: false });
    }
  }

  /** The handler for a server request: one attached with onRequest, else the one given at construction. */
  private handlerFor(method: string): RequestHandler | undefined {
    return this.extraHandlers.get(method) ?? this.builtinHandlers().get(method);
  }

  /** How many pages a list follows before it stops (the same bound for every list). */
  get maxPages(): number {
    return this.options.maxPages ?? DEFAULT_MAX_PAGES;
  }

  /** `problemOf` may reject an item the schema accepted (a tool's header declarations); it is skipped like a malformed one. */
  private async listAll<K extends ListKey>(method: string, capability: Capability, key: K, options: ListOptions = {}, problemOf?: (item: ListItem[K]) => string | undefined): Promise<ListItem[K][]> {
    const { onSkipped, onCacheHint, ...request } = options;
    let hint: CacheHint | undefined;
    const itemSchema = LIST_ITEM_SCHEMAS[key] as unknown as z.ZodMiniType<ListItem[K]>;
    const maxPages = this.maxPages;
    const items: ListItem[K][] = [];
    const skipped: SkippedListItem[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= maxPages) {
        throw new McpLocalError('invalid-result', `${method}: stopped after ${maxPages} pages; the server keeps returning nextCursor`, { items: items.length });
      }
      const result = await this.gated(method, capability, cursor === undefined ? {} : { cursor }, listPageSchema(key), request);
      hint = page === 0 ? cacheHintOf(result) : shorterHint(hint, cacheHintOf(result));
      for (const raw of result[key]) {
        const index = items.length + skipped.length;
        const checked = checkListItem(itemSchema, raw, `${key}[${index}]`);
        if ('problem' in checked) {
          skipped.push({ index, ...nameOf(raw), problem: checked.problem });
          continue;
        }
        const problem = problemOf?.(checked.item);
        if (problem !== undefined) skipped.push({ index, ...nameOf(raw), problem: `${key}[${index}]: ${problem}` });
        else items.push(checked.item);
      }
      cursor = result.nextCursor;
      if (cursor === undefined) {
        if (skipped.length > 0) onSkipped?.(skipped);
        onCacheHint?.(isRetriedResult(result) ? { ttlMs: 0, cacheScope: 'private' } : (hint ?? {}));
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
  /** Called once per complete list with how long it may be reused (the shortest of its pages; `{}` when the server said nothing, which means stale). */
  onCacheHint?: (hint: CacheHint) => void;
}

const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** Results reached through input rounds: they answer that exchange only and are never cached. */
const retriedResults = new WeakSet<object>();

/** True for a result the client got by answering the server's input requests (never cache it). */
export function isRetriedResult(result: unknown): boolean {
  return typeof result === 'object' && result !== null && retriedResults.has(result);
}

/** The `ttlMs` and `cacheScope` a result carries (modern results do); `{}` when it carries none, which means stale. */
export function cacheHintOf(result: unknown): CacheHint {
  if (typeof result !== 'object' || result === null || isRetriedResult(result)) return {};
  const r = result as Record<string, unknown>;
  const hint: { ttlMs?: number; cacheScope?: 'public' | 'private' } = {};
  if (typeof r.ttlMs === 'number' && Number.isFinite(r.ttlMs) && r.ttlMs >= 0) hint.ttlMs = r.ttlMs;
  if (r.cacheScope === 'public' || r.cacheScope === 'private') hint.cacheScope = r.cacheScope;
  return hint;
}

/** The hint of two pages of one list: the shorter time, private if either is. */
export function shorterHint(a: CacheHint | undefined, b: CacheHint): CacheHint {
  if (!a || a.ttlMs === undefined || b.ttlMs === undefined) return {};
  const scope = a.cacheScope === 'private' || b.cacheScope === 'private' ? 'private' : (a.cacheScope ?? b.cacheScope);
  return { ttlMs: Math.min(a.ttlMs, b.ttlMs), ...(scope ? { cacheScope: scope } : {}) };
}

/** A pinned modern version the server did not take. */
function pinnedError(version: string, cause: Error): McpLocalError {
  return new McpLocalError('version', `the server did not accept protocol ${version} (pinned, so initialize was not tried): ${cause.message}`, { pinned: version });
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
