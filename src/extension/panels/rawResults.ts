// The raw results behind what a panel shows, so "Open in editor", "Save…" and "Copy result as
// JSON" act on what the server sent (the webview only has display parts, possibly cut).
import * as vscode from 'vscode';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../../client/schemas';
import { IMAGE_TYPES, normalizeMimeType } from '../../content/mediaTypes';
import { InboundMessage, OutboundMessage, parseInbound } from '../../usecases/panelMessages';
import { errorMessage } from '../../protocol/errors';
import type { UseCaseContext } from './useCaseContext';
import { extensionFor, fileNameFor } from './virtualDocuments';

export type StoredResult =
  | { readonly kind: 'tool'; readonly serverId: string; readonly name: string; readonly result: CallToolResult }
  | { readonly kind: 'prompt'; readonly serverId: string; readonly name: string; readonly result: GetPromptResult }
  | { readonly kind: 'resource'; readonly serverId: string; readonly uri: string; readonly result: ReadResourceResult };

/** Reads a resource from a link in a result (the resource features open it). */
export type OpenResource = (serverId: string, uri: string) => Promise<void>;

/** What any panel showing a result may ask for: links, resource links, and its parts. */
export type ResultMessage = Extract<InboundMessage, { type: 'openLink' | 'readResource' | 'openPart' | 'savePart' | 'copyResult' | 'openResult' }>;

const RESULT_MESSAGES: ReadonlySet<InboundMessage['type']> = new Set<ResultMessage['type']>(['openLink', 'readResource', 'openPart', 'savePart', 'copyResult', 'openResult']);

export function isResultMessage(m: InboundMessage): m is ResultMessage {
  return RESULT_MESSAGES.has(m.type);
}

/** A message a panel handles itself (every one but the result messages). */
export type PanelMessage = Exclude<InboundMessage, ResultMessage>;

/** A panel that shows results, as `receivePanelMessage` needs it. */
export interface ResultPanel {
  readonly ctx: UseCaseContext;
  readonly results: ResultStore;
  readonly serverId: string;
  readonly openResource: OpenResource;
  /** "the tool panel", "a result panel": named in the log line of a malformed message. */
  readonly description: string;
  post(message: OutboundMessage): void;
}

/**
 * What every panel does with a message from its webview: a malformed one is logged and dropped,
 * a result message (links, parts) is answered here, the others go to `own`; a failure of either
 * becomes an error notice in the panel.
 */
export async function receivePanelMessage(panel: ResultPanel, raw: unknown, own: (m: PanelMessage) => Promise<void> | void): Promise<void> {
  const parsed = parseInbound(raw);
  if (!parsed.ok) {
    panel.ctx.deps.log(panel.serverId, 'warn', `Ignored a malformed message from ${panel.description}: ${parsed.reason}`);
    return;
  }
  const m = parsed.message;
  try {
    if (isResultMessage(m)) await handleResultMessage(panel.ctx, panel.results, panel.serverId, panel.openResource, m);
    else await own(m);
  } catch (error) {
    panel.post({ type: 'notice', level: 'error', text: errorMessage(error) });
  }
}

const KEEP = 20;

/** One piece of a result, resolved to text or bytes with a file name. */
interface Piece {
  readonly fileName: string;
  readonly text?: string;
  readonly bytes?: Uint8Array;
  readonly mimeType?: string;
}

export class ResultStore {
  private readonly results = new Map<string, StoredResult>();
  private counter = 0;

  add(result: StoredResult): string {
    const id = `c${Date.now().toString(36)}${(++this.counter).toString(36)}`;
    this.results.set(id, result);
    while (this.results.size > KEEP) this.results.delete(this.results.keys().next().value as string);
    return id;
  }

  /** Puts the final result under an id handed out while the call ran. */
  replace(id: string, result: StoredResult): void {
    if (this.results.has(id)) this.results.set(id, result);
  }

  get(id: string): StoredResult | undefined {
    return this.results.get(id);
  }
}

function pieceOf(stored: StoredResult, index: number): Piece | undefined {
  let block: Record<string, unknown> | undefined;
  let base: string;
  switch (stored.kind) {
    case 'tool':
      block = stored.result.content?.[index] as Record<string, unknown> | undefined;
      base = `${stored.name}-result-${index + 1}`;
      break;
    case 'prompt':
      block = stored.result.messages?.[index]?.content as Record<string, unknown> | undefined;
      base = `${stored.name}-message-${index + 1}`;
      break;
    case 'resource': {
      const c = stored.result.contents?.[index] as Record<string, unknown> | undefined;
      block = c ? { type: 'resource', resource: c } : undefined;
      base = fileNameFor(stored.uri, typeof c?.mimeType === 'string' ? c.mimeType : undefined);
      break;
    }
    default: {
      const never: never = stored;
      return never;
    }
  }
  if (!block) return undefined;
  switch (block.type) {
    case 'text': {
      const text = typeof block.text === 'string' ? block.text : '';
      let json = false;
      try {
        const t = text.trim();
        json = (t.startsWith('{') || t.startsWith('[')) && typeof JSON.parse(t) === 'object';
      } catch {
        json = false;
      }
      return { fileName: `${base}${json ? '.json' : '.txt'}`, text: json ? JSON.stringify(JSON.parse(text.trim()), null, 2) : text };
    }
    case 'image':
    case 'audio': {
      const mimeType = normalizeMimeType(block.mimeType);
      return { fileName: `${base}${extensionFor(mimeType) ?? '.bin'}`, bytes: Buffer.from(String(block.data ?? ''), 'base64'), mimeType };
    }
    case 'resource': {
      const r = (block.resource ?? {}) as Record<string, unknown>;
      const mimeType = normalizeMimeType(r.mimeType);
      const uri = typeof r.uri === 'string' ? r.uri : '';
      const fileName = stored.kind === 'resource' ? base : fileNameFor(uri, mimeType, base);
      if (typeof r.text === 'string') return { fileName: /\.[A-Za-z0-9]{1,8}$/.test(fileName) ? fileName : `${fileName}.txt`, text: r.text, mimeType };
      if (typeof r.blob === 'string') return { fileName, bytes: Buffer.from(r.blob, 'base64'), mimeType };
      return undefined;
    }
    case 'resource_link':
      return { fileName: `${base}.json`, text: JSON.stringify(block, null, 2) };
    default:
      return { fileName: `${base}.json`, text: JSON.stringify(block, null, 2) };
  }
}

