// A skill opened in the editor: a read-only file system on the `mcp-skill:` scheme whose files
// are the skill's as its listing names them. Reading one loads it through ServerSkills — SKILL.md
// verified against the entry's size, digest and frontmatter, any other file against its size and
// digest — so a Markdown preview of SKILL.md shows verified text and follows its relative links
// to the skill's own (verified) files. A refused file reads as an error that says why.
import * as vscode from 'vscode';
import { errorMessage } from '../../protocol/errors';
import { ServerSkills, SkillDocumentPath } from '../../skills/serverSkills';
import { SkillVerificationError } from '../../skills/verification';
import { SkillEntry, pathInSkill, skillRoot } from '../../skills/wire';
import { OPEN_SKILL_COMMAND, OPEN_SKILL_FILE_COMMAND } from './skillsTree';
import type { TreeNode } from '../tree/treeNodes';

/** The `mcp-skill:` URI of a file of a skill. */
export function skillDocumentUri(serverId: string, entry: SkillEntry, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SkillDocumentPath.scheme, path: SkillDocumentPath.of(serverId, entry.uri, path) });
}

class SkillFileSystem implements vscode.FileSystemProvider {
  private readonly _onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this._onDidChangeFile.event;

  constructor(
    private readonly skills: ServerSkills,
    private readonly log: (serverId: string, text: string) => void,
  ) {}

  private located(uri: vscode.Uri): { serverId: string; entry: SkillEntry; path: string } {
    const parts = SkillDocumentPath.parse(uri.path);
    const entry = parts && this.skills.entry(parts.serverId, parts.skillUri);
    if (!parts || !entry) throw vscode.FileSystemError.FileNotFound(uri);
    return { serverId: parts.serverId, entry, path: parts.pathInSkill };
  }

  /** The listed files as paths in the skill (`SKILL.md`, `references/FORMS.md`) with their sizes. */
  private files(entry: SkillEntry): Array<{ path: string; size?: number }> {
    return (entry.resources ?? []).map((f) => ({ path: f.uri === entry.uri ? 'SKILL.md' : (pathInSkill(entry.uri, f.uri) ?? f.uri), ...(f.size !== undefined ? { size: f.size } : {}) }));
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const { entry, path } = this.located(uri);
    const file = this.files(entry).find((f) => f.path === path);
    if (file) return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: file.size ?? 0, permissions: vscode.FilePermission.Readonly };
    if (path === '' || this.files(entry).some((f) => f.path.startsWith(`${path}/`))) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): Array<[string, vscode.FileType]> {
    const { entry, path } = this.located(uri);
    const prefix = path ? `${path}/` : '';
    const children = new Map<string, vscode.FileType>();
    for (const f of this.files(entry)) {
      if (!f.path.startsWith(prefix)) continue;
      const [head, ...rest] = f.path.slice(prefix.length).split('/');
      children.set(head, rest.length ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...children];
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { serverId, entry, path } = this.located(uri);
    try {
      if (path === 'SKILL.md') return (await this.skills.load(serverId, entry)).skillMd.bytes;
      return (await this.skills.readFile(serverId, entry, `${skillRoot(entry.uri)}/${path}`)).bytes;
    } catch (error) {
      // The refusal says which file and what differed; never the content.
      this.log(serverId, `skill ${entry.frontmatter.name}: ${errorMessage(error)}`);
      throw SkillVerificationError.is(error) ? vscode.FileSystemError.NoPermissions(`Refused: ${error.message}`) : vscode.FileSystemError.Unavailable(errorMessage(error));
    }
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }
  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('A skill opened from a server is read-only');
  }
  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions('A skill opened from a server is read-only');
  }
  delete(): never {
    throw vscode.FileSystemError.NoPermissions('A skill opened from a server is read-only');
  }
  rename(): never {
    throw vscode.FileSystemError.NoPermissions('A skill opened from a server is read-only');
  }
}

/**
 * Registers the `mcp-skill:` file system and the commands of the skill rows: Open Skill (loads
 * and verifies SKILL.md, then shows it rendered) and a file row's open (that file, verified).
 */
export function registerSkillDocuments(skills: ServerSkills, log: (serverId: string, text: string) => void): vscode.Disposable {
  const open = async (node: TreeNode, path?: string) => {
    if (node.kind !== 'skill' && node.kind !== 'skillFile') return;
    const uri = skillDocumentUri(node.serverId, node.entry, path ?? (node.kind === 'skillFile' ? node.path : 'SKILL.md'));
    try {
      // Read first: a refusal is said in a message rather than as an empty preview.
      await vscode.workspace.fs.readFile(uri);
    } catch (error) {
      void vscode.window.showErrorMessage(`Skill ${node.entry.frontmatter.name} was not opened: ${error instanceof Error ? error.message.replace(/ \(FileSystemError\)$/, '') : String(error)}`);
      return;
    }
    if (uri.path.endsWith('.md')) await vscode.commands.executeCommand('markdown.showPreview', uri);
    else await vscode.window.showTextDocument(uri, { preview: true });
  };
  return vscode.Disposable.from(
    vscode.workspace.registerFileSystemProvider(SkillDocumentPath.scheme, new SkillFileSystem(skills, log), { isReadonly: true, isCaseSensitive: true }),
    vscode.commands.registerCommand(OPEN_SKILL_COMMAND, (node: TreeNode) => open(node)),
    vscode.commands.registerCommand(OPEN_SKILL_FILE_COMMAND, (node: TreeNode) => open(node)),
  );
}
