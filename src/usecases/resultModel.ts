// What a tool call, a resource read or a prompt returned, as display parts for the webview.
// Everything here is built by the host (extension side) from server data: data URIs only for
// allow-listed image/audio types with well-formed base64, Markdown pre-rendered by the
// sanitiser, SVG never as an image (it can carry script). The webview only places these parts.
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents } from '../client/schemas';
import { McpLocalError, ResponseError, errorMessage, explainWireError } from '../protocol/errors';
import { Json } from '../schema/json';
import { looksLikeMarkdown, renderMarkdown } from '../content/markdown';
import { SchemaCheck, SchemaValidator } from '../schema/validator';
import { FoldedJson, cutDeepJson, foldJson } from '../protocol/jsonShape';
import { formatBytes } from '../protocol/text';
import { AUDIO_TYPES, IMAGE_TYPES, MAX_INLINE_BYTES, base64Bytes, normalizeMimeType } from '../content/mediaTypes';

/** Most characters of one text part sent to the webview; the rest opens in an editor. */
export const MAX_TEXT_CHARS = 500_000;
/** Longest text still parsed as JSON to show as a (folded) tree; a longer one shows its start as text (parsing 20 MiB again costs the extension host seconds under load). */
export const MAX_JSON_TEXT_CHARS = 8 * 1024 * 1024;

/**
 * How much of a JSON value the panel gets: the webview draws it as a tree, and everything posted
 * to it is serialised on the way, so a large value is folded here (its first items, the start of
 * long strings, a marker for the rest) and opens whole in an editor.
 */
export const SHOWN_JSON_LIMITS = { maxChars: 512 * 1024, maxStringChars: 10_000, maxItems: 500 } as const;

/** Where a part came from, so "open in editor" / "save" can find the original content. */
export interface PartOrigin {
  /** Index in `content` (tool results), `contents` (resource reads) or `messages` (prompts). */
  readonly index: number;
  /** The block's annotations (who it is for, how important), when it has any. */
  readonly annotations?: PartAnnotations;
}

export interface PartAnnotations {
  readonly audience?: readonly string[];
  readonly priority?: number;
  readonly lastModified?: string;
}

/** The known annotation fields of a content block, checked; undefined when there are none. */
function annotationsOf(block: Record<string, unknown>): PartAnnotations | undefined {
  const a = block.annotations;
  if (typeof a !== 'object' || a === null) return undefined;
  const r = a as Record<string, unknown>;
  const audience = Array.isArray(r.audience) ? r.audience.filter((x): x is string => x === 'user' || x === 'assistant') : undefined;
  const out: PartAnnotations = {
    ...(audience && audience.length ? { audience } : {}),
    ...(typeof r.priority === 'number' && Number.isFinite(r.priority) ? { priority: r.priority } : {}),
    ...(typeof r.lastModified === 'string' ? { lastModified: r.lastModified.slice(0, 64) } : {}),
  };
  return Object.keys(out).length ? out : undefined;
}

export type DisplayPart =
  | (PartOrigin & {
      readonly kind: 'text';
      readonly text: string;
      /** The text was cut to MAX_TEXT_CHARS for display. */
      readonly truncated: boolean;
      /** Sanitised HTML of the text as Markdown (absent when too long to parse). */
      readonly html?: string;
      /** Show the Markdown view first (the text looks like Markdown or its type says so). */
      readonly preferMarkdown: boolean;
      /** The text is a JSON object or array: shown as a tree. */
      readonly json?: Json;
      /** Parts of `json` nested deeper than MAX_SHOWN_DEPTH were replaced by a marker. */
      readonly cutDeep?: true;
      /** `json` is large and was folded for display (SHOWN_JSON_LIMITS): the editor shows all of it. */
      readonly folded?: true;
      /** For embedded resources: where it came from. */
      readonly uri?: string;
      readonly mimeType?: string;
    })
  | (PartOrigin & { readonly kind: 'image' | 'audio'; readonly mimeType: string; readonly dataUri: string; readonly bytes: number; readonly uri?: string; readonly warning?: string })
  | (PartOrigin & {
      readonly kind: 'binary';
      readonly mimeType?: string;
      readonly bytes: number;
      /** Why it is not shown inline. */
      readonly reason: string;
      readonly uri?: string;
      /** For SVG and other text-like blobs: the decoded text, shown as text. */
      readonly text?: string;
    })
  | (PartOrigin & {
      readonly kind: 'resourceLink';
      readonly uri: string;
      readonly name: string;
      readonly title?: string;
      readonly description?: string;
      readonly mimeType?: string;
      readonly size?: number;
    })
  | (PartOrigin & { readonly kind: 'unknown'; readonly type: string; readonly raw: string });

