// Finding the authorization server of an MCP server (authorization spec 2025-11-25 §Authorization
// Server Discovery): Protected Resource Metadata (RFC 9728) from the challenge's
// `resource_metadata` or the well-known URIs (path-aware, then root); then the authorization
// server's metadata by RFC 8414 and OpenID Connect Discovery in the spec's order, its `issuer`
// checked against the identifier it was fetched for (by oauth4webapi). A server without resource
// metadata gets the 2025-03-26 path: metadata at the server's origin, else default endpoints.
import { AuthError, describeOAuthFailure } from './errors';
import { AuthorizationServer, isLocalAddress, isLoopback, loadOAuth } from './oauth';

/** What a `WWW-Authenticate: Bearer` challenge says. */
export interface BearerChallenge {
  readonly error?: string;
  /** The server's own words on the refusal (`error_description`), untrusted text. */
  readonly errorDescription?: string;
  readonly scope?: readonly string[];
  readonly resourceMetadata?: string;
}

/**
 * Reads the Bearer challenge of a WWW-Authenticate header (RFC 6750 §3), else its DPoP challenge
 * (RFC 9449 §7.1, same parameters); other schemes are ignored.
 */
export function parseBearerChallenge(header: string | undefined): BearerChallenge {
  if (!header) return {};
  let start = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start < 0) start = header.search(/(^|[\s,])DPoP(\s|$)/i);
  if (start < 0) return {};
  const params: Record<string, string> = {};
  const pattern = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/gy;
  let rest = header.slice(start).replace(/^[\s,]*(Bearer|DPoP)\s*/i, '');
  for (;;) {
    pattern.lastIndex = 0;
    const match = pattern.exec(rest);
    if (!match) break;
    // The next auth-scheme begins where a token is not followed by "=".
    params[match[1].toLowerCase()] ??= match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
    rest = rest.slice(match[0].length).replace(/^\s*,\s*/, '');
  }
  const scope = params.scope?.split(/\s+/).filter(Boolean);
  return { ...(params.error ? { error: params.error } : {}), ...(params.error_description ? { errorDescription: params.error_description } : {}), ...(scope?.length ? { scope } : {}), ...(params.resource_metadata ? { resourceMetadata: params.resource_metadata } : {}) };
}

/** The parts of RFC 9728 metadata this client uses. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
}

export interface DiscoveredAuthorization {
  /** The `resource` parameter: the metadata's `resource`, else the server's canonical URI. */
  readonly resource: string;
  readonly resourceMetadata?: ProtectedResourceMetadata;
  readonly authorizationServer: AuthorizationServer;
  /** Where the authorization server's metadata came from; undefined when default endpoints are used. */
  readonly metadataUrl?: string;
  /** True for the 2025-03-26 path (no resource metadata). */
  readonly legacy: boolean;
  /** True when no metadata was found at all and the 2025-03-26 default endpoints are assumed. */
  readonly defaultEndpoints?: boolean;
}

export interface DiscoveryContext {
  readonly fetch: typeof fetch;
  /** One line per step; never secret. */
  readonly log: (text: string) => void;
  /** The user allowed http and local or private addresses for this server's authorization (see `checkEndpoint`). */
  readonly allowLocal?: boolean;
}

/** Where authorization URLs may point for one MCP server (see `checkEndpoint`). */
export interface EndpointPolicy {
  readonly serverUrl: URL;
  readonly allowLocal?: boolean;
}

/** The canonical URI of an MCP server (RFC 8707 §2): no fragment, no query. */
export function canonicalResource(serverUrl: URL): string {
  const url = new URL(serverUrl.href);
  url.hash = '';
  url.search = '';
  url.username = '';
  url.password = '';
  return url.pathname === '/' ? url.origin : url.href;
}

/** Runs discovery for `serverUrl` after a challenge. Rejects with AuthError('discovery') naming the URL that failed. */
export async function discoverAuthorization(serverUrl: URL, challenge: BearerChallenge, ctx: DiscoveryContext): Promise<DiscoveredAuthorization> {
  const resourceMetadata = await fetchResourceMetadata(serverUrl, challenge, ctx);
  if (!resourceMetadata) {
    ctx.log(`no protected resource metadata for ${canonicalResource(serverUrl)}: using the 2025-03-26 discovery at ${serverUrl.origin}`);
    return legacyDiscovery(serverUrl, ctx);
  }
  const issuer = resourceMetadata.authorization_servers?.[0];
  if (!issuer) throw new AuthError('discovery', `the protected resource metadata of ${resourceMetadata.resource} names no authorization server`);
  const issuerUrl = parseHttpUrl(issuer, 'the authorization server named by the protected resource metadata', policy(serverUrl, ctx));
  const found = await fetchServerMetadata(issuerUrl, serverMetadataUrls(issuerUrl), serverUrl, ctx);
  if (!found) throw new AuthError('discovery', `no authorization server metadata for ${issuer} (tried ${serverMetadataUrls(issuerUrl).map((u) => u.href).join(', ')})`);
  const discovered = { resource: resourceMetadata.resource, resourceMetadata, authorizationServer: found.metadata, metadataUrl: found.url, legacy: false };
  checkEndpoints(discovered, policy(serverUrl, ctx));
  return discovered;
}

