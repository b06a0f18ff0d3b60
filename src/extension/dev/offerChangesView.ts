// The "What changed" view: what each server offers differently after a list_changed, a refresh,
// a restart or a reconnect (newest first), each change a row; a row opens a diff of the values.
import * as vscode from 'vscode';
import type { OfferChange } from '../../usecases/offerDiff';
import { describeOfferChange, isDataChange, summarizeDataChanges } from '../../usecases/offerDiff';
import type { OfferChangeRecord, OfferChangeTracker } from '../../usecases/offerChanges';
import { formatJsonPath, valueNote } from '../../schema/jsonDiff';

export const CHANGE_SCHEME = 'mcp-host-change';

type Row =
  | { readonly kind: 'record'; readonly record: OfferChangeRecord; readonly newest: boolean }
  /** The record's data changes (resources come and go), folded into one row. */
  | { readonly kind: 'data'; readonly record: OfferChangeRecord }
  | { readonly kind: 'change'; readonly record: OfferChangeRecord; readonly change: OfferChange; readonly index: number };

/** Tree of recorded offer changes; the diff documents of its rows. */
export class OfferChangesView implements vscode.TreeDataProvider<Row>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<Row | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Diff sides by URI, so a document stays readable while its editor is open. */
  private readonly sides = new Map<string, string>();

  constructor(private readonly tracker: OfferChangeTracker) {
    const changed = () => this._onDidChangeTreeData.fire(undefined);
    const a = tracker.onDidRecord(changed);
    const b = tracker.onDidClear(changed);
    this.disposables.push(
      this._onDidChangeTreeData,
      { dispose: () => a.dispose() },
      { dispose: () => b.dispose() },
      vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, this),
      vscode.commands.registerCommand('mcpHost.changes.clear', () => tracker.clear()),
      vscode.commands.registerCommand('mcpHost.changes.showDiff', (row?: Row) => (row?.kind === 'change' ? this.showDiff(row) : undefined)),
    );
  }

  getChildren(row?: Row): Row[] {
    if (!row) {
      const records = [...this.tracker.list()].reverse();
      return records.map((record, i) => ({ kind: 'record', record, newest: i === 0 }));
    }
    const rows = (data: boolean): Row[] => row.record.changes.flatMap((change, index) => (isDataChange(change) === data ? [{ kind: 'change' as const, record: row.record, change, index }] : []));
    if (row.kind === 'record') return [...rows(false), ...(row.record.changes.some(isDataChange) ? [{ kind: 'data' as const, record: row.record }] : [])];
    if (row.kind === 'data') return rows(true);
    return [];
  }

  getTreeItem(row: Row): vscode.TreeItem {
    if (row.kind === 'record') {
      const { record } = row;
      const dataOnly = record.changes.every(isDataChange);
      // Only data changed (a note added): folded, even when newest; what the server offers to do did not change.
      const item = new vscode.TreeItem(record.serverName, row.newest && !dataOnly ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      const count = dataOnly ? `data only: ${summarizeDataChanges(record.changes)}` : `${record.changes.length} change${record.changes.length === 1 ? '' : 's'}`;
      item.description = `${new Date(record.at).toLocaleTimeString()} · ${record.cause === 'restart' ? 'after a restart' : 'lists changed'} · ${count}`;
      item.iconPath = new vscode.ThemeIcon('diff');
      item.contextValue = 'offerChange.record';
      item.id = `record:${record.serverId}:${record.at}:${this.tracker.list().indexOf(record)}`;
      return item;
    }
    if (row.kind === 'data') {
      const data = row.record.changes.filter(isDataChange);
      const item = new vscode.TreeItem('data', vscode.TreeItemCollapsibleState.Collapsed);
      item.description = summarizeDataChanges(data);
      item.tooltip = 'Resources the server added, removed or changed as it works: its data, not what it offers to do.';
      item.iconPath = new vscode.ThemeIcon('database');
      item.contextValue = 'offerChange.data';
      item.id = `data:${row.record.serverId}:${row.record.at}:${this.tracker.list().indexOf(row.record)}`;
      return item;
    }
    const { change } = row;
    const item = new vscode.TreeItem(itemLabel(change), vscode.TreeItemCollapsibleState.None);
    item.description = changeDescription(change);
    item.tooltip = describeOfferChange(change);
    item.iconPath = new vscode.ThemeIcon(change.kind === 'added' ? 'diff-added' : change.kind === 'removed' ? 'diff-removed' : 'diff-modified');
    item.contextValue = 'offerChange.change';
    item.command = { command: 'mcpHost.changes.showDiff', title: 'Show Diff', arguments: [row] };
    return item;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.sides.get(uri.toString()) ?? '';
  }

  private async showDiff(row: Extract<Row, { kind: 'change' }>): Promise<void> {
    const base = `/${encodeURIComponent(row.record.serverId)}/${row.record.at}-${row.index}`;
    const left = vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `${base}/before.json` });
    const right = vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `${base}/after.json` });
    this.sides.set(left.toString(), pretty(row.change.before));
    this.sides.set(right.toString(), pretty(row.change.after));
    // Two documents a row; forget the oldest past a few hundred.
    while (this.sides.size > 400) this.sides.delete(this.sides.keys().next().value as string);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${row.record.serverName}: ${describeOfferChange(row.change)}`, { preview: true });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.sides.clear();
  }
}

function itemLabel(change: OfferChange): string {
  switch (change.subject) {
    case 'capabilities':
    case 'instructions':
      return change.subject;
    case 'server':
    case 'protocol':
      return `${change.subject} ${change.name}`;
    default:
      return `${change.subject} ${change.name}`;
  }
}

function changeDescription(change: OfferChange): string {
  const where = change.path.length ? `${formatJsonPath(change.path)} ` : '';
  // A whole item added or removed is named by its row; a changed field says from what to what.
  return `${where}${change.kind}${change.path.length || change.kind === 'changed' ? valueNote(change) : ''}`;
}

function pretty(value: unknown): string {
  return value === undefined ? '' : `${JSON.stringify(value, null, 2)}\n`;
}
