// Owns the running servers: one McpClient per ServerEntry (stdio or remote alike), started,
// stopped, restarted after crashes (exponential back-off, sliding window), with the lists each
// server declared cached and kept fresh. No `vscode` import and no transport knowledge: trust,
// consent, inputs and the transport factory come in as functions.
import { McpClient, RootsProvider, ServerRequestHandlers } from '../client/client';
import { EraMemory, EraStore, ProtocolPreference } from '../client/era';
import { PROBE_RESTART_NOTE, exitedOnProbe } from '../client/eraProbe';
import { Implementation } from '../client/schemas';
import { ServerEntry } from '../config/types';
import { ResolvedServer } from '../config/variables';
import { raceAbort } from '../protocol/cancellation';
import { DisposableStore } from '../protocol/disposable';
import { McpLocalError, connectionEndOf, errorMessage } from '../protocol/errors';
import { Emitter, Event } from '../protocol/events';
import { Transport, TransportCloseInfo, TransportCloseReason } from '../protocol/transport';
import { Redactor, formatCommandLine, transportLabel } from '../protocol/redaction';
import { isRemote } from './connectionStatus';
import type { LogSeverity } from '../protocol/logging';
import { ManagedServer } from './managedServer';
import type { ServerLaunch } from './serverLaunch';
import { loadServerLaunch, serverLaunchClass } from './launchOnDemand';
import { configurationStep, startsAutomatically, startsOnUse } from './startPolicy';
import { refreshList } from './serverLists';
import type { ListKind, ServerHandle, ServerStatus, WhenReadyOptions } from './serverHandle';

// The handle's types, named here for the registry's users (one import path, as before the split).
export type { ListFreshness, ListKind, ServerHandle, ServerStatus, WhenReadyOptions } from './serverHandle';

/** What `prepare` returns: the server to start, or why it must not run. */
export type PrepareResult = ResolvedServer | { readonly blocked: string };

/**
 * Turns an entry into something to spawn, right before each start: resolves variables (asking
 * for inputs), checks trust and consent. May reject (e.g. the user cancelled an input): the
 * server then goes to `error` with that message. `signal` aborts when the start is no longer
 * wanted (stop, removal, dispose): close any prompt then; the registry stops waiting at once.
 */
export type PrepareServer = (entry: ServerEntry, signal: AbortSignal) => Promise<PrepareResult>;

export interface RestartPolicy {
  /** Automatic restarts allowed within the window; one more crash and the server stays in `error`. 0 turns them off. */
  readonly maxRestarts: number;
  /** The sliding window, in minutes. */
  readonly windowMinutes: number;
  /** Delay before the first restart in the window; doubled for each further one. Default 1000. */
  readonly backoffMs?: number;
  /** Cap of the doubled delay. Default 30000. */
  readonly maxBackoffMs?: number;
}

export interface ServerRegistryOptions {
  readonly clientInfo: Implementation;
  /** Builds the transport for a resolved server (see `transportFactory` in src/transport). May throw. */
  createTransport(resolved: ResolvedServer, entry: ServerEntry): Transport;
  /** Answers `roots/list` for every server. */
  readonly roots: RootsProvider;
  readonly restart: RestartPolicy;
  /** Default timeout of every request, ms (McpClient's default when unset). */
  readonly requestTimeoutMs?: number;
  /** Timeout of the `initialize` handshake, ms. Default `requestTimeoutMs`, else 30000. */
  readonly startTimeoutMs?: number;
  /**
   * Start new entries on `update()`. Default true. False leaves them stopped until
   * `startAutomatically()` (a start policy such as "when the view is shown") or a `start()`.
   */
  readonly autoStart?: boolean;
  /** Further client capabilities (sampling, elicitation, ...). */
  readonly capabilities?: Record<string, unknown>;
  /** Which era and version to speak (read at each start; an entry's own `protocolVersion` wins). Default `auto`. */
  readonly protocol?: ProtocolPreference;
  /** Where the era each server spoke is kept across sessions (the editor's global state); this session only when absent. */
  readonly eraStore?: EraStore;
  /** The quiet time after a stdio server's last output before a silent `server/discover` probe means legacy (McpClient's `probeTimeoutMs`). */
  readonly probeTimeoutMs?: number;
  /** The answers to one server's requests of the client (sampling, elicitation), given to its client when it is created. */
  serverRequests?(server: { readonly id: string; readonly name: string }): ServerRequestHandlers;
  /**
   * Lifecycle lines per server, secrets (`resolved.secretValues`) already redacted: starting
   * (the command line or URL), started (pid, stdio only), initialized (server and version), exited (code/signal),
   * restarting in N ms, gave up. Also the server's stderr (`info`, prefixed `stderr: `) and the
   * transport's own shutdown steps (`debug`).
   */
  log(serverId: string, level: LogSeverity, text: string): void;
}

