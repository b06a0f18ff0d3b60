// "Share with VS Code Chat": the servers the user opted in (kept in the workspace's state:
// sharedServerChoice.ts; nothing by default) are offered to VS Code's own MCP support as HTTP servers on MCP Host's loopback
// gateway, so VS Code's chat uses MCP Host's connections (consent, sign-in, logs, era bridging)
// instead of starting a second process. The gateway runs only while something is shared, and its
// code (an HTTP server, sessions, the relay) loads when it first starts, not at activation. A tool
// switched off for models is neither listed nor callable through it (gateway/modelToolFilter.ts).
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import type * as GatewayModule from '../../gateway';
import type { McpGateway, SharedServer } from '../../gateway';
import type { ServerHandle } from '../../registry';
import { formatFrame } from '../logs/logFormat';
import type { EditorHost } from '../editorHost';
import { mcpHostSetting } from '../trust/restrictedSettings';
import { SharedServerChoice } from './sharedServerChoice';

/** The "Off for models" switches (chat/chatState.ts), as the gateway follows them. */
export interface ModelSwitches {
  isServerEnabled(serverId: string): boolean;
  isToolEnabled(serverId: string, tool: string): boolean;
  readonly onDidChange: vscode.Event<void>;
}

/** The provider id in package.json's `mcpServerDefinitionProviders`. */
export const CHAT_SHARE_PROVIDER_ID = 'mcpHost.gateway';
const SETTING = 'shareWithChat';

let gatewayModule: Promise<typeof GatewayModule> | undefined;
const loadGateway = () => (gatewayModule ??= import('../../gateway/index.js'));

export class ChatShare implements vscode.Disposable {
  private gateway: McpGateway | undefined;
  private starting: Promise<McpGateway> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Tools of each shared server when VS Code was last told, to bump a definition's version when they change. */
  private versions = new Map<string, string>();
  private readonly choice: SharedServerChoice;
  private switches: ModelSwitches | undefined;

