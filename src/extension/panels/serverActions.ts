// Server-level actions: Ping, Set Log Level, Copy Server Entry, Show Capabilities, Server
// Details, and the optional periodic health ping (`mcpHost.healthPingSeconds`). This layer asks
// and shows; what they do is in src/usecases/serverActions.ts.
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import { LoggingLevels } from '../../client/schemas';
import { HealthChange, HealthMonitor as PingMonitor, capabilitiesJson, pingServer as ping, requireLogging, setLogLevel as sendLogLevel } from '../../usecases/serverActions';
import { serverDetails, serverEntryJson } from '../../usecases/serverInfo';
import { DetailsInboundSchema } from '../../usecases/panelMessages';
import { parseWebviewMessage } from '../../content/webviewMessages';
import { capabilitiesText } from '../tree/serverRowText';
import { DETAILS_FEATURE } from '../webview/webviewPage';
import { WebviewOutbox, webviewHtml, webviewOptions } from '../webview/webviewPanel';
import type { UseCaseContext } from './useCaseContext';
import type { ServerHandle } from '../../registry/serverRegistry';
import type { ServerHealth } from './useCaseDeps';
import { PANEL_VIEW_TYPES, openAsPreview, rememberForRestore } from './panelTabs';
import { sandboxRequirement } from '../trust/sandboxSettings';
import { describeSandbox, sandboxPolicyOf } from '../../sandbox/policy';

export async function copyServerEntry(ctx: UseCaseContext, server: ServerHandle): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'mcpServers', description: '.mcp.json, Claude Desktop, Claude Code, Cursor', format: 'mcpServers' as const },
      { label: 'servers + inputs', description: '.vscode/mcp.json', format: 'vscode' as const },
    ],
    { placeHolder: `Copy ${server.entry.name}'s entry in which format?` },
  );
  if (!picked) return;
  await vscode.env.clipboard.writeText(serverEntryJson(server.entry, picked.format));
  void vscode.window.setStatusBarMessage(`Copied the entry of ${server.entry.name} (${picked.label})`, 4000);
}

// ---- Ping, log level, capabilities (the logic is in src/usecases/serverActions.ts) ----

export async function pingServer(ctx: UseCaseContext, server: ServerHandle): Promise<number> {
  const { rttMs, message } = await ping(await ctx.client(server.id), server.entry.name, ctx.timeoutMs(server.id));
  ctx.deps.log(server.id, 'info', `Ping: ${rttMs.toFixed(1)} ms`);
  void vscode.window.showInformationMessage(message);
  return rttMs;
}

export async function setLogLevel(ctx: UseCaseContext, server: ServerHandle, level?: unknown): Promise<void> {
  const client = await ctx.client(server.id);
  requireLogging(client, server.entry.name);
  const chosen = level ?? (await vscode.window.showQuickPick([...LoggingLevels], { placeHolder: `Which messages should ${server.entry.name} send (notifications/message)? This level and more severe.` }));
  if (!chosen) return;
  const sent = await sendLogLevel(client, server.entry.name, chosen, ctx.timeoutMs(server.id));
  ctx.deps.log(server.id, 'info', `Log level set to ${sent}.`);
  void vscode.window.setStatusBarMessage(`${server.entry.name}: log level ${sent}`, 4000);
}

export async function showCapabilities(ctx: UseCaseContext, server: ServerHandle): Promise<void> {
  const text = capabilitiesJson(await ctx.client(server.id));
  await ctx.documents.open(`${server.entry.name} capabilities.json`, text, { key: `capabilities:${server.id}` });
}

// ---- details ----

/** Remembers the last stdout noise lines of each client, for Server Details. */
export class NoiseRecorder implements vscode.Disposable {
  private readonly lines = new Map<string, string[]>();
  private readonly hooked = new WeakSet<McpClient>();
  private readonly disposables: vscode.Disposable[] = [];

  /** Starts recording a client's noise (idempotent). */
  watch(serverId: string, client: McpClient): void {
    if (this.hooked.has(client)) return;
    this.hooked.add(client);
    this.lines.set(serverId, []);
    const sub = client.onTransportLog((l) => {
      if (l.kind !== 'noise' && l.kind !== 'invalid-json' && l.kind !== 'oversize') return;
      const list = this.lines.get(serverId) ?? [];
      list.push(`${new Date().toLocaleTimeString()} [${l.kind}] ${l.text.slice(0, 500)}`);
      if (list.length > 20) list.shift();
      this.lines.set(serverId, list);
    });
    const closed = client.onClose(() => sub.dispose());
    this.disposables.push({ dispose: () => (sub.dispose(), closed.dispose()) });
  }