/**
 * Owns the running servers. `update()` applies a new configuration by diffing entries on id and
 * fingerprint; start/stop/restart act on one server or all. Operations on one server run one
 * after another; a stop or restart first aborts a start in progress. Nothing here throws for a
 * server's failure: it becomes that server's `error` status, and other servers are unaffected.
 */
export class ServerRegistry {
  private handles = new Map<string, ManagedServer>();
  private prepare: PrepareServer = () => Promise.reject(new Error('update() has not been called yet'));
  private disposing: Promise<void> | undefined;
  private readonly removals = new Set<Promise<void>>();
  private readonly store = new DisposableStore();
  /** The era each server spoke, for this registry's life (and beyond, with a store): a restart does not probe again. */
  private readonly eras: EraMemory;

  private readonly _onDidChange = this.store.add(new Emitter<ServerHandle>((e) => this.listenerFailed(e)));
  /** A server's status, lists, entry or counters changed. */
  readonly onDidChange: Event<ServerHandle> = this._onDidChange.event;
  private readonly _onDidChangeServers = this.store.add(new Emitter<void>((e) => this.listenerFailed(e)));
  /** Servers were added, removed or reordered by `update()`. */
  readonly onDidChangeServers: Event<void> = this._onDidChangeServers.event;
  private readonly _onDidCreateClient = this.store.add(new Emitter<{ readonly handle: ServerHandle; readonly client: McpClient }>((e) => this.listenerFailed(e)));
  /** A client was created and is about to connect: subscribe to its frames here to see the handshake. */
  readonly onDidCreateClient: Event<{ readonly handle: ServerHandle; readonly client: McpClient }> = this._onDidCreateClient.event;

  constructor(private readonly options: ServerRegistryOptions) {
    this.eras = new EraMemory(options.eraStore);
    this.autoStart = options.autoStart ?? true;
  }

  /**
   * Start new entries with `update()`, and restart changed ones the user did not stop (initially
   * `options.autoStart`, default true). Applies to later updates; `startAutomatically()` turns it on.
   */
  autoStart: boolean;

  /**
   * The start policy fired: starts every server the user has not stopped that is stopped or
   * failed, and from now on `update()` starts new and changed servers on its own. Only the first
   * call starts anything. Resolves when those starts have settled.
   */
  async startAutomatically(why: string): Promise<void> {
    if (this.autoStart || this.disposing) return;
    this.autoStart = true;
    this.options.log('', 'info', `Starting the configured servers (${why}).`);
    await Promise.all(
      [...this.handles.values()].filter(startsAutomatically).map((h) => this.start(h.id)),
    );
  }

  get(id: string): ServerHandle | undefined {
    return this.handles.get(id);
  }

  /** `text` with the secrets of every server removed, as each server's log lines are. */
  redact(text: string): string {
    let out = text;
    for (const h of this.handles.values()) out = h.redactor.redact(out);
    return out;
  }

  /** Every server, in the order of the last `update()`. */
  list(): ServerHandle[] {
    return [...this.handles.values()];
  }

