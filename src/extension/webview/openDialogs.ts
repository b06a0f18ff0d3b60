// How many dialogs of servers' requests (elicitation forms, sampling, links to open) are open.
// A tool call's progress notification steps aside while one asks: VS Code draws notifications
// over the bottom right of the editor, where the form's Decline and Cancel are, and the
// notification's own Cancel (which cancels the whole call) would sit beside the form's.
import * as vscode from 'vscode';
import { DialogFocusReturn } from '../../usecases/dialogFocusReturn';

let open = 0;
const changed = new vscode.EventEmitter<number>();

/** Tells the panel VS Code activates once the last dialog closed to put its focus back. */
export const focusAfterDialogs = new DialogFocusReturn();
changed.event((count) => focusAfterDialogs.dialogsChanged(count));

/** Fires with the number of open dialogs when it changes. */
export const onDidChangeOpenDialogs = changed.event;

/** The number of dialogs open now. */
export function openDialogCount(): number {
  return open;
}

/** Counts a dialog as open until the returned Disposable is disposed (once). */
export function countOpenDialog(): vscode.Disposable {
  open++;
  changed.fire(open);
  let counted = true;
  return new vscode.Disposable(() => {
    if (!counted) return;
    counted = false;
    open--;
    changed.fire(open);
  });
}