  get(serverId: string): readonly string[] {
    return this.lines.get(serverId) ?? [];
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

export const DETAILS_VIEW_TYPE = PANEL_VIEW_TYPES.details;

/**
 * Server Details, rendered: one webview per server in the style of the tool panel. It shows the
 * figures of the moment it was opened (or refreshed) and follows the server's restarts.
 */
export class DetailsPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, DetailsPanel>();

  /** Opens (or reveals) a server's details; a new panel opens as a preview tab (panelTabs.ts). */
  static show(ctx: UseCaseContext, server: ServerHandle, noise: NoiseRecorder, health: HealthMonitor): DetailsPanel {
    const existing = DetailsPanel.panels.get(server.id);
    if (existing) {
      existing.panel.reveal();
      existing.update();
      return existing;
    }
    const panel = DetailsPanel.track(new DetailsPanel(ctx, server.id, noise, health));
    openAsPreview(panel.panel, DETAILS_VIEW_TYPE);
    return panel;
  }

  /** Builds a server's details again in a panel VS Code restored after a reload. */
  static restore(ctx: UseCaseContext, restored: vscode.WebviewPanel, serverId: string, noise: NoiseRecorder, health: HealthMonitor): void {
    if (DetailsPanel.panels.has(serverId)) restored.dispose();
    else DetailsPanel.track(new DetailsPanel(ctx, serverId, noise, health, restored));
  }

  private static track(panel: DetailsPanel): DetailsPanel {
    DetailsPanel.panels.set(panel.serverId, panel);
    panel.panel.onDidDispose(() => DetailsPanel.panels.delete(panel.serverId));
    return panel;
  }

  static disposeAll(): void {
    for (const p of [...DetailsPanel.panels.values()]) p.dispose();
  }

  readonly panel: vscode.WebviewPanel;
  private readonly outbox: WebviewOutbox<{ type: 'details'; view: ReturnType<typeof serverDetails> }>;
  private readonly disposables: vscode.Disposable[] = [];

  private constructor(
    private readonly ctx: UseCaseContext,
    private readonly serverId: string,
    private readonly noise: NoiseRecorder,
    private readonly health: HealthMonitor,
    restored?: vscode.WebviewPanel,
  ) {
    const title = `${ctx.serverName(serverId)} — details`;
    this.panel = restored ?? vscode.window.createWebviewPanel(DETAILS_VIEW_TYPE, title, vscode.ViewColumn.Active, webviewOptions(ctx.extensionUri));
    if (restored) restored.webview.options = webviewOptions(ctx.extensionUri);
    this.panel.webview.html = webviewHtml(this.panel.webview, ctx.extensionUri, title, DETAILS_FEATURE);
    this.outbox = new WebviewOutbox(this.panel.webview);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((raw: unknown) => {
        const parsed = parseWebviewMessage(DetailsInboundSchema, raw);
        if (!parsed.ok) return ctx.deps.log(serverId, 'warn', `Ignored a malformed message from Server Details: ${parsed.reason}`);
        if (parsed.message.type === 'ready') {
          this.outbox.open();
          rememberForRestore(this.panel, { kind: 'details', serverId });
        }
        this.update();
      }),
      this.panel.onDidDispose(() => this.dispose()),
    );
    if (ctx.deps.onDidChangeServers) this.disposables.push(ctx.deps.onDidChangeServers(() => this.update()));
  }

  /** Sends the figures of now. */
  update(): void {
    const server = this.ctx.server(this.serverId);
    if (!server) return;
    const client = this.ctx.runningClient(this.serverId);
    const view = serverDetails({
      server,
      client,
      ...(client ? { capabilities: capabilitiesText(client.serverCapabilities) } : {}),
      stats: client?.stats(),
      health: this.health.get(this.serverId),
      signIn: this.ctx.deps.signInState?.(this.serverId),
      stateText: this.ctx.deps.stateText?.(this.serverId),
      ...(server.entry.config.type === 'stdio' ? { sandbox: describeSandbox(sandboxPolicyOf(server.entry, sandboxRequirement())) } : {}),
      noise: this.noise.get(this.serverId),
      redact: (t) => this.ctx.redact(t),
      now: Date.now(),
    });
    this.outbox.post({ type: 'details', view });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

export function showServerDetails(ctx: UseCaseContext, server: ServerHandle, noise: NoiseRecorder, health: HealthMonitor): void {
  DetailsPanel.show(ctx, server, noise, health);
}

// ---- health ping ----

/** The periodic health ping (`mcpHost.healthPingSeconds`, 0 = off, at least 1 s), with its messages. */
export class HealthMonitor implements vscode.Disposable {
  private readonly monitor: PingMonitor;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly ctx: UseCaseContext) {
    this.monitor = new PingMonitor({
      listServers: () => ctx.deps.servers.list().map((s) => ({ id: s.id, name: s.entry.name })),
      getClient: (id) => ctx.runningClient(id),
      intervalMs: () => this.seconds() * 1000,
      log: (id, level, text) => ctx.deps.log(id, level, text),
    });
    this.disposables.push(
      this.monitor,
      this.monitor.onDidChange((e) => this.changed(e)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpHost.healthPingSeconds')) this.monitor.reschedule();
      }),
    );
  }

  get(serverId: string): ServerHealth | undefined {
    return this.monitor.get(serverId);
  }

  /** One round of pings (exposed for tests). */
  tick(): Promise<void> {
    return this.monitor.tick();
  }

  private seconds(): number {
    const v = this.ctx.setting<number>('healthPingSeconds', 0);
    return typeof v === 'number' && v > 0 ? Math.max(1, v) : 0;
  }

  private changed(e: HealthChange): void {
    if (e.health.kind === 'unresponsive') void vscode.window.showWarningMessage(`MCP server ${e.name} is not answering pings: ${e.health.error}`);
    else if (e.health.kind === 'ok' && e.previous?.kind === 'unresponsive') void vscode.window.setStatusBarMessage(`${e.name} is answering again`, 5000);
    this.ctx.deps.setHealth?.(e.serverId, e.health);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
