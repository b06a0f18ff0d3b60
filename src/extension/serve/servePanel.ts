// One webview panel per dialog: a sampling request to approve (and its answer to review), an
// elicitation form, a URL to open, or the wait for a URL step to complete. The page is
// media/serve/serve.js under a strict CSP with a fresh nonce; every message it posts is parsed
// with zod, and only the message kinds the current dialog expects are acted on.
import * as vscode from 'vscode';
import { contentSecurityPolicy, makeNonce } from '../inspect/webviewHtml';
import { ServeInbound, ServeOutbound, parseServeInbound } from '../../serve/webviewMessages';

export const SERVE_PANEL_VIEW_TYPE = 'mcpHost.serve';

type Handler = (message: ServeInbound) => void;

export class ServePanel implements vscode.Disposable {
  private static readonly open = new Set<ServePanel>();

  /** Every open dialog (for tests and for closing them all on deactivate). */
  static all(): readonly ServePanel[] {
    return [...ServePanel.open];
  }

  readonly panel: vscode.WebviewPanel;
  private readonly subscriptions: vscode.Disposable[] = [];
  private ready = false;
  private readonly pending: ServeOutbound[] = [];
  private handler: Handler | undefined;
  private disposed = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(
    extensionUri: vscode.Uri,
    title: string,
    private readonly onInvalid: (reason: string) => void,
  ) {
    this.panel = vscode.window.createWebviewPanel(SERVE_PANEL_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      enableForms: false,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
      retainContextWhenHidden: true,
    });
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'mcp-host.svg');
    this.panel.webview.html = html(this.panel.webview, extensionUri, title);
    ServePanel.open.add(this);
    this.subscriptions.push(
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
  post(message: ServeOutbound): void {
    if (this.disposed) return;
    if (!this.ready) {
      this.pending.push(message);
      return;
    }
    void this.panel.webview.postMessage(message);
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
      this.ready = true;
      for (const m of this.pending.splice(0)) void this.panel.webview.postMessage(m);
      return;
    }
    this.handler?.(parsed.message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    ServePanel.open.delete(this);
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

function html(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = makeNonce();
  const media = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'serve', file));
  const safeTitle = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(webview.cspSource, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('serve.css')}">
<title>${safeTitle}</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${media('serve.js')}"></script>
</body>
</html>`;
}