  /**
   * Applies a configuration. New entries are started (when `autoStart`), removed ones stopped
   * (their processes gone when this resolves), changed ones (same id, new fingerprint)
   * restarted, unchanged ones left alone (same client, same process). A `blocked` server is
   * prepared again (trust or consent may have changed; `prepare` must not ask a question it
   * already has an answer to). A changed server the user stopped stays stopped. `prepare` is
   * kept for later starts. Resolves when every resulting start and stop has settled; never rejects.
   */
  async update(entries: readonly ServerEntry[], prepare: PrepareServer): Promise<void> {
    if (this.disposing) return;
    this.prepare = prepare;
    const next = new Map<string, ManagedServer>();
    const work: Promise<void>[] = [];
    for (const entry of entries) {
      if (next.has(entry.id)) continue;
      const existing = this.handles.get(entry.id);
      if (!existing) {
        const h = new ManagedServer(entry, this);
        next.set(entry.id, h);
        if (configurationStep({ known: false }, this.autoStart) === 'start') work.push(this.enqueue(h, () => this.doStart(h, 'auto')));
        continue;
      }
      next.set(entry.id, existing);
      const unchanged = existing.entry.fingerprint === entry.fingerprint;
      const step = configurationStep({ known: true, unchanged, status: existing.status, active: this.isActive(existing), stoppedByUser: existing.stoppedByUser }, this.autoStart);
      existing.entry = entry;
      if (unchanged) {
        if (step === 'prepareAgain') work.push(this.enqueue(existing, () => this.doStart(existing, 'auto')));
        continue;
      }
      this.options.log(entry.id, 'info', 'configuration changed');
      if (step === 'restart') {
        this.preempt(existing);
        existing.crashTimes = [];
        existing.restarts = 0;
        work.push(this.enqueue(existing, () => this.doStop(existing).then(() => this.doStart(existing, 'auto'))));
      } else {
        this._onDidChange.fire(existing);
      }
    }
    for (const [id, h] of this.handles) {
      if (next.has(id)) continue;
      h.removed = true;
      this.preempt(h);
      const removal = this.enqueue(h, () => this.doStop(h));
      // dispose() must wait for these too: they are no longer in the map.
      this.removals.add(removal);
      void removal.finally(() => this.removals.delete(removal));
      work.push(removal);
    }
    const reordered = [...next.keys()].join('\n') !== [...this.handles.keys()].join('\n');
    this.handles = next;
    if (reordered) this._onDidChangeServers.fire();
    await Promise.all(work);
  }

  /** Starts a server (no-op when it is starting or running). Resolves once it is running, failed or blocked. */
  start(id: string): Promise<void> {
    const h = this.handles.get(id);
    if (!h || this.disposing) return Promise.resolve();
    h.stoppedByUser = false;
    return this.enqueue(h, () => this.doStart(h, 'manual'));
  }

  /** Stops a server; resolves when its process tree is gone. */
  stop(id: string): Promise<void> {
    const h = this.handles.get(id);
    if (!h) return Promise.resolve();
    h.stoppedByUser = true;
    this.preempt(h);
    return this.enqueue(h, () => this.doStop(h));
  }

  /** Stops (if needed) and starts a server again; also retries one in `error` or `blocked`. */
  restart(id: string): Promise<void> {
    const h = this.handles.get(id);
    if (!h || this.disposing) return Promise.resolve();
    h.stoppedByUser = false;
    this.preempt(h);
    return this.enqueue(h, () => this.doStop(h).then(() => this.doStart(h, 'manual')));
  }

