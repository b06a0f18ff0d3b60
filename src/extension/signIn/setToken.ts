// "Set Token" on a remote server's row: for a server that wants a credential it does not offer
// to obtain by sign-in (an API key). The entry's `Authorization` header is set to
// `Bearer ${input:<id>}`, a password input of that id is added to the file's `inputs`, the token
// the user types is kept in SecretStorage as that input's value (never in the file), and the
// server starts again with it (a changed entry asks for consent again, as any edit does).
import * as vscode from 'vscode';
import type { InputDefinition } from '../../config/types';
import type { ServerHandle } from '../../registry';
import type { InputStore } from '../config/inputStore';
import { tokenInputId, withTokenHeader } from './tokenHeader';

/** The user's "Set Token" for a remote server whose entry lives in a file. */
export async function setToken(h: ServerHandle, inputs: InputStore, restart: (id: string) => Promise<void>): Promise<void> {
  if (h.entry.config.type === 'stdio') throw new Error(`"${h.entry.name}" is not a remote server: it takes no token`);
  const file = h.entry.source.file;
  if (!file) throw new Error(`"${h.entry.name}" is defined in ${h.entry.source.label}: add "headers": {"Authorization": "Bearer \${input:…}"} to it there`);
  const input: InputDefinition = { id: tokenInputId(h.entry.name), type: 'promptString', description: `Token for "${h.entry.name}" (sent as Authorization: Bearer …)`, password: true };
  const token = await vscode.window.showInputBox({
    title: `MCP Host: Set Token for "${h.entry.name}"`,
    prompt: `Sent as "Authorization: Bearer …". Kept in VS Code secret storage as the input "${input.id}"; ${file.split(/[\\/]/).slice(-2).join('/')} names only the input.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? 'Enter the token' : /[\r\n]/.test(value) ? 'A token is one line' : undefined),
  });
  if (token === undefined) return;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const before = document.getText();
  const after = withTokenHeader(before, h.entry.name, input);
  if (after === undefined) throw new Error(`"${h.entry.name}" was not found in ${file}`);
  await inputs.remember(file, input, token.trim());
  if (after === before) {
    // The entry already names this input: only the value changed.
    await restart(h.id);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(before.length)), after);
  if (!(await vscode.workspace.applyEdit(edit)) || !(await document.save())) throw new Error(`could not write ${file}`);
  // The reload that follows the save sees the changed entry and starts it again.
}