/** Verdict on `structuredContent` against the tool's `outputSchema`. */
export type StructuredVerdict =
  /** The check itself (valid, invalid, unusable schema, or unchecked because too costly). */
  | SchemaCheck
  /** The tool declares an outputSchema but the result has no structuredContent (a server bug unless isError). */
  | { readonly kind: 'missing' }
  /** No outputSchema: nothing to check against. */
  | { readonly kind: 'no-schema' };

export interface ToolResultDisplay {
  /** The tool reported an error in its result (`isError: true`), as opposed to a protocol error. */
  readonly isError: boolean;
  readonly parts: readonly DisplayPart[];
  readonly structured?: { readonly value: Json; readonly verdict: StructuredVerdict; readonly cutDeep?: true; readonly folded?: true };
  /** `missing` (when an outputSchema exists and nothing came) is reported here too. */
  readonly verdict: StructuredVerdict;
}

export interface PromptDisplay {
  readonly description?: string;
  readonly messages: ReadonlyArray<{ readonly role: string; readonly parts: readonly DisplayPart[] }>;
}

/** A failed request, told apart by where it failed. */
export type CallFailure =
  /** `meaning`: what the code says, for the codes whose number alone says little (explainWireError). */
  | { readonly kind: 'protocol'; readonly code: number; readonly message: string; readonly data?: Json; readonly meaning?: string }
  | { readonly kind: 'local'; readonly reason: McpLocalError['kind']; readonly message: string }
  | { readonly kind: 'other'; readonly message: string };

// ---------------------------------------------------------------------------------------------

/** What the first bytes say the data is, for the common image types. */
function sniff(base64: string): string | undefined {
  const head = Buffer.from(base64.slice(0, 24), 'base64');
  if (head.length >= 8 && head[0] === 0x89 && head.toString('latin1', 1, 4) === 'PNG') return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 4 && head.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (head.length >= 2 && head.toString('latin1', 0, 2) === 'BM') return 'image/bmp';
  return undefined;
}

function isTextLike(mimeType: string | undefined): boolean {
  if (!mimeType) return false;
  return mimeType.startsWith('text/') || /[+/](json|xml|yaml|javascript|x-sh|markdown|csv|toml)$/.test(mimeType) || mimeType === 'image/svg+xml';
}

function textPart(index: number, text: string, extra: { uri?: string; mimeType?: string } = {}): DisplayPart {
  const truncated = text.length > MAX_TEXT_CHARS;
  const shown = truncated ? text.slice(0, MAX_TEXT_CHARS) : text;
  let json: ShownJson | undefined;
  const start = shown.trimStart();
  // JSON too long to show as text in full is still a tree: folded, so the panel gets its start.
  if (text.length <= MAX_JSON_TEXT_CHARS && (start.startsWith('{') || start.startsWith('[')) && extra.mimeType !== 'text/markdown') {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null) json = shownJson(parsed);
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  const preferMarkdown = json === undefined && (extra.mimeType === 'text/markdown' || (extra.mimeType === undefined && looksLikeMarkdown(shown)));
  return {
    index,
    kind: 'text',
    text: shown,
    truncated,
    // The Markdown view is offered only for text that looks like Markdown: no HTML for the rest.
    ...(json === undefined ? (preferMarkdown ? { html: renderMarkdown(shown) } : {}) : { json: json.value, ...(json.cutDeep ? { cutDeep: true as const } : {}), ...(json.folded ? { folded: true as const } : {}) }),
    preferMarkdown,
    ...(extra.uri !== undefined ? { uri: extra.uri } : {}),
    ...(extra.mimeType !== undefined ? { mimeType: extra.mimeType } : {}),
  };
}

/**
 * How deep a JSON value is shown as a tree. Deeper parts are replaced by a marker: the webview
 * draws the tree recursively, and posting a value to it serialises it (JSON.stringify overflows
 * at a few thousand levels).
 */
export const MAX_SHOWN_DEPTH = 64;

interface ShownJson {
  readonly value: Json;
  readonly cutDeep?: true;
  readonly folded?: true;
}

/** A JSON value as the panel gets it: folded when large (SHOWN_JSON_LIMITS), cut when deep. */
function shownJson(value: unknown): ShownJson {
  let shown: FoldedJson;
  try {
    shown = foldJson(value, { ...SHOWN_JSON_LIMITS, maxDepth: MAX_SHOWN_DEPTH });
  } catch {
    // Not JSON (a cycle, a BigInt: never from the wire): only the depth is made safe.
    const cut = cutDeepJson(value, MAX_SHOWN_DEPTH);
    return cut.cut ? { value: cut.value as Json, cutDeep: true } : { value: value as Json };
  }
  return { value: shown.value as Json, ...(shown.cutDeep ? { cutDeep: true as const } : {}), ...(shown.folded ? { folded: true as const } : {}) };
}