  /** See `ServerHandle.whenReady`. */
  async whenReady(h: ManagedServer, options: WhenReadyOptions = {}): Promise<McpClient> {
    const { signal } = options;
    const cancelled = () => new McpLocalError('cancelled', `waiting for ${h.entry.name} was cancelled`);
    const wait = (p: Promise<void>) => (signal ? raceAbort(p, signal, cancelled) : p);
    if (signal?.aborted) throw cancelled();
    if (startsOnUse(options.start, h.removed, h.status)) await wait(this.start(h.id));
    if (h.status.kind === 'starting') {
      await wait(
        new Promise<void>((resolve) => {
          const sub = this._onDidChange.event((changed) => {
            if (changed !== h || h.status.kind === 'starting') return;
            sub.dispose();
            resolve();
          });
          signal?.addEventListener('abort', () => sub.dispose(), { once: true });
        }),
      );
    }
    const client = h.session?.client;
    if (h.status.kind === 'running' && client && !h.removed) return client;
    if (h.removed || this.handles.get(h.id) !== h) throw new McpLocalError('closed', `no server ${JSON.stringify(h.id)} is configured`);
    throw new McpLocalError('closed', `${h.entry.name} is not running (${h.status.kind}) — start it first`);
  }

  /** Starts every server that is not starting or running. */
  async startAll(): Promise<void> {
    await Promise.all(this.list().map((h) => this.start(h.id)));
  }

  /** Stops every server; resolves when all their processes are gone. */
  async stopAll(): Promise<void> {
    await Promise.all(this.list().map((h) => this.stop(h.id)));
  }

  /** Fetches every declared list of one server again. */
  refresh(id: string): Promise<void> {
    const h = this.handles.get(id);
    return h ? this.refreshServer(h) : Promise.resolve();
  }

  /** Sends `notifications/roots/list_changed` to every initialized server. Never rejects. */
  async rootsChanged(): Promise<void> {
    await Promise.all(
      [...this.handles.values()].map(async (h) => {
        const s = h.session;
        if (!s?.ready || s.stopping) return;
        try {
          await s.client.rootsChanged();
          this.options.log(h.id, 'debug', 'sent notifications/roots/list_changed');
        } catch (error) {
          this.options.log(h.id, 'warn', `could not send notifications/roots/list_changed: ${errorMessage(error)}`);
        }
      }),
    );
  }

  /** Stops every server and releases the events. Resolves when no server process is left. Idempotent. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      for (const h of this.handles.values()) this.preempt(h);
      await Promise.all([...[...this.handles.values()].map((h) => this.enqueue(h, () => this.doStop(h))), ...this.removals]);
      this.store.dispose();
    })();
    return this.disposing;
  }

  /** @internal ServerHandle.refreshIfStale */
  async refreshStaleList(h: ManagedServer, kind: ListKind): Promise<void> {
    const s = h.session;
    if (!s?.ready || s.stopping || !s.client.eraCodec?.listsCarryCacheHints) return;
    const freshUntil = h.listFreshness[kind]?.freshUntil;
    if (freshUntil !== undefined && Date.now() < freshUntil) return;
    await this.refreshList(h, s, kind);
  }

  /** @internal ServerHandle.refresh */
  async refreshServer(h: ManagedServer): Promise<void> {
    const s = h.session;
    if (!s?.ready || s.stopping) return;
    await Promise.all((['tools', 'resources', 'templates', 'prompts'] as const).map((kind) => this.refreshList(h, s, kind)));
  }

  // ---- lifecycle ----

  private enqueue(h: ManagedServer, op: () => Promise<void>): Promise<void> {
    const run = h.queue.then(op).catch((error) => {
      // Operations handle their own failures; this is a bug guard, not a path.
      this.options.log(h.id, 'error', `internal error: ${errorMessage(error)}`);
    });
    h.queue = run;
    return run;
  }

  /** Cancels what would keep a stop waiting: a pending restart, a start in `prepare` or the handshake. */
  private preempt(h: ManagedServer): void {
    if (h.restartTimer) {
      clearTimeout(h.restartTimer);
      h.restartTimer = undefined;
    }
    h.startAbort?.abort();
    if (h.session) {
      h.session.stop();
    }
  }

  private isActive(h: ManagedServer): boolean {
    return h.session !== undefined || h.restartTimer !== undefined || h.status.kind === 'starting' || h.status.kind === 'running';
  }

