// A tool's result as a language model reads it: text parts, and images where the model takes
// them. Model-independent: the VS Code layer turns these into LanguageModel…Parts.
import type { CallToolResult, ContentBlock } from '../client/schemas';
import { formatBytes } from '../protocol/text';

/** One part of a tool result for the model. */
export type ModelResultPart =
  | { readonly kind: 'text'; readonly text: string }
  /** Binary data (an image) for a model that takes it; `data` is base64 as the server sent it. */
  | { readonly kind: 'data'; readonly mimeType: string; readonly data: string };

export interface ModelResultOptions {
  /** The model takes images (`capabilities.imageInput`); otherwise they are described. */
  readonly acceptsImages: boolean;
  /** Text longer than this is cut, with a note (a result must not overflow the model's window). */
  readonly maxTextChars?: number;
}

const DEFAULT_MAX_TEXT = 60_000;

/** The approximate decoded size of base64 `data`. */
function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

function describeBlock(block: ContentBlock, options: ModelResultOptions): ModelResultPart {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: block.text };
    case 'image':
      if (options.acceptsImages) return { kind: 'data', mimeType: block.mimeType, data: block.data };
      return { kind: 'text', text: `[image: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}; this model does not take images]` };
    case 'audio':
      return { kind: 'text', text: `[audio: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}; not passed to the model]` };
    case 'resource_link':
      return { kind: 'text', text: `[resource link: ${block.uri}${block.name ? ` "${block.title ?? block.name}"` : ''}${block.mimeType ? `, ${block.mimeType}` : ''}${block.description ? ` — ${block.description}` : ''}]` };
    case 'resource': {
      const r = block.resource;
      if ('text' in r) return { kind: 'text', text: `[embedded resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}` };
      return { kind: 'text', text: `[embedded resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, ${formatBytes(base64Bytes(r.blob))} of binary data]` };
    }
    default: {
      const unknown = block as { type?: unknown };
      return { kind: 'text', text: `[content of type ${JSON.stringify(unknown.type)}]` };
    }
  }
}

/**
 * The parts the model gets for `result`: each content block (text as it is; images as data when
 * the model takes them, else described; audio described; resource links and embedded resources
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