/** An image/audio block or a blob: a data URI when the type is allowed and the data sound. */
function binaryPart(index: number, kind: 'image' | 'audio' | 'blob', data: unknown, rawMime: unknown, uri?: string): DisplayPart {
  const mimeType = normalizeMimeType(rawMime);
  const bytes = base64Bytes(data);
  const at = uri !== undefined ? { uri } : {};
  const shownMime = mimeType ?? (typeof rawMime === 'string' ? rawMime.slice(0, 100) : undefined);
  if (bytes === undefined) return { index, kind: 'binary', ...(shownMime ? { mimeType: shownMime } : {}), bytes: 0, reason: 'the data is not valid base64', ...at };
  const clean = (data as string).replace(/\s+/g, '');
  if (mimeType === 'image/svg+xml') {
    const text = bytes <= MAX_TEXT_CHARS ? Buffer.from(clean, 'base64').toString('utf8') : undefined;
    return { index, kind: 'binary', mimeType, bytes, reason: 'SVG is not shown as an image (it can contain script); shown as text', ...(text !== undefined ? { text } : {}), ...at };
  }
  const wantImage = kind === 'image' || (kind === 'blob' && mimeType !== undefined && mimeType.startsWith('image/'));
  const wantAudio = kind === 'audio' || (kind === 'blob' && mimeType !== undefined && mimeType.startsWith('audio/'));
  if (wantImage || wantAudio) {
    const allowed = wantImage ? IMAGE_TYPES : AUDIO_TYPES;
    if (mimeType === undefined || !allowed.has(mimeType)) {
      return { index, kind: 'binary', ...(shownMime ? { mimeType: shownMime } : {}), bytes, reason: `${shownMime === undefined ? 'no' : `the type ${JSON.stringify(shownMime)} is not a`} ${wantImage ? 'image' : 'audio'} type shown inline`, ...at };
    }
    if (bytes > MAX_INLINE_BYTES) return { index, kind: 'binary', mimeType, bytes, reason: 'too large to show inline', ...at };
    const sniffed = wantImage ? sniff(clean) : undefined;
    const warning = wantImage && sniffed !== mimeType ? `the data does not look like ${mimeType}${sniffed ? ` (it looks like ${sniffed})` : ''}` : undefined;
    return { index, kind: wantImage ? 'image' : 'audio', mimeType, dataUri: `data:${mimeType};base64,${clean}`, bytes, ...at, ...(warning ? { warning } : {}) };
  }
  if (isTextLike(mimeType) && bytes <= MAX_TEXT_CHARS) {
    const decoded = Buffer.from(clean, 'base64').toString('utf8');
    return { index, kind: 'binary', ...(mimeType ? { mimeType } : {}), bytes, reason: 'binary resource with a text type; shown as text', text: decoded, ...at };
  }
  return { index, kind: 'binary', ...(shownMime ? { mimeType: shownMime } : {}), bytes, reason: 'binary data', ...at };
}

function resourcePart(index: number, resource: ResourceContents | Record<string, unknown>): DisplayPart {
  const r = resource as Record<string, unknown>;
  const uri = typeof r.uri === 'string' ? r.uri : '';
  const mimeType = normalizeMimeType(r.mimeType);
  if (typeof r.text === 'string') return textPart(index, r.text, { uri, ...(mimeType ? { mimeType } : {}) });
  if (typeof r.blob === 'string') return binaryPart(index, 'blob', r.blob, r.mimeType, uri);
  return { index, kind: 'unknown', type: 'resource', raw: safeJson(resource) };
}

