// The messages between the dialog webview (media/dialogs/dialogs.js) and the extension. What the
// webview posts is parsed strictly with zod: the page shows server-provided text, so anything it
// sends is untrusted input. Outbound messages are typed here; the script checks them defensively.
import * as z from '../protocol/zod';
import type { FieldError, FormState } from '../forms/model';
import { FormStateSchema } from '../forms/formStateSchema';
import { ParsedMessage, parseWebviewMessage } from '../content/webviewMessages';
import type { ElicitFormView, ElicitUrlView } from './elicitation';
import type { SamplingAnswerView, SamplingRequestView } from './sampling';

const MAX_TEXT = 2_000_000;

// Built on first use (z.lazy), when a dialog posts: building zod schemas is most of what loading
// the extension runs, and activation needs none of these.
const Edits = z.lazy(() =>
  z.strictObject({
    texts: z.optional(z.record(z.string().check(z.regex(/^m\d{1,6}p\d{1,6}$/)), z.string().check(z.maxLength(MAX_TEXT)))),
    systemPrompt: z.optional(z.string().check(z.maxLength(MAX_TEXT))),
    maxTokens: z.optional(z.int().check(z.gte(1), z.lte(10_000_000))),
  }),
);

export const DialogInboundSchema = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ready') }),
    z.strictObject({ type: z.literal('samplingApprove'), edits: Edits, remember: z.enum(['once', 'allowSession', 'allowAlways']) }),
    z.strictObject({ type: z.literal('samplingReject'), remember: z.enum(['once', 'never']) }),
    /** "Answer yourself": the user's own reply, and the model name the server is told. */
    z.strictObject({ type: z.literal('samplingAnswerSelf'), text: z.string().check(z.maxLength(MAX_TEXT)), model: z.string().check(z.maxLength(200)) }),
    z.strictObject({ type: z.literal('answerSend'), text: z.string().check(z.maxLength(MAX_TEXT)) }),
    z.strictObject({ type: z.literal('answerReject') }),
    z.strictObject({ type: z.literal('formValidate'), state: z.optional(FormStateSchema) }),
    z.strictObject({ type: z.literal('formAccept'), state: z.optional(FormStateSchema) }),
    z.strictObject({ type: z.literal('formDecline') }),
    z.strictObject({ type: z.literal('formCancel') }),
    z.strictObject({ type: z.literal('urlOpen') }),
    z.strictObject({ type: z.literal('urlCopy') }),
    z.strictObject({ type: z.literal('urlDecline') }),
    z.strictObject({ type: z.literal('urlCancel') }),
    z.strictObject({ type: z.literal('retryNow') }),
    z.strictObject({ type: z.literal('giveUp') }),
  ]),
);
export type DialogInbound = z.infer<typeof DialogInboundSchema>;

export function parseServeInbound(message: unknown): ParsedMessage<DialogInbound> {
  return parseWebviewMessage(DialogInboundSchema, message);
}

/** Who asks: shown at the top of every dialog. Server text: the webview inserts it as text. */
export interface AskingServer {
  readonly name: string;
  readonly id: string;
}

export type DialogOutbound =
  | { readonly type: 'sampling'; readonly server: AskingServer; readonly request: SamplingRequestView; readonly imagesToModel: boolean }
  | { readonly type: 'samplingGenerating'; readonly model: string }
  | { readonly type: 'samplingAnswer'; readonly answer: SamplingAnswerView }
  | { readonly type: 'form'; readonly server: AskingServer; readonly view: ElicitFormView }
  | { readonly type: 'formErrors'; readonly errors: readonly FieldError[] }
  | { readonly type: 'url'; readonly server: AskingServer; readonly view: ElicitUrlView; readonly index?: number; readonly total?: number }
  | { readonly type: 'waiting'; readonly server: AskingServer; readonly domains: readonly string[] }
  | { readonly type: 'queue'; readonly waiting: number }
  | { readonly type: 'failed'; readonly text: string }
  | { readonly type: 'notice'; readonly level: 'info' | 'warning' | 'error'; readonly text: string };

export type { FormState };
