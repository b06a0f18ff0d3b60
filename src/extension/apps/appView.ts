// One MCP App view in VS Code: the host session (apps/appHost.ts) wired to this
// extension — tool calls through the one tool-call use case (with the destructive-tool
// confirmation, history and log, marked as from the app), resource reads limited to the app's own
// server, links through the URL-safety dialog, the view's messages shown and logged (or handed to
// a conversation that opened it) — and to the page that holds its frame (media/webview/appFrame.js).
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '../../client/schemas';
import { ResponseError, WireError } from '../../protocol/errors';
import { ErrorCodes } from '../../protocol/messages';
import { truncate } from '../../protocol/text';
import { callTool } from '../../usecases/callTool';
import { describeTimeoutSource } from '../../usecases/timeouts';
import { summarizeFailure } from '../../usecases/resultModel';
import { AppHostSession } from '../../apps/appHost';
import { AppConversation, AppConversationMessage, describeConversationMessage } from '../../apps/appConversation';
import type { AppDocument } from '../../apps/appResource';
import { allowedPermissions, grantPermissions } from '../../apps/appPermissions';
import { refuseAppResourceRead, refuseAppToolCall } from '../../apps/appPolicy';
import { AppDisplayMode, HOST_DISPLAY_MODES, THEME_VARIABLES, containerDimensions, themeContext } from '../../apps/hostContext';
import type { ViewInbound, ViewOutbound } from '../../apps/viewMessages';
import type { UseCaseContext } from '../panels/useCaseContext';

/** The page that holds a view's frame (a tool panel, or the view's own tab). */
export interface AppViewPage {
  post(message: ViewOutbound): void;
}

export interface AppViewOptions {
  readonly serverId: string;
  /** The tool whose view this is. */
  readonly tool: Tool;
  readonly document: AppDocument;
  readonly mode: 'inline' | 'fullscreen';
  /** False when the view has no panel to show it inline (opened from chat): it stays in its tab. */
  readonly inlineAvailable?: boolean;
  readonly page: AppViewPage;
  /** Where `ui/message` and `ui/update-model-context` go; by default they are shown under the view and logged. */
  readonly conversation?: AppConversation;
  /** The view asks for another display mode: the owner moves it; resolves with the mode it is in then. */
  onDisplayMode(mode: AppDisplayMode): Promise<AppDisplayMode>;
  /** The view asked to be closed, or the user closed it. */
  onClose(): void;
}

let nextViewId = 0;

