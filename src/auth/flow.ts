// The OAuth steps of MCP authorization, on oauth4webapi: client registration in the spec's
// order, authorization code with PKCE S256 through a Redirect, the `resource` parameter
// (RFC 8707) on the authorization and token requests, `state` and `iss` (RFC 9207) checked,
// and refresh. Every step is logged; nothing secret is ever logged or put in an error.
import { BearerChallenge, checkEndpoints, DiscoveredAuthorization, ProtectedResourceMetadata } from './discovery';
import { AuthError, describeOAuthFailure, noteSentCredentials, redact } from './errors';
import { AuthorizationServer, Client, loadOAuth, OAuthModule, TokenEndpointResponse } from './oauth';
import { limitedFetch } from './limitedFetch';
import { secretBasic, secretMethod } from './clientAuthentication';
import { RedirectFactory } from './loopback';
import { ClientRegistrationKind, RegisteredClient, StoredGrant, TokenKey, TokenStore } from './tokenStore';
import { DpopKey, dpopFetch, DpopSetting, usesDpop } from './grants/dpop';
import { MachineGrant, obtainMachineGrant } from './grants/machineGrant';
import { IdentityProvider, idTokenKey, idpIdToken } from './grants/idpSignIn';
import type { SignInTarget, UserAgent } from './userAgent';

export type { SignInTarget, UserAgent };

/** One line per step of the flow. Never given a secret. */
export type AuthLogger = (text: string, level?: 'info' | 'warn') => void;

/** A client registered beforehand, from the server's configuration. */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Default: `client_secret_basic` with a secret (`client_secret_post` when only that is supported), `none` without. */
  readonly tokenEndpointAuthMethod?: RegisteredClient['tokenEndpointAuthMethod'];
}

export interface OAuthFlowOptions {
  readonly store: TokenStore;
  readonly redirect: RedirectFactory;
  readonly userAgent: UserAgent;
  readonly client?: PreRegisteredClient;
  /** An https URL serving this client's metadata document, used as client id where the server supports that. */
  readonly clientMetadataUrl?: string;
  /** `client_name` for dynamic registration. Default "MCP Host". */
  readonly clientName?: string;
  /** Scopes to ask for instead of the challenge's or the resource's (CLI `--scope`). */
  readonly scope?: readonly string[];
  readonly log?: AuthLogger;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  /**
   * The user allowed plain http and local or private addresses for this server's authorization
   * even though the server is not on loopback (see `checkEndpoint`). Default false.
   */
  readonly allowLocalAuthorization?: boolean;
  /**
   * A grant that needs no browser (client credentials, enterprise-managed, workload identity),
   * its secret values read at the moment of the request; absent: the authorization code flow.
   */
  readonly grant?: () => Promise<MachineGrant>;
  /** DPoP-bound tokens (RFC 9449): `auto` (default) when the authorization server offers them. */
  readonly dpop?: DpopSetting;
}

/** The scopes to ask for (spec §Scope Selection Strategy); undefined means omit `scope`. */
export function chooseScopes(explicit: readonly string[] | undefined, challenge: BearerChallenge, resource: ProtectedResourceMetadata | undefined, as: AuthorizationServer): string[] | undefined {
  const base = explicit?.length ? explicit : challenge.scope?.length ? challenge.scope : resource?.scopes_supported?.length ? resource.scopes_supported : undefined;
  if (!base) return undefined;
  const scopes = [...new Set(base)];
  // Only with a list: `offline_access` alone would narrow the server's default grant.
  if (as.scopes_supported?.includes('offline_access') && !scopes.includes('offline_access')) scopes.push('offline_access');
  return scopes;
}

/** Which registration applies (spec §Client Registration Approaches): pre-registered, metadata document, dynamic. */
export function chooseRegistration(options: Pick<OAuthFlowOptions, 'client' | 'clientMetadataUrl'>, as: AuthorizationServer): ClientRegistrationKind | undefined {
  if (options.client) return 'pre-registered';
  if (options.clientMetadataUrl && as.client_id_metadata_document_supported === true) return 'metadata-document';
  if (as.registration_endpoint) return 'dynamic';
  return undefined;
}

/** How a refresh went. */
export type RefreshOutcome =
  | { readonly kind: 'renewed'; readonly grant: StoredGrant }
  /** The authorization server refused the refresh token (`invalid_grant`: expired or revoked): only a new sign-in helps. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** Not reached, or no token in the answer: the grant is kept for a later try. */
  | { readonly kind: 'failed'; readonly reason: string };

