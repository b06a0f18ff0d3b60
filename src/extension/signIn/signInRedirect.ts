// Where the browser comes back to after signing in: the loopback listener of src/auth, made
// reachable from the user's browser with `asExternalUri` when the extension host runs elsewhere
// (a remote window: SSH, containers, a browser-hosted workbench). The listener's code (an HTTP
// server) loads with the first sign-in, not at activation.
import * as vscode from 'vscode';
import type { RedirectFactory } from '../../auth/loopback';

/** A RedirectFactory on 127.0.0.1 (`port` for a pre-registered client's callback port), mapped for remote windows. */
export function editorRedirect(port: number | undefined, log: (text: string) => void): RedirectFactory {
  let loopback: Promise<RedirectFactory> | undefined;
  return async (options) => {
    loopback ??= import('../../auth/loopback.js').then(({ loopbackRedirect }) => loopbackRedirect(port !== undefined ? { port } : {}));
    const redirect = await (await loopback)(options);
    // A fixed port was registered with the client as is: it cannot be mapped.
    if (vscode.env.remoteName === undefined || port !== undefined) return redirect;
    const external = (await vscode.env.asExternalUri(vscode.Uri.parse(redirect.uri))).toString(true);
    if (external === redirect.uri) return redirect;
    log(`redirect listener ${redirect.uri}, reached from the browser as ${external} (remote window)`);
    return { uri: external, wait: (state, signal) => redirect.wait(state, signal), close: () => redirect.close() };
  };
}
