// The sign-in of each remote server in the editor: one OAuthSession per server, kept across
// restarts while its URL and client stay the same, handed to its HTTP transport as `auth`.
// Refresh happens silently inside the session; a sign-in the user did not start is never run:
// the server is marked "sign in required" and waits for the user's click (a refused refresh
// also says why, once). No `vscode` import,
// so node --test can load it; the prompts and the browser come in as functions.
import { canonicalResource } from '../../auth/discovery';
import { UserAgent } from '../../auth/flow';
import { RedirectFactory } from '../../auth/loopback';
import { OAuthSession, SignInRequest, SignInState } from '../../auth/session';
import { TokenKey, TokenStore } from '../../auth/tokenStore';
import { configuredGrant } from '../../auth/grants/configuredGrant';
import type { ResolvedRemoteServer } from '../../config/variables';
import type { AuthChallenge, AuthProvider } from '../../transport/httpChannel';

/** A TokenStore that can list its keys (SecretTokenStore): Sign Out finds a server's grants without the network. */
export interface ListableTokenStore extends TokenStore {
  keys(matches: (resource: string) => boolean): Promise<TokenKey[]>;
}

export interface ServerSignInsOptions {
  readonly store: ListableTokenStore;
  /** The redirect for the server's sign-ins; `port` is a pre-registered client's callback port. */
  redirect(serverId: string, port: number | undefined): RedirectFactory;
  /** Opens the authorization page (the user has confirmed by then). */
  readonly userAgent: UserAgent;
  /** The client id metadata document URL the user set (mcpHost.oauth.clientMetadataUrl), if any, for this server's sign-in. */
  clientMetadataUrl?(serverId: string): string | undefined;
  /** Asked when a running server wants more scopes (403 insufficient_scope): true to sign in again. */
  confirmStepUp(serverId: string, request: SignInRequest): Promise<boolean>;
  log(serverId: string, level: 'info' | 'warn', text: string): void;
  /** Told every secret a grant reads from a file (a private key, a workload or ID token), for the log redactor. */
  noteSecret?(...values: string[]): void;
  /** A server's sign-in state changed (the tree redraws). */
  changed(serverId: string): void;
  /**
   * The authorization server refused the server's refresh token (expired or revoked): called once
   * per refusal (the refused token is gone, so reconnects do not call it again), to offer one sign-in.
   */
  refreshRefused?(serverId: string, reason: string): void;
}

interface ServerSession {
  /** URL and client the session was made for: another one gets a new session. In memory only. */
  readonly identity: string;
  readonly session: OAuthSession;
  readonly serverUrl: string;
}

export class ServerSignIns {
  private readonly sessions = new Map<string, ServerSession>();
  /** Servers whose last request was refused for want of a sign-in (or that were signed out). */
  private readonly required = new Set<string>();

  constructor(private readonly options: ServerSignInsOptions) {}

  /** The AuthProvider for a remote server's transport: its session, reporting when sign-in is required. */
  provider(serverId: string, resolved: ResolvedRemoteServer): AuthProvider {
    const session = this.sessionFor(serverId, resolved);
    return {
      authorization: () => session.authorization(),
      onChallenge: async (challenge: AuthChallenge) => {
        const verdict = await session.onChallenge(challenge);
        if (verdict === 'retry') this.setRequired(serverId, false);
        else if (challenge.status === 401) this.setRequired(serverId, true);
        return verdict;
      },
      proof: (request, authorization) => session.proof(request, authorization),
      noteNonce: (url, nonce) => session.noteNonce(url, nonce),
    };
  }

  /** True when the server waits for the user to sign in. */
  needsSignIn(serverId: string): boolean {
    return this.required.has(serverId);
  }

  /** Whether the server has a session (it asked for authorization at least once in this window). */
  hasSession(serverId: string): boolean {
    return this.sessions.has(serverId);
  }

  /** What Server Details show: issuer, scopes, expiry, registration; undefined before the server asked for authorization. */
  state(serverId: string): SignInState | undefined {
    const s = this.sessions.get(serverId);
    return s && (s.session.state().issuer !== undefined || this.required.has(serverId)) ? s.session.state() : undefined;
  }

