// The Skills group of a server in the tree: the skills it lists (frontmatter name and
// description, the server they come from), each expanding into its files as the listing names
// them. Drawing the group lists skills (`skills/list`, reused while its ttlMs holds); nothing here
// reads a skill's file. Clicking a skill opens it (skillDocuments.ts), which loads and verifies it.
import * as vscode from 'vscode';
import { formatBytes } from '../../protocol/text';
import { errorMessage } from '../../protocol/errors';
import { type ServerSkills, skillLabels } from '../../skills/serverSkills';
import { pathInSkill } from '../../skills/wire';
import type { TreeNode } from '../tree/treeNodes';

/** Command ids of the skill rows (package.json names them). */
export const OPEN_SKILL_COMMAND = 'mcpHost.skills.open';
export const OPEN_SKILL_FILE_COMMAND = 'mcpHost.skills.openFile';

type SkillsNode = Extract<TreeNode, { kind: 'skills' | 'skill' | 'skillFile' }>;

/** What a Skills group last showed: the listing's rows, or why it could not list. */
interface Shown {
  readonly rows: TreeNode[];
  readonly failed?: string;
  /** Drawn once as fetched; asked again after that, it is listed again (ServerSkills reuses it while its ttlMs holds). */
  unseen: boolean;
  readonly at: number;
}

/** A group redrawn within this long of its listing is not listed again: tree redraws come in bursts (a server's state, a refresh). */
const RELIST_AFTER_MS = 5000;

/**
 * The rows and items of the Skills groups; ServersTreeProvider asks it for theirs. The tree asks
 * for children synchronously: a group answers with what it last showed (or "Listing skills…")
 * and lists in the background, then fires onDidChange to be drawn again with the new rows.
 */
export class SkillsTreeSection {
  private readonly shown = new Map<string, Shown>();
  private readonly pending = new Set<string>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly skills: ServerSkills,
    private readonly serverName: (serverId: string) => string,
  ) {}

  /** True when the server runs and offers skills: its row gets a Skills group. */
  offers(serverId: string): boolean {
    return this.skills.offers(serverId);
  }

  children(node: SkillsNode): TreeNode[] {
    switch (node.kind) {
      case 'skills': {
        const shown = this.shown.get(node.serverId);
        if (shown?.unseen) {
          shown.unseen = false;
          return shown.rows;
        }
        if (!shown || Date.now() - shown.at >= RELIST_AFTER_MS) this.listInBackground(node.serverId);
        return shown?.rows ?? [{ kind: 'detail', serverId: node.serverId, key: 'skills:listing', label: 'Listing skills…', icon: new vscode.ThemeIcon('loading~spin') }];
      }
      case 'skill':
        return (node.entry.resources ?? []).map((file) => ({ kind: 'skillFile', serverId: node.serverId, entry: node.entry, path: file.uri === node.entry.uri ? 'SKILL.md' : (pathInSkill(node.entry.uri, file.uri) ?? file.uri), ...(file.size !== undefined ? { size: file.size } : {}) }));
      default:
        return [];
    }
  }

  private listInBackground(serverId: string): void {
    if (this.pending.has(serverId)) return;
    this.pending.add(serverId);
    const done = (shown: Shown) => {
      this.pending.delete(serverId);
      this.shown.set(serverId, shown);
      this._onDidChange.fire();
    };
    this.skills.list(serverId).then(
      (listing) => {
        const labels = skillLabels(listing.skills);
        done({ rows: listing.skills.map((entry, i) => ({ kind: 'skill', serverId, entry, label: labels[i] })), unseen: true, at: Date.now() });
      },
      (error: unknown) => done({ rows: [{ kind: 'detail', serverId, key: 'skills:error', label: `Could not list skills: ${errorMessage(error)}`, icon: new vscode.ThemeIcon('error') }], failed: errorMessage(error), unseen: true, at: Date.now() }),
    );
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  item(node: SkillsNode, collapsible: (fallback: vscode.TreeItemCollapsibleState) => vscode.TreeItemCollapsibleState): vscode.TreeItem {
    switch (node.kind) {
      case 'skills': {
        const item = new vscode.TreeItem('Skills', collapsible(vscode.TreeItemCollapsibleState.Collapsed));
        item.id = `${node.serverId}/skills`;
        item.iconPath = new vscode.ThemeIcon('mortar-board');
        item.contextValue = 'group.skills';
        item.description = this.shown.get(node.serverId)?.failed ? 'could not list' : undefined;
        item.tooltip = 'Skills this server offers (the Skills extension). Listing reads none of their files; opening one loads it and checks every file against the size and digest the server listed.';
        return item;
      }
      case 'skill': {
        const item = new vscode.TreeItem(node.label, collapsible(vscode.TreeItemCollapsibleState.Collapsed));
        item.id = `${node.serverId}/skill/${node.entry.uri}`;
        item.iconPath = new vscode.ThemeIcon('book');
        item.contextValue = 'skill';
        item.description = node.entry.frontmatter.description.replace(/\s+/g, ' ').slice(0, 200);
        const files = node.entry.resources;
        const size = files?.every((f) => f.size !== undefined) ? `, ${formatBytes(files.reduce((n, f) => n + (f.size ?? 0), 0))}` : '';
        item.tooltip = new vscode.MarkdownString(undefined, true);
        item.tooltip.appendText(`${node.entry.frontmatter.name} — ${node.entry.frontmatter.description}`);
        item.tooltip.appendMarkdown('\n\n');
        item.tooltip.appendText(`From ${this.serverName(node.serverId)} · ${node.entry.uri} · ${files ? `${files.length} file${files.length === 1 ? '' : 's'}${size}` : 'no file list (cannot be verified)'}`);
        item.command = { command: OPEN_SKILL_COMMAND, title: 'Open Skill', arguments: [node] };
        return item;
      }
      case 'skillFile': {
        const item = new vscode.TreeItem(node.path, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.serverId}/skill/${node.entry.uri}/${node.path}`;
        item.resourceUri = vscode.Uri.from({ scheme: 'file', path: `/${node.path}` });
        item.contextValue = 'skillFile';
        item.description = node.size === undefined ? undefined : formatBytes(node.size);
        item.command = { command: OPEN_SKILL_FILE_COMMAND, title: 'Open Skill File', arguments: [node] };
        return item;
      }
      default: {
        const never: never = node;
        return never;
      }
    }
  }
}
