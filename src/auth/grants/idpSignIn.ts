// Enterprise-managed authorization's first step when no ID token is configured: MCP Host signs
// the user in to the enterprise identity provider itself (OpenID Connect authorization code with
// PKCE S256, through the same loopback redirect and user agent as the MCP sign-in) and keeps the
// ID token until it expires, so one sign-in serves every token exchange (and every MCP server
// using that IdP) until then. The ID token is checked as OpenID Connect Core §3.1.3.7 asks (issuer,
// audience = this client, expiry, nonce) by oauth4webapi before it is used or stored; its
// signature is the IdP's to check at the exchange (§3.1.3.7 item 6: it came straight from the
// token endpoint). Nothing here is logged but endpoints and outcomes.
import { AuthError, describeOAuthFailure, noteSentCredentials, redact } from '../errors';
import { loadOAuth, type AuthorizationServer } from '../oauth';
import type { RedirectFactory } from '../loopback';
import type { SignInTarget, UserAgent } from '../userAgent';
import type { StoredGrant, TokenKey, TokenStore } from '../tokenStore';

/** The identity provider as the configuration names it. */
export interface IdentityProvider {
  readonly issuer: string;
  readonly clientId: string;
}

export interface IdpSignInOptions {
  readonly store: TokenStore;
  readonly redirect: RedirectFactory;
  readonly userAgent: UserAgent;
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly log: (text: string) => void;
  /** The MCP server the ID token is wanted for (named to the user with the sign-in). */
  readonly resource: string;
  readonly signal?: AbortSignal;
}

/** An ID token kept this long before its expiry is not used for a new exchange (it could expire on the way). */
const ID_TOKEN_MARGIN_MS = 30_000;

/** Where the ID token of one IdP client is kept: beside the grants, under the IdP's issuer. */
export function idTokenKey(idp: IdentityProvider): TokenKey {
  return { resource: `openid:${idp.clientId}`, issuer: idp.issuer };
}

/** The user's ID token from `idp`: the stored one while it is valid, else a new sign-in. Rejects with AuthError. */
export async function idpIdToken(idp: IdentityProvider, options: IdpSignInOptions): Promise<string> {
  const key = idTokenKey(idp);
  const stored = await options.store.get(key);
  if (stored?.accessToken && stored.expiresAt !== undefined && stored.expiresAt - ID_TOKEN_MARGIN_MS > options.now()) {
    options.log(`enterprise-managed authorization: using the ID token of the sign-in at ${idp.issuer} (expires in ${Math.round((stored.expiresAt - options.now()) / 1000)} s)`);
    return stored.accessToken;
  }
  const signedIn = await signInAtIdp(idp, options);
  await options.store.set(key, signedIn);
  return signedIn.accessToken!;
}

async function signInAtIdp(idp: IdentityProvider, options: IdpSignInOptions): Promise<StoredGrant> {
  const oauth = await loadOAuth();
  const issuer = new URL(idp.issuer);
  const http = (url: string) => new URL(url).protocol === 'http:';
  const secrets = new Set<string | undefined>();
  const fetchFn = noteSentCredentials(options.fetch, secrets);
  const requestOptions = (url: string) => ({ [oauth.customFetch]: fetchFn, [oauth.allowInsecureRequests]: http(url), signal: AbortSignal.timeout(30_000) });
  let as: AuthorizationServer;
  try {
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...requestOptions(idp.issuer) }));
  } catch (error) {
    throw new AuthError('discovery', `the identity provider ${idp.issuer} has no usable OpenID configuration: ${describeOAuthFailure(oauth, error, `${idp.issuer}/.well-known/openid-configuration`)}`);
  }
  if (!as.authorization_endpoint || !as.token_endpoint) throw new AuthError('discovery', `the identity provider ${idp.issuer} names no ${as.authorization_endpoint ? 'token' : 'authorization'} endpoint`);
  if (!as.code_challenge_methods_supported?.includes('S256')) throw new AuthError('unsupported', `the identity provider ${idp.issuer} does not advertise PKCE S256; sign-in refused`);
  if (http(as.authorization_endpoint) !== http(idp.issuer) || http(as.token_endpoint) !== http(idp.issuer)) throw new AuthError('discovery', `the identity provider ${idp.issuer} names endpoints of another scheme`);
  const client = { client_id: idp.clientId };
  const redirect = await options.redirect({});
  try {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    secrets.add(verifier).add(state).add(nonce);
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', idp.clientId);
    url.searchParams.set('redirect_uri', redirect.uri);
    url.searchParams.set('scope', 'openid');
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', state);
    url.searchParams.set('nonce', nonce);
    options.log(`enterprise-managed authorization: signing in at the identity provider ${url.origin}${url.pathname} (client ${idp.clientId})`);
    const waiting = redirect.wait(state, options.signal);
    waiting.catch(() => {});
    const target: SignInTarget = { issuer: idp.issuer, resource: options.resource };
    try {
      await options.userAgent(url, target);
    } catch (error) {
      throw AuthError.is(error) ? error : new AuthError('redirect', `the identity provider's sign-in page could not be opened: ${(error as Error).message}`);
    }
    const callback = await waiting;
    secrets.add(callback.get('code') ?? undefined);
    let checked: URLSearchParams;
    try {
      checked = oauth.validateAuthResponse(as, client, callback, state);
    } catch (error) {
      throw new AuthError('redirect', describeOAuthFailure(oauth, error, `the identity provider's redirect`));
    }
    let idToken: string | undefined;
    let expiresAt: number;
    try {
      const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), checked, redirect.uri, verifier, requestOptions(as.token_endpoint));
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true });
      idToken = tokens.id_token;
      secrets.add(idToken).add(tokens.access_token).add(tokens.refresh_token);
      const claims = oauth.getValidatedIdTokenClaims(tokens);
      if (!idToken || !claims) throw new Error('no ID token in the answer');
      expiresAt = claims.exp * 1000;
    } catch (error) {
      throw new AuthError('token', `no ID token: ${describeOAuthFailure(oauth, error, `the identity provider's token endpoint ${as.token_endpoint}`)}`);
    }
    options.log(`enterprise-managed authorization: signed in at ${idp.issuer} (ID token expires in ${Math.max(0, Math.round((expiresAt - options.now()) / 1000))} s)`);
    return { client: { clientId: idp.clientId, tokenEndpointAuthMethod: 'none', registration: 'pre-registered' }, accessToken: idToken, expiresAt, obtainedAt: options.now() };
  } catch (error) {
    const stopped = AuthError.is(error) ? error : new AuthError('token', (error as Error).message ?? String(error));
    throw new AuthError(stopped.kind, redact(stopped.message, secrets));
  } finally {
    await redirect.close();
  }
}
