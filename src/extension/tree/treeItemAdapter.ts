// The one place a `TreeRow` (treeItemModel.ts) becomes a `vscode.TreeItem`: the thin adapter
// between the tree's plain rows and the editor.
import * as vscode from 'vscode';
import type { RowExpansion, RowIcon, TreeRow } from './treeItemModel';

const COLLAPSIBLE: Record<RowExpansion, vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

export function collapsibleOf(expansion: RowExpansion): vscode.TreeItemCollapsibleState {
  return COLLAPSIBLE[expansion];
}

export function expansionOf(state: vscode.TreeItemCollapsibleState | undefined): RowExpansion {
  return state === vscode.TreeItemCollapsibleState.Expanded ? 'expanded' : state === vscode.TreeItemCollapsibleState.Collapsed ? 'collapsed' : 'none';
}

export function themeIcon(icon: RowIcon): vscode.ThemeIcon {
  return new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

/** Tooltip Markdown: no HTML, no command links; the text is already escaped. */
export function markdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text, false);
  md.supportHtml = false;
  md.isTrusted = false;
  return md;
}

/** `row` as VS Code draws it; `collapsible` is the state the view chose (its memory) from `row.expansion`. */
export function toTreeItem(row: TreeRow, collapsible: vscode.TreeItemCollapsibleState = collapsibleOf(row.expansion)): vscode.TreeItem {
  const item = new vscode.TreeItem(row.label, collapsible);
  if (row.id !== undefined) item.id = row.id;
  if (row.icon) item.iconPath = themeIcon(row.icon);
  if (row.contextValue !== undefined) item.contextValue = row.contextValue;
  if (row.description !== undefined) item.description = row.description;
  if (row.tooltip !== undefined) item.tooltip = typeof row.tooltip === 'string' ? row.tooltip : markdown(row.tooltip.markdown);
  if (row.command) item.command = { ...row.command, arguments: row.command.arguments ? [...row.command.arguments] : undefined };
  return item;
}