function policy(serverUrl: URL, ctx: DiscoveryContext): EndpointPolicy {
  return { serverUrl, ...(ctx.allowLocal ? { allowLocal: true } : {}) };
}

/**
 * Checks every URL of a discovered authorization server (authorization, token, registration
 * endpoints) against `checkEndpoint`, before any of them is used.
 */
export function checkEndpoints(found: DiscoveredAuthorization, rule: EndpointPolicy): void {
  const as = found.authorizationServer;
  const named: Array<[string, unknown]> = [['authorization endpoint', as.authorization_endpoint], ['token endpoint', as.token_endpoint], ['registration endpoint', as.registration_endpoint]];
  for (const [what, value] of named) if (typeof value === 'string') parseHttpUrl(value, `the ${what} of ${as.issuer}`, rule);
}

/** RFC 9728 well-known URIs for a resource: path-aware first, then the root. */
export function resourceMetadataUrls(serverUrl: URL): URL[] {
  const path = serverUrl.pathname.replace(/\/$/, '');
  const root = new URL('/.well-known/oauth-protected-resource', serverUrl.origin);
  return path ? [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin), root] : [root];
}

/**
 * Authorization server metadata URLs in the spec's order. With a path: RFC 8414 path insertion,
 * OIDC path insertion, OIDC path appending; without: RFC 8414, then OIDC.
 */
export function serverMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  const at = (p: string) => new URL(p, issuer.origin);
  if (!path) return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  return [at(`/.well-known/oauth-authorization-server${path}`), at(`/.well-known/openid-configuration${path}`), at(`${path}/.well-known/openid-configuration`)];
}

async function fetchResourceMetadata(serverUrl: URL, challenge: BearerChallenge, ctx: DiscoveryContext): Promise<ProtectedResourceMetadata | undefined> {
  const candidates = challenge.resourceMetadata ? [parseHttpUrl(challenge.resourceMetadata, 'the resource_metadata of the challenge', policy(serverUrl, ctx))] : resourceMetadataUrls(serverUrl);
  for (const url of candidates) {
    const response = await get(url, serverUrl, ctx);
    if (response.status === 404 && !challenge.resourceMetadata) {
      await response.body?.cancel();
      continue;
    }
    const body = await readJsonObject(response, url, 'the protected resource metadata');
    const resource = body.resource;
    if (typeof resource !== 'string') throw new AuthError('discovery', `the protected resource metadata at ${url.href} has no "resource"`);
    checkResource(resource, serverUrl, url);
    const servers = Array.isArray(body.authorization_servers) ? body.authorization_servers.filter((s): s is string => typeof s === 'string') : undefined;
    const scopes = Array.isArray(body.scopes_supported) ? body.scopes_supported.filter((s): s is string => typeof s === 'string') : undefined;
    ctx.log(`protected resource metadata from ${url.href}: authorization server ${servers?.[0] ?? '(none)'}`);
    return { resource, ...(servers ? { authorization_servers: servers } : {}), ...(scopes ? { scopes_supported: scopes } : {}) };
  }
  return undefined;
}

/** RFC 9728 §3.3: the metadata must describe this server: same origin, and a path that contains the server's. */
function checkResource(resource: string, serverUrl: URL, from: URL): void {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new AuthError('discovery', `the protected resource metadata at ${from.href} names an invalid resource ${JSON.stringify(resource)}`);
  }
  const prefix = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const path = serverUrl.pathname.endsWith('/') ? serverUrl.pathname : `${serverUrl.pathname}/`;
  if (url.origin !== serverUrl.origin || !path.startsWith(prefix)) {
    throw new AuthError('discovery', `the protected resource metadata at ${from.href} is for ${resource}, not for ${canonicalResource(serverUrl)}; refused`);
  }
}

