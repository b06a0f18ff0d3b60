// What the webview scripts (media/webview, media/dialogs) see besides the DOM, for the type check
// of media/tsconfig.json: the API VS Code gives a webview, the messages the extension posts to
// each page and the form model they draw, taken from the extension's own types so the two cannot
// drift apart. Shapes only the pages know (a form's state slot, the timeline's packed columns)
// are defined here once too.
import type { DetailsInboundSchema, InboundMessage, OutboundMessage } from '../../src/usecases/panelMessages';
import type { TimelineInbound, TimelineOutbound } from '../../src/timeline/timelineMessages';
import type { DialogInbound, DialogOutbound } from '../../src/serverRequests/dialogMessages';
import type { ViewInbound, ViewOutbound } from '../../src/apps/viewMessages';
import type * as z from '../../src/protocol/zod';
import type { serverDetails } from '../../src/usecases/serverInfo';
import type { FieldError as ModelFieldError, FieldModel, FormState as ModelFormState } from '../../src/forms/model';

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
  /** One kind of panel message, by its `type`. */
  type PanelMessageOf<T extends PanelMessage['type']> = Extract<PanelMessage, { type: T }>;
  /** What the extension posts to the timeline page (timeline.js). */
  type TimelineMessage = TimelineOutbound;
  /** One item's details on the timeline page (timelineDetails.js draws them). */
  type TimelineItemDetails = Extract<TimelineMessage, { type: 'details' }>['details'];
  /** What the extension posts to a server's dialog (dialogs.js). */
  type DialogMessage = DialogOutbound;
  /** One kind of dialog message, by its `type`. */
  type DialogMessageOf<T extends DialogMessage['type']> = Extract<DialogMessage, { type: T }>;
  /** What the extension posts to a page that holds an MCP App's view (appFrame.js). */
  type AppFrameMessage = ViewOutbound;
  /** What the extension posts to Server Details (details.js). */
  type DetailsMessage = { readonly type: 'details'; readonly view: ReturnType<typeof serverDetails> };

  /** What a page posts to the extension (McpWebview.post), which parses it with the same schemas. */
  type PageMessage = InboundMessage | DialogInbound | TimelineInbound | ViewInbound | z.infer<typeof DetailsInboundSchema>;

  /** A text field that offers the server's completions (suggestions.js). */
  type SuggestingField = HTMLInputElement | HTMLTextAreaElement;

  /** One kind of page message, by its `type`. */
  type PageMessageOf<T extends PageMessage['type']> = Extract<PageMessage, { type: T }>;

  /** A field of a form, as src/forms/model.ts builds it (common.js draws it). */
  type FormField = FieldModel;
  /** A form's state as the extension reads it (forms/state.ts): text typed, option indices. */
  type FormState = ModelFormState;
  /** One problem at one JSON Pointer of a form's value. */
  type FieldError = ModelFieldError;
  /**
   * Where one field's state lives in the form state (text typed, option indices): the renderer
   * reads and writes through it. The value is the page's own, still checked where it is read.
   */
  interface StateSlot {
    get(): unknown;
    set(value: unknown): void;
  }
}
