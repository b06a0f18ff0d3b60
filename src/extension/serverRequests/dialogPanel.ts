// One webview panel per dialog: a sampling request to approve (and its answer to review), an
// elicitation form, a URL to open, or the wait for a URL step to complete. The page is
// media/dialogs/dialogs.js on top of media/webview/common.js, under the strict CSP of every webview
// (webviewPage.ts); every message it posts is parsed with zod, and only the message kinds the
// current dialog expects are acted on.
import * as vscode from 'vscode';
import { DIALOG_ASSETS } from '../webview/webviewPage';
import { WebviewOutbox, webviewHtml, webviewOptions } from '../webview/webviewPanel';
import { DialogInbound, DialogOutbound, parseServeInbound } from '../../serverRequests/dialogMessages';
import { countOpenDialog } from '../webview/openDialogs';

export const DIALOG_PANEL_VIEW_TYPE = 'mcpHost.serve';

type Handler = (message: DialogInbound) => void;

export class DialogPanel implements vscode.Disposable {
  private static readonly open = new Set<DialogPanel>();

  /** Every open dialog (for tests and for closing them all on deactivate). */
  static all(): readonly DialogPanel[] {
    return [...DialogPanel.open];
  }

  readonly panel: vscode.WebviewPanel;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly outbox: WebviewOutbox<DialogOutbound>;
  private handler: Handler | undefined;
  private disposed = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(
    extensionUri: vscode.Uri,
    title: string,
    private readonly onInvalid: (reason: string) => void,
  ) {
    this.panel = vscode.window.createWebviewPanel(DIALOG_PANEL_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, webviewOptions(extensionUri));
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'mcp-host.svg');
    this.panel.webview.html = webviewHtml(this.panel.webview, extensionUri, title, DIALOG_ASSETS);
    this.outbox = new WebviewOutbox(this.panel.webview);
    DialogPanel.open.add(this);
    this.subscriptions.push(
      countOpenDialog(),
      this.panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  set title(title: string) {
    if (!this.disposed) this.panel.title = title;
  }

  /** Messages posted before the page said `ready` wait for it. */
  post(message: DialogOutbound): void {
    if (!this.disposed) this.outbox.post(message);
  }

  /** Routes the page's messages to the current dialog step. */
  handle(handler: Handler | undefined): void {
    this.handler = handler;
  }

  /** Called once when the panel closes, by the user or by `dispose()`. */
  onClose(listener: () => void): void {
    if (this.disposed) listener();
    else this.closeListeners.push(listener);
  }

  private receive(raw: unknown): void {
    const parsed = parseServeInbound(raw);
    if (!parsed.ok) {
      this.onInvalid(parsed.reason);
      return;
    }
    if (parsed.message.type === 'ready') {
      this.outbox.open();
      return;
    }
    this.handler?.(parsed.message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    DialogPanel.open.delete(this);
    for (const s of this.subscriptions) s.dispose();
    this.panel.dispose();
    for (const l of this.closeListeners.splice(0)) {
      try {
        l();
      } catch {
        // A failing listener must not keep the others from running.
      }
    }
  }
}
