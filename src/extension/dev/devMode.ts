// Dev mode of a server entry (`"dev": { "watch": GLOB, "debug": { "type": "node" } }`, VS Code's
// field): a change of a watched file restarts the server (debounced; the tree keeps its rows and
// "What Changed" shows what the restart changed), and a `dev.debug` server starts under its
// debugger — a node server with Node's inspector on a free loopback port, a Python one under
// debugpy (`"type": "debugpy"` or `"python"`) — which VS Code's debugger then attaches to. A
// Debug run of saved tests puts a server under the debugger the same way (`debugWhile`).
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import * as vscode from 'vscode';
import type { ResolvedServer, ServerEntry } from '../../config';
import { DEBUGPY_IMPORT_CHECK, DebugType, debugTypeOf, debugpyLaunch, nodeInspectorLaunch } from '../../config/debugLaunch';
import type { McpClient } from '../../client/client';
import type { LogSeverity } from '../../protocol/logging';
import type { ServerHandle } from '../../registry/serverRegistry';
import { restartsOnFileChange } from '../../registry/startPolicy';

/** Changes within this long make one restart (an editor's save writes several files). */
const DEBOUNCE_MS = 300;
/** What Node prints when its inspector listens. */
const INSPECTOR_LISTENING = /Debugger listening on ws:\/\/(127\.0\.0\.1|\[::1\]|localhost):(\d+)\//;
/** How long a Debug run waits for the debugger to attach to a restarted server (the first attach also activates the JavaScript debugger, which takes a while on a busy machine). */
const ATTACH_TIMEOUT_MS = 90_000;
/** The debug types of the Python Debugger extension (ms-python.debugpy) and of the older Python extension. */
const PYTHON_DEBUGGERS = [
  { extension: 'ms-python.debugpy', type: 'debugpy' },
  { extension: 'ms-python.python', type: 'python' },
] as const;
/** The key of an attach configuration that names the server it debugs. */
const SERVER_KEY = 'mcpHostServerId';

export interface DevModeHost {
  servers(): readonly ServerHandle[];
  /** Restarts a server as the user's Restart does. */
  restart(id: string): Promise<void>;
  log(id: string, level: LogSeverity, text: string): void;
  /** A warning the user sees (missing debugger pieces). */
  warn(text: string): void;
}

interface Watch {
  readonly glob: string;
  readonly folder: string;
  readonly watcher: vscode.FileSystemWatcher;
  readonly subscriptions: vscode.Disposable[];
  timer?: ReturnType<typeof setTimeout>;
  changed?: string;
}

/** A server under the debugger for as long as someone needs it (a Debug run of tests). */
export interface DebuggedServer extends vscode.Disposable {
  readonly session: vscode.DebugSession;
}

