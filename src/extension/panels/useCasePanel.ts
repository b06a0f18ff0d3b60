// What the tool, prompt and view panels share: one webview panel with the panel page, its outbox
// (messages wait until the page says `ready`), the results it showed (their links and parts are
// answered by `receivePanelMessage`), and its disposal. Each panel adds the messages of its own
// (`handle`) and what it shows.
import * as vscode from 'vscode';
import type { OutboundMessage } from '../../usecases/panelMessages';
import type { UseCaseContext } from './useCaseContext';
import { type OpenResource, type PanelMessage, ResultStore, receivePanelMessage } from './rawResults';
import { WebviewOutbox, webviewHtml, webviewOptions } from '../webview/webviewPanel';
import { PANEL_ASSETS } from '../webview/webviewPage';

/** How a panel opens: its view type and title, in a new panel or one VS Code restored after a reload. */
export interface PanelOpening {
  readonly viewType: string;
  readonly title: string;
  /** "the tool panel", "a result panel": named in the log line of a malformed message. */
  readonly description: string;
  readonly restored?: vscode.WebviewPanel;
}

export abstract class UseCasePanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  protected readonly disposables: vscode.Disposable[] = [];
  protected readonly results = new ResultStore();
  protected readonly outbox: WebviewOutbox<OutboundMessage>;
  protected disposed = false;
  private readonly description: string;

  protected constructor(
    protected readonly ctx: UseCaseContext,
    readonly serverId: string,
    protected readonly openResource: OpenResource,
    opening: PanelOpening,
  ) {
    const { restored } = opening;
    this.description = opening.description;
    this.panel = restored ?? vscode.window.createWebviewPanel(opening.viewType, opening.title, vscode.ViewColumn.Active, webviewOptions(ctx.extensionUri));
    if (restored) restored.webview.options = webviewOptions(ctx.extensionUri);
    this.panel.webview.html = webviewHtml(this.panel.webview, ctx.extensionUri, opening.title, PANEL_ASSETS);
    this.outbox = new WebviewOutbox(this.panel.webview);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Posts to the page (held until it is ready); nothing once the panel is closed. */
  protected post(message: OutboundMessage): void {
    if (this.disposed) return;
    this.outbox.post(message);
  }

  /** A message from the page: malformed ones are logged, result messages answered, the rest go to `handle`. */
  protected receive(raw: unknown): Promise<void> {
    const panel = { ctx: this.ctx, results: this.results, serverId: this.serverId, openResource: this.openResource, description: this.description, post: (m: OutboundMessage) => this.post(m) };
    return receivePanelMessage(panel, raw, (m) => this.handle(m));
  }

  /** The panel's own messages. */
  protected abstract handle(m: PanelMessage): Promise<void> | void;

  /** What the panel lets go of as it closes, before its subscriptions and the panel itself (nothing posts by then). */
  protected release(): void {}

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.release();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
