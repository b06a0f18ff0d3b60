// The editor's side of MCP authorization: ServerSignIns over SecretStorage with the browser as
// user agent, the modal asked before the browser opens, the user's Sign In and Sign Out, and what
// the tree and Server Details show of it. A lazy chunk: signInsOnDemand.ts loads it.
import * as vscode from 'vscode';
import { clientMetadataUrlProblem } from '../../auth/clientMetadataUrl';
import { AuthError } from '../../auth/errors';
import type { SignInState } from '../../auth/session';
import type { UserAgent } from '../../auth/flow';
import type { ServerRegistry } from '../../registry';
import type { ResolvedRemoteServer } from '../../config/variables';
import type { AuthProvider } from '../../transport/httpChannel';
import { Redactor } from '../logs/logFormat';
import { openExternalUrl } from '../webview/openExternalUrl';
import { SignInFacts, signInPrompt } from './signInPrompt';
import { SIGN_IN_EXPIRED_REASON, SIGN_IN_REASON } from './signInReasons';
import { SecretTokenStore } from './secretTokenStore';
import { ServerLogs } from '../logs/serverLogs';
import { ServerSignIns } from './serverSignIns';
import { editorRedirect } from './signInRedirect';
import { assessSignInPage } from '../../usecases/signInPage';

const SIGN_IN = 'Sign In';

/** The modal asked before a sign-in opens the browser. True when the user chose Sign In. */
export async function askSignIn(facts: SignInFacts): Promise<boolean> {
  const prompt = signInPrompt(facts);
  if ('blocked' in prompt) throw new Error(prompt.blocked);
  return (await vscode.window.showWarningMessage(prompt.message, { modal: true, detail: prompt.detail }, SIGN_IN)) === SIGN_IN;
}

/** The browser as the sign-in's user agent: the URL opened is judged like every external URL (the prompt already named its host). */
export const openSignInPage: UserAgent = async (url, target) => {
  const page = assessSignInPage({ url: url.href, issuer: target.issuer, serverUrl: target.resource });
  if (page.kind === 'blocked') throw new AuthError('redirect', page.reason);
  if (!(await openExternalUrl(url.href))) throw new AuthError('redirect', 'the browser was not opened');
};

export class EditorSignIns {
  private readonly signIns: ServerSignIns;
  /** Servers whose "the sign-in expired" notification is open: one at a time, never a queue of them. */
  private readonly expiredPrompts = new Set<string>();

  constructor(
    /** The extension context's SecretStorage, and its global storage for the refresh lock the windows share. */
    storage: { readonly secrets: vscode.SecretStorage; readonly globalStorageUri: vscode.Uri },
    private readonly registry: () => ServerRegistry,
    private readonly logs: ServerLogs,
    redactor: Redactor,
    /** The user's Start and Stop (they clear and set the "stopped by the user" flag, and ask consent again). */
    private readonly user: { start(id: string): Promise<void>; stop(id: string): Promise<void> },
    private readonly changed: () => void,
  ) {
    this.signIns = new ServerSignIns({
      // Every token and client secret read or written is also hidden from every log line.
      store: new SecretTokenStore(storage.secrets, (...values) => redactor.add(...values), storage.globalStorageUri.fsPath),
      redirect: (id, port) => editorRedirect(port, (text) => this.logs.get(id).write('info', `sign-in: ${text}`)),
      userAgent: openSignInPage,
      confirmStepUp: (id, request) => {
        const h = this.registry().get(id);
        const url = h?.resolved?.type === 'stdio' ? undefined : h?.resolved?.url;
        return url ? askSignIn({ name: h!.entry.name, serverUrl: url, issuer: request.issuer, authorizationEndpoint: request.authorizationEndpoint, reason: 'step-up', ...(request.scopes ? { scopes: request.scopes } : {}) }) : Promise.resolve(false);
      },
      clientMetadataUrl: (id) => {
        const url = vscode.workspace.getConfiguration('mcpHost').get<string>('oauth.clientMetadataUrl', '').trim();
        if (!url) return undefined;
        const problem = clientMetadataUrlProblem(url);
        if (!problem) return url;
        this.logs.get(id).write('warn', `sign-in: the mcpHost.oauth.clientMetadataUrl setting ${problem}; it is not used`);
        return undefined;
      },
      log: (id, level, text) => this.logs.get(id).write(level, `sign-in: ${text}`),
      noteSecret: (...values) => redactor.add(...values),
      changed: () => this.changed(),
      refreshRefused: (id, reason) => void this.offerSignIn(id, reason),
    });
  }

  /** The transport's auth provider for a remote server that has no Authorization header of its own (signInsOnDemand.ts decides). */
  serverProvider(id: string, resolved: ResolvedRemoteServer): AuthProvider {
    return this.signIns.provider(id, resolved);
  }

