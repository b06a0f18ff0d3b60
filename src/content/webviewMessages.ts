// The envelope of every message a webview posts to the extension: parsed against its schema
// (zod), or the reason it is not one we accept. Pages show server-provided content, so what they
// post is untrusted input.
import * as z from '../protocol/zod';

/** A message from a webview, or why it is not one we accept. */
export type ParsedMessage<T> = { ok: true; message: T } | { ok: false; reason: string };

/** Parses a message from any webview against its schema; the reason names the first problem. */
export function parseWebviewMessage<S extends z.ZodMiniType>(schema: S, message: unknown): ParsedMessage<z.infer<S>> {
  const parsed = schema.safeParse(message);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: issue ? `${issue.path.join('.') || '(message)'}: ${issue.message}` : 'invalid message' };
}
