// The modal asked before the browser opens for a sign-in. Pure, no `vscode`.
import { assessSignInPage } from '../../usecases/signInPage';

/** What the sign-in prompt names: the server, where it runs, and the page the browser will open. */
export interface SignInFacts {
  readonly name: string;
  readonly serverUrl: string;
  readonly issuer: string;
  /** The authorization endpoint: the page the browser opens, wherever the metadata put it. */
  readonly authorizationEndpoint: string;
  readonly scopes?: readonly string[];
  readonly reason: 'sign-in' | 'step-up';
}

/**
 * The modal asked before the browser opens: the host the browser will really open (the
 * authorization endpoint's, judged by `assessSignInPage` like every external URL), with a warning
 * when it is not the issuer's or the MCP server's origin (scheme, host and port). `blocked` when
 * the page must not be opened at all.
 */
export function signInPrompt(f: SignInFacts): { message: string; detail: string } | { blocked: string } {
  const page = assessSignInPage({ url: f.authorizationEndpoint, issuer: f.issuer, serverUrl: f.serverUrl });
  if (page.kind === 'blocked') return { blocked: page.reason };
  const message = f.reason === 'step-up' ? `"${f.name}" asks for more access: sign in again at ${page.host}?` : `Sign in to "${f.name}" at ${page.host}?`;
  const lines = [`Your browser opens ${page.page} to sign in for ${f.serverUrl} (authorization server ${f.issuer}).`];
  for (const warning of page.warnings) lines.push(`⚠ ${warning}`);
  lines.push(f.scopes?.length ? `Access asked for (scopes): ${f.scopes.join(' ')}` : 'No scopes are named: the authorization server grants its default access.');
  lines.push('The tokens are kept in VS Code secret storage; "Sign Out" on the server deletes them.');
  return { message, detail: lines.join('\n\n') };
}
