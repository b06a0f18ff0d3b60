// The AuthProvider the HTTP transports take: one MCP server's sign-in state. It sends the current
// access token, refreshes it shortly before it expires (and on a 401) under the store's refresh
// lock (a grant without a browser, which keeps no refresh token, runs again instead), before ever asking the user again, and on a 401 or a step-up 403 signs
// in only when the host allows it (`confirmSignIn`); otherwise the transport closes with
// `authorization-required` and the host offers "Sign in", which calls `signIn()`.
import type { AuthChallenge, AuthProvider } from '../transport/httpChannel';
import { BearerChallenge, discoverAuthorization, DiscoveredAuthorization, parseBearerChallenge } from './discovery';
import { AuthError, AuthErrorKind } from './errors';
import { truncate } from '../protocol/text';
import { limitedFetch } from './limitedFetch';
import { AuthLogger, chooseScopes, describeGrant, OAuthFlow, OAuthFlowOptions, refreshMargin } from './flow';
import { ClientRegistrationKind, StoredGrant, TokenKey } from './tokenStore';
import { DpopKey } from './grants/dpop';
import { errorMessage } from '../protocol/errors';

/** A sign-in the user did not start, for the host to confirm. */
export interface SignInRequest {
  readonly reason: 'sign-in' | 'step-up';
  readonly resource: string;
  readonly issuer: string;
  readonly scopes?: readonly string[];
  /** The page the browser will open (without its query): the authorization endpoint, which the metadata may put on any host. */
  readonly authorizationEndpoint: string;
  /** True when the authorization server is on another host than the MCP server (worth a warning). */
  readonly otherHost: boolean;
}

/** What a server said when it refused a request for want of authorization: quoted to the user, never trusted. */
export interface ServerRefusal {
  readonly status: number;
  readonly wwwAuthenticate?: string;
  /** The start of the body (capped by the transport). */
  readonly body?: string;
}

/** How long a refresh that could not reach the server waits before the next try ahead of expiry. */
const REFRESH_RETRY_MS = 15_000;

/** How many characters of a server's header or body a message quotes. */
const QUOTED_CHARS = 300;

/** A server's words for a message: one line, capped, in JSON quotes (so escapes and control characters show as such). */
export function quoteServerText(text: string): string {
  return JSON.stringify(truncate(text.replace(/\s+/g, ' ').trim(), QUOTED_CHARS));
}

/** "HTTP 401, WWW-Authenticate: "…", body: "…"": the refusal as the server sent it. */
export function describeRefusal(refusal: ServerRefusal): string {
  const parts = [`HTTP ${refusal.status}`];
  parts.push(refusal.wwwAuthenticate ? `WWW-Authenticate: ${quoteServerText(refusal.wwwAuthenticate)}` : 'no WWW-Authenticate');
  if (refusal.body?.trim()) parts.push(`body: ${quoteServerText(refusal.body)}`);
  return parts.join(', ');
}

/** What Server Details show: nothing secret. */
export interface SignInState {
  readonly signedIn: boolean;
  readonly issuer?: string;
  readonly scope?: string;
  readonly expiresAt?: number;
  readonly registration?: ClientRegistrationKind;
  /** Why the last sign-in or refresh stopped. */
  readonly lastError?: string;
  /** Which step stopped it; `credential-required` when no sign-in exists for the server. */
  readonly lastErrorKind?: AuthErrorKind;
  /** The access token is renewed without the user (a refresh token is held, or a grant without a browser runs again). */
  readonly canRefresh: boolean;
  /** Renewal runs the configured grant again (it keeps no refresh token). */
  readonly renewsByGrant?: boolean;
  /** The last failure was the authorization server refusing the refresh token: only a new sign-in helps. */
  readonly refreshRefused?: boolean;
}

export interface OAuthSessionOptions extends OAuthFlowOptions {
  /** The MCP server's endpoint. */
  readonly serverUrl: string;
  /** Asked before a sign-in the user did not start. Default: never sign in unasked. */
  readonly confirmSignIn?: (request: SignInRequest) => Promise<boolean>;
  /** Step-up sign-ins allowed in this session, so a server cannot loop the user. Default 2. */
  readonly maxStepUps?: number;
  /**
   * Sign-ins this session may start on its own (a 401) after one has already happened in it, so
   * a server that refuses every token cannot loop the browser. Default 2.
   */
  readonly maxRepeatSignIns?: number;
  /** Refresh this long before the token expires. Default a tenth of its lifetime, at most a minute (`refreshMargin`). */
  readonly refreshSkewMs?: number;
  /**
   * The authorization server refused the refresh token (expired or revoked), `reason` in words:
   * called once per refused refresh, so the host can offer one sign-in.
   */
  readonly onRefreshRefused?: (reason: string) => void;
  /** Whether a 401 after a refused refresh may start a sign-in through `confirmSignIn`. Default true. */
  readonly signInAfterRefusedRefresh?: boolean;
}

