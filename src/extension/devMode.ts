// Dev mode of a server entry (`"dev": { "watch": GLOB, "debug": { "type": "node" } }`, VS Code's
// field): a change of a watched file restarts the server (debounced; the tree keeps its rows and
// "What Changed" shows what the restart changed), and a node server starts with Node's inspector
// on a free loopback port, which the debugger attaches to.
import * as vscode from 'vscode';
import type { ResolvedServer, ServerEntry } from '../config';
import type { McpClient } from '../client/client';
import type { LogSeverity } from '../protocol/logging';
import type { ServerHandle } from '../registry/serverRegistry';

/** Changes within this long make one restart (an editor's save writes several files). */
const DEBOUNCE_MS = 300;
/** What Node prints when its inspector listens. */
const INSPECTOR_LISTENING = /Debugger listening on ws:\/\/(127\.0\.0\.1|\[::1\]|localhost):(\d+)\//;

export interface DevModeHost {
  servers(): readonly ServerHandle[];
  /** Restarts a server as the user's Restart does. */
  restart(id: string): Promise<void>;
  log(id: string, level: LogSeverity, text: string): void;
}

interface Watch {
  readonly glob: string;
  readonly folder: string;
  readonly watcher: vscode.FileSystemWatcher;
  readonly subscriptions: vscode.Disposable[];
  timer?: ReturnType<typeof setTimeout>;
  changed?: string;
}

/** Watches the files of entries with `dev.watch`, and attaches the debugger to `dev.debug` servers. */
export class DevMode implements vscode.Disposable {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly host: DevModeHost) {}

  /** Follows the configuration: a watcher for each entry with `dev.watch`, none for the others. */
  sync(): void {
    const wanted = new Map<string, ServerHandle>();
    for (const h of this.host.servers()) if (h.entry.dev?.watch && h.entry.source.folder) wanted.set(h.id, h);
    for (const [id, watch] of this.watches) {
      const h = wanted.get(id);
      if (!h || h.entry.dev?.watch !== watch.glob || h.entry.source.folder?.fsPath !== watch.folder) this.unwatch(id);
    }
    for (const [id, h] of wanted) if (!this.watches.has(id)) this.watch(h);
  }

  private watch(h: ServerHandle): void {
    const glob = h.entry.dev!.watch!;
    const folder = h.entry.source.folder!.fsPath;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), glob));
    const watch: Watch = { glob, folder, watcher, subscriptions: [] };
    const onChange = (uri: vscode.Uri) => this.changed(h.id, watch, vscode.workspace.asRelativePath(uri, false));
    watch.subscriptions.push(watcher.onDidChange(onChange), watcher.onDidCreate(onChange), watcher.onDidDelete(onChange));
    this.watches.set(h.id, watch);
    this.host.log(h.id, 'info', `dev: watching ${glob} (in ${folder}); a change restarts the server`);
  }

  private changed(id: string, watch: Watch, file: string): void {
    watch.changed = file;
    clearTimeout(watch.timer);
    watch.timer = setTimeout(() => {
      const h = this.host.servers().find((s) => s.id === id);
      // A server the user stopped stays stopped; one that failed gets another chance with the new files.
      if (!h || h.status.kind === 'stopped') return;
      this.host.log(id, 'info', `dev: ${watch.changed} changed; restarting`);
      void this.host.restart(id).catch((error: unknown) => this.host.log(id, 'error', `dev: restart failed: ${String(error)}`));
    }, DEBOUNCE_MS);
  }

  private unwatch(id: string): void {
    const watch = this.watches.get(id);
    if (!watch) return;
    clearTimeout(watch.timer);
    watch.watcher.dispose();
    for (const s of watch.subscriptions) s.dispose();
    this.watches.delete(id);
  }

  /**
   * A `dev.debug` node server: the process starts with Node's inspector on a free loopback port
   * (NODE_OPTIONS, so an `npx` wrapper passes it on), which `attach` then finds in its stderr.
   */
  static resolvedForDebug(entry: ServerEntry, resolved: ResolvedServer): ResolvedServer {
    if (entry.dev?.debug?.type !== 'node' || resolved.type !== 'stdio') return resolved;
    const options = [resolved.env.NODE_OPTIONS, '--inspect=127.0.0.1:0'].filter(Boolean).join(' ');
    return { ...resolved, env: { ...resolved.env, NODE_OPTIONS: options } };
  }

  /** Attaches VS Code's debugger when a `dev.debug` node server says where its inspector listens (the subscription ends with the client). */
  attach(h: ServerHandle, client: McpClient): void {
    if (h.entry.dev?.debug?.type !== 'node') return;
    let attached = false;
    client.onTransportLog((log) => {
      const m = log.kind === 'stderr' && !attached ? INSPECTOR_LISTENING.exec(log.text) : null;
      if (!m) return;
      attached = true;
      const folder = h.entry.source.folder ? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(h.entry.source.folder.fsPath)) : undefined;
      this.host.log(h.id, 'info', `dev: attaching the debugger to the inspector on port ${m[2]}`);
      void vscode.debug.startDebugging(folder, { type: 'node', request: 'attach', name: `MCP: ${h.entry.name}`, address: '127.0.0.1', port: Number(m[2]), continueOnAttach: true, autoAttachChildProcesses: false }).then(
        (ok) => ok || this.host.log(h.id, 'warn', 'dev: the debugger did not attach (is the JavaScript debugger installed?)'),
        (error: unknown) => this.host.log(h.id, 'warn', `dev: the debugger did not attach: ${String(error)}`),
      );
    });
  }

  dispose(): void {
    for (const id of [...this.watches.keys()]) this.unwatch(id);
  }
}
