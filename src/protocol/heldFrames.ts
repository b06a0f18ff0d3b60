// Answers whose body no frame listener may see: a read whose content is checked only after it
// arrives (a skill file, verified against its listing's size and digest). Until then it is a
// server's untrusted bytes, and a refused file's content must reach no log or trace, so every
// listener of frames (the CLI's --trace, the editor's Trace-level log, recordings, the timeline)
// gets the answer with each content's `text` or `blob` replaced by its size and digest: enough
// to compare with the listing, nothing of the content.
import { createHash } from 'node:crypto';

/** What stands in a frame for a held-back `text` or `blob`. */
export function heldBackNote(bytes: Uint8Array): string {
  return `(held back from traces: ${bytes.byteLength} bytes, sha256:${createHash('sha256').update(bytes).digest('hex')})`;
}

function heldContent(content: unknown): unknown {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) return '(held back from traces)';
  const { text, blob, ...rest } = content as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  // The same bytes the verification hashes: text as UTF-8, a blob decoded.
  if (typeof text === 'string') out.text = heldBackNote(Buffer.from(text, 'utf8'));
  else if (text !== undefined) out.text = '(held back from traces)';
  if (typeof blob === 'string') out.blob = heldBackNote(Buffer.from(blob, 'base64'));
  else if (blob !== undefined) out.blob = '(held back from traces)';
  return out;
}

/**
 * `message` as frame listeners get it when it answers a held request (`isHeld(id)`): its
 * `result.contents` held back item by item, any other result whole; an error answer, a request
 * or a notification as it is. Members of a batch are looked at one by one.
 */
export function frameMessageOf(message: unknown, isHeld: (id: unknown) => boolean): unknown {
  if (Array.isArray(message)) return message.some((m) => answersHeld(m, isHeld)) ? message.map((m) => frameMessageOf(m, isHeld)) : message;
  if (!answersHeld(message, isHeld)) return message;
  const { result, ...rest } = message as { result: unknown };
  const contents = (result as { contents?: unknown } | null)?.contents;
  if (!Array.isArray(contents)) return { ...rest, result: '(held back from traces)' };
  return { ...rest, result: { ...(result as object), contents: contents.map(heldContent) } };
}

function answersHeld(message: unknown, isHeld: (id: unknown) => boolean): boolean {
  return message !== null && typeof message === 'object' && 'result' in message && 'id' in message && isHeld((message as { id: unknown }).id);
}
