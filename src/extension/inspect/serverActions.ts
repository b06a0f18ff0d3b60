// Server-level actions: Ping, Set Log Level, Copy Server Entry, Show Capabilities, Server
// Details, and the optional periodic health ping (`mcpHost.healthPingSeconds`).
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import { LoggingLevel, LoggingLevels } from '../../client/schemas';
import { serverDetailsMarkdown, serverEntryJson } from '../../inspect/serverInfo';
import type { InspectContext } from './context';
import type { InspectServer, ServerHealth } from './types';

export async function copyServerEntry(ctx: InspectContext, server: InspectServer): Promise<void> {
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

// ---- Ping, log level, capabilities ----

export async function pingServer(ctx: InspectContext, server: InspectServer): Promise<number> {
  const client = ctx.requireClient(server.id);
  const rtt = await client.ping({ timeoutMs: Math.min(ctx.timeoutMs(server.id), 30_000) });
  ctx.deps.log(server.id, 'info', `Ping: ${rtt.toFixed(1)} ms`);
  void vscode.window.showInformationMessage(`${server.entry.name} answered ping in ${rtt.toFixed(1)} ms.`);
  return rtt;
}

export async function setLogLevel(ctx: InspectContext, server: InspectServer, level?: LoggingLevel): Promise<void> {
  const client = ctx.requireClient(server.id);
  if (!client.serverCapabilities?.logging) throw new Error(`${server.entry.name} does not declare the logging capability`);
  const chosen =
    level ??
    (await vscode.window.showQuickPick([...LoggingLevels], { placeHolder: `Which messages should ${server.entry.name} send (notifications/message)? This level and more severe.` }))?.valueOf();
  if (!chosen) return;
  await client.setLoggingLevel(chosen as LoggingLevel, { timeoutMs: ctx.timeoutMs(server.id) });
  ctx.deps.log(server.id, 'info', `Log level set to ${chosen}.`);
  void vscode.window.setStatusBarMessage(`${server.entry.name}: log level ${chosen}`, 4000);
}

export async function showCapabilities(ctx: InspectContext, server: InspectServer): Promise<void> {
  const client = ctx.requireClient(server.id);
  const raw = client.initializeResult;
  const text = JSON.stringify({ initializeResult: raw, clientCapabilities: client.clientCapabilities }, null, 2);
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

export async function showServerDetails(ctx: InspectContext, server: InspectServer, noise: NoiseRecorder, health: HealthMonitor): Promise<void> {
  const client = ctx.deps.getClient(server.id);
  const text = serverDetailsMarkdown({ server, client, stats: client?.stats(), health: health.get(server.id), noise: noise.get(server.id), redact: (t) => ctx.redact(t), now: Date.now() });
  await ctx.documents.open(`${server.entry.name} details.md`, text, { key: `details:${server.id}` });
}

// ---- health ping ----

/** Pings running servers every `mcpHost.healthPingSeconds` (0 = off) and marks those that stop answering. */
export class HealthMonitor implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  private readonly health = new Map<string, ServerHealth>();
  private readonly inFlight = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly ctx: InspectContext) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpHost.healthPingSeconds')) this.reschedule();
      }),
    );
    this.reschedule();
  }

  get(serverId: string): ServerHealth | undefined {
    return this.health.get(serverId);
  }

  private seconds(): number {
    const v = this.ctx.setting<number>('healthPingSeconds', 0);
    return typeof v === 'number' && v > 0 ? Math.max(1, v) : 0;
  }

  private reschedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const seconds = this.seconds();
    if (!seconds) return;
    this.timer = setInterval(() => void this.tick(seconds), seconds * 1000);
    this.timer.unref?.();
  }

  /** One round of pings (exposed for tests). */
  async tick(seconds = this.seconds() || 30): Promise<void> {
    const servers = this.ctx.deps.listServers();
    await Promise.all(
      servers.map(async (server) => {
        const client = this.ctx.deps.getClient(server.id);
        if (!client || client.state.kind !== 'ready') {
          if (this.health.has(server.id)) this.set(server.id, { kind: 'unknown' });
          return;
        }
        if (this.inFlight.has(server.id)) return;
        this.inFlight.add(server.id);
        try {
          const rtt = await client.ping({ timeoutMs: Math.min(10_000, seconds * 1000) });
          const was = this.health.get(server.id);
          if (was?.kind === 'unresponsive') {
            this.ctx.deps.log(server.id, 'info', `Answering pings again (${rtt.toFixed(1)} ms).`);
            void vscode.window.setStatusBarMessage(`${server.entry.name} is answering again`, 5000);
          }
          this.set(server.id, { kind: 'ok', rttMs: rtt, time: Date.now() });
        } catch (error) {
          if (client.state.kind !== 'ready') return;
          const was = this.health.get(server.id);
          const message = error instanceof Error ? error.message : String(error);
          const failures = was?.kind === 'unresponsive' ? was.failures + 1 : 1;
          this.set(server.id, { kind: 'unresponsive', since: was?.kind === 'unresponsive' ? was.since : Date.now(), failures, error: message });
          this.ctx.deps.log(server.id, 'warn', `Health ping failed (${failures} in a row): ${message}`);
          if (failures === 1) void vscode.window.showWarningMessage(`MCP server ${server.entry.name} is not answering pings: ${message}`);
        } finally {
          this.inFlight.delete(server.id);
        }
      }),
    );
  }

  private set(serverId: string, health: ServerHealth): void {
    const before = this.health.get(serverId);
    this.health.set(serverId, health);
    if (before?.kind !== health.kind) this.ctx.deps.setHealth?.(serverId, health);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
