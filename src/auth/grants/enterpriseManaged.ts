// Enterprise-managed authorization (MCP extension SEP-990, io.modelcontextprotocol/
// enterprise-managed-authorization; the ID-JAG draft): the user signs in once to the enterprise
// identity provider; its ID token is exchanged there (RFC 8693 token exchange) for an identity
// assertion JWT authorization grant (ID-JAG) naming the MCP server's authorization server as
// audience and the MCP server as resource; that assertion is then exchanged at the authorization
// server (RFC 7523 JWT bearer grant) for the access token. No consent screen per server.
import type { AuthorizationServer, TokenEndpointResponse } from '../oauth';
import type { RegisteredClient } from '../tokenStore';
import { secretAuth } from '../clientAuthentication';
import type { DpopKey } from './dpop';
import { GrantRequestContext, resourceAndScope } from './grantRequest';
import { JWT_BEARER_GRANT } from './workloadIdentity';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

export interface EnterpriseManagedGrant {
  readonly kind: 'enterprise-managed';
  /** This client at the MCP server's authorization server. */
  readonly clientId: string;
  readonly clientSecret?: string;
  /** The enterprise identity provider: its issuer, token endpoint and this client there. */
  readonly idp: { readonly issuer: string; readonly tokenEndpoint: string; readonly clientId: string; readonly clientSecret?: string };
  /** The user's ID token from the identity provider (configured); absent: the flow signs in to the IdP for it (idpSignIn.ts). */
  readonly idToken?: string;
}

export async function enterpriseManagedRequest(grant: EnterpriseManagedGrant, ctx: GrantRequestContext, dpop: DpopKey | undefined): Promise<{ tokens: TokenEndpointResponse; client: RegisteredClient }> {
  const { oauth, found } = ctx;
  const as = found.authorizationServer;
  if (grant.idToken === undefined) throw new Error(`no ID token from the identity provider ${grant.idp.issuer}`);
  const idp: AuthorizationServer = { issuer: grant.idp.issuer, token_endpoint: grant.idp.tokenEndpoint };
  ctx.log(`enterprise-managed authorization: exchanging the identity provider's ID token at ${grant.idp.tokenEndpoint} for an identity assertion for ${as.issuer}`);
  const idpAuth = grant.idp.clientSecret !== undefined ? secretAuth(oauth, idp, grant.idp.clientSecret).auth : oauth.None();
  const exchanged = await ctx.tokenRequest({
    as: idp,
    clientId: grant.idp.clientId,
    auth: idpAuth,
    grantType: TOKEN_EXCHANGE_GRANT,
    parameters: { requested_token_type: ID_JAG_TOKEN_TYPE, audience: as.issuer, subject_token: grant.idToken, subject_token_type: ID_TOKEN_TYPE, ...resourceAndScope(ctx) },
    // RFC 8693 §2.2.1: the issued token is not an access token, so its token_type is N_A.
    tokenTypes: ['N_A'],
    where: `the identity provider ${grant.idp.issuer}`,
  });
  const issuedType = (exchanged as { issued_token_type?: unknown }).issued_token_type;
  if (issuedType !== ID_JAG_TOKEN_TYPE) throw new Error(`the identity provider ${grant.idp.issuer} issued ${JSON.stringify(issuedType)}, not an identity assertion grant (${ID_JAG_TOKEN_TYPE})`);
  const auth = grant.clientSecret !== undefined ? secretAuth(oauth, as, grant.clientSecret) : { auth: oauth.None(), method: 'none' as const };
  ctx.log(`enterprise-managed authorization: presenting the identity assertion at ${as.issuer} (client ${grant.clientId}, ${auth.method})`);
  const tokens = await ctx.tokenRequest({
    as,
    clientId: grant.clientId,
    auth: auth.auth,
    grantType: JWT_BEARER_GRANT,
    parameters: { assertion: exchanged.access_token, ...resourceAndScope(ctx) },
    where: `the token endpoint of ${as.issuer}`,
    ...(dpop ? { dpop } : {}),
  });
  return { tokens, client: { clientId: grant.clientId, tokenEndpointAuthMethod: auth.method, registration: 'pre-registered' } };
}
