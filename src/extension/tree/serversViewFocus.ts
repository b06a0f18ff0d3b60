// The Servers view's first row takes the focus when a person opens the view; the decision is
// OpeningFocus's (openingFocus.ts), this is its adapter: the view's visibility and rows in, a reveal
// with the focus out (VS Code turns it into the row focused in a focused tree), and the signals
// that the person went elsewhere.
import * as vscode from 'vscode';
import type { StatusKind } from './serverRowText';
import { firstRowState, OpeningFocus } from './openingFocus';
import type { ServersTreeProvider, TreeNode } from './serversTree';

/**
 * Follows `view` for openings. `statusOf` says the state of a server; `afterShown` runs
 * each time the view becomes visible, after the focus was given (the servers the view starts may
 * open a modal dialog, which must come after the focus, not under it).
 */
export function focusFirstRowOnOpening(
  view: vscode.TreeView<TreeNode>,
  tree: ServersTreeProvider,
  statusOf: (serverId: string) => StatusKind | undefined,
  afterShown: () => void,
): { readonly opening: OpeningFocus; readonly disposable: vscode.Disposable } {
  const opening = new OpeningFocus();
  const first = () => {
    const node = tree.getChildren()[0];
    if (!node || node.kind === 'loading') return undefined;
    const id = tree.getTreeItem(node).id;
    if (id === undefined) return undefined;
    const status = node.kind === 'server' ? statusOf(node.serverId) : undefined;
    return { node, row: { id, state: status ? firstRowState(status) : ('settled' as const) } };
  };
  const focusNow = async (): Promise<void> => {
    if (!opening.active) return;
    const now = first();
    if (opening.rowsChanged(now?.row) === now?.row.id && now) await view.reveal(now.node, { focus: true, select: false, expand: false });
  };
  const ignoreFailure = (p: Promise<void>) => p.then(undefined, () => undefined);
  const interrupted = () => opening.interrupted();
  const disposable = vscode.Disposable.from(
    view.onDidChangeVisibility((e) => {
      opening.visibilityChanged(e.visible);
      if (e.visible) void ignoreFailure(focusNow()).then(afterShown);
    }),
    tree.onDidChangeTreeData(() => void ignoreFailure(focusNow())),
    view.onDidChangeSelection(interrupted),
    vscode.window.onDidChangeWindowState((s) => !s.focused && interrupted()),
    vscode.window.onDidChangeActiveTextEditor(interrupted),
    vscode.window.onDidChangeActiveTerminal(interrupted),
    vscode.window.tabGroups.onDidChangeTabs((e) => (e.opened.length > 0 || e.closed.length > 0 || e.changed.some((t) => t.isActive)) && interrupted()),
  );
  return { opening, disposable };
}
