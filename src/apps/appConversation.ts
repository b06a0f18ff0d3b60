// What a view sends for the conversation around it: `ui/message` (a message from the user, in the
// view's words) and `ui/update-model-context` (what the model should know of the view's state).
// The host session (appHost.ts) hands them to an AppConversation; this file is theirs alone, so
// the chat side can use them without loading the session.
import { truncate } from '../protocol/text';

/** A view's message for the conversation (`ui/message`), or the context it wants the model to have (`ui/update-model-context`). */
export type AppConversationMessage =
  | { readonly kind: 'message'; readonly role: 'user'; readonly content: readonly Record<string, unknown>[] }
  | { readonly kind: 'context'; readonly content?: readonly Record<string, unknown>[]; readonly structuredContent?: Record<string, unknown> };

/**
 * Where a view's messages go. The tool panel shows and logs them; a chat conversation that opened
 * the view (the @mcp participant) takes them into the conversation instead.
 */
export interface AppConversation {
  /** Resolves when taken; rejects (a WireError, or any error) when refused. */
  receive(message: AppConversationMessage): Promise<void>;
}

/** A view's message or context as text (text blocks as they are, other blocks by type), at most `max` characters. */
export function describeConversationMessage(m: AppConversationMessage, max = 2000): string {
  const parts = (m.content ?? []).map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${String(b.type)}]`));
  if (m.kind === 'context' && m.structuredContent) parts.push(truncate(JSON.stringify(m.structuredContent), Math.min(max, 4000)));
  return truncate(parts.join(' ') || '(empty)', max);
}
