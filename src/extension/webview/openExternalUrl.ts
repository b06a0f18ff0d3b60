// Opens an http(s) URL in the browser exactly as MCP Host assessed it.
import * as vscode from 'vscode';

/**
 * Hands `href` to VS Code's opener as a string, so the browser gets exactly `href`. Given a Uri,
 * `openExternal` sends the browser `encodeURI(uri.toString(true))`, which decodes escapes: `%2F`
 * in a userinfo becomes a slash and moves the host, `%26` in a query becomes a separator. Given
 * a string, VS Code opens it as is ("called with string and no transformation happened -> keep
 * string" in its MainThreadWindow.$openUri). Its own trusted-domain prompt still applies.
 * `href` must come from `assessUrl` or `openableHref`, which refuse what parsers read differently.
 */
export function openExternalUrl(href: string): Promise<boolean> {
  return Promise.resolve(vscode.env.openExternal(href as unknown as vscode.Uri));
}
