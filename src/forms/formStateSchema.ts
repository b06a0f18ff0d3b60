// A form's state as a webview posts it, parsed strictly (zod): a webview shows server-provided
// content, so what it posts is untrusted input. Shared by the tool/prompt panels and the
// elicitation dialogs.
import * as z from '../protocol/zod';
import type { FormState } from './model';

/** Longest text one form value (or the arguments' JSON text) may hold. */
export const MAX_FORM_TEXT = 10 * 1024 * 1024;

/** A form state value, bounded in depth and size. */
export const FormStateSchema: z.ZodMiniType<FormState> = z.lazy(() =>
  z.union([z.string().check(z.maxLength(MAX_FORM_TEXT)), z.number(), z.boolean(), z.null(), z.array(FormStateSchema).check(z.maxLength(10_000)), z.record(z.string().check(z.maxLength(1000)), FormStateSchema)]),
);
