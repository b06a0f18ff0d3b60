// MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865): what a client declares so a
// server offers tools with an interactive view, and where a tool names its view. The view itself
// (reading, sandboxing, the App protocol) lives in apps/.
import type { Tool } from './schemas';

/** The extension's identifier, as a key of the client's `capabilities.extensions`. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The one content type of an app's `ui://` resource (HTML for a sandboxed frame). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The client capabilities that declare MCP Apps: `{ extensions: { "io.modelcontextprotocol/ui":
 * { mimeTypes: [...] } } }`. A host that renders apps passes them in `ClientOptions.capabilities`;
 * the client declares them in `initialize` (legacy era) and in every modern request's `_meta`.
 */
export function appsClientCapabilities(): { readonly extensions: Record<string, { readonly mimeTypes: readonly string[] }> } {
  return { extensions: { [APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } };
}

/**
 * The `ui://` resource a tool's results are shown with: `_meta.ui.resourceUri`, or the older flat
 * `_meta["ui/resourceUri"]` the specification still names. Undefined when the tool has none, or
 * names something that is not a `ui://` URI (such a tool is shown as text only).
 */
export function appResourceUriOf(tool: Pick<Tool, '_meta'>): string | undefined {
  const meta = tool._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const ui = (meta as Record<string, unknown>).ui;
  const nested = typeof ui === 'object' && ui !== null ? (ui as Record<string, unknown>).resourceUri : undefined;
  const uri = nested ?? (meta as Record<string, unknown>)['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= 2048 ? uri : undefined;
}

/**
 * Who may call a tool (`_meta.ui.visibility`): the model, the app, or both (the default). An app
 * may call only tools whose visibility includes "app"; a model only those with "model".
 */
export function toolVisibility(tool: Pick<Tool, '_meta'>): { readonly model: boolean; readonly app: boolean } {
  const ui = (tool._meta as Record<string, unknown> | undefined)?.ui;
  const visibility = typeof ui === 'object' && ui !== null ? (ui as Record<string, unknown>).visibility : undefined;
  if (!Array.isArray(visibility)) return { model: true, app: true };
  return { model: visibility.includes('model'), app: visibility.includes('app') };
}