/** The first metadata document found among `urls` (404 and other 4xx move on), with its issuer checked. */
async function fetchServerMetadata(issuer: URL, urls: URL[], serverUrl: URL, ctx: DiscoveryContext): Promise<{ metadata: AuthorizationServer; url: string } | undefined> {
  const oauth = await loadOAuth();
  for (const url of urls) {
    const response = await get(url, serverUrl, ctx);
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel();
      continue;
    }
    let metadata: AuthorizationServer;
    try {
      metadata = await oauth.processDiscoveryResponse(issuer, response);
    } catch (error) {
      if (error instanceof oauth.OperationProcessingError && error.code === oauth.JSON_ATTRIBUTE_COMPARISON) {
        const claimed = ((error as { cause?: { body?: { issuer?: unknown } } }).cause?.body?.issuer);
        const says = typeof claimed === 'string' ? `claims issuer ${JSON.stringify(claimed)}` : 'names another issuer';
        throw new AuthError('discovery', `the authorization server metadata at ${url.href} ${says}, not ${issuer.href}, where it was fetched for; refused`);
      }
      throw new AuthError('discovery', describeOAuthFailure(oauth, error, `the authorization server metadata at ${url.href}`));
    }
    ctx.log(`authorization server metadata from ${url.href} (issuer ${metadata.issuer})`);
    return { metadata, url: url.href };
  }
  return undefined;
}

async function legacyDiscovery(serverUrl: URL, ctx: DiscoveryContext): Promise<DiscoveredAuthorization> {
  const origin = new URL(serverUrl.origin);
  const resource = canonicalResource(serverUrl);
  const found = await fetchServerMetadata(origin, [new URL('/.well-known/oauth-authorization-server', origin)], serverUrl, ctx);
  if (found) {
    const discovered = { resource, authorizationServer: found.metadata, metadataUrl: found.url, legacy: true };
    checkEndpoints(discovered, policy(serverUrl, ctx));
    return discovered;
  }
  ctx.log(`no authorization server metadata at ${origin.origin}: using the default endpoints /authorize, /token, /register`);
  const authorizationServer: AuthorizationServer = {
    issuer: origin.origin,
    authorization_endpoint: new URL('/authorize', origin).href,
    token_endpoint: new URL('/token', origin).href,
    registration_endpoint: new URL('/register', origin).href,
    // 2025-03-26 requires PKCE of every server; with no metadata, S256 is what it requires.
    code_challenge_methods_supported: ['S256'],
  };
  return { resource, authorizationServer, legacy: true, defaultEndpoints: true };
}

async function get(url: URL, serverUrl: URL, ctx: DiscoveryContext): Promise<Response> {
  checkEndpoint(url, policy(serverUrl, ctx));
  try {
    return await ctx.fetch(url, { headers: { accept: 'application/json', 'mcp-protocol-version': '2025-11-25' }, redirect: 'error', signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new AuthError('discovery', `GET ${url.href} failed: ${cause ?? (error as Error).message}`);
  }
}

/**
 * Where a server's 401 and metadata may send this client (blind request forgery otherwise: a
 * remote server could make the user's machine GET and POST to services on it or on its network
 * without a click). Always: https on the MCP server's own host, and https to public hosts. Plain
 * http, and loopback or private addresses, only when the MCP server itself is on loopback (a
 * local server or test fixture, which could reach those anyway) or the user allowed it for this
 * server (`allowLocal`). Plain http on the server's own host only when the server itself is http.
 * Throws AuthError('discovery') naming the URL; nothing has been fetched then.
 */
export function checkEndpoint(url: URL, rule: EndpointPolicy, what?: string): void {
  const named = what ? `${what} ${url.href}` : url.href;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AuthError('discovery', `${named}: authorization endpoints must use https; refused`);
  const server = rule.serverUrl;
  const relaxed = isLoopback(server) || rule.allowLocal === true;
  if (url.hostname === server.hostname) {
    if (url.protocol === 'http:' && server.protocol !== 'http:' && !relaxed) throw new AuthError('discovery', `${named}: plain http for authorization, though the MCP server ${server.origin} uses https; refused`);
    return;
  }
  const local = isLocalAddress(url);
  if (local && !relaxed) {
    throw new AuthError('discovery', `${named} is on this machine or a private network, but the MCP server ${server.origin} is not; refused before anything was sent (allow local authorization for this server only if you trust it)`);
  }
  if (url.protocol === 'http:' && !(local && relaxed)) throw new AuthError('discovery', `${named}: authorization endpoints must use https; refused`);
}

function parseHttpUrl(text: string, what: string, rule: EndpointPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AuthError('discovery', `${what} is not a URL: ${JSON.stringify(text.slice(0, 200))}`);
  }
  checkEndpoint(url, rule, what);
  return url;
}

async function readJsonObject(response: Response, url: URL, what: string): Promise<Record<string, unknown>> {
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok) {
    await response.body?.cancel();
    throw new AuthError('discovery', `${what} at ${url.href}: HTTP ${response.status}`);
  }
  const text = await response.text();
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new AuthError('discovery', `${what} at ${url.href} is not a JSON object (content type ${JSON.stringify(type)})`);
}
