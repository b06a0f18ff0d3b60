// What the user is told about the page a sign-in opens. The authorization server's metadata
// chooses that page's URL, and it may put it on another host (or port, or scheme) than its
// issuer and the MCP server: the host named must be the one the browser really opens, judged
// like every other external URL (`assessUrl`), with a warning where it is not where the user
// would expect. Shared by the editor's prompt and the CLI's "sign in at" line.
import { isLoopback } from '../auth/oauth';
import { assessUrl } from '../content/urlSafety';

export interface SignInPageFacts {
  /** The URL the browser will open (the authorization endpoint, with or without its query). */
  readonly url: string;
  /** The authorization server's issuer. */
  readonly issuer: string;
  /** The MCP server's URL. */
  readonly serverUrl: string;
}

export type SignInPageCheck =
  | { readonly kind: 'blocked'; readonly reason: string }
  | {
      readonly kind: 'openable';
      /** host[:port] the browser opens. */
      readonly host: string;
      /** The page's origin and path (no query): what to show. */
      readonly page: string;
      /** Sentences, each worth the user's attention before the browser opens. */
      readonly warnings: readonly string[];
    };

/** Judges the sign-in page; `blocked` when it must not be opened at all. */
export function assessSignInPage(f: SignInPageFacts): SignInPageCheck {
  const assessed = assessUrl(f.url);
  if (assessed.kind === 'blocked') return { kind: 'blocked', reason: `the sign-in page ${JSON.stringify(f.url.slice(0, 200))} is not opened: ${assessed.reason}` };
  const url = new URL(assessed.href);
  // http to this machine is what local servers and fixtures use; elsewhere it is worth saying.
  const warnings = assessed.warnings.filter((w) => !(w.kind === 'not-https' && isLoopback(url))).map((w) => w.text);
  const elsewhere = [
    sameOrigin(url, f.issuer) ? undefined : `the authorization server ${originOf(f.issuer)}`,
    sameOrigin(url, f.serverUrl) ? undefined : `the MCP server ${originOf(f.serverUrl)}`,
  ].filter((s): s is string => s !== undefined);
  if (elsewhere.length) warnings.unshift(`The sign-in page is on ${url.origin}, not on ${elsewhere.join(' nor on ')}. Continue only if you expect this sign-in to happen at ${url.host}.`);
  return { kind: 'openable', host: url.host, page: `${url.origin}${url.pathname}`, warnings };
}

/** Same scheme, host and port. */
function sameOrigin(url: URL, other: string): boolean {
  try {
    return new URL(other).origin === url.origin;
  } catch {
    return false;
  }
}

function originOf(text: string): string {
  try {
    return new URL(text).origin;
  } catch {
    return JSON.stringify(text.slice(0, 200));
  }
}
