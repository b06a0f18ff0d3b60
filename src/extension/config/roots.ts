// Which workspace folders become MCP roots. Only folders on disk (`file` scheme) are offered:
// a server reads roots as local paths, so a `vscode-vfs:` or `untitled:` folder would point it
// nowhere. The skipped folders are named so the log can say why they are missing.
// No `vscode` import: `vscode.WorkspaceFolder` fits `RootFolder`, and node --test can load it.
import type { Root } from '../../client/client';

/** The part of a workspace folder that decides its root. */
export interface RootFolder {
  readonly name: string;
  readonly uri: { readonly scheme: string; toString(): string };
}

/** A folder that is not offered to servers. */
export interface SkippedFolder {
  readonly name: string;
  readonly uri: string;
}

export interface WorkspaceRoots {
  /** The roots, in the workspace's folder order. */
  readonly roots: Root[];
  /** Folders of other schemes, in the same order. */
  readonly skipped: SkippedFolder[];
}

/** Splits the workspace folders into roots (`file` folders) and skipped ones. */
export function workspaceRoots(folders: readonly RootFolder[] | undefined): WorkspaceRoots {
  const roots: Root[] = [];
  const skipped: SkippedFolder[] = [];
  for (const f of folders ?? []) {
    if (f.uri.scheme === 'file') roots.push({ uri: f.uri.toString(), name: f.name });
    else skipped.push({ name: f.name, uri: f.uri.toString() });
  }
  return { roots, skipped };
}

/** The lines the host log gets when the roots are (re)computed: one per skipped folder, then the roots. */
export function rootsLogLines(selection: WorkspaceRoots, why: string): string[] {
  return [
    ...selection.skipped.map((f) => `Roots: skipping "${f.name}" (${f.uri}): only file folders are offered to servers.`),
    `Roots (${why}): ${selection.roots.map((r) => `${r.name} ${r.uri}`).join(', ') || 'none'}.`,
  ];
}