function safeJson(v: unknown, max = 2000): string {
  let s: string;
  try {
    s = JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** One content block (of a tool result or a prompt message) as a display part. */
export function contentToPart(block: ContentBlock | Record<string, unknown>, index: number): DisplayPart {
  const part = contentToPartInner(block, index);
  const annotations = typeof block === 'object' && block !== null ? annotationsOf(block as Record<string, unknown>) : undefined;
  return annotations ? { ...part, annotations } : part;
}

function contentToPartInner(block: ContentBlock | Record<string, unknown>, index: number): DisplayPart {
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? textPart(index, b.text) : { index, kind: 'unknown', type: 'text', raw: safeJson(block) };
    case 'image':
      return binaryPart(index, 'image', b.data, b.mimeType);
    case 'audio':
      return binaryPart(index, 'audio', b.data, b.mimeType);
    case 'resource':
      return typeof b.resource === 'object' && b.resource !== null ? resourcePart(index, b.resource as Record<string, unknown>) : { index, kind: 'unknown', type: 'resource', raw: safeJson(block) };
    case 'resource_link':
      if (typeof b.uri !== 'string') return { index, kind: 'unknown', type: 'resource_link', raw: safeJson(block) };
      return {
        index,
        kind: 'resourceLink',
        uri: b.uri,
        name: typeof b.name === 'string' ? b.name : b.uri,
        ...(typeof b.title === 'string' ? { title: b.title } : {}),
        ...(typeof b.description === 'string' ? { description: b.description } : {}),
        ...(normalizeMimeType(b.mimeType) ? { mimeType: normalizeMimeType(b.mimeType) } : {}),
        ...(typeof b.size === 'number' ? { size: b.size } : {}),
      };
    default:
      return { index, kind: 'unknown', type: typeof b.type === 'string' ? b.type.slice(0, 100) : typeof b.type, raw: safeJson(block) };
  }
}

/**
 * A tool result for display: every content block, and `structuredContent` checked against
 * `outputSchema` when the tool has one.
 */
export function toolResultDisplay(result: CallToolResult, outputSchema: unknown, validator: SchemaValidator): ToolResultDisplay {
  const content = Array.isArray(result.content) ? result.content : [];
  const parts = content.map((block, i) => contentToPart(block, i));
  const isError = result.isError === true;
  const hasSchema = typeof outputSchema === 'object' && outputSchema !== null;
  const structured = result.structuredContent;
  let verdict: StructuredVerdict;
  if (structured === undefined) verdict = hasSchema && !isError ? { kind: 'missing' } : { kind: 'no-schema' };
  else if (!hasSchema) verdict = { kind: 'no-schema' };
  else verdict = validator.check(outputSchema, structured);
  return {
    isError,
    parts,
    ...(structured !== undefined ? { structured: { ...shownJson(structured), verdict } } : {}),
    verdict,
  };
}

/** The contents of a `resources/read` result as display parts. */
export function resourceDisplay(result: ReadResourceResult): DisplayPart[] {
  return (Array.isArray(result.contents) ? result.contents : []).map((c, i) => resourcePart(i, c));
}

/** A `prompts/get` result: each message with its role and content. */
export function promptDisplay(result: GetPromptResult): PromptDisplay {
  const messages = (Array.isArray(result.messages) ? result.messages : []).map((m, i) => ({
    role: typeof m.role === 'string' ? m.role : 'unknown',
    parts: [contentToPart(m.content, i)],
  }));
  return { ...(typeof result.description === 'string' ? { description: result.description } : {}), messages };
}

/** Tells a wire error from a local one (timeout, cancelled, …) from anything else. */
export function describeFailure(error: unknown): CallFailure {
  if (error instanceof ResponseError) {
    let data: Json | undefined;
    if (error.data !== undefined) {
      try {
        data = JSON.parse(JSON.stringify(error.data)) as Json;
      } catch {
        data = undefined;
      }
    }
    const meaning = explainWireError(error.code, error.data);
    return { kind: 'protocol', code: error.code, message: error.wireMessage, ...(data !== undefined ? { data } : {}), ...(meaning ? { meaning } : {}) };
  }
  if (error instanceof McpLocalError) return { kind: 'local', reason: error.kind, message: error.message };
  return { kind: 'other', message: errorMessage(error) };
}


/** One part in a few words, for history and titles. */
export function summarizePart(part: DisplayPart): string {
  switch (part.kind) {
    case 'text':
      return part.text.replace(/\s+/g, ' ').trim() || '(empty text)';
    case 'image':
    case 'audio':
      return `${part.kind} ${part.mimeType} (${formatBytes(part.bytes)})`;
    case 'binary':
      return `${part.mimeType ?? 'binary'} (${formatBytes(part.bytes)})`;
    case 'resourceLink':
      return `link ${part.uri}`;
    case 'unknown':
      return `unknown content "${part.type}"`;
    default: {
      const never: never = part;
      return never;
    }
  }
}

/** One line about a tool result for the history list. */
export function summarizeResult(display: ToolResultDisplay): string {
  const first = display.parts[0];
  let text = first ? summarizePart(first) : display.structured ? safeJson(display.structured.value, 300).replace(/\s+/g, ' ') : '(no content)';
  if (display.parts.length > 1) text = `${text} (+${display.parts.length - 1} more)`;
  return display.isError ? `Tool error: ${text}` : text;
}

/** One line about a failure for the history list and notifications. */
export function summarizeFailure(failure: CallFailure): string {
  switch (failure.kind) {
    case 'protocol':
      return `Server error ${failure.code}: ${failure.message}${failure.meaning ? ` (${failure.meaning})` : ''}`;
    case 'local':
      return failure.message;
    case 'other':
      return failure.message;
    default: {
      const never: never = failure;
      return never;
    }
  }
}
