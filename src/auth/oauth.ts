// oauth4webapi is ESM only and this code compiles to CommonJS: loaded once, on first use.
export type OAuthModule = typeof import('oauth4webapi', { with: { 'resolution-mode': 'import' } });
export type { AuthorizationServer, Client, ClientAuth, TokenEndpointResponse } from 'oauth4webapi' with { 'resolution-mode': 'import' };

let loaded: Promise<OAuthModule> | undefined;
export function loadOAuth(): Promise<OAuthModule> {
  return (loaded ??= import('oauth4webapi'));
}

/**
 * True for a host on this machine: localhost (and *.localhost), 127.0.0.0/8, ::1. URL parsing
 * has already turned other spellings (0x7f.1, 2130706433) into the dotted form.
 */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]' || /^\[::ffff:(127\.|7f)/.test(host);
}

/**
 * True for a host on this machine or a private network, written as such: loopback, the private
 * and link-local IPv4 ranges (10/8, 172.16/12, 192.168/16, 169.254/16, 100.64/10 shared, 0/8),
 * IPv6 unique-local (fc00::/7), link-local (fe80::/10) and the unspecified address. A name that
 * resolves to such an address is not seen here (that would need the resolver).
 */
export function isLocalAddress(url: URL): boolean {
  if (isLoopback(url)) return true;
  const host = url.hostname.toLowerCase();
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host.replace(/^\[::ffff:/, '').replace(/\]$/, ''));
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.startsWith('[')) return host === '[::]' || /^\[f[cd][0-9a-f]{0,2}:/.test(host) || /^\[fe[89ab][0-9a-f]?:/.test(host) || /^\[::ffff:[0-9a-f]{1,4}:/.test(host);
  return false;
}
