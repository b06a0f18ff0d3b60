// Read-only documents the use cases open: a result's text part, a server's raw
// initialize result, its details. Served by a TextDocumentContentProvider (scheme
// `mcp-host-inspect`), so closing them never asks to save, and the language follows the extension.
import * as vscode from 'vscode';

export const INSPECT_SCHEME = 'mcp-host-inspect';
/** Documents kept; the oldest is forgotten first (an open editor keeps its text). */
const MAX_DOCUMENTS = 100;

export class VirtualDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(INSPECT_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? 'This document is no longer available.';
  }

  /**
   * Opens `content` read-only under a file name (its extension picks the language unless
   * `language` is given). The same `key` reuses and refreshes one document.
   */
  async open(fileName: string, content: string, options: { key?: string; language?: string; preview?: boolean } = {}): Promise<vscode.TextEditor> {
    const uri = this.put(fileName, content, options.key);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (options.language && doc.languageId !== options.language) doc = await vscode.languages.setTextDocumentLanguage(doc, options.language);
    return vscode.window.showTextDocument(doc, { preview: options.preview ?? false });
  }

  /** Opens Markdown `content` rendered (VS Code's Markdown preview), or as source when no preview is there. */
  async openRendered(fileName: string, content: string, options: { key?: string } = {}): Promise<void> {
    const uri = this.put(fileName, content, options.key);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    }
  }

  /** Keeps `content` under a file name (its extension picks the language); the same `key` refreshes one document. */
  private put(fileName: string, content: string, key = `${++this.counter}`): vscode.Uri {
    const safe = fileName.replace(/[^\w.\- ()@]+/g, '_').slice(0, 120) || 'document.txt';
    const uri = vscode.Uri.from({ scheme: INSPECT_SCHEME, path: `/${encodeURIComponent(key)}/${safe}` });
    const id = uri.toString();
    const existed = this.contents.has(id);
    this.contents.delete(id);
    this.contents.set(id, content);
    while (this.contents.size > MAX_DOCUMENTS) this.contents.delete(this.contents.keys().next().value as string);
    if (existed) this._onDidChange.fire(uri);
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this._onDidChange.dispose();
    this.contents.clear();
  }
}

/** A file extension for a MIME type, for names of virtual files. */
export function extensionFor(mimeType: string | undefined): string | undefined {
  if (!mimeType) return undefined;
  const m = mimeType.split(';')[0].trim().toLowerCase();
  const known: Record<string, string> = {
    'text/plain': '.txt',
    'text/markdown': '.md',
    'text/x-markdown': '.md',
    'application/json': '.json',
    'text/json': '.json',
    'text/html': '.html',
    'text/css': '.css',
    'text/javascript': '.js',
    'application/javascript': '.js',
    'application/typescript': '.ts',
    'application/xml': '.xml',
    'text/xml': '.xml',
    'text/csv': '.csv',
    'application/yaml': '.yaml',
    'text/yaml': '.yaml',
    'application/x-yaml': '.yaml',
    'application/toml': '.toml',
    'text/x-python': '.py',
    'application/x-sh': '.sh',
    'application/sql': '.sql',
    'image/png': '.png',
    'image/jpeg': '.jpg',
    'image/gif': '.gif',
    'image/webp': '.webp',
    'image/bmp': '.bmp',
    'image/svg+xml': '.svg',
    'audio/wav': '.wav',
    'audio/x-wav': '.wav',
    'audio/mpeg': '.mp3',
    'audio/ogg': '.ogg',
    'audio/webm': '.webm',
    'application/pdf': '.pdf',
    'application/zip': '.zip',
    'application/gzip': '.gz',
    'application/octet-stream': '.bin',
  };
  if (known[m]) return known[m];
  if (m.endsWith('+json')) return '.json';
  if (m.endsWith('+xml')) return '.xml';
  if (m.startsWith('text/')) return '.txt';
  return undefined;
}

/** A file name for a URI and MIME type: the last path segment, with an extension when it has none. */
export function fileNameFor(uri: string, mimeType?: string, fallback = 'resource'): string {
  let last = '';
  try {
    const parsed = new URL(uri);
    last = decodeURIComponent(parsed.pathname.split('/').filter(Boolean).pop() ?? '') || parsed.hostname;
  } catch {
    last = uri.split(/[/\\]/).filter(Boolean).pop() ?? '';
  }
  let name = last.replace(/[^\w.\-@() ]+/g, '_').replace(/^\.+/, '').slice(0, 100) || fallback;
  const ext = extensionFor(mimeType);
  const has = /\.[A-Za-z0-9]{1,8}$/.test(name);
  if (ext && (!has || (ext === '.svg' ? !name.toLowerCase().endsWith('.svg') : false))) name += ext;
  // An image type the name contradicts (x.txt declared image/png): trust the type for the preview.
  if (ext && /^image\//.test(mimeType ?? '') && has && !name.toLowerCase().endsWith(ext) && !(ext === '.jpg' && /\.jpeg$/i.test(name))) name += ext;
  return name;
}
