// The editor's composition root: the VS Code side of MCP Host, put together: the ServerRegistry with the start gate as its
// `prepare`, the configuration reloader feeding it, the editor's roots, sign-ins, sampling and
// elicitation, the per-server output channels, the health store and the tree's model. Each of
// those owns its job; this class builds them, runs the user's start/stop commands and disposes them.
import * as vscode from 'vscode';
import { isProtocolPreference } from '../client/era';
import { appsClientCapabilities } from '../client/apps';
import { withSkillsCapability } from '../skills/wire';
import { ServerHealthStore, ServerRegistry } from '../registry';
import { transportFactory } from '../transport/transportFactory';
import { PersistentEraStore } from '../registry/eraStore';
import type { LogSeverity } from '../protocol/logging';
import { errorMessage } from '../protocol/errors';
import { ChatShare } from './share/chatShare';
import { ConfigReloader } from './config/configReloader';
import { ConsentStore } from './trust/consentStore';
import { EditorRoots } from './config/editorRoots';
import { InputStore } from './config/inputStore';
import { Redactor } from './logs/logFormat';
import { askForInput } from './trust/consentDialogs';
import { ServerLogs } from './logs/serverLogs';
import { EditorServersTreeModel } from './tree/serversTreeModel';
import { EditorSignInsOnDemand } from './signIn/signInsOnDemand';
import { StartGate } from './trust/startGate';
import { ServerRequests, createServerRequests } from './serverRequests/createServerRequests';
import { mcpHostSetting } from './trust/restrictedSettings';
import { sandboxRequirement } from './trust/sandboxSettings';
import { StartMoment, StartPolicy, automaticStartReason, readStartPolicy } from '../registry/startPolicy';

/** The global-state key of the era each server spoke (see registry/eraStore.ts). */
const ERA_STATE_KEY = 'mcpHost.serverEras';
import { OfferChangeTracker, describeOfferChangeRecord } from '../usecases/offerChanges';
import { DevModeOnDemand } from './dev/devModeOnDemand';
import { OnDemand } from './onDemand';
import type { SessionRecorder } from './dev/sessionRecorder';
import type { ResolvedServer, ServerEntry } from '../config';