  /**
   * One start: prepare (trust, consent, inputs), then a new launch (transport, client, handshake).
   * `probeRestart` marks the one start again after a legacy server exited on the era probe.
   */
  private async doStart(h: ManagedServer, reason: 'auto' | 'manual' | 'crash', probeRestart = false): Promise<void> {
    const resolved = await this.prepareStart(h, reason);
    if (!resolved) return;
    h.resolved = resolved;
    h.redactor = new Redactor(resolved.secretValues);
    h.stderrTail = [];
    const log = (level: LogSeverity, text: string) => this.options.log(h.id, level, h.redactor.redact(text));
    for (const warning of resolved.warnings) log('warn', warning);
    log('info', `starting: ${describeLaunch(resolved)}`);
    if (resolved.type === 'stdio' && resolved.cwdReason) log('info', `working directory ${resolved.cwd}: ${resolved.cwdReason}`);

    let transport: Transport;
    try {
      transport = this.options.createTransport(resolved, h.entry);
    } catch (error) {
      this.failStart(h, `could not create the transport: ${errorMessage(error)}`, []);
      return;
    }
    const launch = new (serverLaunchClass())(this.options, h, resolved, this.eras, { stderrTail: h.stderrTail, log });
    h.session = launch;
    launch.store.add(launch.client.onClose((info) => this.onSessionClosed(h, launch, info)));
    this._onDidCreateClient.fire({ handle: h, client: launch.client });

    try {
      await launch.connect(transport);
    } catch (error) {
      const tail = [...h.stderrTail];
      await this.endSession(h, launch);
      if (launch.stopping) return;
      // The memory now says legacy: the second start goes straight to initialize (once only).
      if (exitedOnProbe(error) && !probeRestart) {
        log('info', PROBE_RESTART_NOTE);
        return this.doStart(h, reason, true);
      }
      const message = launch.describeStartError(error);
      // A restart after a crash that fails again counts as one more crash, unless it never can work.
      if (reason === 'crash' && !McpLocalError.is(error, 'version')) {
        log('warn', `failed to start: ${message}`);
        this.handleCrash(h, message, tail);
      } else {
        this.failStart(h, message, tail, error);
      }
      return;
    }
    if (launch.stopping) return;
    await this.started(h, launch, log);
  }

  /**
   * The first half of a start: `starting`, then `prepare` (which may wait for the user). The
   * server to launch, or undefined when the start was cancelled, failed or is blocked (its status says which).
   */
  private async prepareStart(h: ManagedServer, reason: 'auto' | 'manual' | 'crash'): Promise<ResolvedServer | undefined> {
    if (this.disposing || h.removed || h.session) return undefined;
    if (reason === 'manual') {
      h.crashTimes = [];
      h.restarts = 0;
    }
    if (h.restartTimer) {
      clearTimeout(h.restartTimer);
      h.restartTimer = undefined;
    }
    const startAbort = new AbortController();
    h.startAbort = startAbort;
    this.setStatus(h, { kind: 'starting' });

    let prepared: PrepareResult;
    try {
      // The client's code (launchOnDemand.ts) loads while the start is prepared.
      const ready = Promise.all([this.prepare(h.entry, startAbort.signal), loadServerLaunch()]).then(([p]) => p);
      prepared = await raceAbort(ready, startAbort.signal, () => new McpLocalError('cancelled', 'the start was cancelled'));
    } catch (error) {
      h.startAbort = undefined;
      if (!startAbort.signal.aborted) this.failStart(h, `could not prepare the server: ${errorMessage(error)}`, []);
      return undefined;
    }
    h.startAbort = undefined;
    if (startAbort.signal.aborted) return undefined;
    if ('blocked' in prepared) {
      this.options.log(h.id, 'info', `not started: ${prepared.blocked}`);
      this.setStatus(h, { kind: 'blocked', reason: prepared.blocked });
      return undefined;
    }
    return prepared;
  }