  constructor(
    private readonly host: EditorHost,
    workspaceState: vscode.Memento,
  ) {
    this.choice = new SharedServerChoice(workspaceState, () => mcpHostSetting<unknown>(SETTING, undefined));
    this.disposables.push(
      this._onDidChange,
      vscode.lm.registerMcpServerDefinitionProvider(CHAT_SHARE_PROVIDER_ID, {
        onDidChangeMcpServerDefinitions: this._onDidChange.event,
        provideMcpServerDefinitions: () => this.definitions(),
        resolveMcpServerDefinition: (definition, token) => this.resolve(definition, token),
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`mcpHost.${SETTING}`)) this.changed();
      }),
      host.onDidChange(() => this.toolsMayHaveChanged()),
    );
  }

  /** True when the server is opted in (by its name). */
  isShared(h: ServerHandle): boolean {
    return this.choice.names().includes(h.entry.name);
  }

  /** Follows the "Off for models" switches: switched-off tools are hidden from gateway clients, and VS Code is told when they change. */
  followModelSwitches(switches: ModelSwitches): vscode.Disposable {
    this.switches = switches;
    return switches.onDidChange(() => this.toolsMayHaveChanged());
  }

  /** Shares or stops sharing one server (the tree's toggle): a per-user choice in the workspace's state, never a settings file. */
  async toggle(h: ServerHandle): Promise<void> {
    const legacy = this.choice.fromLegacySetting();
    const sharing = await this.choice.toggle(h.entry.name);
    if (legacy) this.host.log.info(`"Share with VS Code Chat" is now kept in this workspace's state; the setting mcpHost.${SETTING} is no longer read here (you can remove it).`);
    this.changed();
    this.host.viewChanged();
    this.host.serverLog(h.id, 'info', sharing ? 'shared with VS Code Chat through the MCP Host gateway' : 'no longer shared with VS Code Chat');
    if (sharing) await this.offerToAvoidSecondCopy(h);
  }

  /**
   * Copies what another MCP client (Claude Code, Cursor, a script) needs to use MCP Host's
   * connection to a shared server: its gateway URL and the secret header, as a `.mcp.json` entry.
   * Only on the user's command, to the clipboard; valid while this window's gateway runs.
   */
  async copyClientConfig(h: ServerHandle): Promise<void> {
    if (!this.isShared(h)) {
      const share = 'Share and Copy';
      const detail = `The entry reaches ${h.entry.name} through MCP Host's gateway, which serves only shared servers. Sharing also lists it in VS Code's own chat; "Share with VS Code Chat (On/Off)" stops it.`;
      if ((await vscode.window.showInformationMessage(`${h.entry.name} is not shared. Share it now and copy its gateway entry?`, { modal: true, detail }, share)) !== share) return;
      await this.toggle(h);
    }
    const entry = this.shared().find(({ handle }) => handle === h);
    if (!entry) return;
    const endpoint = (await this.ensureGateway()).endpoint({ key: entry.key, name: h.entry.name });
    const config = { mcpServers: { [h.entry.name]: { type: 'http', url: endpoint.url, headers: { ...endpoint.headers } } } };
    await vscode.env.clipboard.writeText(JSON.stringify(config, null, 2) + '\n');
    this.host.serverLog(h.id, 'info', 'the gateway address for another MCP client was copied to the clipboard (its secret header is valid while this window runs)');
    void vscode.window.showInformationMessage(`MCP Host: copied the gateway entry for ${h.entry.name} (URL and secret header) for another MCP client's .mcp.json. It is valid while this window is open.`);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.gateway?.close();
    this.gateway = undefined;
  }

  /** The opted-in servers that exist, by gateway key (the name; with a suffix when two share it). */
  private shared(): Array<{ key: string; handle: ServerHandle }> {
    const names = this.choice.names();
    const handles = this.host.registry.list().filter((h) => names.includes(h.entry.name));
    return handles.map((handle) => {
      const clash = handles.some((o) => o !== handle && o.entry.name === handle.entry.name);
      return { key: clash ? `${handle.entry.name}-${shortHash(handle.id)}` : handle.entry.name, handle };
    });
  }

  private async definitions(): Promise<vscode.McpHttpServerDefinition[]> {
    const shared = this.shared();
    if (shared.length === 0) {
      await this.stopGateway();
      return [];
    }
    const gateway = await this.ensureGateway();
    return shared.map(({ key, handle }) => {
      const endpoint = gateway.endpoint({ key, name: handle.entry.name });
      const version = this.toolsVersion(handle);
      this.versions.set(key, version);
      return new vscode.McpHttpServerDefinition(handle.entry.name, vscode.Uri.parse(endpoint.url), { ...endpoint.headers }, version);
    });
  }

  /** VS Code is about to connect: MCP Host's own connection is brought up first, with its usual trust, consent and sign-in. */
  private async resolve(definition: vscode.McpServerDefinition, token: vscode.CancellationToken): Promise<vscode.McpServerDefinition | undefined> {
    const entry = this.shared().find(({ handle }) => handle.entry.name === definition.label);
    if (!entry) return undefined;
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      await this.upstream(entry.handle, abort.signal);
      return definition;
    } finally {
      cancel.dispose();
    }
  }

  private async upstream(h: ServerHandle, signal: AbortSignal): Promise<McpClient> {
    if (h.status.kind !== 'running' && h.status.kind !== 'starting') await this.host.start(h.id);
    return h.whenReady({ signal });
  }

  private ensureGateway(): Promise<McpGateway> {
    if (this.gateway) return Promise.resolve(this.gateway);
    this.starting ??= (async () => {
      const { McpGateway } = await loadGateway();
      const gateway = new McpGateway({
        servers: () =>
          this.shared().map(
            ({ key, handle }): SharedServer => ({
              key,
              name: handle.entry.name,
              acquire: (signal) => this.upstream(handle, signal),
              // Frames are relayed to the output channel only at Trace: below it none is built.
              traced: () => this.host.logs.get(handle.id).channel.logLevel === vscode.LogLevel.Trace,
              toolHidden: (tool) => this.hiddenFromModels(handle, tool),
            }),
          ),
        redact: (text) => this.host.redact(text),
        notServing: () => (vscode.workspace.isTrusted ? undefined : 'the workspace is not trusted: MCP Host serves nothing to other clients until it is'),
        log: (level, text, key) => {
          const h = key === undefined ? undefined : this.shared().find((s) => s.key === key)?.handle;
          if (h) this.host.serverLog(h.id, level, text);
          else this.host.log[level](text);
        },
        onFrame: (frame) => {
          const h = this.shared().find((s) => s.key === frame.serverKey)?.handle;
          const channel = h && this.host.logs.get(h.id).channel;
          // Built only at Trace, like the connection's own frames.
          if (!channel || channel.logLevel !== vscode.LogLevel.Trace) return;
          const arrow = frame.direction === 'from-client' ? `[gateway: ${frame.clientName} → MCP Host]` : `[gateway: MCP Host → ${frame.clientName}]`;
          const bytes = Buffer.byteLength(JSON.stringify(frame.message) ?? '');
          channel.trace(this.host.redact(formatFrame({ direction: frame.direction === 'from-client' ? 'send' : 'receive', message: frame.message, bytes }, 4000, undefined, arrow)));
        },
      });
      const port = await gateway.start();
      this.host.log.info(`MCP Host gateway listening on 127.0.0.1:${port} for VS Code Chat`);
      this.gateway = gateway;
      return gateway;
    })().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async stopGateway(): Promise<void> {
    const gateway = this.gateway;
    this.gateway = undefined;
    if (!gateway) return;
    await gateway.close();
    this.host.log.info('MCP Host gateway stopped: nothing is shared with VS Code Chat');
  }

  /** Changes when the server's tools do (names and schemas) or which are off for models, so VS Code refreshes them. */
  private toolsVersion(h: ServerHandle): string {
    return shortHash(JSON.stringify((h.tools ?? []).map((t) => [t.name, t.description, t.inputSchema, this.hiddenFromModels(h, t.name)])));
  }

  private hiddenFromModels(h: ServerHandle, tool: string): boolean {
    return !!this.switches && (!this.switches.isServerEnabled(h.id) || !this.switches.isToolEnabled(h.id, tool));
  }

  private changed(): void {
    this.gateway?.prune();
    this._onDidChange.fire();
  }

  /** A shared server's tools changed: VS Code is told (the definition's version changes). */
  private toolsMayHaveChanged(): void {
    for (const { key, handle } of this.shared()) {
      const known = this.versions.get(key);
      if (known !== undefined && known !== this.toolsVersion(handle)) {
        this._onDidChange.fire();
        return;
      }
    }
  }

  /**
   * VS Code lists the workspace's `.vscode/mcp.json` and root `.mcp.json` servers itself and starts
   * them on the first chat request (`chat.mcp.autostart`): the shared server would run twice.
   * Say so and offer the fix VS Code allows, with the user's consent.
   */
  private async offerToAvoidSecondCopy(h: ServerHandle): Promise<void> {
    const kind = h.entry.source.kind;
    if (kind !== 'vscode-mcp-json' && kind !== 'dot-mcp-json') return;
    const autostart = vscode.workspace.getConfiguration('chat.mcp').get<string>('autostart');
    if (autostart === 'never') return;
    const choice = await vscode.window.showInformationMessage(
      `VS Code also lists "${h.entry.name}" from ${h.entry.source.label} and starts its own copy when chat needs it (chat.mcp.autostart is ${autostart ?? 'newAndOutdated'}). Set chat.mcp.autostart to "never" for this workspace, so only MCP Host's connection (shared as "${h.entry.name}" by MCP Host) runs?`,
      'Set to Never',
      'Keep Both',
    );
    if (choice !== 'Set to Never') return;
    await vscode.workspace.getConfiguration('chat.mcp').update('autostart', 'never', vscode.ConfigurationTarget.Workspace);
    this.host.log.info('chat.mcp.autostart set to "never" for this workspace, so VS Code does not start a second copy of shared servers');
  }
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}


