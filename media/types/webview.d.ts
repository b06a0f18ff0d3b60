// What the webview scripts (media/webview, media/dialogs) see besides the DOM, for the type check
// of media/tsconfig.json: the API VS Code gives a webview, and the messages the extension posts to
// each page, taken from the extension's own types so the two cannot drift apart.
import type { OutboundMessage } from '../../src/usecases/panelMessages';
import type { TimelineOutbound } from '../../src/timeline/timelineMessages';

declare global {
  /** What `acquireVsCodeApi()` returns: it can be called once per page (common.js holds it). */
  interface VsCodeWebviewApi {
    postMessage(message: unknown): void;
    getState(): unknown;
    setState(state: unknown): void;
  }
  function acquireVsCodeApi(): VsCodeWebviewApi;

  /** What the extension posts to the tool, prompt and view panels (toolCall.js). */
  type PanelMessage = OutboundMessage;
  /** What the extension posts to the timeline page (timeline.js). */
  type TimelineMessage = TimelineOutbound;
}
