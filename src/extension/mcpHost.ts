// The VS Code side of MCP Host: feeds the workspace configuration to the ServerRegistry and
// answers its `prepare` with Workspace Trust, consent and inputs; supplies roots; applies the
// start policy; wires the registry's logs and clients into per-server output channels.
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Root, RootsProvider } from '../client/client';
import { isProtocolPreference } from '../client/era';
import { ConfigProblem, ConfigSource, InputDefinition, ServerEntry, VariableContext, resolveEntry, sourceKey } from '../config';
import { PrepareResult, ServerHandle, ServerRegistry, maskHeaderValue } from '../registry';
import { AuthError } from '../auth/errors';
import { SignInState } from '../auth/session';
import { transportFactory } from '../transport/transportFactory';
import { ConsentStore } from './consentStore';
import { ConsentFacts, StatusKind } from './format';
import { InputStore } from './inputStore';
import { Redactor } from './logFormat';
import { rootsLogLines, workspaceRoots } from './roots';
import { openExternalUrl } from './openExternalUrl';
import { askConsent, askForInput, askSignIn } from './prompts';
import { SecretTokenStore } from './secretTokenStore';
import { ServerSignIns } from './serverSignIns';
import { editorRedirect } from './signInRedirect';
import { ServerLogs } from './serverLogs';
import { ServerHealth, ServersTreeModel, UNTRUSTED_REASON, WAITING_CONSENT_REASON, WAITING_INPUT_REASON } from './serversTree';
import { WorkspaceConfig, WorkspaceConfigReader } from './workspaceConfig';
import { ServeFeatures, createServeFeatures } from './serve';
import { errorMessage } from '../protocol/errors';
import type { LogSeverity } from '../protocol/logging';

export type StartPolicy = 'onViewVisible' | 'onStartup' | 'never';

export const DENIED_REASON = 'You denied this server permission to run — start it to be asked again, or run "MCP Host: Revoke Server Consent"';
export const DISMISSED_REASON = 'Waiting for your consent — start the server to be asked again';
export const SIGN_IN_REASON = 'Sign in required — click the server (or "Sign In") to sign in in your browser';

function setting<T>(key: string, fallback: T): T {
  return vscode.workspace.getConfiguration('mcpHost').get<T>(key, fallback);
}