/** Watches the files of entries with `dev.watch`, and attaches the debugger to `dev.debug` servers. */
export class DevMode implements vscode.Disposable {
  private readonly watches = new Map<string, Watch>();
  /** Servers a Debug run put under a debugger they are not configured for (until its session ends). */
  private readonly forced = new Map<string, DebugType>();
  /** The debugpy port each Python server was started with, for the attach. */
  private readonly debugpyPorts = new Map<string, number>();
  /** The debug session attached to each server. */
  private readonly sessions = new Map<string, vscode.DebugSession>();
  /** The server each attach is for, by the session name it was given ("MCP: <name>"). */
  private readonly attaching = new Map<string, string>();
  /** The last debug sessions that started, named when an attach is not seen (what did start instead). */
  private readonly recentSessions: string[] = [];
  private readonly _onDidStartSession = new vscode.EventEmitter<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly host: DevModeHost) {
    this.disposables.push(
      this._onDidStartSession,
      vscode.debug.onDidStartDebugSession((session) => {
        // A debugger may pass its own copy of the configuration on (without our key): the
        // session's name, given when attaching, says which server it is then. A child session
        // (the debugger's own, for the process it found) belongs to its parent's server.
        let root: vscode.DebugSession = session;
        while (root.parentSession) root = root.parentSession;
        const id = this.serverOf(root) ?? this.serverOf(session);
        this.recentSessions.push(`${session.name} (${session.type}${session.parentSession ? `, child of ${session.parentSession.name}` : ''})`);
        if (this.recentSessions.length > 10) this.recentSessions.shift();
        if (id === undefined) return;
        this.host.log(id, 'info', `dev: debug session "${session.name}" (${session.type}) started`);
        if (!this.sessions.has(id) || this.sessions.get(id) === session.parentSession) this.sessions.set(id, root);
        this._onDidStartSession.fire(id);
      }),
      vscode.debug.onDidTerminateDebugSession((session) => {
        const id = this.serverOf(session);
        if (id === undefined || this.sessions.get(id) !== session) return;
        this.sessions.delete(id);
        // The debugger let go: the next start of the server is as configured again.
        this.forced.delete(id);
      }),
    );
  }

  /** The server a debug session was started for, by the configuration's key or the name it was given. */
  private serverOf(session: vscode.DebugSession): string | undefined {
    const id: unknown = session.configuration[SERVER_KEY];
    return typeof id === 'string' ? id : this.attaching.get(session.name);
  }

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
      if (!h || !restartsOnFileChange(h.status)) return;
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

  /** The debugger a server starts under: a Debug run's, else its `dev.debug`. */
  private debugTypeFor(entry: ServerEntry): DebugType | undefined {
    return this.forced.get(entry.id) ?? debugTypeOf(entry.dev?.debug?.type);
  }

  /**
   * What a server starts with: as resolved, or under its debugger. A Python server runs under
   * debugpy only when its interpreter can import it; otherwise it starts without, and the user
   * is told what is missing.
   */
  async prepare(entry: ServerEntry, resolved: ResolvedServer): Promise<ResolvedServer> {
    this.debugpyPorts.delete(entry.id);
    const type = this.debugTypeFor(entry);
    switch (type) {
      case undefined:
        return resolved;
      case 'node':
        return nodeInspectorLaunch(resolved);
      case 'debugpy': {
        const launch = debugpyLaunch(resolved, await freeLoopbackPort());
        if (launch.kind === 'unsupported') {
          this.missing(entry, `${entry.name} cannot start under debugpy: ${launch.reason}`);
          return resolved;
        }
        if (launch.resolved !== resolved && !(await importsDebugpy(launch.python, launch.resolved.env, launch.resolved.cwd))) {
          this.missing(entry, `${entry.name} starts without the debugger: debugpy is not installed for ${launch.python} (install it with \`${launch.python} -m pip install debugpy\`)`);
          return resolved;
        }
        this.debugpyPorts.set(entry.id, launch.port);
        this.host.log(entry.id, 'info', `dev: starting under debugpy, listening on 127.0.0.1:${launch.port}`);
        return launch.resolved;
      }
      default: {
        const never: never = type;
        return never;
      }
    }
  }

  private missing(entry: ServerEntry, text: string): void {
    this.host.log(entry.id, 'warn', `dev: ${text}`);
    this.host.warn(`MCP Host: ${text}.`);
  }

  /** Attaches VS Code's debugger to a server started under one (the subscription ends with the client). */
  attach(h: ServerHandle, client: McpClient): void {
    switch (this.debugTypeFor(h.entry)) {
      case 'node': {
        let attached = false;
        client.onTransportLog((log) => {
          const m = log.kind === 'stderr' && !attached ? INSPECTOR_LISTENING.exec(log.text) : null;
          if (!m) return;
          attached = true;
          this.host.log(h.id, 'info', `dev: attaching the debugger to the inspector on port ${m[2]}`);
          this.startDebugging(h, { type: 'node', request: 'attach', address: '127.0.0.1', port: Number(m[2]), continueOnAttach: true, autoAttachChildProcesses: false }, 'is the JavaScript debugger installed?');
        });
        return;
      }
      case 'debugpy': {
        const port = this.debugpyPorts.get(h.id);
        if (port === undefined) return;
        const debuggerType = PYTHON_DEBUGGERS.find((d) => vscode.extensions.getExtension(d.extension))?.type;
        if (!debuggerType) {
          this.missing(h.entry, `${h.entry.name} runs under debugpy on 127.0.0.1:${port}, but no Python debugger is installed to attach to it (install the Python Debugger extension, ms-python.debugpy)`);
          return;
        }
        // debugpy listens before the server's code runs; the attach waits for the server to be up.
        const ready = client.onDidChangeState((state) => {
          if (state.kind !== 'ready') return;
          ready.dispose();
          this.host.log(h.id, 'info', `dev: attaching the ${debuggerType} debugger to 127.0.0.1:${port}`);
          this.startDebugging(h, { type: debuggerType, request: 'attach', connect: { host: '127.0.0.1', port }, justMyCode: false }, 'is the Python Debugger extension enabled?');
        });
        return;
      }
      case undefined:
        return;
    }
  }

  private startDebugging(h: ServerHandle, configuration: { readonly type: string; readonly request: 'attach'; readonly [key: string]: unknown }, hint: string): void {
    const folder = h.entry.source.folder ? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(h.entry.source.folder.fsPath)) : undefined;
    const name = `MCP: ${h.entry.name}`;
    this.attaching.set(name, h.id);
    void vscode.debug.startDebugging(folder, { ...configuration, name, [SERVER_KEY]: h.id }).then(
      (ok) => ok || this.host.log(h.id, 'warn', `dev: the debugger did not attach (${hint})`),
      (error: unknown) => this.host.log(h.id, 'warn', `dev: the debugger did not attach: ${String(error)}`),
    );
  }

  /**
   * Puts a server under the debugger (a Debug run of saved tests): a server already attached
   * stays as it is; any other is restarted under its `dev.debug` debugger, or Node's inspector
   * when it has none, and stays so until the debug session ends. Resolves once the debugger
   * attached; rejects with what to do when it does not within 90 s.
   */
  async debugWhile(id: string, signal?: AbortSignal): Promise<DebuggedServer> {
    const h = this.host.servers().find((s) => s.id === id);
    if (!h) throw new Error(`the server ${id} is no longer configured`);
    const current = this.sessions.get(id);
    if (current && h.status.kind === 'running') return { session: current, dispose: () => undefined };
    const forced = debugTypeOf(h.entry.dev?.debug?.type) === undefined;
    if (forced) this.forced.set(id, 'node');
    const attached = this.nextSession(id, signal);
    this.host.log(id, 'info', `dev: restarting ${h.entry.name} under the debugger for a Debug run`);
    try {
      await this.host.restart(id);
      return { session: await attached.session, dispose: () => undefined };
    } catch (error) {
      attached.cancel();
      if (forced) this.forced.delete(id);
      const hint = forced ? ' (a Debug run starts Node servers with --inspect; for Python set "dev": {"debug": {"type": "debugpy"}} on the entry)' : '';
      throw new Error(`${h.entry.name}: ${error instanceof Error ? error.message : String(error)}${hint}`);
    }
  }

  /** The next debug session attached to a server, or a rejection after ATTACH_TIMEOUT_MS. */
  private nextSession(id: string, signal?: AbortSignal): { session: Promise<vscode.DebugSession>; cancel(): void } {
    let cancel = () => undefined as void;
    const session = new Promise<vscode.DebugSession>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`the debugger did not attach within ${ATTACH_TIMEOUT_MS / 1000} s (debug sessions that started: ${this.recentSessions.join(', ') || 'none'})`)), ATTACH_TIMEOUT_MS);
      const started = this._onDidStartSession.event((started) => {
        const s = started === id ? this.sessions.get(id) : undefined;
        if (s) done(undefined, s);
      });
      const aborted = () => done(new Error('the Debug run was cancelled'));
      signal?.addEventListener('abort', aborted, { once: true });
      const done = (error?: Error, s?: vscode.DebugSession) => {
        clearTimeout(timer);
        started.dispose();
        signal?.removeEventListener('abort', aborted);
        if (s) resolve(s);
        else reject(error);
      };
      cancel = () => done(new Error('cancelled'));
    });
    session.catch(() => undefined);
    return { session, cancel: () => cancel() };
  }

  dispose(): void {
    for (const id of [...this.watches.keys()]) this.unwatch(id);
    for (const d of this.disposables) d.dispose();
  }
}

/** A free TCP port on 127.0.0.1 (debugpy needs one named in advance). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when `python` imports debugpy (in the server's environment and folder, as it will run). */
function importsDebugpy(python: string, env: Record<string, string>, cwd: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, DEBUGPY_IMPORT_CHECK, { env, cwd, timeout: 15_000, windowsHide: true }, (error) => resolve(!error));
  });
}
