// The Servers view takes the focus on its first row when a person opens it (the decision is
// ViewFocusOnShow's, src/usecases/viewFocusOnShow.ts): a reveal with the focus, which VS Code turns
// into the row focused in a focused tree, or the view's own focus command when the welcome shows.
import * as vscode from 'vscode';
import { ViewFocusOnShow } from '../usecases/viewFocusOnShow';
import type { ServersTreeProvider, TreeNode } from './serversTree';

/** Gives the opened view's first row (or welcome) the focus; `onDidLoad` fires as the configuration is read. */
export function focusFirstRowWhenShown(view: vscode.TreeView<TreeNode>, tree: ServersTreeProvider, isLoaded: () => boolean, onDidLoad: vscode.Event<unknown>): { readonly decision: ViewFocusOnShow; readonly disposable: vscode.Disposable } {
  const decision = new ViewFocusOnShow(view.visible);
  const focus = () => {
    if (!decision.shouldFocus(isLoaded())) return;
    const first = tree.getChildren()[0];
    // The welcome's buttons are VS Code's: its focus command for the view focuses the first.
    const done = first ? view.reveal(first, { focus: true, select: false, expand: false }) : vscode.commands.executeCommand('mcpHost.servers.focus');
    void Promise.resolve(done).then(undefined, () => undefined);
  };
  const disposable = vscode.Disposable.from(
    view.onDidChangeVisibility((e) => {
      decision.visibilityChanged(e.visible);
      focus();
    }),
    onDidLoad(() => focus()),
  );
  return { decision, disposable };
}
