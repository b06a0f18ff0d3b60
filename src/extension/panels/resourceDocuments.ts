// Servers' resources as read-only editors. Text resources are documents of a content provider
// (scheme `mcp-host-resource`; VS Code's own MCP support owns `mcp-resource`):
// mcp-host-resource://<hex server id>/<base64url resource uri>/<file name>,
// the name's extension picking the language; `changed()` makes open editors read them again.
// Binary contents (images, blobs of results) are written to files under the extension's global
// storage, so `vscode.open` shows images in VS Code's image preview; they are removed on exit.
import * as vscode from 'vscode';
import type { ReadResourceResult } from '../../client/schemas';
import { fileNameFor } from './virtualDocuments';
import { errorMessage } from '../../protocol/errors';

export const RESOURCE_SCHEME = 'mcp-host-resource';
/** An open followed by VS Code's own read shares one request when they come this close together. */
const READ_REUSE_MS = 3000;

export interface ResourceAddress {
  readonly serverId: string;
  readonly uri: string;
}

function hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex');
}

function unhex(text: string): string | undefined {
  if (!/^([0-9a-f]{2})+$/i.test(text)) return undefined;
  return Buffer.from(text, 'hex').toString('utf8');
}

/**
 * The name a resource's tab shows: the server, then the URI without its scheme, its slashes as
 * look-alike "∕" (a file name cannot hold "/"), and an extension for the language:
 * "everything · resource∕dynamic∕text∕3.txt", not "3.txt".
 */
export function resourceDocumentName(serverName: string, resourceUri: string, mimeType?: string): string {
  const rest = resourceUri.replace(/^[a-z][\w+.-]*:\/*/i, '').split('/').filter(Boolean).join('\u2215') || resourceUri;
  let name = `${serverName} · ${rest}`.replace(/[\u0000-\u001f\\/]+/g, '_');
  if (name.length > 150) name = `${name.slice(0, 149)}…`;
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(fileNameFor(resourceUri, mimeType))?.[0];
  return ext && !name.endsWith(ext) ? `${name}${ext}` : name;
}

/** The editor URI of a server's text resource. */
export function resourceEditorUri(serverId: string, serverName: string, resourceUri: string, mimeType?: string): vscode.Uri {
  const file = resourceDocumentName(serverName, resourceUri, mimeType);
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, authority: hex(serverId), path: `/${Buffer.from(resourceUri, 'utf8').toString('base64url')}/${file}` });
}

/** Which server and resource an editor URI names; undefined for anything else. */
export function parseResourceEditorUri(uri: vscode.Uri): ResourceAddress | undefined {
  if (uri.scheme !== RESOURCE_SCHEME) return undefined;
  const serverId = unhex(uri.authority);
  const encoded = uri.path.split('/')[1];
  if (serverId === undefined || !encoded || !/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  return { serverId, uri: Buffer.from(encoded, 'base64url').toString('utf8') };
}

/** The bytes of one resource's contents: the entry with the asked URI, else the first. */
export function contentsBytes(result: ReadResourceResult, uri: string): { bytes: Uint8Array; mimeType?: string; isText: boolean } {
  const list = Array.isArray(result.contents) ? result.contents : [];
  const entry = (list.find((c) => c.uri === uri) ?? list[0]) as { text?: unknown; blob?: unknown; mimeType?: unknown } | undefined;
  if (!entry) return { bytes: new Uint8Array(), isText: true };
  const mimeType = typeof entry.mimeType === 'string' ? entry.mimeType : undefined;
  if (typeof entry.text === 'string') return { bytes: Buffer.from(entry.text, 'utf8'), mimeType, isText: true };
  if (typeof entry.blob === 'string') return { bytes: Buffer.from(entry.blob, 'base64'), mimeType, isText: false };
  return { bytes: new Uint8Array(), mimeType, isText: true };
}

export type ResourceReader = (serverId: string, uri: string) => Promise<ReadResourceResult>;

export class ResourceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly reads = new Map<string, { time: number; text: Promise<string> }>();
  private readonly registration: vscode.Disposable;
  private counter = 0;
  private wroteFiles = false;

  constructor(
    private readonly read: ResourceReader,
    /** Where binary contents are written (the extension's global storage). */
    private readonly storage: vscode.Uri,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, this);
    // Files a previous session left behind.
    void vscode.workspace.fs.delete(this.blobRoot(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  }

  private blobRoot(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'inspect-files');
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const address = parseResourceEditorUri(uri);
    if (!address) return 'Not a resource of an MCP server.';
    const key = uri.toString();
    const cached = this.reads.get(key);
    if (cached && Date.now() - cached.time < READ_REUSE_MS) return cached.text;
    const text = this.read(address.serverId, address.uri).then(
      (r) => Buffer.from(contentsBytes(r, address.uri).bytes).toString('utf8'),
      (error: unknown) => {
        this.reads.delete(key);
        // Shown in the editor instead of an error dialog: the editor stays useful once the server is back.
        return `Could not read ${address.uri}: ${errorMessage(error)}`;
      },
    );
    this.reads.set(key, { time: Date.now(), text });
    return text;
  }

  /** Primes the cache with a read that just happened (so opening the editor does not read twice). */
  prime(uri: vscode.Uri, result: ReadResourceResult, resourceUri: string): void {
    this.reads.set(uri.toString(), { time: Date.now(), text: Promise.resolve(Buffer.from(contentsBytes(result, resourceUri).bytes).toString('utf8')) });
  }

  /** The resource changed on the server: each open editor of it reads it again. */
  changed(address: ResourceAddress, editorUris: readonly vscode.Uri[]): void {
    for (const uri of editorUris) {
      const a = parseResourceEditorUri(uri);
      if (!a || a.serverId !== address.serverId || a.uri !== address.uri) continue;
      this.reads.delete(uri.toString());
      this._onDidChange.fire(uri);
    }
  }

  /** Writes binary content to a file of its own and returns its URI (for the image preview, saving). */
  async writeFile(fileName: string, bytes: Uint8Array): Promise<vscode.Uri> {
    const key = `${Date.now().toString(36)}${(++this.counter).toString(36)}`;
    const uri = vscode.Uri.joinPath(this.blobRoot(), key, fileName.replace(/[^\w.\-@() ]+/g, '_') || 'content.bin');
    await vscode.workspace.fs.writeFile(uri, bytes);
    this.wroteFiles = true;
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this._onDidChange.dispose();
    this.reads.clear();
    if (this.wroteFiles) void vscode.workspace.fs.delete(this.blobRoot(), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  }
}
