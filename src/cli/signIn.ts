// Sign-in for `mcp-host --url` (MCP authorization): the product's OAuthSession with the loopback
// redirect, a token store in memory or in the `--token-cache` file, and a user agent that prints
// the authorization URL and opens the browser. Running the command is the user's consent, so a
// 401 starts the flow at once. Every value the flow handles that is secret goes to the redactor
// before anything could print it.
import { spawn } from 'node:child_process';
import { AuthError, FileTokenStore, loopbackRedirect, MemoryTokenStore, OAuthSession, SignInState, StoredGrant, TokenKey, TokenStore } from '../auth';
import { assessSignInPage } from '../usecases/signInPage';
import { Redactor } from '../protocol/redaction';
import { CliSignIn, UsageError } from './arguments';
import { configuredGrant } from '../auth/grants/configuredGrant';
import type { OAuthClientConfig } from '../config/types';

/** How long the CLI waits for the browser to come back. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface CliSignInContext {
  readonly serverUrl: string;
  readonly signIn: CliSignIn;
  /** Hides secrets from everything printed; the flow adds the client secret and every token. */
  readonly redactor: Redactor;
  /** One line on stderr. */
  readonly print: (line: string) => void;
  /** The flow's steps (printed with --trace). */
  readonly trace?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  /** The `"oauth"` block of a `--config` entry (variables resolved): its grant, unless the flags name one. */
  readonly oauth?: OAuthClientConfig;
}

/** The AuthProvider for a `--url` server. Throws UsageError when `--client-secret-env` names an unset variable. */
export function cliSession(ctx: CliSignInContext): OAuthSession {
  const { signIn, redactor } = ctx;
  const env = ctx.env ?? process.env;
  let clientSecret: string | undefined;
  if (signIn.clientSecretEnv !== undefined) {
    clientSecret = env[signIn.clientSecretEnv];
    if (!clientSecret) throw new UsageError(`--client-secret-env: the environment variable ${signIn.clientSecretEnv} is not set`);
    redactor.add(clientSecret);
  }
  const oauth = grantBlock(signIn, clientSecret, env, redactor) ?? ctx.oauth;
  const grant = oauth && configuredGrant(oauth, { noteSecret: (...values) => redactor.add(...values) });
  const dpop = signIn.dpop ?? oauth?.dpop;
  const cache = signIn.tokenCache !== undefined ? new FileTokenStore(signIn.tokenCache, (text) => ctx.print(`mcp-host: ${text}`)) : new MemoryTokenStore();
  const store = new RedactingStore(cache, redactor);
  return new OAuthSession({
    serverUrl: ctx.serverUrl,
    store,
    redirect: loopbackRedirect({ timeoutMs: SIGN_IN_TIMEOUT_MS }),
    userAgent: async (url, target) => {
      // The host named is the one the browser opens, judged like any URL a server hands us.
      const page = assessSignInPage({ url: url.href, issuer: target.issuer, serverUrl: ctx.serverUrl });
      if (page.kind === 'blocked') throw new AuthError('redirect', page.reason);
      ctx.print(`mcp-host: sign in at ${page.host}${signIn.noBrowser ? '' : ' (opening the browser)'}; the authorization page:`);
      ctx.print(`  ${url.href}`);
      for (const warning of page.warnings) ctx.print(`mcp-host: warning: ${warning}`);
      if (!signIn.noBrowser) openBrowser(url, env, ctx.print);
    },
    confirmSignIn: async () => true,
    // A refused refresh ends the run with one line saying so, rather than a browser nobody expected.
    signInAfterRefusedRefresh: false,
    ...(signIn.clientId !== undefined && !grant ? { client: { clientId: signIn.clientId, ...(clientSecret ? { clientSecret } : {}) } } : {}),
    ...(grant ? { grant } : {}),
    ...(dpop ? { dpop } : {}),
    ...(signIn.clientMetadataUrl !== undefined ? { clientMetadataUrl: signIn.clientMetadataUrl } : {}),
    ...(signIn.scope ? { scope: signIn.scope } : {}),
    ...(signIn.allowLocalAuth ? { allowLocalAuthorization: true } : {}),
    clientName: 'MCP Host (command line)',
    log: (text) => ctx.trace?.(text),
  });
}

