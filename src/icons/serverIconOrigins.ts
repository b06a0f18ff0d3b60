// Whether a server's icons may be looked at yet, and from where. Icons are shown only for a
// server that runs: the user allowed it (consent, trust) and it started, so an icon URL in a
// config nobody agreed to is never fetched. A remote server's own https origin is allowed; a
// stdio server has none, so only `data:` icons and declared origins work for it.
import { type IconOrigins, httpsOrigin } from './iconSource';

/** What this needs of a server (the registry's ServerHandle has it). */
export interface IconServer {
  readonly status: { readonly kind: string };
  readonly resolved?: { readonly type: string; readonly url?: string } | undefined;
}

/** Where `server`'s icons may come from, or undefined when it is not running (nothing may be fetched). */
export function serverIconOrigins(server: IconServer, declared: readonly string[]): IconOrigins | undefined {
  if (server.status.kind !== 'running') return undefined;
  const own = server.resolved && server.resolved.type !== 'stdio' ? httpsOrigin(server.resolved.url) : undefined;
  return { ...(own ? { serverOrigin: own } : {}), allowed: declared.filter((o) => httpsOrigin(o) !== undefined) };
}