  /** The handshake completed: the server is running, its lists are fetched and kept fresh. */
  private async started(h: ManagedServer, launch: ServerLaunch, log: (level: LogSeverity, text: string) => void): Promise<void> {
    const client = launch.client;
    launch.ready = true;
    h.startedAt = Date.now();
    const info = client.serverInfo;
    // The process facet is there once the transport started; an HTTP server has none.
    const pid = h.pid;
    if (pid !== undefined) log('info', `started (pid ${pid})`);
    log('info', `initialized: ${info ? `${info.name} ${info.version}` : 'unknown server'}, protocol ${client.protocolVersion} (${client.era} era)`);
    launch.watchLists((kind) => void this.refreshList(h, launch, kind));
    this.setStatus(h, { kind: 'running' });
    await Promise.all((['tools', 'resources', 'templates', 'prompts'] as const).map((kind) => this.refreshList(h, launch, kind)));
  }

  private failStart(h: ManagedServer, message: string, stderrTail: string[], cause?: unknown): void {
    h.lastError = message;
    // A server waiting for a sign-in or a credential did not fail: it is said as what it is.
    const status = authorizationStatus(cause);
    if (status !== undefined) this.options.log(h.id, status === 401 ? 'info' : 'warn', h.redactor.redact(`not started: ${message}; waiting for a sign-in or a credential`));
    else this.options.log(h.id, 'error', h.redactor.redact(`failed to start: ${message}`));
    this.setStatus(h, { kind: 'error', message, stderrTail });
  }

  private async doStop(h: ManagedServer): Promise<void> {
    if (h.restartTimer) {
      clearTimeout(h.restartTimer);
      h.restartTimer = undefined;
    }
    const s = h.session;
    if (s) {
      s.stop();
      this.options.log(h.id, 'info', 'stopping');
      this.setStatus(h, { kind: 'stopping' });
      await this.endSession(h, s);
      const info = s.client.state.kind === 'closed' ? s.client.state.info : undefined;
      this.options.log(h.id, 'info', `stopped${info?.reason.kind === 'process-exited' ? ` (exited with ${describeExit(info.reason)})` : ''}`);
    }
    if (h.status.kind !== 'stopped') this.setStatus(h, { kind: 'stopped' });
  }

  /** Closes a launch's client (which kills the process tree) and forgets it. */
  private async endSession(h: ManagedServer, s: ServerLaunch): Promise<void> {
    await s.close((error) => this.options.log(h.id, 'warn', `error while closing: ${errorMessage(error)}`));
    if (h.session === s) {
      h.session = undefined;
      h.tools = h.resources = h.templates = h.prompts = undefined;
      h.listErrors = {};
      h.listFreshness = {};
      h.skippedItems = {};
    }
  }

  private onSessionClosed(h: ManagedServer, s: ServerLaunch, info: TransportCloseInfo): void {
    const { reason } = info;
    if (reason.kind === 'process-exited') h.lastExit = { code: reason.code, signal: reason.signal, time: Date.now() };
    if (h.session !== s || s.stopping || !s.ready) return;
    s.stopping = true;
    if (reason.kind === 'session-expired') {
      // Not a crash: the server forgot our session (restarted, or expired it). A new one at once.
      this.options.log(h.id, 'warn', h.redactor.redact(`the server ${TransportCloseReason.describe(reason)}: starting a new session`));
      void this.enqueue(h, async () => {
        await this.endSession(h, s);
        if (!h.removed && !this.disposing) await this.doStart(h, 'crash');
      });
      return;
    }
    if (reason.kind === 'authorization-required') {
      // Not a crash, and restarting cannot help: the user has to sign in (or be granted more).
      const message = `the server ${TransportCloseReason.describe(reason)}`;
      void this.enqueue(h, async () => {
        await this.endSession(h, s);
        if (!h.removed && !this.disposing) this.failStart(h, message, [], reason);
      });
      return;
    }
    // The server went away on its own.
    const tail = info.process?.stderrTail.length ? [...info.process.stderrTail] : [...h.stderrTail];
    const message = reason.kind === 'process-exited' ? `the server exited unexpectedly (${describeExit(reason)})` : `the connection closed unexpectedly: the server ${TransportCloseReason.describe(reason)}`;
    this.options.log(h.id, 'warn', h.redactor.redact(message));
    void this.enqueue(h, async () => {
      await this.endSession(h, s);
      if (!h.removed && !this.disposing) this.handleCrash(h, message, tail);
    });
  }