/** Opens a part in an editor: text read-only; raster images in the image preview; other bytes as text when they decode. */
export async function openPart(ctx: UseCaseContext, stored: StoredResult, index: number): Promise<void> {
  const piece = pieceOf(stored, index);
  if (!piece) return;
  if (piece.text !== undefined) {
    await ctx.documents.open(piece.fileName, piece.text);
    return;
  }
  if (piece.bytes) {
    if (piece.mimeType && IMAGE_TYPES.has(piece.mimeType)) {
      await vscode.commands.executeCommand('vscode.open', await ctx.files.writeFile(piece.fileName, piece.bytes));
      return;
    }
    // SVG, CSV or JSON blobs and the like: their text, never rendered.
    await ctx.documents.open(`${piece.fileName}${piece.mimeType === 'image/svg+xml' ? '.txt' : ''}`, Buffer.from(piece.bytes).toString('utf8'));
  }
}

/** How many parts a result has (tool content blocks, prompt messages, resource contents). */
function partCount(stored: StoredResult): number {
  switch (stored.kind) {
    case 'tool':
      return stored.result.content?.length ?? 0;
    case 'prompt':
      return stored.result.messages?.length ?? 0;
    case 'resource':
      return stored.result.contents?.length ?? 0;
    default: {
      const never: never = stored;
      return never;
    }
  }
}

/**
 * The whole result as one text: each text part in full, a line for each binary part, and the
 * structured content of a tool result. One part alone keeps its own name (and so its language).
 */
export function resultDocument(stored: StoredResult): { fileName: string; text: string } {
  const pieces = Array.from({ length: partCount(stored) }, (_, i) => pieceOf(stored, i));
  const structured = stored.kind === 'tool' ? stored.result.structuredContent : undefined;
  const only = pieces.length === 1 && structured === undefined ? pieces[0] : undefined;
  if (only?.text !== undefined) return { fileName: only.fileName, text: only.text };
  const label = (i: number) => (stored.kind === 'prompt' ? `message ${i + 1} (${stored.result.messages?.[i]?.role ?? '?'})` : `part ${i + 1}`);
  const sections = pieces.map((p, i) => {
    if (!p) return `── ${label(i)}: nothing to show`;
    if (p.text !== undefined) return `── ${label(i)}: ${p.fileName}\n${p.text}`;
    return `── ${label(i)}: ${p.fileName} (${p.bytes?.length ?? 0} bytes${p.mimeType ? `, ${p.mimeType}` : ''}; use Save… in the panel)`;
  });
  if (structured !== undefined) sections.push(`── structured content\n${JSON.stringify(structured, null, 2)}`);
  const base = stored.kind === 'resource' ? fileNameFor(stored.uri, undefined) : `${stored.name}-${stored.kind === 'prompt' ? 'messages' : 'result'}`;
  return { fileName: `${base.replace(/\.[A-Za-z0-9]{1,8}$/, '')}.txt`, text: sections.join('\n\n') || '(no content)' };
}

/** Saves a part where the user says. */
export async function savePart(ctx: UseCaseContext, stored: StoredResult, index: number): Promise<void> {
  const piece = pieceOf(stored, index);
  if (!piece) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, piece.fileName) : undefined, saveLabel: 'Save', title: `Save ${piece.fileName}` });
  if (!target) return;
  const bytes = piece.bytes ?? Buffer.from(piece.text ?? '', 'utf8');
  await vscode.workspace.fs.writeFile(target, bytes);
  void vscode.window.setStatusBarMessage(`Saved ${target.fsPath || target.toString()}`, 4000);
}

/** Copies the whole result, as the server sent it, as JSON. */
export async function copyResult(stored: StoredResult): Promise<void> {
  await vscode.env.clipboard.writeText(JSON.stringify(stored.result, null, 2));
  void vscode.window.setStatusBarMessage('Result copied as JSON', 3000);
}

/** Answers a result message of a panel; a part of a result no longer kept is ignored. */
export async function handleResultMessage(ctx: UseCaseContext, results: ResultStore, serverId: string, openResource: OpenResource, m: ResultMessage): Promise<void> {
  switch (m.type) {
    case 'openLink':
      return ctx.openLink(serverId, m.url);
    case 'readResource':
      return openResource(serverId, m.uri);
    case 'openPart':
    case 'savePart':
    case 'copyResult':
    case 'openResult': {
      const stored = results.get(m.callId);
      if (!stored) return;
      if (m.type === 'openResult') {
        const doc = resultDocument(stored);
        await ctx.documents.open(doc.fileName, doc.text);
        return;
      }
      if (m.type === 'openPart') return openPart(ctx, stored, m.index);
      if (m.type === 'savePart') return savePart(ctx, stored, m.index);
      return copyResult(stored);
    }
  }
}
