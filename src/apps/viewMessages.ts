// The messages between a page that holds an MCP App's view (media/webview/appFrame.js) and the
// extension. The app's own JSON-RPC travels inside `appMessage` / `appDeliver`, untouched by the
// page; it is checked by the host session (appGuard.ts). The page's own messages are parsed
// strictly here, like every webview message.
import * as z from '../protocol/zod';
import { THEME_VARIABLES } from './hostContext';
import type { ParsedMessage } from '../content/webviewMessages';

const ViewId = z.lazy(() => z.string().check(z.minLength(1), z.maxLength(100)));

export const ViewInboundSchema = z.lazy(() =>
  z.discriminatedUnion('type', [
    /** The frame script is loaded (a page holding only a view waits for it before showing one). */
    z.strictObject({ type: z.literal('appReady') }),
    /** A message the view posted to the page (JSON-RPC, unchecked until the session checks it). */
    z.strictObject({ type: z.literal('appMessage'), viewId: ViewId, message: z.unknown() }),
    /** The view's surroundings: VS Code's theme (resolved variables) and the container's size. */
    z.strictObject({
      type: z.literal('appEnvironment'),
      viewId: ViewId,
      theme: z.enum(['light', 'dark', 'high-contrast', 'high-contrast-light']),
      variables: z.record(z.string().check(z.maxLength(60)), z.string().check(z.maxLength(300))).check(z.refine((v) => Object.keys(v).every((k) => k in THEME_VARIABLES), 'unknown variable')),
      width: z.number().check(z.gte(0), z.lte(100_000)),
      height: z.number().check(z.gte(0), z.lte(100_000)),
    }),
    /** The user asked for another display mode (the frame's own buttons). */
    z.strictObject({ type: z.literal('appDisplayMode'), viewId: ViewId, mode: z.enum(['inline', 'fullscreen']) }),
    /** The user closed the view (its Close button). */
    z.strictObject({ type: z.literal('appClose'), viewId: ViewId }),
    /** The page dropped messages of a view that posted faster than the page relays (its own backstop). */
    z.strictObject({ type: z.literal('appDropped'), viewId: ViewId, count: z.int().check(z.gte(1), z.lte(1e9)) }),
  ]),
);
export type ViewInbound = z.infer<typeof ViewInboundSchema>;

/** Whether a webview message is one of the view's (its `type` starts with "app"). */
export function isViewMessage(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string' && (raw as { type: string }).type.startsWith('app');
}

export function parseViewMessage(raw: unknown): ParsedMessage<ViewInbound> {
  const parsed = ViewInboundSchema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: issue ? `${issue.path.join('.') || '(message)'}: ${issue.message}` : 'invalid message' };
}

/** What the extension posts to the page about a view. */
export type ViewOutbound =
  | {
      readonly type: 'appShow';
      readonly viewId: string;
      /** The srcdoc: the app's HTML with its policy injected. */
      readonly html: string;
      /** The iframe's `allow` attribute (granted permissions only). */
      readonly allow: string;
      readonly title: string;
      readonly subtitle: string;
      readonly mode: 'inline' | 'fullscreen';
      /** False for a tab with no panel to go back to (a view opened from chat): no "Back to Panel". */
      readonly inlineAvailable?: boolean;
      readonly prefersBorder?: boolean;
      /** THEME_VARIABLES: which VS Code variables the page resolves for the view. */
      readonly themeVariables: Readonly<Record<string, readonly string[]>>;
    }
  | { readonly type: 'appDeliver'; readonly viewId: string; readonly message: unknown }
  | { readonly type: 'appSize'; readonly viewId: string; readonly height?: number; readonly width?: number }
  /** A line under the view: what it sent for the conversation, or what the host did with a request. */
  | { readonly type: 'appNote'; readonly viewId: string; readonly level: 'info' | 'warning'; readonly text: string }
  /** The view is gone; `text` says why or where it went (shown in its place). */
  | { readonly type: 'appClosed'; readonly viewId: string; readonly text?: string };