/** Runs sign-in and refresh for one resource against one authorization server. */
export class OAuthFlow {
  private readonly log: AuthLogger;
  private readonly fetchFn: typeof fetch;
  readonly now: () => number;

  constructor(readonly options: OAuthFlowOptions) {
    this.log = options.log ?? (() => {});
    this.fetchFn = limitedFetch(options.fetch ?? fetch);
    this.now = options.now ?? Date.now;
  }

  static key(found: DiscoveredAuthorization): TokenKey {
    return { resource: found.resource, issuer: found.authorizationServer.issuer };
  }

  /**
   * The interactive sign-in: registration, the authorization page through the user agent, the
   * redirect, the code exchange. Stores and returns the grant. Rejects with AuthError naming the
   * step (`cancelled` when `signal` aborts while the browser has the user); nothing is stored then.
   */
  async signIn(found: DiscoveredAuthorization, scopes: readonly string[] | undefined, signal?: AbortSignal): Promise<StoredGrant> {
    if (this.options.grant) return this.obtain(this.options.grant, found, scopes);
    const oauth = await loadOAuth();
    const as = found.authorizationServer;
    const key = OAuthFlow.key(found);
    if (!as.code_challenge_methods_supported?.includes('S256')) {
      const offered = as.code_challenge_methods_supported?.length ? `it offers ${as.code_challenge_methods_supported.join(', ')}` : 'it advertises no code_challenge_methods_supported';
      throw this.stop(new AuthError('unsupported', `the authorization server ${as.issuer} does not support PKCE S256 (${offered}); sign-in refused`));
    }
    if (!as.authorization_endpoint || !as.token_endpoint) throw this.stop(new AuthError('discovery', `the authorization server ${as.issuer} names no ${as.authorization_endpoint ? 'token' : 'authorization'} endpoint`));
    this.checkEndpoints(found);
    const dpop = await this.dpopKey(as);
    const stored = await this.options.store.get(key);
    const redirect = await this.options.redirect({ preferredPort: registeredPort(stored?.client) });
    const secrets = new Set<string | undefined>([this.options.client?.clientSecret, stored?.client.clientSecret]);
    try {
      const client = await this.registration(oauth, found, stored?.client, redirect.uri, secrets);
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      secrets.add(verifier).add(state);
      const url = new URL(as.authorization_endpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', redirect.uri);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('state', state);
      url.searchParams.set('resource', found.resource);
      if (scopes?.length) url.searchParams.set('scope', scopes.join(' '));
      this.log(`asking ${url.origin}${url.pathname} for authorization of ${found.resource} (scopes: ${scopes?.length ? scopes.join(' ') : 'none requested'})`);
      const waiting = redirect.wait(state, signal);
      waiting.catch(() => {});
      try {
        await this.options.userAgent(url, { issuer: as.issuer, resource: found.resource });
      } catch (error) {
        throw AuthError.is(error) ? error : new AuthError('redirect', `the authorization page could not be opened: ${(error as Error).message}`);
      }
      const callback = await waiting;
      const code = callback.get('code');
      secrets.add(code ?? undefined);
      const oauthClient = toOAuthClient(client);
      let checked: URLSearchParams;
      try {
        checked = oauth.validateAuthResponse(as, oauthClient, callback, state);
      } catch (error) {
        const iss = callback.get('iss');
        if (iss !== null && iss !== as.issuer) throw new AuthError('redirect', `the redirect names issuer ${JSON.stringify(iss)}, not ${as.issuer} (RFC 9207); refused`);
        if (iss === null && as.authorization_response_iss_parameter_supported) throw new AuthError('redirect', `the redirect carries no iss though ${as.issuer} advertises it (RFC 9207); refused`);
        throw new AuthError('redirect', describeOAuthFailure(oauth, error, 'the redirect'));
      }
      this.log(`authorization granted by ${as.issuer}; exchanging the code at ${as.token_endpoint}`);
      let tokens: TokenEndpointResponse;
      try {
        const response = await oauth.authorizationCodeGrantRequest(as, oauthClient, clientAuth(oauth, client), checked, redirect.uri, verifier, { ...this.requestOptions(oauth, as.token_endpoint, dpop, secrets), additionalParameters: { resource: found.resource } });
        tokens = await oauth.processAuthorizationCodeResponse(as, oauthClient, response);
      } catch (error) {
        throw new AuthError('token', `no token: ${describeOAuthFailure(oauth, error, `the token endpoint ${as.token_endpoint}`)}`);
      }
      const grant = this.grantFrom(tokens, client, scopes, undefined, dpop);
      await this.options.store.set(key, grant);
      this.log(`token obtained from ${as.issuer} (${describeGrant(grant, this.now())})`);
      return grant;
    } catch (error) {
      throw this.stop(error instanceof AuthError ? new AuthError(error.kind, redact(error.message, secrets)) : new AuthError('token', redact((error as Error).message ?? String(error), secrets)));
    } finally {
      await redirect.close();
    }
  }

  /**
   * Uses the refresh token. Stores the new grant (a rotated refresh token is stored before it is
   * returned) and says how it went; a refused refresh token is dropped from the store (the client stays).
   */
  async refresh(found: DiscoveredAuthorization, grant: StoredGrant): Promise<RefreshOutcome> {
    if (!grant.refreshToken) return { kind: 'refused', reason: 'there is no refresh token' };
    const oauth = await loadOAuth();
    const as = found.authorizationServer;
    const oauthClient = toOAuthClient(grant.client);
    const secrets = new Set<string | undefined>(StoredGrant.secrets(grant));
    try {
      const dpop = grant.dpopKey ? await DpopKey.of(grant.dpopKey) : undefined;
      const response = await oauth.refreshTokenGrantRequest(as, oauthClient, clientAuth(oauth, grant.client), grant.refreshToken, { ...this.requestOptions(oauth, as.token_endpoint!, dpop, secrets), additionalParameters: { resource: found.resource } });
      const tokens = await oauth.processRefreshTokenResponse(as, oauthClient, response);
      const renewed = this.grantFrom(tokens, grant.client, grant.scope?.split(' '), grant.refreshToken, dpop);
      await this.options.store.set(OAuthFlow.key(found), renewed);
      this.log(`token refreshed by ${as.issuer} (${describeGrant(renewed, this.now())})`);
      return { kind: 'renewed', grant: renewed };
    } catch (error) {
      const why = redact(describeOAuthFailure(oauth, error, `the token endpoint ${as.token_endpoint}`), secrets);
      if (error instanceof oauth.ResponseBodyError) {
        await this.options.store.set(OAuthFlow.key(found), { client: grant.client });
        const reason = error.error === 'invalid_grant' ? `the sign-in expired or was revoked: ${why}` : why;
        this.log(`refresh refused: ${reason}; a new sign-in is needed`, 'warn');
        return { kind: 'refused', reason };
      }
      this.log(`refresh failed: ${why}`, 'warn');
      return { kind: 'failed', reason: why };
    }
  }

  private async registration(oauth: OAuthModule, found: DiscoveredAuthorization, stored: RegisteredClient | undefined, redirectUri: string, secrets: Set<string | undefined>): Promise<RegisteredClient> {
    const as = found.authorizationServer;
    const kind = chooseRegistration(this.options, as);
    const given = this.options.client;
    if (kind === 'pre-registered' && given) {
      const method = given.tokenEndpointAuthMethod ?? (given.clientSecret ? secretMethod(as) : 'none');
      this.log(`client: pre-registered (token endpoint authentication ${method})`);
      return { clientId: given.clientId, ...(given.clientSecret ? { clientSecret: given.clientSecret } : {}), tokenEndpointAuthMethod: method, registration: 'pre-registered' };
    }
    if (kind === 'metadata-document' && this.options.clientMetadataUrl) {
      this.log(`client: metadata document ${this.options.clientMetadataUrl}`);
      return { clientId: this.options.clientMetadataUrl, tokenEndpointAuthMethod: 'none', registration: 'metadata-document' };
    }
    if (kind !== 'dynamic') throw new AuthError('registration', `the authorization server ${as.issuer} offers no dynamic client registration and no client id is configured; configure a client id for this server`);
    if (stored?.registration === 'dynamic' && stored.redirectUris?.includes(redirectUri)) {
      this.log('client: dynamically registered before, reused');
      return stored;
    }
    const endpoint = as.registration_endpoint!;
    let registered: Awaited<ReturnType<OAuthModule['processDynamicClientRegistrationResponse']>>;
    try {
      const response = await oauth.dynamicClientRegistrationRequest(as, {
        client_name: this.options.clientName ?? 'MCP Host',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        // A loopback redirect makes this a native application (OpenID Connect DCR; asked for by 2026-07-28).
        application_type: 'native',
      }, this.requestOptions(oauth, endpoint));
      registered = await oauth.processDynamicClientRegistrationResponse(await withSecretExpiry(response));
    } catch (error) {
      // No metadata anywhere and no registration endpoint either: not an OAuth server at all
      // (an API-key server's 401), which a sign-in cannot satisfy.
      const status = (error as { status?: unknown; cause?: unknown }).status ?? ((error as { cause?: unknown }).cause instanceof Response ? ((error as { cause: Response }).cause.status) : undefined);
      if (found.defaultEndpoints && (status === 404 || status === 405)) {
        throw new AuthError('credential-required', `${found.resource} publishes no OAuth metadata and has no registration endpoint (${endpoint} answered HTTP ${String(status)}): it requires a credential it does not offer to obtain by sign-in`);
      }
      throw new AuthError('registration', `dynamic client registration failed: ${describeOAuthFailure(oauth, error, `the registration endpoint ${endpoint}`)}`);
    }
    const secret = typeof registered.client_secret === 'string' ? registered.client_secret : undefined;
    secrets.add(secret);
    const method = registeredMethod(registered.token_endpoint_auth_method, secret);
    this.log(`client: dynamically registered at ${endpoint} (token endpoint authentication ${method})`);
    return { clientId: registered.client_id, ...(secret ? { clientSecret: secret } : {}), tokenEndpointAuthMethod: method, registration: 'dynamic', redirectUris: [redirectUri] };
  }

  private grantFrom(tokens: TokenEndpointResponse, client: RegisteredClient, asked: readonly string[] | undefined, previousRefresh: string | undefined, dpop: DpopKey | undefined): StoredGrant {
    const refreshToken = tokens.refresh_token ?? previousRefresh;
    const scope = tokens.scope ?? asked?.join(' ');
    // A server that ignored the proof issued a bearer token: it is sent as one.
    const bound = dpop !== undefined && tokens.token_type?.toLowerCase() === 'dpop';
    return {
      client,
      accessToken: tokens.access_token,
      ...(refreshToken ? { refreshToken } : {}),
      ...(typeof tokens.expires_in === 'number' ? { expiresAt: this.now() + tokens.expires_in * 1000 } : {}),
      ...(scope ? { scope } : {}),
      obtainedAt: this.now(),
      ...(bound ? { tokenType: 'DPoP' as const, dpopKey: dpop.stored } : {}),
    };
  }

  /** A grant without a browser (the authorization extensions): run, stored, returned; AuthError when refused. */
  private async obtain(grant: () => Promise<MachineGrant>, found: DiscoveredAuthorization, scopes: readonly string[] | undefined): Promise<StoredGrant> {
    this.checkEndpoints(found);
    const dpop = await this.dpopKey(found.authorizationServer);
    let obtained: StoredGrant;
    let signedInAt: IdentityProvider | undefined;
    try {
      let configured = await grant();
      if (configured.kind === 'enterprise-managed' && configured.idToken === undefined) {
        // No ID token configured: MCP Host signs in to the identity provider itself (once while its ID token lasts).
        signedInAt = configured.idp;
        const idp = configured.idp;
        configured = { ...configured, idToken: await idpIdToken(idp, { store: this.options.store, redirect: this.options.redirect, userAgent: this.options.userAgent, fetch: this.fetchFn, now: this.now, log: this.log, resource: found.resource }) };
      }
      obtained = await obtainMachineGrant(configured, found, scopes, { fetch: this.fetchFn, now: this.now, log: this.log, ...(dpop ? { dpop } : {}) });
    } catch (error) {
      // An ID token the exchange refused is not offered again: the next try signs in anew.
      if (signedInAt) await this.options.store.delete(idTokenKey(signedInAt)).catch(() => {});
      throw this.stop(AuthError.is(error) ? error : new AuthError('token', (error as Error).message));
    }
    await this.options.store.set(OAuthFlow.key(found), obtained);
    this.log(`token obtained from ${found.authorizationServer.issuer} (${describeGrant(obtained, this.now())})`);
    return obtained;
  }

  /** Every URL here came from a server's metadata: checked again before the first request. */
  private checkEndpoints(found: DiscoveredAuthorization): void {
    try {
      checkEndpoints(found, { serverUrl: new URL(found.resource), ...(this.options.allowLocalAuthorization ? { allowLocal: true } : {}) });
    } catch (error) {
      throw this.stop(AuthError.is(error) ? error : new AuthError('discovery', `the endpoints of ${found.authorizationServer.issuer} are not URLs`));
    }
  }

  /** A new key pair when this sign-in binds its token (DPoP), else undefined. */
  private async dpopKey(as: AuthorizationServer): Promise<DpopKey | undefined> {
    let wanted: boolean;
    try {
      wanted = usesDpop(this.options.dpop, as);
    } catch (error) {
      throw this.stop(new AuthError('unsupported', (error as Error).message));
    }
    if (!wanted) return undefined;
    this.log(`DPoP: the token will be bound to a new key pair (${as.issuer} offers DPoP)`);
    return DpopKey.generate();
  }

  /**
   * Options of every request to an endpoint; plain http reaches here only where `checkEndpoint`
   * allowed it. Token requests carry DPoP proofs when `dpop` is given, and add the credentials
   * they send (the Basic header among them) to `secrets`, which their errors are redacted with.
   */
  private requestOptions(oauth: OAuthModule, endpoint: string, dpop?: DpopKey, secrets?: Set<string | undefined>) {
    const sent = secrets ? noteSentCredentials(this.fetchFn, secrets) : this.fetchFn;
    const fetchFn = dpop ? dpopFetch(dpop, endpoint, sent) : sent;
    return { [oauth.customFetch]: fetchFn, [oauth.allowInsecureRequests]: new URL(endpoint).protocol === 'http:', signal: AbortSignal.timeout(30_000) };
  }

  private stop(error: AuthError): AuthError {
    if (error.kind === 'cancelled') this.log(`${error.message}; nothing stored`, 'info');
    else this.log(`sign-in stopped: ${error.message}`, 'warn');
    return error;
  }
}

/**
 * RFC 7591 requires `client_secret_expires_at` beside a `client_secret`, and oauth4webapi
 * refuses a response without it; authorization servers in use (the MCP conformance suite's among
 * them) leave it out. Missing, it is read as 0, "never expires", which is what those servers mean.
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201 || !/json/i.test(response.headers.get('content-type') ?? '')) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  if (body && typeof body === 'object' && 'client_secret' in body && !('client_secret_expires_at' in body)) {
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return Response.json({ ...body, client_secret_expires_at: 0 }, { status: response.status, headers });
  }
  return new Response(text, response);
}

function toOAuthClient(client: RegisteredClient): Client {
  return { client_id: client.clientId, token_endpoint_auth_method: client.tokenEndpointAuthMethod };
}

function clientAuth(oauth: OAuthModule, client: RegisteredClient) {
  switch (client.tokenEndpointAuthMethod) {
    case 'client_secret_basic':
      return secretBasic(client.clientSecret ?? '');
    case 'client_secret_post':
      return oauth.ClientSecretPost(client.clientSecret ?? '');
    case 'none':
      return oauth.None();
    case 'private_key_jwt':
      throw new AuthError('registration', `client ${client.clientId} authenticates with a private key: it gets tokens by its configured grant, not by sign-in or refresh`);
    default: {
      const never: never = client.tokenEndpointAuthMethod;
      throw new AuthError('registration', `unsupported token endpoint authentication ${String(never)}`);
    }
  }
}

function registeredMethod(method: unknown, secret: string | undefined): RegisteredClient['tokenEndpointAuthMethod'] {
  if (method === 'client_secret_basic' || method === 'client_secret_post' || method === 'none') return method;
  return secret ? 'client_secret_basic' : 'none';
}

function registeredPort(client: RegisteredClient | undefined): number | undefined {
  const uri = client?.registration === 'dynamic' ? client.redirectUris?.[0] : undefined;
  return uri ? Number(new URL(uri).port) || undefined : undefined;
}

/**
 * How long before it expires an access token is refreshed: a tenth of its lifetime, at most a
 * minute (30 s for a grant stored before lifetimes were kept), so a request never carries a token
 * about to expire and the first sign of expiry is not a 401.
 */
export function refreshMargin(grant: StoredGrant): number {
  if (grant.expiresAt === undefined) return 0;
  if (grant.obtainedAt === undefined) return 30_000;
  return Math.min(60_000, Math.max(0, (grant.expiresAt - grant.obtainedAt) / 10));
}

/** Scopes, expiry and refresh, for logs and details: nothing secret. */
export function describeGrant(grant: StoredGrant, now: number): string {
  const parts = [`scopes: ${grant.scope ?? 'as the server chose'}`];
  if (grant.expiresAt !== undefined) parts.push(`expires in ${Math.max(0, Math.round((grant.expiresAt - now) / 1000))} s`);
  parts.push(grant.refreshToken ? 'with a refresh token' : 'no refresh token');
  return parts.join(', ');
}
