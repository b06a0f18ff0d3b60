// The roots every server gets in the editor: the workspace's folders on disk (see roots.ts), and
// `notifications/roots/list_changed` to the servers when the folders change.
import * as vscode from 'vscode';
import type { Root, RootsProvider } from '../../client/client';
import { rootsLogLines, workspaceRoots } from './roots';

export class EditorRoots implements RootsProvider, vscode.Disposable {
  private readonly subscription: vscode.Disposable;

  /** `changed` tells the servers (the registry's `rootsChanged`). */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    changed: () => void,
  ) {
    this.subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => {
      this.logRoots('workspace folders changed');
      changed();
    });
  }

  /** Every workspace folder on disk is a root; other schemes are skipped. */
  listRoots(): Root[] {
    return this.currentRoots();
  }

  currentRoots(): Root[] {
    return workspaceRoots(vscode.workspace.workspaceFolders).roots;
  }

  /** Says in the host log which folders are roots and which are skipped, and why it looked. */
  logRoots(why: string): void {
    for (const line of rootsLogLines(workspaceRoots(vscode.workspace.workspaceFolders), why)) this.log.info(line);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