/**
 * The `"oauth"` block the grant flags describe (`--grant`), as a config entry would hold it:
 * values read from the environment now, files when a token is requested. Undefined without `--grant`.
 */
function grantBlock(signIn: CliSignIn, clientSecret: string | undefined, env: NodeJS.ProcessEnv, redactor: Redactor): OAuthClientConfig | undefined {
  if (!signIn.grant) return undefined;
  let workloadToken: string | undefined;
  if (signIn.workloadTokenEnv !== undefined) {
    workloadToken = env[signIn.workloadTokenEnv];
    if (!workloadToken) throw new UsageError(`--workload-token-env: the environment variable ${signIn.workloadTokenEnv} is not set`);
    redactor.add(workloadToken);
  }
  return {
    clientId: signIn.clientId ?? '',
    grant: signIn.grant,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(signIn.privateKeyFile !== undefined ? { privateKeyFile: signIn.privateKeyFile } : {}),
    ...(signIn.workloadTokenFile !== undefined ? { workloadTokenFile: signIn.workloadTokenFile } : {}),
    ...(workloadToken !== undefined ? { workloadToken } : {}),
  };
}

/**
 * The line for a `--url` run that ended for want of authorization: why sign-in stopped, and for
 * a server that offers no sign-in, how to give it the credential it wants.
 */
export function signInFailure(state: SignInState): string {
  // Printed through the redactor, which shows any Authorization value as ••••: a placeholder here.
  // The stored sign-in is gone with the refused refresh token: the next run signs in afresh.
  if (state.refreshRefused) return `${state.lastError}; run the command again to sign in`;
  if (state.lastErrorKind === 'credential-required') return `${state.lastError}. Give the credential as a header: --header "Authorization: Bearer …" (or the header the server's documentation names)`;
  return `sign-in failed: ${state.lastError}`;
}

/**
 * Opens `url` with `$BROWSER` (a command, the URL appended) when set, else the platform's opener.
 * Nothing is awaited: the browser lives on after this process, and when none can be started the
 * printed URL is what the user follows.
 */
function openBrowser(url: URL, env: NodeJS.ProcessEnv, print: (line: string) => void): void {
  const custom = env.BROWSER?.trim().split(/\s+/).filter(Boolean);
  const [command, ...args] = custom?.length ? custom : platformOpener();
  try {
    const child = spawn(command, [...args, url.href], { stdio: 'ignore', detached: process.platform !== 'win32', windowsHide: true });
    child.on('error', () => print('mcp-host: could not open a browser; open the URL above'));
    child.unref();
  } catch {
    print('mcp-host: could not open a browser; open the URL above');
  }
}

function platformOpener(): string[] {
  if (process.platform === 'darwin') return ['open'];
  // Not `cmd /c start`: cmd would read the URL's `&` as a command separator.
  if (process.platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler'];
  return ['xdg-open'];
}

/** A TokenStore that tells the redactor every token and client secret it keeps or hands out. */
class RedactingStore implements TokenStore {
  constructor(
    private readonly inner: TokenStore,
    private readonly redactor: Redactor,
  ) {}

  async get(key: TokenKey): Promise<StoredGrant | undefined> {
    const grant = await this.inner.get(key);
    if (grant) this.hide(grant);
    return grant;
  }

  async set(key: TokenKey, grant: StoredGrant): Promise<void> {
    this.hide(grant);
    await this.inner.set(key, grant);
  }

  delete(key: TokenKey): Promise<void> {
    return this.inner.delete(key);
  }

  exclusive<T>(key: TokenKey, work: () => Promise<T>): Promise<T> {
    return this.inner.exclusive(key, work);
  }

  private hide(grant: StoredGrant): void {
    this.redactor.add(...StoredGrant.secrets(grant));
  }
}
