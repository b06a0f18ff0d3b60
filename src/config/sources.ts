import * as path from 'node:path';
import { ConfigSource } from './types';

/** A workspace folder as the config layer needs it. */
export interface FolderInfo {
  readonly name: string;
  readonly fsPath: string;
}

/** A key unique per source; entry ids are `${sourceKey(source)}::${name}`. */
export function sourceKey(source: ConfigSource): string {
  switch (source.kind) {
    case 'vscode-mcp-json':
    case 'dot-mcp-json':
      return `${source.kind}:${source.file ?? source.folder?.fsPath ?? source.label}`;
    case 'settings':
      return source.scope === 'folder' && source.folder ? `settings:folder:${source.folder.fsPath}` : `settings:${source.scope ?? 'user'}`;
    default: {
      const never: never = source.kind;
      throw new Error(`unknown source kind ${String(never)}`);
    }
  }
}

/** The id of the entry `name` of `source`. */
export function entryId(source: ConfigSource, name: string): string {
  return `${sourceKey(source)}::${name}`;
}

/** The two config files a workspace folder may hold: `.vscode/mcp.json` and `.mcp.json`. */
export function folderSources(folder: FolderInfo): ConfigSource[] {
  return [
    {
      kind: 'vscode-mcp-json',
      label: `.vscode/mcp.json (${folder.name})`,
      file: path.join(folder.fsPath, '.vscode', 'mcp.json'),
      folder: { name: folder.name, fsPath: folder.fsPath },
      workspaceDefined: true,
    },
    {
      kind: 'dot-mcp-json',
      label: `.mcp.json (${folder.name})`,
      file: path.join(folder.fsPath, '.mcp.json'),
      folder: { name: folder.name, fsPath: folder.fsPath },
      workspaceDefined: true,
    },
  ];
}

/** The source for the `mcpHost.servers` setting in one scope (`folder` needs the folder). */
export function settingsSource(scope: 'user' | 'workspace' | 'folder', folder?: FolderInfo): ConfigSource {
  if (scope === 'folder') {
    if (!folder) throw new Error('settingsSource: the folder scope needs a folder');
    return { kind: 'settings', label: `Folder settings (${folder.name})`, scope, folder: { name: folder.name, fsPath: folder.fsPath }, workspaceDefined: true };
  }
  return { kind: 'settings', label: scope === 'user' ? 'User settings' : 'Workspace settings', scope, workspaceDefined: scope === 'workspace' };
}
