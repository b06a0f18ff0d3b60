// The HTML shell of the inspect webviews: a strict CSP with a fresh nonce per page, the script
// and stylesheet from media/webview/, nothing inline, nothing remote.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** A nonce for `script-src 'nonce-…'`: 128 random bits from the OS. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The Content-Security-Policy of every inspect webview. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src data: ${cspSource}`,
    'media-src data:',
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-src 'none'",
  ].join('; ');
}

/** Webview options: scripts on, resources only from media/. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableForms: false,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
    retainContextWhenHidden: true,
  };
}

/** The page: an empty body the script fills from the extension's messages. */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = makeNonce();
  const media = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'webview', file));
  const csp = contentSecurityPolicy(webview.cspSource, nonce);
  const safeTitle = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('toolCall.css')}">
<title>${safeTitle}</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${media('toolCall.js')}"></script>
</body>
</html>`;
}
