// What every MCP Host webview panel shares with VS Code: its options (scripts on, resources only
// from media/), its page (webviewPage.ts), and the outbox that holds messages until the page's
// script has said `ready`.
import * as vscode from 'vscode';
import { AppPageOptions, WebviewFeature, makeNonce, pageAssets, pageHtml } from './webviewPage';

/** Webview options: scripts on, forms and command links off, resources only from media/. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableForms: false,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
    retainContextWhenHidden: true,
  };
}

/**
 * The page of a feature: the common base, then the feature's stylesheet and script; with `app`,
 * also the frame of an MCP App's view and what the app's policy needs (appCsp.ts).
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string, feature: WebviewFeature, app?: AppPageOptions): string {
  const media = (path: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', ...path.split('/'))).toString();
  const assets = pageAssets(feature, app);
  return pageHtml({
    cspSource: webview.cspSource,
    nonce: makeNonce(),
    title,
    styles: assets.styles.map(media),
    scripts: assets.scripts.map(media),
    ...(app ? { cspAdditions: app.csp } : {}),
  });
}

/**
 * Messages posted before the page's script said `ready` would be lost: they wait here, and go
 * out in order once `open()` is called.
 */
export class WebviewOutbox<T> {
  private ready = false;
  private readonly queue: T[] = [];

  constructor(private readonly webview: vscode.Webview) {}

  get isReady(): boolean {
    return this.ready;
  }

  post(message: T): void {
    if (this.ready) void this.webview.postMessage(message);
    else this.queue.push(message);
  }

  /** The page is being built again (new HTML): messages wait for its `ready` once more. */
  reset(): void {
    this.ready = false;
  }

  /** The page is ready: `first` (if any) goes out before everything that waited. */
  open(first?: () => void): void {
    this.ready = true;
    first?.();
    for (const m of this.queue.splice(0)) void this.webview.postMessage(m);
  }
}
