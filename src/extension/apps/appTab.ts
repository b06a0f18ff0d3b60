// An MCP App's view in an editor tab of its own (display mode "fullscreen"): a webview page that
// holds only the view's frame, sized to the tab. The view starts again there, told the same tool
// input and result; closing the tab tears it down. A view opened from @mcp lives here too, its
// messages going into the chat conversation (`conversation`).
import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '../../client/schemas';
import type { AppConversation } from '../../apps/appConversation';
import type { AppDocument } from '../../apps/appResource';
import { isViewMessage, parseViewMessage } from '../../apps/viewMessages';
import type { AppDisplayMode } from '../../apps/hostContext';
import type { UseCaseContext } from '../panels/useCaseContext';
import { APP_FRAME_ASSETS } from '../webview/webviewPage';
import { WebviewOutbox, webviewHtml, webviewOptions } from '../webview/webviewPanel';
import { AppView } from './appView';

export const APP_TAB_VIEW_TYPE = 'mcpHost.appView';

export interface AppTabOptions {
  readonly serverId: string;
  readonly tool: Tool;
  readonly document: AppDocument;
  readonly input?: Record<string, unknown>;
  readonly result?: CallToolResult;
  /** Where the view's `ui/message` and `ui/update-model-context` go; by default shown and logged. */
  readonly conversation?: AppConversation;
  /** The view asked to go back inline: the tab closes and the owner shows it again. */
  readonly backInline?: (input: Record<string, unknown> | undefined, result: CallToolResult | undefined) => void;
}

export class AppTab implements vscode.Disposable {
  private static readonly open = new Set<AppTab>();
  readonly panel: vscode.WebviewPanel;
  private readonly outbox: WebviewOutbox<unknown>;
  private view: AppView | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  /** Every open app tab (tests, and closing them all on deactivation). */
  static all(): readonly AppTab[] {
    return [...AppTab.open];
  }

  constructor(
    private readonly ctx: UseCaseContext,
    private readonly options: AppTabOptions,
  ) {
    const title = `${options.tool.title ?? options.tool.name} (app)`;
    this.panel = vscode.window.createWebviewPanel(APP_TAB_VIEW_TYPE, title, vscode.ViewColumn.Active, webviewOptions(ctx.extensionUri));
    this.panel.webview.html = webviewHtml(this.panel.webview, ctx.extensionUri, title, APP_FRAME_ASSETS, { csp: options.document.pageCsp });
    this.outbox = new WebviewOutbox(this.panel.webview);
    AppTab.open.add(this);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  private receive(raw: unknown): void {
    if (!isViewMessage(raw)) return;
    const parsed = parseViewMessage(raw);
    if (!parsed.ok) {
      this.ctx.deps.log(this.options.serverId, 'warn', `Ignored a malformed message from an app tab: ${parsed.reason}`);
      return;
    }
    if (parsed.message.type === 'appReady') {
      this.outbox.open();
      if (!this.view) this.start();
      return;
    }
    this.view?.receive(parsed.message);
  }

  private start(): void {
    const { serverId, tool, document } = this.options;
    const view = new AppView(this.ctx, {
      serverId,
      tool,
      document,
      mode: 'fullscreen',
      inlineAvailable: !!this.options.backInline,
      page: { post: (m) => this.outbox.post(m) },
      ...(this.options.conversation ? { conversation: this.options.conversation } : {}),
      onDisplayMode: (mode) => this.displayMode(mode),
      onClose: () => this.panel.dispose(),
    });
    this.view = view;
    if (this.options.input) view.toolInput(this.options.input);
    if (this.options.result) view.toolResult(this.options.result);
  }

  private async displayMode(mode: AppDisplayMode): Promise<AppDisplayMode> {
    if (mode !== 'inline' || !this.options.backInline) return 'fullscreen';
    const { lastInput, lastResult } = this.view ?? {};
    // Answered first; the tab closes right after (its view is told to finish).
    setTimeout(() => {
      this.options.backInline?.(lastInput, lastResult);
      this.panel.dispose();
    }, 0);
    return 'inline';
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    AppTab.open.delete(this);
    const view = this.view;
    this.view = undefined;
    // The page is going: the view is told to finish, without waiting for an answer it cannot send.
    if (view) void view.close('its tab was closed').finally(() => view.dispose());
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