export class AppView implements vscode.Disposable {
  readonly id = `view-${++nextViewId}`;
  readonly session: AppHostSession;
  /** The view's latest call of its tool (told by the host, or made by the view), to show it again elsewhere (its own tab). */
  lastInput: Record<string, unknown> | undefined;
  lastResult: CallToolResult | undefined;
  private readonly label: string;
  private closed = false;
  /** Tools the user let this view call without asking again (per view, never kept). */
  private readonly allowedTools = new Set<string>();
  /** The approval being asked, if any (see confirm). */
  private confirming: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: UseCaseContext,
    private readonly options: AppViewOptions,
  ) {
    const { serverId, tool, document } = options;
    this.label = `the app of ${tool.name}`;
    const granted = grantPermissions(document.permissions, allowedPermissions(ctx.setting('apps.permissions', [])));
    const version = String((ctx.extension.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    this.session = new AppHostSession(
      {
        hostInfo: { name: 'mcp-host', title: 'MCP Host', version },
        hostCapabilities: {
          ...(ctx.deps.openAppLink ? { openLinks: {} } : {}),
          serverTools: {},
          serverResources: {},
          logging: {},
          message: { text: {} },
          updateModelContext: { text: {}, structuredContent: {} },
          sandbox: { permissions: Object.fromEntries(granted.granted.map((p) => [p, {}])), csp: { ...document.csp } as never },
        },
        hostContext: {
          toolInfo: { tool: tool as never },
          theme: vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Light || vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.HighContrastLight ? 'light' : 'dark',
          displayMode: options.mode,
          availableDisplayModes: options.inlineAvailable === false ? ['fullscreen'] : [...HOST_DISPLAY_MODES],
          locale: vscode.env.language,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          userAgent: `MCP Host/${version} (VS Code ${vscode.version})`,
          platform: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
        },
        label: this.label,
      },
      {
        deliver: (message) => this.post({ type: 'appDeliver', viewId: this.id, message }),
        callTool: (name, args, signal) => this.callTool(name, args, signal),
        readResource: (uri, signal) => this.readResource(uri, signal),
        openLink: (url, signal) => this.openLink(url, signal),
        conversation: options.conversation ?? { receive: (m) => this.showConversationMessage(m) },
        requestDisplayMode: (mode) => options.onDisplayMode(mode),
        sizeChanged: (size) => this.post({ type: 'appSize', viewId: this.id, ...(size.height !== undefined ? { height: size.height } : {}), ...(size.width !== undefined ? { width: size.width } : {}) }),
        requestTeardown: () => {
          this.log('info', `${this.label} asked to be closed`);
          options.onClose();
        },
        log: (level, text) => this.log(level, text),
        tracing: () => ctx.deps.traceOn?.(serverId) ?? false,
      },
    );
    this.log('info', `${this.label}: showing ${document.uri} (${options.mode}); its policy: ${document.policy}`);
    for (const w of document.warnings) this.log('warn', `${this.label}: ${w}`);
    if (granted.denied.length) this.log('info', `${this.label}: permissions declared but not allowed (mcpHost.apps.permissions): ${granted.denied.join(', ')}`);
    this.post({
      type: 'appShow',
      viewId: this.id,
      html: document.html,
      allow: granted.allow,
      title: tool.title ?? tool.name,
      subtitle: `${ctx.serverName(serverId)} · ${document.uri}`,
      mode: options.mode,
      ...(options.inlineAvailable === false ? { inlineAvailable: false } : {}),
      ...(document.prefersBorder !== undefined ? { prefersBorder: document.prefersBorder } : {}),
      themeVariables: THEME_VARIABLES as Record<string, readonly string[]>,
    });
  }

  private post(message: ViewOutbound): void {
    if (!this.closed) this.options.page.post(message);
  }

  private log(level: Parameters<UseCaseContext['deps']['log']>[1], text: string): void {
    this.ctx.deps.log(this.options.serverId, level, text);
  }

  /** A message of the page about this view. */
  receive(m: ViewInbound): void {
    if (this.closed || !('viewId' in m) || m.viewId !== this.id) return;
    switch (m.type) {
      case 'appMessage':
        this.session.receive(m.message);
        return;
      case 'appEnvironment':
        this.session.updateContext({ ...themeContext(m), containerDimensions: containerDimensions(this.options.mode, m) });
        return;
      case 'appDisplayMode':
        void this.options.onDisplayMode(m.mode);
        return;
      case 'appClose':
        this.options.onClose();
        return;
      case 'appDropped':
        this.log('warn', `${this.label}: the page dropped ${m.count} message(s) the view sent faster than it relays them`);
        return;
      default:
        return;
    }
  }

  toolInput(args: Record<string, unknown>): void {
    this.lastInput = args;
    this.session.toolInput(args);
  }

  toolResult(result: CallToolResult): void {
    this.lastResult = result;
    this.session.toolResult(result);
  }

  toolCancelled(reason: string): void {
    this.session.toolCancelled(reason);
  }

  /** Asks the view to finish (waiting for its answer, briefly), then removes it from the page; `text` shows in its place. */
  async close(reason: string, text?: string): Promise<void> {
    if (this.closed) return;
    await this.session.teardown(reason);
    this.post({ type: 'appClosed', viewId: this.id, ...(text ? { text } : {}) });
    this.closed = true;
  }

  dispose(): void {
    this.closed = true;
    this.session.dispose();
  }

  // ---- what the view may ask ----

  private async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const { serverId } = this.options;
    const server = this.ctx.server(serverId);
    const refused = refuseAppToolCall(name, server?.tools, this.ctx.serverName(serverId));
    if (refused) {
      this.log('warn', `${this.label}: refused tools/call: ${refused}`);
      throw new WireError(ErrorCodes.InvalidParams, refused);
    }
    const tool = server!.tools!.find((t) => t.name === name)!;
    const timeout = this.ctx.timeout(serverId);
    const outcome = await callTool(
      { serverId, tool, arguments: { mode: 'value', value: args }, origin: `${this.label} (from app)`, signal, timeout: { seconds: timeout.seconds, note: describeTimeoutSource(timeout.source) } },
      {
        client: () => this.ctx.client(serverId),
        validator: this.ctx.validator,
        redact: (text) => this.ctx.redact(text),
        confirm: (t, why, value) => this.confirm(t, why, value),
        record: (entry) => this.ctx.history.add(entry),
        log: (level, text) => this.log(level, text),
      },
    );
    switch (outcome.kind) {
      case 'answered':
        // The view's own call of its tool is its latest state: a move to a tab (or back) shows that, not the first call's.
        if (name === this.options.tool.name) {
          this.lastInput = args;
          this.lastResult = outcome.result;
        }
        return outcome.result;
      case 'invalid':
        throw new WireError(ErrorCodes.InvalidParams, `Invalid arguments for ${name}: ${outcome.errors.map((e) => `${e.path || '(arguments)'} ${e.message}`).join('; ')}`);
      case 'declined':
        this.log('info', `${this.label}: the user declined its call of ${name}`);
        throw new WireError(-32000, `The user declined the call of ${name}`);
      case 'unavailable':
        throw new WireError(ErrorCodes.InternalError, summarizeFailure(outcome.failure));
      case 'failed':
        // The server's own error goes back as it came; a local failure (timeout, cancel) as text.
        if (outcome.error instanceof ResponseError) throw new WireError(outcome.error.code, outcome.error.wireMessage, outcome.error.data);
        throw new WireError(ErrorCodes.InternalError, summarizeFailure(outcome.failure));
      default: {
        const never: never = outcome;
        return never;
      }
    }
  }

  /**
   * The approval a call by hand needs (mcpHost.confirmDestructiveTools), asked in the app's name:
   * the view is the server's content, so the dialog says which app asks and offers no "don't ask again".
   */
  private confirm(tool: Tool, why: string, value: Record<string, unknown>): Promise<boolean> {
    // One question at a time per view: calls that arrive while one is asked wait, then see its answer
    // (a view that polls would otherwise stack a dialog per call).
    const answer = this.confirming.then(() => this.ask(tool, why, value));
    this.confirming = answer.catch(() => false);
    return answer;
  }

  private async ask(tool: Tool, why: string, value: Record<string, unknown>): Promise<boolean> {
    if (this.closed || !this.ctx.setting('confirmDestructiveTools', true) || this.allowedTools.has(tool.name)) return !this.closed;
    const run = 'Run';
    const forView = 'Run, and allow it for this app view';
    const answer = await vscode.window.showWarningMessage(
      `The app of ${this.options.tool.name} asks to run ${tool.name} on ${this.ctx.serverName(this.options.serverId)}. Run it?`,
      { modal: true, detail: `${why}\n\nArguments:\n${truncate(JSON.stringify(value, null, 2), 600)}\n\nThe app is the server's content: run the tool only if you meant it to act. "Allow it for this app view" lasts until the view closes.` },
      run,
      forView,
    );
    if (answer === forView) this.allowedTools.add(tool.name);
    return answer === run || answer === forView;
  }

  private async readResource(uri: string, signal: AbortSignal) {
    const { serverId } = this.options;
    const server = this.ctx.server(serverId);
    const refused = refuseAppResourceRead(uri, { name: this.ctx.serverName(serverId), ...(server?.resources ? { resources: server.resources } : {}), ...(server?.templates ? { templates: server.templates } : {}) });
    if (refused) {
      this.log('warn', `${this.label}: refused resources/read: ${refused}`);
      throw new WireError(ErrorCodes.InvalidParams, refused);
    }
    const client = await this.ctx.client(serverId);
    this.log('info', `${this.label} reads ${uri}`);
    return client.readResource(uri, { signal, timeoutMs: this.ctx.timeoutMs(serverId) });
  }

  private async openLink(url: string, signal: AbortSignal): Promise<void> {
    const open = this.ctx.deps.openAppLink;
    if (!open) throw new WireError(-32000, 'This host does not open links for apps');
    const outcome = await open(this.options.serverId, url, `The app of ${this.options.tool.name} asks you to open a link.`, signal);
    if (outcome === 'opened') return;
    if (outcome === 'declined') throw new WireError(-32000, 'Link opening denied by user');
    throw new WireError(ErrorCodes.InvalidParams, `Invalid URL: ${outcome.refused}`);
  }

  /** Not from a conversation: what the view sends for one is shown under it and logged, not sent to a model. */
  private async showConversationMessage(m: AppConversationMessage): Promise<void> {
    const text = describeConversationMessage(m);
    this.log('info', `${this.label} ${m.kind === 'message' ? 'sent a message' : 'updated its model context'}: ${text}`);
    this.post({ type: 'appNote', viewId: this.id, level: 'info', text: `${m.kind === 'message' ? 'Message from the app' : 'Model context from the app'} (shown here, not sent to a model): ${text}` });
  }
}
