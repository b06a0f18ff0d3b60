// The user agent of a sign-in: what opens the authorization page. Its own file so the flow and
// the identity provider's sign-in (grants/idpSignIn.ts) share it without importing each other.

/** Where a sign-in is going: the user agent names it to the user. */
export interface SignInTarget {
  readonly issuer: string;
  /** The MCP server (the `resource`). */
  readonly resource: string;
}

/** Opens the authorization page: the editor opens a browser after the user's click; tests fetch it. */
export type UserAgent = (authorizationUrl: URL, target: SignInTarget) => Promise<void>;
