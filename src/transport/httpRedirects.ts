// Which redirects a transport follows: only within the endpoint's origin (and its credentials),
// 307/308 for any method and 301/302/303 only for GET (the others would turn a POST into a GET),
// at most MAX_REDIRECTS. Anything else ends the request with an error that says why.
import { McpLocalError } from '../protocol/errors';
import { displayUrl } from './httpErrors';
import type { HttpResponse } from './nodeHttpClient';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** True when `status` is a redirect (the response is then read by `redirectHop()`, not returned). */
export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * Where redirect `response` (to a request for `url`, hop `hop` counted from 0) leads. Throws
 * McpLocalError('transport') naming the URL for one that is not followed: no valid Location,
 * another origin, a method change, or too many hops.
 */
export function redirectHop(response: HttpResponse, method: string, url: URL, origin: URL, hop: number): URL {
  const target = redirectTarget(response, url);
  const where = `${method} ${displayUrl(url)}`;
  if (!target) throw new McpLocalError('transport', `${where} answered a redirect (HTTP ${response.status}) without a valid Location`, { url: displayUrl(url), status: response.status });
  if (target.origin !== origin.origin || target.username !== url.username || target.password !== url.password) {
    throw new McpLocalError('transport', `${where} was redirected to another origin (${target.origin}); redirects are followed only within ${origin.origin}`, { url: displayUrl(url), status: response.status, redirect: target.origin });
  }
  const keepsMethod = response.status === 307 || response.status === 308 || method === 'GET';
  if (!keepsMethod) throw new McpLocalError('transport', `${where} was redirected with HTTP ${response.status}, which would turn the ${method} into a GET; only 307 and 308 are followed`, { url: displayUrl(url), status: response.status });
  if (hop + 1 >= MAX_REDIRECTS) throw new McpLocalError('transport', `${where}: more than ${MAX_REDIRECTS} redirects`, { url: displayUrl(url), status: response.status });
  return target;
}

function redirectTarget(response: HttpResponse, from: URL): URL | undefined {
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
}
