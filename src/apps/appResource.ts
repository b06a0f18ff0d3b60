// Reading an MCP App's view: the `ui://` resource a tool names, checked as the specification asks
// (one `text/html;profile=mcp-app` content, text or base64), with its `_meta.ui` (CSP domains,
// permissions, border) taken from the content item, else from the resource's listing.
import { APP_MIME_TYPE } from '../client/apps';
import type { ReadResourceResult, Resource } from '../client/schemas';
import { AppCsp, PageCspAdditions, appContentSecurityPolicy, injectAppCsp, pageCspAdditions, readAppCsp } from './appCsp';
import { AppPermission, readAppPermissions } from './appPermissions';

/** The largest view MCP Host renders (the official PDF viewer is ~4.3 MB). */
export const MAX_APP_HTML_BYTES = 8 * 1024 * 1024;

/** An app's view, ready for the webview. */
export interface AppDocument {
  readonly uri: string;
  /** The app's HTML with its policy injected: the iframe's `srcdoc`. */
  readonly html: string;
  /** The policy injected (logged for review, as the specification asks). */
  readonly policy: string;
  readonly csp: AppCsp;
  /** What the page around the view must add to its own policy (appCsp.ts). */
  readonly pageCsp: PageCspAdditions;
  /** The permissions the app declares (granted or not: see appPermissions.ts). */
  readonly permissions: readonly AppPermission[];
  /** The app asks for a visible border (`prefersBorder`); undefined: the host decides. */
  readonly prefersBorder?: boolean;
  /** Declared sources left out, and other things worth a line in the log. */
  readonly warnings: readonly string[];
}

/** Why an app's view cannot be shown: the tool then shows its text result only. */
export class AppResourceError extends Error {}

function uiMetaOf(meta: unknown): Record<string, unknown> | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const ui = (meta as Record<string, unknown>).ui;
  return typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}

/** The content type without parameters other than `profile`, compared as the specification writes it. */
function isAppMimeType(mimeType: unknown): boolean {
  if (typeof mimeType !== 'string') return false;
  const [type, ...params] = mimeType.toLowerCase().split(';').map((p) => p.trim());
  return type === 'text/html' && params.includes('profile=mcp-app');
}

/**
 * The view of `uri` from what `resources/read` returned (and the resource as listed, if it was).
 * Throws AppResourceError when it is not one the host renders.
 */
export function appDocumentFrom(uri: string, result: ReadResourceResult, listed?: Pick<Resource, '_meta'>): AppDocument {
  if (!uri.startsWith('ui://')) throw new AppResourceError(`${uri} is not a ui:// resource`);
  const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (!content) throw new AppResourceError(`reading ${uri} returned no content`);
  if (!isAppMimeType(content.mimeType)) throw new AppResourceError(`${uri} has the content type ${JSON.stringify(content.mimeType ?? '(none)')}, not ${APP_MIME_TYPE}`);
  let html: string;
  if (typeof content.text === 'string') html = content.text;
  else if (typeof content.blob === 'string') html = Buffer.from(content.blob, 'base64').toString('utf8');
  else throw new AppResourceError(`${uri} has neither text nor blob`);
  if (Buffer.byteLength(html, 'utf8') > MAX_APP_HTML_BYTES) throw new AppResourceError(`${uri} is larger than ${MAX_APP_HTML_BYTES / 1024 / 1024} MiB`);
  // The content item's _meta.ui wins; the listing's is the fallback (the specification's order).
  const ui = uiMetaOf(content._meta) ?? uiMetaOf(listed?._meta) ?? {};
  const { csp, refused } = readAppCsp(ui.csp);
  const permissions = readAppPermissions(ui.permissions);
  const policy = appContentSecurityPolicy(csp);
  return {
    uri,
    html: injectAppCsp(html, policy),
    policy,
    csp,
    pageCsp: pageCspAdditions(html, csp),
    permissions: permissions.declared,
    ...(typeof ui.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}),
    warnings: [...refused.map((r) => `declared source refused: ${r}`), ...permissions.unknown.map((p) => `unknown permission ignored: ${p}`)],
  };
}
