// oauth4webapi is ESM only and this code compiles to CommonJS: loaded once, on first use.
export type OAuthModule = typeof import('oauth4webapi', { with: { 'resolution-mode': 'import' } });
export type { AuthorizationServer, Client, ClientAuth, TokenEndpointResponse } from 'oauth4webapi' with { 'resolution-mode': 'import' };

let loaded: Promise<OAuthModule> | undefined;
export function loadOAuth(): Promise<OAuthModule> {
  return (loaded ??= import('oauth4webapi'));
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Plain http is allowed only to this machine (fixtures, local servers); anything else must be https. */
export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname);
}