export class OAuthSession implements AuthProvider {
  private readonly flow: OAuthFlow;
  private readonly serverUrl: URL;
  private readonly log: AuthLogger;
  private found: DiscoveredAuthorization | undefined;
  /** The `resource_metadata` the current discovery came from. */
  private metadataFrom: string | undefined;
  private grant: StoredGrant | undefined;
  /** The challenge of the last 401, for a sign-in the host starts later. */
  private lastChallenge: BearerChallenge = {};
  private lastError: string | undefined;
  private lastErrorKind: AuthErrorKind | undefined;
  private refreshRefused = false;
  /** After a refresh that could not reach the server, the next try before expiry waits until then. */
  private retryRefreshAt = 0;
  /** Step-ups in this session: never reset, whatever metadata or issuer later challenges name. */
  private stepUps = 0;
  /** Interactive sign-ins in this session (the user's and its own), and its own after the first. */
  private signIns = 0;
  private repeatSignIns = 0;
  /** The last 401 as the server sent it, for a message when no sign-in can satisfy it. */
  private lastRefusal: ServerRefusal | undefined;
  /** One challenge handled at a time: concurrent 401s share one refresh or sign-in. */
  private handling: Promise<'retry' | 'fail'> | undefined;
  private refreshing: Promise<boolean> | undefined;

  constructor(private readonly options: OAuthSessionOptions) {
    this.flow = new OAuthFlow(options);
    this.serverUrl = new URL(options.serverUrl);
    this.log = options.log ?? (() => {});
  }

  async authorization(): Promise<string | undefined> {
    if (this.handling) await this.handling.catch(() => {});
    const grant = this.grant;
    if (!grant?.accessToken) return undefined;
    if (this.found && this.due(grant) && this.flow.now() >= this.retryRefreshAt) {
      if (grant.refreshToken) {
        this.log('access token expired or about to: refreshing');
        await this.renew(this.found, grant);
      } else if (this.options.grant) {
        // A grant without a browser keeps no refresh token (RFC 6749 §4.4.3): it runs again, with the same margin.
        this.log('access token expired or about to: running the grant again');
        await this.regrant(this.found, grant);
      }
    }
    return StoredGrant.authorization(this.grant);
  }

  /** The DPoP proof for a request carrying `authorization`, when the grant's token is bound to a key (RFC 9449 §7). */
  async proof(request: { readonly method: string; readonly url: string }, authorization: string): Promise<string | undefined> {
    const grant = this.grant;
    if (!grant?.dpopKey || grant.accessToken === undefined || authorization !== StoredGrant.authorization(grant)) return undefined;
    return (await DpopKey.of(grant.dpopKey)).proof(request.method, request.url, grant.accessToken);
  }

  /** A `DPoP-Nonce` the MCP server sent: the next proofs carry it (RFC 9449 §9). */
  noteNonce(url: string, nonce: string): void {
    const key = this.grant?.dpopKey;
    if (key) void DpopKey.of(key).then((k) => k.noteNonce(url, nonce));
  }

  onChallenge(challenge: AuthChallenge): Promise<'retry' | 'fail'> {
    if (this.handling) return this.handling;
    const run = this.handle(challenge).catch((error: unknown) => {
      this.lastError = errorMessage(error);
      this.lastErrorKind = AuthError.is(error) ? error.kind : undefined;
      if (!AuthError.is(error)) this.log(`authorization failed: ${this.lastError}`, 'warn');
      return 'fail' as const;
    });
    this.handling = run.finally(() => (this.handling = undefined));
    return this.handling;
  }

  /**
   * What a sign-in the user starts would do (the authorization server, the scopes), found by
   * discovery, so the host can name the authorization server before anything opens. Rejects with AuthError.
   */
  async signInRequest(): Promise<SignInRequest> {
    const found = await this.discover(this.lastChallenge);
    return this.request('sign-in', found, chooseScopes(this.options.scope, this.lastChallenge, found.resourceMetadata, found.authorizationServer));
  }

  /**
   * The sign-in the user started (the editor's "Sign in", the CLI). Rejects with AuthError,
   * `cancelled` when `signal` aborts it (the user gave up waiting for the browser).
   */
  async signIn(signal?: AbortSignal): Promise<void> {
    const found = await this.discover(this.lastChallenge);
    await this.interactive(found, chooseScopes(this.options.scope, this.lastChallenge, found.resourceMetadata, found.authorizationServer), signal);
  }

