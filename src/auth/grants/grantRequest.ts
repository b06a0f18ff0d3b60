// What every machine grant's token request shares (the context the flow hands in, one POST to a
// token endpoint, `resource` and `scope`): its own file, so the grants (clientCredentials,
// enterpriseManaged, workloadIdentity) and machineGrant.ts, which picks among them, do not import
// each other.
import type { DiscoveredAuthorization } from '../discovery';
import type { AuthorizationServer, ClientAuth, OAuthModule, TokenEndpointResponse } from '../oauth';
import type { DpopKey } from './dpop';

/** How one grant's token request is sent: the endpoint checks, fetch and DPoP of the flow. */
export interface GrantRequestContext {
  readonly oauth: OAuthModule;
  readonly found: DiscoveredAuthorization;
  readonly scopes: readonly string[] | undefined;
  readonly log: (text: string) => void;
  /** Sends one token request to `as` (the MCP server's authorization server, or the enterprise IdP) and reads its answer. */
  readonly tokenRequest: (request: TokenRequest) => Promise<TokenEndpointResponse>;
}

/** One POST to a token endpoint. */
export interface TokenRequest {
  readonly as: AuthorizationServer;
  readonly clientId: string;
  readonly auth: ClientAuth;
  readonly grantType: string;
  readonly parameters: Record<string, string>;
  /** Token types the answer may carry beyond Bearer and DPoP (the ID-JAG's `N_A`). */
  readonly tokenTypes?: readonly string[];
  /** Where the request goes, for messages: "the token endpoint of …". */
  readonly where: string;
  /** Whether the request carries DPoP proofs (only requests to the MCP server's authorization server). */
  readonly dpop?: DpopKey;
}

/** `resource` (RFC 8707) and `scope` of a token request, as the MCP authorization spec asks. */
export function resourceAndScope(ctx: Pick<GrantRequestContext, 'found' | 'scopes'>): Record<string, string> {
  return { resource: ctx.found.resource, ...(ctx.scopes?.length ? { scope: ctx.scopes.join(' ') } : {}) };
}
