// Reads the workspace configuration (one read at a time, in order) and hands it to the registry,
// with the start gate's `prepare`; logs what it read and the problems found.
import * as vscode from 'vscode';
import type { ConfigProblem } from '../../config';
import type { PrepareServer, ServerRegistry } from '../../registry';
import { errorMessage } from '../../protocol/errors';
import { WorkspaceConfig, WorkspaceConfigReader } from './workspaceConfig';

export class ConfigReloader implements vscode.Disposable {
  private config: WorkspaceConfig = { servers: [], problems: [], sources: [], folders: {} };
  private reloadChain: Promise<unknown> = Promise.resolve();
  private notedOtherHost = false;
  private loaded = false;
  private readonly reader: WorkspaceConfigReader;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly registry: ServerRegistry,
    private readonly prepare: PrepareServer,
    private readonly log: vscode.LogOutputChannel,
    /** Servers no longer configured (their sign-in sessions go). */
    private readonly removed: (ids: readonly string[]) => void,
    /** Something shown changed (the servers, the problems, "loaded"). */
    private readonly changed: () => void,
  ) {
    this.reader = new WorkspaceConfigReader(log);
    this.subscription = this.reader.onDidChange((reason) => void this.reload(reason));
  }

  /** Reads the configuration and applies it. Resolves once the registry has the new entries (not when their starts settle). */
  reload(reason: string): Promise<void> {
    const run = async () => {
      const before = this.registry.list().map((h) => h.id);
      const config = await this.reader.read();
      this.config = config;
      this.logConfig(config, reason);
      void this.registry.update(config.servers, this.prepare);
      const configured = new Set(config.servers.map((e) => e.id));
      this.removed(before.filter((id) => !configured.has(id)));
      this.loaded = true;
      this.changed();
    };
    const next = this.reloadChain.then(run);
    // Even a failed first read ends "Reading configuration…" (the log says why).
    const settled = () => {
      if (this.loaded) return;
      this.loaded = true;
      this.changed();
    };
    next.then(settled, settled);
    this.reloadChain = next.catch((error: unknown) => this.log.error(`Reading the configuration failed: ${errorMessage(error)}`));
    return next;
  }

  /** The configuration has been read once (until then the tree says it is starting). */
  isLoaded(): boolean {
    return this.loaded;
  }

  problems(): readonly ConfigProblem[] {
    return this.config.problems;
  }

  /** The configuration last read. */
  current(): WorkspaceConfig {
    return this.config;
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

  dispose(): void {
    this.subscription.dispose();
    this.reader.dispose();
  }
}
