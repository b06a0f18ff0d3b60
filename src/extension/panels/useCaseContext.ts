// Shared by every use case a user starts: the host's deps, the schema validator, the call history
// (kept in workspaceState), the read-only documents and the resource file system.
import { mcpHostSetting } from '../trust/restrictedSettings';
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import type { Tool } from '../../client/schemas';
import { McpLocalError } from '../../protocol/errors';
import { CallHistory } from '../../usecases/history';
import { TaskStore } from '../../usecases/taskStore';
import { openableHref } from '../../content/markdown';
import { sharedSchemaValidator } from '../../schema/validator';
import { TimeoutChoice, resolveTimeout } from '../../usecases/timeouts';
import { openExternalUrl } from '../webview/openExternalUrl';
import { ResourceDocuments } from './resourceDocuments';
import type { ServerHandle } from '../../registry/serverRegistry';
import type { UseCaseDeps } from './useCaseDeps';
import { VirtualDocuments } from './virtualDocuments';
import { ServerIcons } from '../tree/serverIcons';

const HISTORY_KEY = 'mcpHost.inspect.history';

export class UseCaseContext implements vscode.Disposable {
  readonly validator = sharedSchemaValidator;
  readonly history: CallHistory;
  /** Running and recent tasks of every server (the tree's Tasks group, the panels). */
  readonly tasks = new TaskStore();
  readonly documents = new VirtualDocuments();
  readonly files: ResourceDocuments;
  /** The servers' own icons (tree rows, panel headers). */
  readonly icons: ServerIcons;
  private saveTimer: NodeJS.Timeout | undefined;
  private readonly _onDidApproveTool = new vscode.EventEmitter<{ readonly serverId: string; readonly tool: Tool }>();
  /** A user ran a tool by hand (its definition as listed then): for tool pinning. */
  readonly onDidApproveTool = this._onDidApproveTool.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly extension: vscode.ExtensionContext,
    readonly deps: UseCaseDeps,
  ) {
    this.history = CallHistory.restore(extension.workspaceState.get(HISTORY_KEY));
    const sub = this.history.onDidChange(() => this.scheduleSave());
    this.disposables.push({ dispose: () => sub.dispose() });
    this.icons = new ServerIcons(extension.globalStorageUri, (text) => deps.hostLog?.(text));
    this.disposables.push(this.icons);
    this.files = new ResourceDocuments(async (serverId, uri) => (await this.client(serverId)).readResource(uri, { timeoutMs: this.timeoutMs(serverId) }), extension.globalStorageUri);
  }

  toolApproved(serverId: string, tool: Tool): void {
    this._onDidApproveTool.fire({ serverId, tool });
  }

  get extensionUri(): vscode.Uri {
    return this.extension.extensionUri;
  }

  server(serverId: string): ServerHandle | undefined {
    return this.deps.servers.get(serverId);
  }

  serverName(serverId: string): string {
    return this.server(serverId)?.entry.name ?? serverId;
  }

  /** The client of the server once it is running (see `ServerHandle.whenReady`), or a local error that says why there is none. */
  async client(serverId: string): Promise<McpClient> {
    const server = this.server(serverId);
    if (!server) throw new McpLocalError('closed', `no server ${JSON.stringify(serverId)} is configured`);
    return server.whenReady();
  }

  /** The client of the server when it is running now (for what a panel shows); undefined otherwise. */
  runningClient(serverId: string): McpClient | undefined {
    const server = this.server(serverId);
    return server?.status.kind === 'running' ? server.client : undefined;
  }

  /** The server's request timeout (its entry's `timeout`, else the setting), in ms. */
  timeoutMs(serverId: string): number {
    return this.timeoutSeconds(serverId) * 1000;
  }

  timeoutSeconds(serverId: string): number {
    return this.timeout(serverId).seconds;
  }

  /**
   * The timeout of a call: its own (`callSeconds`, the tool panel's field), else the server
   * entry's `timeout`, else `mcpHost.requestTimeoutSeconds` for the server's folder.
   */
  timeout(serverId: string, callSeconds?: number): TimeoutChoice {
    const entry = this.server(serverId)?.entry;
    const folder = entry?.source.folder;
    const scope = folder ? vscode.Uri.file(folder.fsPath) : undefined;
    const setting = vscode.workspace.getConfiguration('mcpHost', scope).get<unknown>('requestTimeoutSeconds');
    return resolveTimeout({ call: callSeconds, server: entry?.timeoutSeconds, setting });
  }

  /** `mcpHost.<key>`; a restricted one ignores the workspace's value in Restricted Mode. */
  setting<T>(key: string, fallback: T): T {
    return mcpHostSetting(key, fallback);
  }

  redact(text: string): string {
    return this.deps.redact ? this.deps.redact(text) : text;
  }

  /** Opens a link from server text after the user clicked it: http(s) only, checked again here. */
  async openLink(serverId: string, url: string): Promise<void> {
    const href = openableHref(url);
    if (href === undefined) {
      this.deps.log(serverId, 'warn', `Refused to open a link that is not a plain http(s) URL: ${JSON.stringify(url.slice(0, 200))}`);
      return;
    }
    // VS Code shows its own "open this external website?" prompt for untrusted domains.
    await openExternalUrl(href);
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.extension.workspaceState.update(HISTORY_KEY, this.history.toJSON());
    }, 500);
  }

  dispose(): void {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      void this.extension.workspaceState.update(HISTORY_KEY, this.history.toJSON());
    }
    for (const d of this.disposables) d.dispose();
    this._onDidApproveTool.dispose();
    this.documents.dispose();
    this.files.dispose();
    this.history.dispose();
    this.tasks.dispose();
  }
}
