// The Servers view's first row takes the focus when a person opens the view; the decision is
// OpeningFocus's (openingFocus.ts), this is its adapter: the view's visibility and rows in, a reveal
// with the focus out (VS Code turns it into the row focused in a focused tree), and the signals
// that the person went elsewhere.
import * as vscode from 'vscode';
import { firstRowState, OpeningFocus, type FirstRow } from './openingFocus';
import type { ServersTreeProvider, TreeNode } from './serversTree';

/** What the focus reads of the tree: its rows, their items, and the state of a row's server. */
export type OpeningRows = Pick<ServersTreeProvider, 'getChildren' | 'getTreeItem' | 'onDidChangeTreeData' | 'statusOf'>;
/** What the focus uses of the view. */
export type OpeningView = Pick<vscode.TreeView<TreeNode>, 'onDidChangeVisibility' | 'onDidChangeSelection' | 'reveal'>;

/**
 * Follows `view` for openings. `afterShown` runs each time the view becomes visible, after the
 * focus was given (the servers the view starts may open a modal dialog, which must come after the
 * focus, not under it). `now` is the clock (tests pass their own).
 */
export function focusFirstRowOnOpening(view: OpeningView, tree: OpeningRows, afterShown: () => void, now: () => number = Date.now): { readonly opening: OpeningFocus; readonly disposable: vscode.Disposable } {
  const opening = new OpeningFocus(now);
  const first = (): { node: TreeNode; row: FirstRow } | undefined => {
    const node = tree.getChildren()[0];
    if (!node || node.kind === 'loading') return undefined;
    const id = tree.getTreeItem(node).id;
    if (id === undefined) return undefined;
    const status = node.kind === 'server' ? tree.statusOf(node.serverId) : undefined;
    return { node, row: { id, state: status ? firstRowState(status) : 'settled' } };
  };
  const focusNow = async (): Promise<void> => {
    if (!opening.active) return;
    const now = first();
    if (now && opening.rowsChanged(now.row) === now.row.id) await view.reveal(now.node, { focus: true, select: false, expand: false });
    else if (!now) opening.rowsChanged(undefined);
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