export class McpHost implements ServersTreeModel, RootsProvider, vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  /** The servers; features ask a server's handle for its client (`whenReady`). */
  readonly registry: ServerRegistry;
  private readonly reader: WorkspaceConfigReader;
  private readonly consent: ConsentStore;
  private readonly inputs: InputStore;
  private readonly redactor = new Redactor();
  /** MCP authorization of remote servers; tokens in SecretStorage. */
  private readonly signIns: ServerSignIns;
  readonly logs: ServerLogs;
  /** Sampling and elicitation for this host's servers (the tool-call UI uses its URL elicitation). */
  readonly serve: ServeFeatures;
  private config: WorkspaceConfig = { servers: [], problems: [], sources: [], folders: {} };
  private reloadChain: Promise<unknown> = Promise.resolve();
  /** The start policy has fired: new and fixed servers start on their own from now on. */
  private autoStarted = false;
  /** Servers the user stopped: a config change does not start them again. */
  private readonly userStopped = new Set<string>();
  /** Servers whose next `prepare` comes from the user's Start: a denied or dismissed consent is asked again. */
  private readonly askAgain = new Set<string>();
  /** The consent dialog was closed without an answer, for this fingerprint: do not ask again on its own. */
  private readonly dismissed = new Map<string, string>();
  /** Servers whose start waits on a dialog (their own or one queued before theirs), and for what. */
  private readonly waitingForUser = new Map<string, 'consent' | 'input'>();
  /** Chain of prepares that need the user (consent, inputs): one dialog at a time. */
  private userTurns: Promise<unknown> = Promise.resolve();
  private notedOtherHost = false;
  private loaded = false;

  private readonly healthById = new Map<string, ServerHealth>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange: vscode.Event<void> = this._onDidChange.event;

  constructor(
    context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.consent = new ConsentStore(context.workspaceState);
    this.inputs = new InputStore(context.secrets, context.workspaceState, askForInput, (value) => this.redactor.add(value));
    this.logs = new ServerLogs(
      this.redactor,
      () => setting('log.maxPayloadChars', 4000),
      (id) => this.channelName(id),
    );
    this.reader = new WorkspaceConfigReader(log);
    this.signIns = new ServerSignIns({
      // Every token and client secret read or written is also hidden from every log line.
      store: new SecretTokenStore(context.secrets, (...values) => this.redactor.add(...values)),
      redirect: (id, port) => editorRedirect(port, (text) => this.logs.get(id).write('info', `sign-in: ${text}`)),
      userAgent: async (url) => {
        if (!(await openExternalUrl(url.href))) throw new AuthError('redirect', 'the browser was not opened');
      },
      confirmStepUp: (id, request) => {
        const h = this.registry.get(id);
        const url = h?.resolved?.type === 'stdio' ? undefined : h?.resolved?.url;
        return url ? askSignIn({ name: h!.entry.name, serverUrl: url, issuer: request.issuer, reason: 'step-up', ...(request.scopes ? { scopes: request.scopes } : {}) }) : Promise.resolve(false);
      },
      log: (id, level, text) => this.logs.get(id).write(level, `sign-in: ${text}`),
      changed: () => this.fire(),
    });
    const restart = {
      // Getters: the registry reads these at each crash, so a settings change applies at once.
      get maxRestarts() {
        return Math.max(0, setting('restart.maxRestarts', 3));
      },
      get windowMinutes() {
        return Math.max(0, setting('restart.windowMinutes', 3));
      },
    };
    // Sampling and elicitation: declared in every initialize, answered with the user in control.
    const serve = (this.serve = createServeFeatures(context, { log: (id, level, text) => this.logs.get(id).write(level, text), showLog: (id) => this.logs.get(id).show() }));
    this.disposables.push(serve);
    const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    this.registry = new ServerRegistry({
      clientInfo: { name: 'mcp-host', title: 'MCP Host', version },
      createTransport: transportFactory({
        // A configured Authorization header is the server's credential: no sign-in over it.
        auth: (resolved, entry) => (entry && !Object.keys(resolved.headers).some((name) => name.toLowerCase() === 'authorization') ? this.signIns.provider(entry.id, resolved) : undefined),
      }),
      roots: this,
      restart,
      get requestTimeoutMs() {
        return Math.max(1, setting('requestTimeoutSeconds', 60)) * 1000;
      },
      autoStart: false,
      capabilities: serve.capabilities,
      get protocol() {
        const pinned = setting<string>('protocolVersion', 'auto');
        return isProtocolPreference(pinned) ? pinned : 'auto';
      },
      serverRequests: (server) => serve.handlersFor(server),
      log: (serverId, level, text) => this.registryLog(serverId, level, text),
    });
    this.disposables.push(
      this._onDidChange,
      this.reader,
      this.reader.onDidChange((reason) => void this.reload(reason)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.log.info('Workspace trust granted: servers defined in this workspace may start now.');
        void this.reload('workspace trust granted');
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.logRoots('workspace folders changed');
        void this.registry.rootsChanged();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpHost.startPolicy') && this.startPolicy() === 'onStartup') this.autoStart('mcpHost.startPolicy is onStartup');
        if (e.affectsConfiguration('mcpHost')) this.fire();
      }),
    );
    const subscriptions = [
      this.registry.onDidChange(() => this.fire()),
      this.registry.onDidChangeServers(() => this.fire()),
      this.registry.onDidCreateClient(({ handle, client }) => {
        this.logs.get(handle.id).attach(client);
        serve.configureClient(client, { id: handle.id, name: handle.entry.name });
        // The Roots node shows when the server last asked.
        client.onRootsListed(() => this.fire());
      }),
    ];
    for (const s of subscriptions) this.disposables.push({ dispose: () => s.dispose() });
    void this.inputs.storedValues().then((values) => this.redactor.add(...values));
  }

  // ---- configuration ----

  /** Reads the configuration and applies it. Resolves once the registry has the new entries (not when their starts settle). */
  reload(reason: string): Promise<void> {
    const run = async () => {
      const before = new Map(this.registry.list().map((h) => [h.id, h.entry.fingerprint]));
      const config = await this.reader.read();
      this.config = config;
      this.logConfig(config, reason);
      void this.registry.update(config.servers, (entry) => this.prepare(entry));
      // A server no longer configured takes its sign-in session along (its stored tokens stay until Sign Out).
      const configured = new Set(config.servers.map((e) => e.id));
      for (const id of before.keys()) if (!configured.has(id)) this.signIns.forget(id);
      this.loaded = true;
      if (this.autoStarted) {
        for (const h of this.registry.list()) {
          const previous = before.get(h.id);
          const fresh = previous === undefined || previous !== h.entry.fingerprint;
          if (fresh && !this.userStopped.has(h.id) && (h.status.kind === 'stopped' || h.status.kind === 'error')) void this.registry.start(h.id);
        }
      }
      this.fire();
    };
    const next = this.reloadChain.then(run);
    // Even a failed first read ends "Starting servers…" (the log says why).
    const settled = () => {
      if (this.loaded) return;
      this.loaded = true;
      this.fire();
    };
    next.then(settled, settled);
    this.reloadChain = next.catch((error: unknown) => this.log.error(`Reading the configuration failed: ${errorMessage(error)}`));
    return next;
  }

  private logConfig(config: WorkspaceConfig, reason: string): void {
    const sources = config.sources.map((s) => s.label).join(', ') || 'none';
    this.log.info(`Configuration read (${reason}): ${config.servers.length} server(s) from ${sources}.`);
    this.noteOtherHost(config);
    for (const p of config.problems) {
      const where = p.line > 0 ? `${p.source.label}:${p.line}:${p.column}` : p.source.label;
      this.log[p.severity === 'warning' ? 'warn' : 'error'](`${where}: ${p.message}`);
    }
  }

  /**
   * VS Code's own MCP support reads .vscode/mcp.json too, and nothing tells an extension which
   * entries it started: say so once, unless its setting keeps it from starting any.
   */
  private noteOtherHost(config: WorkspaceConfig): void {
    if (this.notedOtherHost || !config.servers.some((e) => e.source.kind === 'vscode-mcp-json')) return;
    const access = vscode.workspace.getConfiguration('chat.mcp').get<string>('access', 'all');
    if (access === 'none') return;
    this.notedOtherHost = true;
    this.log.info(
      'VS Code\'s own MCP support also reads .vscode/mcp.json and can start the same servers itself ("Start" above each entry in the file). Those are separate processes, which MCP Host neither manages nor sees. To leave these servers to MCP Host, set "chat.mcp.access" to "none" in the workspace settings.',
    );
  }

  servers(): readonly ServerHandle[] {
    return this.registry.list();
  }

  isLoaded(): boolean {
    return this.loaded;
  }

  problems(): readonly ConfigProblem[] {
    return this.config.problems;
  }

  // ---- start policy ----

  startPolicy(): StartPolicy {
    const value = setting<string>('startPolicy', 'onViewVisible');
    return value === 'onStartup' || value === 'never' ? value : 'onViewVisible';
  }

  /** The MCP Host view became visible. */
  viewShown(): void {
    if (this.startPolicy() === 'onViewVisible') this.autoStart('the MCP Host view was shown');
  }

  /** Starts every server the user has not stopped, once; afterwards new and changed servers start on their own. */
  autoStart(why: string): void {
    if (this.autoStarted) return;
    this.autoStarted = true;
    void this.reloadChain.then(() => {
      this.log.info(`Starting the configured servers (${why}).`);
      for (const h of this.registry.list()) {
        if (!this.userStopped.has(h.id) && (h.status.kind === 'stopped' || h.status.kind === 'error')) void this.registry.start(h.id);
      }
    });
  }

  // ---- commands ----

  async start(id: string): Promise<void> {
    this.userStopped.delete(id);
    this.askAgain.add(id);
    try {
      await this.registry.start(id);
    } finally {
      this.askAgain.delete(id);
    }
  }

  async stop(id: string): Promise<void> {
    this.userStopped.add(id);
    await this.registry.stop(id);
  }

  /** Re-reads the configuration, then restarts the server (unless the new config already restarts it). */
  async restart(id: string): Promise<void> {
    const before = this.registry.get(id);
    const fingerprint = before?.entry.fingerprint;
    const wasActive = before ? before.status.kind === 'running' || before.status.kind === 'starting' : false;
    await this.reload('restart');
    const after = this.registry.get(id);
    if (!after) return;
    if (wasActive && after.entry.fingerprint !== fingerprint) return; // update() restarts it
    this.userStopped.delete(id);
    this.askAgain.add(id);
    try {
      await this.registry.restart(id);
    } finally {
      this.askAgain.delete(id);
    }
  }

  async startAll(): Promise<void> {
    await Promise.all(this.registry.list().map((h) => this.start(h.id)));
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.registry.list().map((h) => this.stop(h.id)));
  }

  async restartAll(): Promise<void> {
    await this.reload('restart all');
    await Promise.all(
      this.registry.list().map(async (h) => {
        this.userStopped.delete(h.id);
        this.askAgain.add(h.id);
        try {
          await this.registry.restart(h.id);
        } finally {
          this.askAgain.delete(h.id);
        }
      }),
    );
  }

  /** Re-reads the configuration and every running server's lists. */
  async refresh(): Promise<void> {
    await this.reload('refresh');
    await Promise.all(this.registry.list().map((h) => h.refresh()));
    this.fire();
  }

  /** Servers with a remembered consent decision. */
  consentServerIds(): string[] {
    return this.consent.ids();
  }

  /** Forgets consent for the given servers (all when omitted) and stops them: the next start asks again. */
  async revokeConsent(ids?: readonly string[]): Promise<void> {
    const affected = ids ?? this.registry.list().filter((h) => h.entry.source.workspaceDefined).map((h) => h.id);
    await this.consent.revoke(ids);
    for (const id of affected) this.dismissed.delete(id);
    this.log.info(`Consent revoked for ${ids ? ids.join(', ') : 'every server'}.`);
    await Promise.all(
      affected.map((id) => {
        const h = this.registry.get(id);
        if (!h || h.status.kind === 'stopped') return undefined;
        return this.stop(id);
      }),
    );
  }

  async clearInputs(): Promise<number> {
    const count = this.inputs.count();
    await this.inputs.clear();
    // The redactor keeps the values: running servers may still print them.
    this.log.info(`Cleared ${count} stored input value(s).`);
    return count;
  }

  // ---- sign-in (MCP authorization) ----

  /**
   * The user's "Sign In": discovery, a prompt naming the authorization server, the browser, then
   * the server (re)started with the new token. A server that never ran in this window is started
   * first: a stored token may be all it needs.
   */
  async signIn(id: string): Promise<void> {
    const h = this.registry.get(id);
    if (!h || h.entry.config.type === 'stdio') throw new Error(`"${h?.entry.name ?? id}" is not a remote server: it has no sign-in`);
    if (!this.signIns.hasSession(id)) {
      await this.start(id);
      if (!this.signIns.needsSignIn(id)) return;
    }
    const resolved = h.resolved?.type === 'stdio' ? undefined : h.resolved;
    if (!resolved) throw new Error(`"${h.entry.name}" has not been started yet`);
    const channel = this.logs.get(id);
    const request = await this.signIns.signInRequest(id);
    if (!(await askSignIn({ name: h.entry.name, serverUrl: resolved.url, issuer: request.issuer, reason: 'sign-in', ...(request.scopes ? { scopes: request.scopes } : {}) }))) {
      channel.write('info', 'sign-in: cancelled before the browser opened');
      return;
    }
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `MCP Host: signing in to "${h.entry.name}" — finish in your browser…` }, () => this.signIns.signIn(id));
    channel.write('info', 'sign-in: finished; starting the server with the new token');
    this.userStopped.delete(id);
    await (h.status.kind === 'running' ? this.registry.restart(id) : this.registry.start(id));
  }

  /** The user's "Sign Out": stops the server and deletes its tokens and registered client; the row then asks to sign in. */
  async signOut(id: string): Promise<void> {
    const h = this.registry.get(id);
    if (!h || h.entry.config.type === 'stdio') throw new Error(`"${h?.entry.name ?? id}" is not a remote server: it has no sign-in`);
    await this.stop(id);
    const url = h.resolved?.type === 'stdio' || !h.resolved ? h.entry.config.url : h.resolved.url;
    await this.signIns.signOut(id, url);
    this.fire();
  }

  canSignOut(id: string): boolean {
    const state = this.signIns.state(id);
    return state !== undefined && (state.signedIn || state.registration !== undefined);
  }

  /** Server Details' sign-in section. */
  signInState(id: string): (SignInState & { readonly required: boolean }) | undefined {
    const state = this.signIns.state(id);
    return state && { ...state, required: this.signIns.needsSignIn(id) };
  }

  // ---- prepare: trust, consent, inputs ----

  /**
   * The registry's `prepare`: trust, then consent, then variables and inputs. Whatever needs the
   * user (a consent dialog, an input prompt) runs one server at a time, in the order the servers
   * were started (the config's order), so dialogs never pile up or race each other.
   */
  private prepare(entry: ServerEntry): Promise<PrepareResult> {
    const manual = this.askAgain.delete(entry.id);
    if (entry.source.workspaceDefined) {
      if (!vscode.workspace.isTrusted) return Promise.resolve({ blocked: UNTRUSTED_REASON });
      const decision = this.consent.get(entry.id, entry.fingerprint);
      if (decision === 'denied' && !manual) return Promise.resolve({ blocked: DENIED_REASON });
      if (decision !== 'allowed' && !manual && this.dismissed.get(entry.id) === entry.fingerprint) return Promise.resolve({ blocked: DISMISSED_REASON });
    }
    const needsConsent = entry.source.workspaceDefined && this.consent.get(entry.id, entry.fingerprint) !== 'allowed';
    if (!needsConsent && entry.inputs.length === 0) return this.resolve(entry);
    // Until its dialogs are answered the server shows "waiting for consent", not "starting".
    this.setWaiting(entry.id, needsConsent ? 'consent' : 'input');
    const run = () => this.prepareWithUser(entry);
    const next = this.userTurns.then(run, run).finally(() => this.setWaiting(entry.id, undefined));
    this.userTurns = next.catch(() => undefined);
    return next;
  }

  private setWaiting(id: string, what: 'consent' | 'input' | undefined): void {
    if (what) this.waitingForUser.set(id, what);
    else this.waitingForUser.delete(id);
    this.fire();
  }

  private async prepareWithUser(entry: ServerEntry): Promise<PrepareResult> {
    // Asked again here: an earlier turn may have answered for this very entry.
    if (entry.source.workspaceDefined && this.consent.get(entry.id, entry.fingerprint) !== 'allowed') {
      this.log.info(`Asking consent to start "${entry.name}" (${entry.source.label}).`);
      const answer = await askConsent(await this.consentFacts(entry));
      this.log.info(`Consent for "${entry.name}": ${answer}.`);
      if (answer === 'dismissed') {
        this.dismissed.set(entry.id, entry.fingerprint);
        return { blocked: DISMISSED_REASON };
      }
      this.dismissed.delete(entry.id);
      await this.consent.set(entry.id, entry.fingerprint, answer);
      if (answer === 'denied') return { blocked: DENIED_REASON };
      if (entry.inputs.length > 0) this.setWaiting(entry.id, 'input');
    }
    return this.resolve(entry);
  }

  /**
   * What the consent dialog shows: the command line or URL as it will run, with `${input:…}`
   * left in place, so nothing is asked (and no secret is shown) before the user agrees. Secret
   * header values are shown as written, their literal credentials masked.
   */
  private async consentFacts(entry: ServerEntry): Promise<ConsentFacts> {
    const preview = await resolveEntry(entry, this.variableContext(entry, async (id) => `\${input:${id}}`), { preview: true });
    const base = { name: entry.name, sourceLabel: entry.source.label };
    if (preview.type === 'stdio') return { ...base, command: preview.command, args: preview.args, cwd: preview.cwd, envNames: preview.envNames };
    const configHeaders = entry.config.type === 'stdio' ? {} : (entry.config.headers ?? {});
    const secret = new Set(preview.secretHeaderNames);
    const headers = Object.entries(preview.headers).map(([name, value]) => ({ name, value: secret.has(name) ? maskHeaderValue(name, configHeaders[name] ?? '') : value }));
    return { ...base, type: preview.type, url: preview.url, headers };
  }

  /** Substitutes variables, asking for inputs not stored yet. */
  private async resolve(entry: ServerEntry): Promise<PrepareResult> {
    const resolved = await resolveEntry(
      entry,
      this.variableContext(entry, (id) => {
        const definition: InputDefinition = entry.inputs.find((d) => d.id === id) ?? { id, type: 'promptString' };
        return this.inputs.resolve(entry.source.file ?? sourceKey(entry.source), entry.source.label, definition);
      }),
    );
    this.redactor.add(...resolved.secretValues);
    return resolved;
  }

  private variableContext(entry: ServerEntry, resolveInput: (id: string) => Promise<string>): VariableContext {
    const folders = this.config.folders;
    return {
      workspaceFolder: entry.source.folder?.fsPath ?? Object.values(folders)[0],
      folders,
      userHome: os.homedir(),
      env: process.env,
      // Restricted Mode: servers from the user's settings still run, but not in (or from) these.
      untrustedFolders: vscode.workspace.isTrusted ? [] : Object.values(folders),
      resolveInput,
    };
  }

  // ---- roots ----

  /** Every workspace folder on disk is a root; other schemes are skipped. */
  listRoots(): Root[] {
    return this.currentRoots();
  }

  currentRoots(): Root[] {
    return workspaceRoots(vscode.workspace.workspaceFolders).roots;
  }

  logRoots(why: string): void {
    for (const line of rootsLogLines(workspaceRoots(vscode.workspace.workspaceFolders), why)) this.log.info(line);
  }

  // ---- tree model ----

  displayStatus(h: ServerHandle): { kind: StatusKind; reason?: string } {
    const shown = this.registryStatus(h);
    if ((shown.kind === 'error' || shown.kind === 'stopped') && this.signIns.needsSignIn(h.id)) return { kind: 'signin', reason: SIGN_IN_REASON };
    return shown;
  }

  private registryStatus(h: ServerHandle): { kind: StatusKind; reason?: string } {
    const status = h.status;
    switch (status.kind) {
      case 'stopped':
        if (h.entry.source.workspaceDefined && !vscode.workspace.isTrusted) return { kind: 'blocked', reason: UNTRUSTED_REASON };
        return { kind: 'stopped' };
      case 'starting':
        switch (this.waitingForUser.get(h.id)) {
          case 'consent':
            return { kind: 'waiting', reason: WAITING_CONSENT_REASON };
          case 'input':
            return { kind: 'waiting', reason: WAITING_INPUT_REASON };
          default:
            break;
        }
        return { kind: 'starting' };
      case 'running':
      case 'stopping':
        return { kind: status.kind };
      case 'error':
        return { kind: 'error', reason: status.message };
      case 'blocked':
        return { kind: status.kind, reason: status.reason };
      default: {
        const never: never = status;
        return never;
      }
    }
  }

  originLabel(source: ConfigSource): string {
    const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    let short: string;
    switch (source.kind) {
      case 'vscode-mcp-json':
        short = '.vscode/mcp.json';
        break;
      case 'dot-mcp-json':
        short = '.mcp.json';
        break;
      case 'settings':
        short = source.scope === 'user' ? 'User settings' : source.scope === 'folder' && multi ? 'Folder settings' : 'Workspace settings';
        break;
      default: {
        const never: never = source.kind;
        short = String(never);
      }
    }
    return multi && source.folder ? `${short} (${source.folder.name})` : short;
  }

  redact(text: string): string {
    return this.redactor.redact(text);
  }

  serverHealth(id: string): ServerHealth | undefined {
    return this.healthById.get(id);
  }

  /** A line in a server's output channel (redacted). */
  serverLog(id: string, level: LogSeverity, text: string): void {
    this.logs.get(id).write(level, text);
  }

  /** Health from a periodic ping; an unresponsive running server shows it in the tree. */
  setHealth(id: string, health: ServerHealth): void {
    this.healthById.set(id, health);
    this.fire();
  }

  /** "MCP: <name>", with the source when two servers share the name. */
  private channelName(id: string): string {
    const entries = [...this.registry.list().map((h) => h.entry), ...this.config.servers];
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

  private fire(): void {
    this._onDidChange.fire();
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

