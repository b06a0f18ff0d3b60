// A tool's result as a language model reads it: text parts, and images or audio as data where
// the model takes them. Model-independent: the VS Code layer turns these into LanguageModel…Parts.
import type { CallToolResult, ContentBlock } from '../client/schemas';
import { formatBytes } from '../protocol/text';
import { base64Bytes, normalizeMimeType } from '../content/mediaTypes';

/** One part of a tool result for the model. */
export type ModelResultPart =
  | { readonly kind: 'text'; readonly text: string }
  /** Binary data (an image or audio) for a model that takes it, decoded from the server's base64. */
  | { readonly kind: 'data'; readonly mimeType: string; readonly bytes: Uint8Array };

export interface ModelResultOptions {
  /** The model takes images (VS Code: `capabilities.supportsImageToText`); otherwise they are described. */
  readonly acceptsImages: boolean;
  /** The model takes audio; otherwise it is described (VS Code's API has no way to say so yet). */
  readonly acceptsAudio?: boolean;
  /** Text longer than this is cut, with a note (a result must not overflow the model's window). */
  readonly maxTextChars?: number;
}

const DEFAULT_MAX_TEXT = 60_000;
/** Larger media are described: model APIs refuse them (5 MB is a common per-image limit). */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;
/** The media types models commonly take; others are described rather than sent to fail there. */
const MODEL_MEDIA_TYPES: Readonly<Record<'image' | 'audio', readonly string[]>> = {
  image: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  audio: ['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp3', 'audio/ogg', 'audio/webm', 'audio/flac', 'audio/aac', 'audio/mp4'],
};

/** An image or audio block: data for the model when it takes it and the data is sound, else a description that says why not. */
function mediaPart(kind: 'image' | 'audio', block: { data: string; mimeType: string }, accepted: boolean): ModelResultPart {
  const size = base64Bytes(block.data);
  const mimeType = normalizeMimeType(block.mimeType);
  const shown = mimeType ?? JSON.stringify(block.mimeType);
  if (size === undefined) return { kind: 'text', text: `[${kind}: ${shown}; the server sent data that is not valid base64]` };
  const about = `[${kind}: ${shown}, ${formatBytes(size)}`;
  if (!accepted) return { kind: 'text', text: `${about}; ${kind === 'image' ? 'this model does not take images' : 'not passed to the model'}]` };
  if (!mimeType || !MODEL_MEDIA_TYPES[kind].includes(mimeType)) return { kind: 'text', text: `${about}; a type models do not take]` };
  if (size > MAX_MEDIA_BYTES) return { kind: 'text', text: `${about}; larger than the ${formatBytes(MAX_MEDIA_BYTES)} passed to a model]` };
  return { kind: 'data', mimeType, bytes: new Uint8Array(Buffer.from(block.data.replace(/\s+/g, ''), 'base64')) };
}

function describeBlock(block: ContentBlock, options: ModelResultOptions): ModelResultPart {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: block.text };
    case 'image':
      return mediaPart('image', block, options.acceptsImages);
    case 'audio':
      return mediaPart('audio', block, options.acceptsAudio === true);
    case 'resource_link':
      return { kind: 'text', text: `[resource link: ${block.uri}${block.name ? ` "${block.title ?? block.name}"` : ''}${block.mimeType ? `, ${block.mimeType}` : ''}${block.description ? ` — ${block.description}` : ''}]` };
    case 'resource': {
      const r = block.resource;
      if ('text' in r) return { kind: 'text', text: `[embedded resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}` };
      const size = base64Bytes(r.blob);
      return { kind: 'text', text: `[embedded resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, ${size === undefined ? 'data that is not valid base64' : `${formatBytes(size)} of binary data`}]` };
    }
    default: {
      const unknown = block as { type?: unknown };
      return { kind: 'text', text: `[content of type ${JSON.stringify(unknown.type)}]` };
    }
  }
}

/**
 * The parts the model gets for `result`: each content block (text as it is; images and audio as
 * data when the model takes them, else described; resource links and embedded resources
 * with their URI), then structured content as JSON, and an error result said as one.
 */
export function toolResultForModel(result: CallToolResult, options: ModelResultOptions): ModelResultPart[] {
  const max = options.maxTextChars ?? DEFAULT_MAX_TEXT;
  const parts: ModelResultPart[] = [];
  if (result.isError) parts.push({ kind: 'text', text: 'The tool reported an error:' });
  for (const block of result.content ?? []) parts.push(describeBlock(block, options));
  if (result.structuredContent !== undefined) parts.push({ kind: 'text', text: `Structured content (JSON): ${JSON.stringify(result.structuredContent)}` });
  if (parts.length === 0) parts.push({ kind: 'text', text: '(the tool returned no content)' });
  let budget = max;
  return parts.map((p) => {
    if (p.kind !== 'text') return p;
    if (budget <= 0) return { kind: 'text', text: '[cut: the result is too long]' };
    const text = p.text.length > budget ? `${p.text.slice(0, budget)}\n[cut: ${p.text.length - budget} more characters]` : p.text;
    budget -= p.text.length;
    return { kind: 'text', text };
  });
}