  /** Forgets the tokens and the registered client of this server (discovering its issuer first if this session has not). */
  async signOut(): Promise<void> {
    const found = this.found ?? (await this.discover(this.lastChallenge));
    await this.options.store.delete(OAuthFlow.key(found));
    this.grant = undefined;
    this.log('signed out: tokens and client registration deleted');
  }

  state(): SignInState {
    const grant = this.grant;
    return {
      signedIn: grant?.accessToken !== undefined,
      ...(this.found ? { issuer: this.found.authorizationServer.issuer } : {}),
      ...(grant?.scope ? { scope: grant.scope } : {}),
      ...(grant?.expiresAt !== undefined ? { expiresAt: grant.expiresAt } : {}),
      ...(grant ? { registration: grant.client.registration } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
      ...(this.lastError && this.lastErrorKind ? { lastErrorKind: this.lastErrorKind } : {}),
      canRefresh: grant?.refreshToken !== undefined || (this.options.grant !== undefined && grant?.accessToken !== undefined),
      ...(this.options.grant !== undefined && grant?.accessToken !== undefined && grant.refreshToken === undefined ? { renewsByGrant: true } : {}),
      ...(this.lastError && this.refreshRefused ? { refreshRefused: true } : {}),
    };
  }

  private async handle(challenge: AuthChallenge): Promise<'retry' | 'fail'> {
    const bearer = parseBearerChallenge(challenge.wwwAuthenticate);
    if (challenge.status === 403) return this.stepUp(bearer);
    this.lastChallenge = bearer;
    this.lastRefusal = { status: challenge.status, ...(challenge.wwwAuthenticate ? { wwwAuthenticate: challenge.wwwAuthenticate } : {}), ...(challenge.body ? { body: challenge.body } : {}) };
    const refused = challenge.refused;
    // The token this session sent was refused: the server may have moved to another
    // authorization server (SEP-2352), so its resource metadata is read again.
    const found = await this.discover(bearer, refused !== undefined && refused === this.sentToken());
    // Renewed while this request was under way (a parallel request's refresh): just send it again.
    const current = this.grant?.accessToken;
    if (refused !== undefined && current !== undefined && refused !== StoredGrant.authorization(this.grant) && !this.expired(this.grant!)) return 'retry';
    const stored = await this.options.store.get(OAuthFlow.key(found));
    // A stored token this request did not carry: from an earlier run, or another window refreshed it.
    if (stored?.accessToken && refused !== StoredGrant.authorization(stored) && !this.expired(stored)) {
      this.grant = stored;
      this.log('using the stored token');
      return 'retry';
    }
    if (stored?.refreshToken && (await this.renew(found, stored))) return 'retry';
    // A refused refresh is said once, by its own message; the sign-in it calls for is the user's.
    if (this.refreshRefused && this.options.signInAfterRefusedRefresh === false) return 'fail';
    this.grant = stored?.client ? { client: stored.client } : undefined;
    const scopes = chooseScopes(this.options.scope, bearer, found.resourceMetadata, found.authorizationServer);
    if (this.signIns > 0) {
      // A token from this session's sign-in was refused: once or twice may be a revoked grant; more is a loop.
      const limit = this.options.maxRepeatSignIns ?? 2;
      if (this.repeatSignIns >= limit) {
        const said = bearer.error ? `, ${bearer.error}${bearer.errorDescription ? ` ${quoteServerText(bearer.errorDescription)}` : ''}` : '';
        this.lastErrorKind = 'sign-in-limit';
        this.lastError = `the server refused the token again (HTTP 401${said}) after ${this.signIns} sign-ins in this session; stopped: it does not accept the tokens ${found.authorizationServer.issuer} issues for it`;
        this.log(this.lastError, 'warn');
        return 'fail';
      }
    }
    // A grant without a browser was consented to with the server's configuration: it asks no one.
    if (!this.options.grant && !(await this.confirm('sign-in', found, scopes))) {
      this.log(`${found.resource} needs sign-in at ${found.authorizationServer.issuer}`);
      return 'fail';
    }
    if (this.signIns > 0) this.repeatSignIns++;
    await this.interactive(found, scopes);
    return 'retry';
  }

  /** 403 insufficient_scope: ask once more with the granted scopes and the new ones, within the limit. */
  private async stepUp(bearer: BearerChallenge): Promise<'retry' | 'fail'> {
    if (bearer.error !== 'insufficient_scope') {
      this.log(`HTTP 403 without insufficient_scope${bearer.error ? ` (${bearer.error})` : ''}: signing in again would not help`, 'warn');
      return 'fail';
    }
    const found = await this.discover(bearer);
    const granted = this.grant?.scope?.split(' ').filter(Boolean) ?? [];
    // A challenge without `scope` leaves the resource's scopes_supported as the next guess.
    const wanted = bearer.scope ?? found.resourceMetadata?.scopes_supported ?? [];
    if (wanted.every((s) => granted.includes(s))) {
      this.log(`HTTP 403 insufficient_scope names no scope beyond those granted (${granted.join(' ') || 'none'}); not asking again`, 'warn');
      return 'fail';
    }
    const limit = this.options.maxStepUps ?? 2;
    if (this.stepUps >= limit) {
      this.lastErrorKind = 'step-up-limit';
      this.lastError = `the server asked for more scopes ${this.stepUps + 1} times; stopped after ${limit}`;
      this.log(this.lastError, 'warn');
      return 'fail';
    }
    const scopes = [...new Set([...granted, ...wanted])];
    if (!(await this.confirm('step-up', found, scopes))) return 'fail';
    this.stepUps++;
    this.log(`step-up: asking for scopes ${scopes.join(' ')}`);
    await this.interactive(found, scopes);
    return 'retry';
  }

  /**
   * Refreshes once for everyone asking at the same time: with rotating refresh tokens a second
   * parallel refresh would be refused and cost the user a sign-in. Under the store's lock the
   * grant is read again: another process (or window) may have refreshed it meanwhile, and then
   * its token is used and the spent refresh token never sent. True when a token came back.
   */
  private renew(found: DiscoveredAuthorization, seen: StoredGrant): Promise<boolean> {
    return this.renewOnce(
      found,
      seen,
      async (current) => {
        if (!current.refreshToken) {
          this.grant = { client: current.client };
          return false;
        }
        const outcome = await this.flow.refresh(found, current);
        switch (outcome.kind) {
          case 'renewed':
            this.grant = outcome.grant;
            this.refreshRefused = false;
            return true;
          case 'refused':
            this.grant = { client: current.client };
            this.refreshRefused = true;
            this.lastError = outcome.reason;
            this.lastErrorKind = 'token';
            this.options.onRefreshRefused?.(outcome.reason);
            return false;
          case 'failed':
            this.lastError = `the token could not be refreshed: ${outcome.reason}`;
            this.lastErrorKind = 'token';
            this.retryRefreshAt = this.flow.now() + REFRESH_RETRY_MS;
            // Still valid for a while: sent until it expires.
            if (this.expired(current)) this.grant = { client: current.client };
            return false;
          default: {
            const never: never = outcome;
            return never;
          }
        }
      },
      (error) => {
        // The cache could not be locked or read: said like a refresh that could not reach the server.
        this.lastError = `the token could not be refreshed: ${errorMessage(error)}`;
        this.lastErrorKind = 'token';
        this.log(this.lastError, 'warn');
        return false;
      },
    );
  }

  /**
   * Runs the configured grant again ahead of expiry, once for everyone asking, under the store's
   * lock (another process may have renewed it meanwhile: then its token is used). On failure the
   * token is sent until it expires, and the next try waits REFRESH_RETRY_MS. True when renewed.
   */
  private regrant(found: DiscoveredAuthorization, seen: StoredGrant): Promise<boolean> {
    return this.renewOnce(
      found,
      seen,
      async (current) => {
        this.grant = await this.flow.signIn(found, current.scope?.split(' ') ?? chooseScopes(this.options.scope, this.lastChallenge, found.resourceMetadata, found.authorizationServer));
        this.lastError = undefined;
        return true;
      },
      (error) => {
        this.lastError = `the token could not be renewed: ${errorMessage(error)}`;
        this.lastErrorKind = AuthError.is(error) ? error.kind : 'token';
        this.retryRefreshAt = this.flow.now() + REFRESH_RETRY_MS;
        if (this.expired(seen)) this.grant = { client: seen.client };
        return false;
      },
    );
  }

  /**
   * One renewal at a time for everyone asking (refresh or grant alike), under the store's lock:
   * the stored grant is read again, and one another process or window renewed meanwhile is used
   * instead of renewing it twice. `failed` says what a thrown error means for this renewal.
   */
  private renewOnce(found: DiscoveredAuthorization, seen: StoredGrant, renewCurrent: (current: StoredGrant) => Promise<boolean>, failed: (error: unknown) => boolean): Promise<boolean> {
    const key = OAuthFlow.key(found);
    this.refreshing ??= this.options.store
      .exclusive(key, async () => {
        const current = (await this.options.store.get(key)) ?? seen;
        if (this.renewedMeanwhile(current, seen)) return true;
        return renewCurrent(current);
      })
      .catch(failed)
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Another process or window renewed the grant while this one waited for the lock: its token is used. */
  private renewedMeanwhile(current: StoredGrant, seen: StoredGrant): boolean {
    if (!current.accessToken || current.accessToken === seen.accessToken || this.due(current)) return false;
    this.log('the token was renewed meanwhile (another process or window): using it');
    this.grant = current;
    return true;
  }

  /** True when the token is expired or within its refresh margin. */
  private due(grant: StoredGrant): boolean {
    return grant.expiresAt !== undefined && grant.expiresAt - (this.options.refreshSkewMs ?? refreshMargin(grant)) <= this.flow.now();
  }

  private async interactive(found: DiscoveredAuthorization, scopes: readonly string[] | undefined, signal?: AbortSignal): Promise<void> {
    this.signIns++;
    try {
      this.grant = await this.flow.signIn(found, scopes, signal);
      this.lastError = undefined;
      this.refreshRefused = false;
    } catch (caught) {
      let error = caught;
      // No sign-in exists for this server: what it said is the user's best clue to the credential it wants.
      if (AuthError.is(error, 'credential-required') && this.lastRefusal) error = new AuthError('credential-required', `${error.message}. It answered ${describeRefusal(this.lastRefusal)}`);
      // A sign-in the user cancelled did not fail: the last failure stays what it was.
      if (!AuthError.is(error, 'cancelled')) {
        this.lastError = (error as Error).message;
        this.lastErrorKind = AuthError.is(error) ? error.kind : undefined;
      }
      throw error;
    }
  }

  private async confirm(reason: SignInRequest['reason'], found: DiscoveredAuthorization, scopes: readonly string[] | undefined): Promise<boolean> {
    const ask = this.options.confirmSignIn;
    if (!ask) return false;
    return ask(this.request(reason, found, scopes));
  }

  private request(reason: SignInRequest['reason'], found: DiscoveredAuthorization, scopes: readonly string[] | undefined): SignInRequest {
    const issuer = found.authorizationServer.issuer;
    const endpoint = found.authorizationServer.authorization_endpoint ?? issuer;
    return { reason, resource: found.resource, issuer, ...(scopes ? { scopes } : {}), authorizationEndpoint: endpoint, otherHost: new URL(endpoint).origin !== this.serverUrl.origin || new URL(issuer).origin !== this.serverUrl.origin };
  }

  /** The Authorization value of the current grant, to compare with a refused one. */
  private sentToken(): string | undefined {
    return StoredGrant.authorization(this.grant);
  }

  /**
   * The authorization server for this resource: discovered once, again when a challenge names
   * other resource metadata or `again` is set. When the issuer changed, the grant and client of
   * the previous one are not used with the new one (they stay stored under their own key).
   */
  private async discover(bearer: BearerChallenge, again = false): Promise<DiscoveredAuthorization> {
    if (!again && this.found && (!bearer.resourceMetadata || bearer.resourceMetadata === this.metadataFrom)) return this.found;
    const previous = this.found;
    try {
      this.found = await discoverAuthorization(this.serverUrl, bearer, { fetch: limitedFetch(this.options.fetch ?? fetch), log: this.log, ...(this.options.allowLocalAuthorization ? { allowLocal: true } : {}) });
    } catch (error) {
      this.log(`sign-in stopped: ${(error as Error).message}`, 'warn');
      throw error;
    }
    this.metadataFrom = bearer.resourceMetadata;
    if (previous && TokenKey.toString(OAuthFlow.key(previous)) !== TokenKey.toString(OAuthFlow.key(this.found))) {
      this.log(`the authorization server changed from ${previous.authorizationServer.issuer} to ${this.found.authorizationServer.issuer}: its own client and tokens are used`);
      // The step-up count stays: a server alternating between two metadata documents must not reset it.
      this.grant = undefined;
    }
    const stored = await this.options.store.get(OAuthFlow.key(this.found));
    if (stored && !this.grant) this.grant = stored;
    if (stored?.accessToken) this.log(`stored grant for ${this.found.resource} (${describeGrant(stored, this.flow.now())})`);
    return this.found;
  }

  private expired(grant: StoredGrant): boolean {
    return grant.expiresAt !== undefined && grant.expiresAt <= this.flow.now();
  }
}
