// A configuration problem's row in the Servers tree: where it is, what is wrong, and a click that
// opens the file at that place.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigProblem } from '../../config';
import { problemLabel } from './serverRowText';

/** The row of a problem in a configuration file or setting. */
export function problemItem(p: ConfigProblem, index: number): vscode.TreeItem {
  const label = p.source.file && p.line > 0 ? problemLabel(path.basename(p.source.file), p.line, p.column, p.message) : `${p.source.label} — ${p.path && !p.serverName ? `${p.path}: ` : ''}${p.message}`;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `problem:${index}:${p.source.file ?? p.source.label}:${p.offset}:${p.message}`;
  item.description = p.source.file ? p.source.label : undefined;
  item.tooltip = `${p.source.label}${p.line > 0 ? `:${p.line}:${p.column}` : ''}\n${p.message}`;
  item.iconPath = p.severity === 'warning' ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  item.contextValue = 'problem';
  item.command = { command: 'mcpHost.openProblem', title: 'Open Configuration Problem', arguments: [{ kind: 'problem', problem: p, index }] };
  return item;
}
