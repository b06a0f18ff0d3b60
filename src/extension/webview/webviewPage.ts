// The HTML shell of every MCP Host webview (the use-case panels and the server-request dialogs): a strict
// CSP with a fresh nonce per page, stylesheets and scripts only from media/, nothing inline,
// nothing remote. The shared base (media/webview/common.css and common.js) comes first, then the
// feature's own files. No `vscode` import, so node --test can load it.
import { randomBytes } from 'node:crypto';
import { PageCspAdditions, mergeCsp } from '../../apps/appCsp';

/** A feature's files, as paths under media/. */
export interface WebviewFeature {
  readonly style: string;
  readonly script: string;
  /** Scripts the feature's script uses, loaded before it. */
  readonly helpers?: readonly string[];
}

/** Loaded before every feature: theme base styles, DOM helpers, the message shim, the forms' error display. */
export const COMMON_STYLE = 'webview/common.css';
export const COMMON_SCRIPT = 'webview/common.js';

/** Call Tool, and the read-only prompt and resource views. */
export const PANEL_ASSETS: WebviewFeature = { style: 'webview/toolCall.css', script: 'webview/toolCall.js', helpers: ['webview/formRenderer.js', 'webview/suggestions.js', 'webview/focusBack.js', 'webview/resultParts.js', 'webview/historyList.js', 'webview/runGate.js', 'webview/toolHeader.js'] };
/** Server Details: the panels' look, its own script. */
export const DETAILS_FEATURE: WebviewFeature = { style: 'webview/toolCall.css', script: 'webview/details.js' };
/** The protocol timeline: a canvas of every server's frames, its own look and script. */
export const TIMELINE_FEATURE: WebviewFeature = { style: 'webview/timeline.css', script: 'webview/timeline.js', helpers: ['webview/timelineAccess.js', 'webview/timelineTheme.js', 'webview/timelineStore.js', 'webview/timelineDetails.js', 'webview/timelineCanvas.js', 'webview/timelineInput.js'] };
/** Sampling and elicitation dialogs. */
export const DIALOG_ASSETS: WebviewFeature = { style: 'dialogs/dialogs.css', script: 'dialogs/dialogs.js', helpers: ['webview/formRenderer.js'] };

/** What a page that holds an MCP App's view adds: its frame script and what the app's policy needs (appCsp.ts). */
export const APP_FRAME_ASSETS = { style: 'webview/appFrame.css', script: 'webview/appFrame.js' } as const;
export interface AppPageOptions {
  readonly csp: PageCspAdditions;
}

/**
 * The stylesheets and scripts of a feature's page, as paths under media/ in load order: the
 * common base, the feature's own (its helpers first), then (with `app`) the frame of an MCP App's view. A page of
 * only a view has the frame assets as its feature: each file is loaded once.
 */
export function pageAssets(feature: WebviewFeature, app?: AppPageOptions): { styles: string[]; scripts: string[] } {
  return {
    styles: [...new Set([COMMON_STYLE, feature.style, ...(app ? [APP_FRAME_ASSETS.style] : [])])],
    scripts: [...new Set([COMMON_SCRIPT, ...(feature.helpers ?? []), feature.script, ...(app ? [APP_FRAME_ASSETS.script] : [])])],
  };
}

/** A nonce for `script-src 'nonce-…'`: 128 random bits from the OS. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The Content-Security-Policy of every webview. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    // Images only as data: URIs (result images, servers' checked icons): no server URL is ever loaded.
    'img-src data:',
    'media-src data:',
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-src 'none'",
  ].join('; ');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page: an empty body the scripts fill from the extension's messages. `styles` and
 * `scripts` are webview URIs, in load order; every script tag carries the nonce.
 */
export function pageHtml(page: { cspSource: string; nonce: string; title: string; styles: readonly string[]; scripts: readonly string[]; cspAdditions?: PageCspAdditions }): string {
  const { nonce } = page;
  const links = page.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n');
  const scripts = page.scripts.map((src) => `<script nonce="${nonce}" src="${escapeHtml(src)}"></script>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${mergeCsp(contentSecurityPolicy(page.cspSource, nonce), page.cspAdditions)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${links}
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<main id="app"><p class="muted">Loading…</p></main>
<div id="announcer" class="sr-only" role="status" aria-live="polite" aria-atomic="true"></div>
${scripts}
</body>
</html>`;
}