  /** Schedules a restart with back-off, or gives up when the window is full. */
  private handleCrash(h: ManagedServer, message: string, stderrTail: string[]): void {
    const policy = this.options.restart;
    const now = Date.now();
    const windowMs = policy.windowMinutes * 60_000;
    h.crashTimes = h.crashTimes.filter((t) => now - t < windowMs);
    h.lastError = message;
    if (h.crashTimes.length >= policy.maxRestarts) {
      const gaveUp =
        policy.maxRestarts === 0
          ? 'automatic restarts are off'
          : `gave up after ${policy.maxRestarts} restart${policy.maxRestarts === 1 ? '' : 's'} in ${formatMinutes(policy.windowMinutes)}`;
      this.options.log(h.id, 'error', gaveUp);
      this.setStatus(h, { kind: 'error', message: `${message}; ${gaveUp}`, stderrTail });
      return;
    }
    h.crashTimes.push(now);
    h.restarts++;
    const attempt = h.crashTimes.length;
    const delayMs = Math.min((policy.backoffMs ?? 1000) * 2 ** (attempt - 1), policy.maxBackoffMs ?? 30_000);
    this.options.log(h.id, 'warn', `restarting in ${delayMs} ms (restart ${attempt} of ${policy.maxRestarts} within ${formatMinutes(policy.windowMinutes)})`);
    this.setStatus(h, { kind: 'error', message, stderrTail, restart: { attempt, maxRestarts: policy.maxRestarts, delayMs, at: now + delayMs }, ...(isRemote(h.entry) ? { reconnecting: true } : {}) });
    h.restartTimer = setTimeout(() => {
      h.restartTimer = undefined;
      void this.enqueue(h, () => this.doStart(h, 'crash'));
    }, delayMs);
    h.restartTimer.unref?.();
  }

  // ---- lists ----

  /** Fetches one list if the server declared it (see `refreshList` in serverLists.ts). */
  private refreshList(h: ManagedServer, s: ServerLaunch, kind: ListKind): Promise<void> {
    return refreshList(h, s, kind, {
      log: (text) => this.options.log(h.id, 'warn', text),
      changed: () => this._onDidChange.fire(h),
    });
  }

  // ---- helpers ----

  private setStatus(h: ManagedServer, status: ServerStatus): void {
    h.status = status;
    this._onDidChange.fire(h);
  }

  private listenerFailed(error: unknown): void {
    this.options.log('', 'error', `an event listener threw: ${errorMessage(error)}`);
  }
}


/** What a start runs, for the log: the command line and cwd, or the transport and URL. */
export function describeLaunch(resolved: ResolvedServer): string {
  if (resolved.type === 'stdio') return `${formatCommandLine(resolved.command, resolved.args)} (cwd ${resolved.cwd})`;
  return `${transportLabel(resolved.type)} ${resolved.url}`;
}

function describeExit(exit: { readonly code: number | null; readonly signal: string | null }): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

/** The HTTP status when `cause` (a start error or a close reason) is the server asking for authorization. */
function authorizationStatus(cause: unknown): 401 | 403 | undefined {
  const reason = McpLocalError.is(cause) ? connectionEndOf(cause).reason : (cause as TransportCloseReason | undefined);
  return reason?.kind === 'authorization-required' ? reason.status : undefined;
}


function formatMinutes(minutes: number): string {
  if (minutes < 1) return `${Number((minutes * 60).toPrecision(3))} seconds`;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