  /** Servers no longer configured drop their sign-in sessions (their stored tokens stay until Sign Out). */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.signIns.forget(id);
  }

  needsSignIn(id: string): boolean {
    return this.signIns.needsSignIn(id);
  }

  /**
   * The user's "Sign In": discovery, a prompt naming the authorization server, the browser, then
   * the server (re)started with the new token. A server that never ran in this window is started
   * first: a stored token may be all it needs.
   */
  async signIn(id: string): Promise<void> {
    const registry = this.registry();
    const h = registry.get(id);
    if (!h || h.entry.config.type === 'stdio') throw new Error(`"${h?.entry.name ?? id}" is not a remote server: it has no sign-in`);
    if (!this.signIns.hasSession(id)) {
      await this.user.start(id);
      if (!this.signIns.needsSignIn(id)) return;
    }
    const resolved = h.resolved?.type === 'stdio' ? undefined : h.resolved;
    if (!resolved) throw new Error(`"${h.entry.name}" has not been started yet`);
    const channel = this.logs.get(id);
    const request = await this.signIns.signInRequest(id);
    if (!(await askSignIn({ name: h.entry.name, serverUrl: resolved.url, issuer: request.issuer, authorizationEndpoint: request.authorizationEndpoint, reason: 'sign-in', ...(request.scopes ? { scopes: request.scopes } : {}) }))) {
      channel.write('info', 'sign-in: cancelled before the browser opened');
      return;
    }
    // Cancel gives up waiting for the browser (a closed tab, a wrong account): the listener
    // closes, nothing is stored, and the row still offers Sign In.
    const progress = { location: vscode.ProgressLocation.Notification, title: `MCP Host: signing in to "${h.entry.name}" — finish in your browser…`, cancellable: true };
    const signedIn = await vscode.window.withProgress(progress, async (_, token) => {
      const abort = new AbortController();
      const cancelled = token.onCancellationRequested(() => abort.abort());
      try {
        await this.signIns.signIn(id, abort.signal);
        return true;
      } catch (error) {
        if (AuthError.is(error, 'cancelled')) return false;
        if (AuthError.is(error, 'credential-required')) return error;
        throw error;
      } finally {
        cancelled.dispose();
      }
    });
    if (signedIn instanceof AuthError) {
      // No sign-in exists for this server: offer what does work, a token in the entry's headers.
      channel.write('warn', `sign-in: ${signedIn.message}`);
      const answer = await vscode.window.showErrorMessage(`MCP Host: ${signedIn.message}. "Set Token" puts it in the entry's headers as an \${input:…} password.`, 'Set Token');
      if (answer === 'Set Token') await vscode.commands.executeCommand('mcpHost.server.setToken', id);
      return;
    }
    if (!signedIn) return;
    channel.write('info', 'sign-in: finished; starting the server with the new token');
    await (h.status.kind === 'running' ? registry.restart(id) : registry.start(id));
  }

  /** The refresh token was refused: one notification says why and offers Sign In (the row offers it too). */
  private async offerSignIn(id: string, reason: string): Promise<void> {
    const name = this.registry().get(id)?.entry.name;
    if (!name || this.expiredPrompts.has(id)) return;
    this.expiredPrompts.add(id);
    try {
      const answer = await vscode.window.showWarningMessage(`MCP Host: "${name}": ${reason}. Sign in again to use it.`, 'Sign In');
      if (answer === 'Sign In') await vscode.commands.executeCommand('mcpHost.server.signIn', id);
    } finally {
      this.expiredPrompts.delete(id);
    }
  }

  /** Why the server waits for a sign-in, as its row says. */
  signInReason(id: string): string {
    return this.signIns.state(id)?.refreshRefused ? SIGN_IN_EXPIRED_REASON : SIGN_IN_REASON;
  }

  /** The user's "Sign Out": stops the server and deletes its tokens and registered client; the row then asks to sign in. */
  async signOut(id: string): Promise<void> {
    const h = this.registry().get(id);
    if (!h || h.entry.config.type === 'stdio') throw new Error(`"${h?.entry.name ?? id}" is not a remote server: it has no sign-in`);
    await this.user.stop(id);
    const url = h.resolved?.type === 'stdio' || !h.resolved ? h.entry.config.url : h.resolved.url;
    await this.signIns.signOut(id, url);
    this.changed();
  }

  /** True when the server holds a sign-in (tokens or a registered client) that Sign Out would delete. */
  canSignOut(id: string): boolean {
    const state = this.signIns.state(id);
    return state !== undefined && (state.signedIn || state.registration !== undefined);
  }

  /** Server Details' sign-in section. */
  signInState(id: string): (SignInState & { readonly required: boolean }) | undefined {
    const required = this.signIns.needsSignIn(id);
    // Signed out: the session is gone, but the details still say a sign-in is needed.
    const state = this.signIns.state(id) ?? (required ? { signedIn: false, canRefresh: false } : undefined);
    return state && { ...state, required };
  }
}