export class EditorHost implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly redactor = new Redactor();
  /** The servers; features ask a server's handle for its client (`whenReady`). */
  readonly registry: ServerRegistry;
  /** Trust, consent and inputs: the registry's `prepare`. */
  readonly gate: StartGate;
  readonly config: ConfigReloader;
  readonly roots: EditorRoots;
  /** MCP authorization of remote servers; tokens in SecretStorage (loaded by a remote server's first request, or Sign In / Sign Out). */
  readonly signIns: EditorSignInsOnDemand;
  /** The `${input:…}` values (Set Token stores one). */
  readonly inputs: InputStore;
  /** What the health ping last said of each server. */
  readonly health = new ServerHealthStore();
  readonly logs: ServerLogs;
  /** Sampling and elicitation for this host's servers (the tool-call UI uses its URL elicitation). */
  readonly serverRequests: ServerRequests;
  /** What the view and the status bar show. */
  readonly tree: EditorServersTreeModel;
  /** What each server offers differently after a list change or a restart ("What changed"). */
  readonly offerChanges = new OfferChangeTracker();
  /** `dev.watch` restarts and `dev.debug` attaches (loaded when an entry or a Debug run needs it). */
  readonly devMode: DevModeOnDemand;
  /** "Record Session": a server's frames in a JSON Lines recording (loaded by the first Record Session). */
  readonly recorder: OnDemand<SessionRecorder>;
  /** "Share with VS Code Chat": opted-in servers offered to VS Code's MCP through the gateway. */
  readonly chatShare: ChatShare;

  /** What every start waits for first (`waitBeforeStarts`). */
  private beforeStarts: () => Promise<void> = () => Promise.resolve();

  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange: vscode.Event<void> = this._onDidChange.event;

  constructor(
    context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    const changed = () => this._onDidChange.fire();
    const inputs = (this.inputs = new InputStore(context.secrets, context.workspaceState, askForInput, (value) => this.redactor.add(value)));
    // Every frame line and log message is cut at it: the kept value (restrictedSettings.ts), as asking
    // VS Code's configuration per frame cost ~1.8 s of the extension host's CPU in a flood of 100,000.
    this.logs = new ServerLogs(
      this.redactor,
      () => mcpHostSetting('log.maxPayloadChars', 4000),
      (id) => this.channelName(id),
    );
    this.signIns = new EditorSignInsOnDemand(async () => new (await import('./signIn/signIns.js')).EditorSignIns(context, () => this.registry, this.logs, this.redactor, { start: (id) => this.start(id), stop: (id) => this.stop(id) }, changed));
    this.gate = new StartGate(new ConsentStore(context.workspaceState), inputs, this.redactor, log, () => this.config.current().folders, changed);
    this.roots = new EditorRoots(log, () => void this.registry.rootsChanged());
    // Sampling and elicitation: declared in every initialize, answered with the user in control.
    const serverRequests = (this.serverRequests = createServerRequests(context, { log: (id, level, text) => this.logs.get(id).write(level, text), showLog: (id) => this.logs.get(id).show() }));
    this.disposables.push(serverRequests);
    this.registry = this.createRegistry(context, serverRequests);
    // A dev.debug server starts with the inspector on; the gate's answer is otherwise as it is.
    const prepare = async (entry: ServerEntry) => {
      await this.beforeStarts();
      const prepared = await this.gate.prepare(entry);
      return 'blocked' in prepared ? prepared : this.devMode.prepare(entry, prepared);
    };
    this.recorder = new OnDemand(async () => new (await import('./dev/sessionRecorder.js')).SessionRecorder(context.globalStorageUri, (text) => this.redact(text), (id, text) => this.logs.get(id).write('info', text), changed));
    this.devMode = new DevModeOnDemand({
      servers: () => this.registry.list(),
      restart: (id) => this.restart(id),
      log: (id, level, text) => this.logs.get(id).write(level, text),
      warn: (text) => void vscode.window.showWarningMessage(text),
    });
    this.config = new ConfigReloader(this.registry, prepare, log, (ids) => this.signIns.forget(ids), changed);
    this.tree = new EditorServersTreeModel(this.registry, this.gate, this.signIns, this.health, this.config, this.redactor, this.roots, this.onDidChange, (h) => this.chatShare.isShared(h), (id) => this.recorder.current?.isRecording(id) === true);
    this.disposables.push(
      this._onDidChange,
      this.offerChanges,
      this.devMode,
      this.recorder,
      this.config,
      this.roots,
      this.health,
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.log.info('Workspace trust granted: servers defined in this workspace may start now.');
        void this.config.reload('workspace trust granted');
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpHost.startPolicy')) this.startIfPolicySays({ kind: 'policyChanged' });
        if (e.affectsConfiguration('mcpHost')) changed();
      }),
    );
    this.watchRegistry(serverRequests, changed);
    void inputs.storedValues().then((values) => this.redactor.add(...values));
    this.chatShare = new ChatShare(this, context.workspaceState);
    this.disposables.push(this.chatShare);
  }

  /** The registry of this window's servers: settings read at each use (getters), the era memory kept in global state, sampling and elicitation answered by `serverRequests`. */
  private createRegistry(context: vscode.ExtensionContext, serverRequests: ServerRequests): ServerRegistry {
    const restart = {
      // Getters: the registry reads these at each crash, so a settings change applies at once.
      get maxRestarts() {
        return Math.max(0, mcpHostSetting('restart.maxRestarts', 3));
      },
      get windowMinutes() {
        return Math.max(0, mcpHostSetting('restart.windowMinutes', 3));
      },
    };
    const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    return new ServerRegistry({
      clientInfo: { name: 'mcp-host', title: 'MCP Host', version },
      createTransport: transportFactory({
        auth: (resolved, entry) => this.signIns.provider(resolved, entry),
        sandboxRequirement,
        workspaceFolders: () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
      }),
      roots: this.roots,
      restart,
      get requestTimeoutMs() {
        return Math.max(1, mcpHostSetting('requestTimeoutSeconds', 60)) * 1000;
      },
      // Servers start when the start policy says so (`startIfPolicySays`) or the user starts them.
      autoStart: false,
      // MCP Apps (client/apps.ts): servers may offer tools with an interactive view, shown in the tool panel.
      // Skills (skills/): servers may offer skills, listed in the tree and loaded verified.
      capabilities: withSkillsCapability({ ...serverRequests.capabilities, ...appsClientCapabilities() }),
      get protocol() {
        const pinned = mcpHostSetting<string>('protocolVersion', 'auto');
        return isProtocolPreference(pinned) ? pinned : 'auto';
      },
      // The era each server spoke outlives the window: later starts skip the server/discover probe.
      eraStore: new PersistentEraStore({ read: () => context.globalState.get(ERA_STATE_KEY), write: (value) => void context.globalState.update(ERA_STATE_KEY, value) }),
      get probeTimeoutMs() {
        return Math.max(0.1, mcpHostSetting('connectTimeoutSeconds', 3)) * 1000;
      },
      serverRequests: (server) => serverRequests.handlersFor(server),
      log: (serverId, level, text) => this.registryLog(serverId, level, text),
    });
  }

  /** What follows the registry's events: the tree's refresh, list changes recorded, and each new client given to the logs, dev mode, the recorder and the server requests. */
  private watchRegistry(serverRequests: ServerRequests, changed: () => void): void {
    const subscriptions = [
      this.registry.onDidChange(changed),
      this.registry.onDidChange((h) => this.offerChanges.observe(h)),
      this.offerChanges.onDidRecord((record) => this.logs.get(record.serverId).write('info', describeOfferChangeRecord(record).join('\n'))),
      this.registry.onDidChangeServers(changed),
      this.health.onDidChange(changed),
      this.registry.onDidChangeServers(() => this.devMode.sync()),
      this.registry.onDidCreateClient(({ handle, client }) => {
        this.logs.get(handle.id).attach(client);
        this.devMode.attach(handle, client);
        // Nothing is recorded before the first Record Session, which creates the recorder.
        this.recorder.current?.attach(handle.id, client);
        serverRequests.configureClient(client, { id: handle.id, name: handle.entry.name });
        // The Roots node shows when the server last asked.
        client.onRootsListed(changed);
      }),
    ];
    for (const s of subscriptions) this.disposables.push({ dispose: () => s.dispose() });
  }

  /**
   * Every server start waits for `ready` before it prepares: the parts that follow a client from
   * its first frame (the timeline, the use cases: loaded after activation) are in place by then.
   * A `ready` that fails is logged and the start goes on.
   */
  waitBeforeStarts(ready: () => Promise<void>): void {
    this.beforeStarts = () => ready().catch((error: unknown) => this.log.error(`Servers start without the use cases: ${errorMessage(error)}`));
  }

  // ---- start policy ----

  startPolicy(): StartPolicy {
    return readStartPolicy(mcpHostSetting<string>('startPolicy', 'onViewVisible'));
  }

  /** The MCP Host view became visible. */
  viewShown(): void {
    this.startIfPolicySays({ kind: 'viewShown' });
  }

  /**
   * When the start policy says so at `moment` (registry/startPolicy.ts), the registry starts every
   * server the user has not stopped, once, and new and changed ones from then on.
   */
  startIfPolicySays(moment: StartMoment): void {
    const why = automaticStartReason(this.startPolicy(), moment);
    if (why !== undefined) void this.registry.startAutomatically(why);
  }

  // ---- the user's commands ----

  start(id: string): Promise<void> {
    return this.gate.asked(id, () => this.registry.start(id));
  }

  stop(id: string): Promise<void> {
    return this.registry.stop(id);
  }

  /** Re-reads the configuration, then restarts the server (unless the new config already restarts it). */
  async restart(id: string): Promise<void> {
    const before = this.registry.get(id);
    const fingerprint = before?.entry.fingerprint;
    const wasActive = before ? before.status.kind === 'running' || before.status.kind === 'starting' : false;
    await this.config.reload('restart');
    const after = this.registry.get(id);
    if (!after) return;
    if (wasActive && after.entry.fingerprint !== fingerprint) return; // update() restarts it
    await this.gate.asked(id, () => this.registry.restart(id));
  }

  async startAll(): Promise<void> {
    await Promise.all(this.registry.list().map((h) => this.start(h.id)));
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.registry.list().map((h) => this.stop(h.id)));
  }

  async restartAll(): Promise<void> {
    await this.config.reload('restart all');
    await Promise.all(this.registry.list().map((h) => this.gate.asked(h.id, () => this.registry.restart(h.id))));
  }

  /** Something the view shows changed outside the registry (a server shared with chat): redraw. */
  viewChanged(): void {
    this._onDidChange.fire();
  }

  /** Re-reads the configuration and every running server's lists. */
  async refresh(): Promise<void> {
    await this.config.reload('refresh');
    await Promise.all(this.registry.list().map((h) => h.refresh()));
    this._onDidChange.fire();
  }

  /** Forgets consent for the given servers (all when omitted) and stops them: the next start asks again. */
  async forgetConsent(ids?: readonly string[]): Promise<void> {
    const affected = await this.gate.forgetConsent(this.registry.list(), ids);
    const running = affected.filter((id) => {
      const h = this.registry.get(id);
      return h !== undefined && h.status.kind !== 'stopped';
    });
    await Promise.all(running.map((id) => this.stop(id)));
  }

  /** What a server would start with (trust, consent, inputs): for Diagnose, which runs it once. */
  async prepareForDiagnosis(id: string): Promise<ResolvedServer | { readonly blocked: string }> {
    const h = this.registry.get(id);
    if (!h) return { blocked: 'it is no longer configured' };
    return this.gate.prepare(h.entry);
  }

  // ---- logs ----

  /** Tells the log redactor a secret kept elsewhere (a registry's sign-in tokens), so no log line shows it. */
  noteSecret(...values: string[]): void {
    this.redactor.add(...values);
  }

  /** Removes known secrets from text: inputs, tokens and every server's own (env, headers), as the logs do. */
  redact(text: string): string {
    return this.registry.redact(this.redactor.redact(text));
  }

  /** A line in a server's output channel (redacted). */
  serverLog(id: string, level: LogSeverity, text: string): void {
    this.logs.get(id).write(level, text);
  }

  /** "MCP: <name>", with the source when two servers share the name. */
  private channelName(id: string): string {
    const entries = [...this.registry.list().map((h) => h.entry), ...this.config.current().servers];
    const entry = entries.find((e) => e.id === id);
    if (!entry) return `MCP: ${id}`;
    const clash = this.registry.list().some((h) => h.id !== id && h.entry.name === entry.name);
    return clash ? `MCP: ${entry.name} (${entry.source.label})` : `MCP: ${entry.name}`;
  }

  private registryLog(serverId: string, level: LogSeverity, text: string): void {
    if (!serverId) {
      this.log[level](this.redactor.redact(text));
      return;
    }
    this.logs.get(serverId).write(level, text);
  }

  /** Stops every server; resolves when no server process is left. */
  async shutdown(): Promise<void> {
    await this.registry.dispose();
  }

  dispose(): void {
    void this.registry.dispose();
    for (const d of this.disposables) d.dispose();
    this.logs.dispose();
  }
}