  /** Discovery for a sign-in the user is about to start: which authorization server, which scopes. */
  signInRequest(serverId: string): Promise<SignInRequest> {
    return this.session(serverId).signInRequest();
  }

  /** The interactive sign-in (after the user confirmed). Rejects with AuthError; `signal` cancels it. */
  async signIn(serverId: string, signal?: AbortSignal): Promise<void> {
    await this.session(serverId).signIn(signal);
    this.setRequired(serverId, false);
  }

  /**
   * Deletes the server's tokens and registered client: those its session knows, and every stored
   * grant for its URL (found without the network, so an unreachable server can be signed out).
   * The session is dropped; the server then needs a sign-in again.
   */
  async signOut(serverId: string, serverUrl: string): Promise<number> {
    const s = this.sessions.get(serverId);
    this.sessions.delete(serverId);
    let deleted = 0;
    if (s?.session.state().issuer !== undefined) {
      await s.session.signOut();
      deleted++;
    }
    for (const key of await this.options.store.keys((resource) => coversServer(resource, serverUrl))) {
      await this.options.store.delete(key);
      deleted++;
    }
    this.options.log(serverId, 'info', deleted ? 'signed out: the stored tokens and client registration of this server were deleted' : 'signed out: nothing was stored for this server');
    this.setRequired(serverId, true);
    return deleted;
  }

  /** Forgets a server that is no longer configured. */
  forget(serverId: string): void {
    this.sessions.delete(serverId);
    this.required.delete(serverId);
  }

  private session(serverId: string): OAuthSession {
    const s = this.sessions.get(serverId);
    if (!s) throw new Error('the server has not asked for authorization yet: start it first');
    return s.session;
  }

  private sessionFor(serverId: string, resolved: ResolvedRemoteServer): OAuthSession {
    const oauth = resolved.oauth;
    const clientMetadataUrl = this.options.clientMetadataUrl?.(serverId);
    const identity = JSON.stringify([resolved.url, oauth, clientMetadataUrl]);
    const grant = oauth && configuredGrant(oauth, { noteSecret: (...values) => this.options.noteSecret?.(...values) });
    const existing = this.sessions.get(serverId);
    if (existing?.identity === identity) return existing.session;
    const session = new OAuthSession({
      serverUrl: resolved.url,
      store: this.options.store,
      redirect: this.options.redirect(serverId, oauth?.callbackPort),
      userAgent: this.options.userAgent,
      ...(oauth && !grant ? { client: { clientId: oauth.clientId, ...(oauth.clientSecret ? { clientSecret: oauth.clientSecret } : {}) } } : {}),
      ...(grant ? { grant } : {}),
      ...(oauth?.dpop ? { dpop: oauth.dpop } : {}),
      ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
      ...(oauth?.scopes?.length ? { scope: oauth.scopes } : {}),
      confirmSignIn: (request) => (request.reason === 'step-up' ? this.options.confirmStepUp(serverId, request) : Promise.resolve(false)),
      onRefreshRefused: (reason) => this.options.refreshRefused?.(serverId, reason),
      log: (text, level) => this.options.log(serverId, level ?? 'info', text),
    });
    this.sessions.set(serverId, { identity, session, serverUrl: resolved.url });
    return session;
  }

  private setRequired(serverId: string, required: boolean): void {
    if (this.required.has(serverId) === required) return;
    if (required) this.required.add(serverId);
    else this.required.delete(serverId);
    this.options.changed(serverId);
  }
}

/**
 * True when a stored grant's resource is this server: the same origin, and a path that is the
 * server's or contains it (RFC 9728: the metadata's resource may name a prefix of the endpoint).
 */
export function coversServer(resource: string, serverUrl: string): boolean {
  let r: URL;
  let s: URL;
  try {
    r = new URL(resource);
    s = new URL(canonicalResource(new URL(serverUrl)));
  } catch {
    return false;
  }
  const prefix = r.pathname.endsWith('/') ? r.pathname : `${r.pathname}/`;
  const path = s.pathname.endsWith('/') ? s.pathname : `${s.pathname}/`;
  return r.origin === s.origin && path.startsWith(prefix);
}
