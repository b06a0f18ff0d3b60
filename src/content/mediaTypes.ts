// Media types and base64 as MCP Host judges them in what servers send: which images and audio
// show inline, how large a decoded binary may be, a normalised `type/subtype`, base64's decoded
// size. Shared by the result display, sampling and the chat's result parts.

/** Image types shown inline. SVG is left out on purpose: it is a document that can run script. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/avif']);
/** Audio types played inline. */
export const AUDIO_TYPES: ReadonlySet<string> = new Set(['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mpeg', 'audio/mp3', 'audio/ogg', 'audio/webm', 'audio/flac', 'audio/aac', 'audio/mp4']);

/** Largest binary (decoded) put into a data URI; larger ones are offered for saving. */
export const MAX_INLINE_BYTES = 16 * 1024 * 1024;

/** "image/PNG; charset=x" → "image/png"; undefined for anything that is not type/subtype. */
export function normalizeMimeType(mimeType: unknown): string | undefined {
  if (typeof mimeType !== 'string') return undefined;
  const base = mimeType.split(';')[0].trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(base) ? base : undefined;
}

/** Decoded size of well-formed base64, or undefined when it is not base64. */
export function base64Bytes(data: unknown): number | undefined {
  if (typeof data !== 'string') return undefined;
  const clean = data.replace(/\s+/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return undefined;
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return (clean.length / 4) * 3 - padding;
}
