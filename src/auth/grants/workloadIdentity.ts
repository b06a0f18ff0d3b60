// Workload identity federation (MCP extension SEP-1933, io.modelcontextprotocol/auth/wif): the
// JWT bearer grant (RFC 7523 §2.1) with a token the platform gives the workload (a CI job's
// OIDC token, a Kubernetes service account token), read from a file or an environment variable
// at the moment of the request. A refusal is reported as it is: no retry, no other grant.
import type { RegisteredClient } from '../tokenStore';
import type { ClientAuth, TokenEndpointResponse } from '../oauth';
import { secretAuth } from '../clientAuthentication';
import type { DpopKey } from './dpop';
import { GrantRequestContext, resourceAndScope } from './grantRequest';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface WorkloadIdentityGrant {
  readonly kind: 'workload-identity';
  /** The workload's token (a JWT), as read for this request. */
  readonly assertion: string;
  /** The client id at the authorization server, when it wants one (sent with `none` authentication, or with the secret). */
  readonly clientId?: string;
  readonly clientSecret?: string;
}

export async function workloadIdentityRequest(grant: WorkloadIdentityGrant, ctx: GrantRequestContext, dpop: DpopKey | undefined): Promise<{ tokens: TokenEndpointResponse; client: RegisteredClient }> {
  const { oauth, found } = ctx;
  const as = found.authorizationServer;
  let auth: ClientAuth = noAuthentication;
  let method: RegisteredClient['tokenEndpointAuthMethod'] = 'none';
  if (grant.clientSecret !== undefined) ({ auth, method } = secretAuth(oauth, as, grant.clientSecret));
  else if (grant.clientId !== undefined) auth = oauth.None();
  const tokens = await ctx.tokenRequest({
    as,
    // RFC 7523 §3.1: client authentication is optional for this grant; without a client id none is sent.
    clientId: grant.clientId ?? 'workload',
    auth,
    grantType: JWT_BEARER_GRANT,
    parameters: { assertion: grant.assertion, ...resourceAndScope(ctx) },
    where: `the token endpoint of ${as.issuer}`,
    ...(dpop ? { dpop } : {}),
  });
  return { tokens, client: { clientId: grant.clientId ?? '', tokenEndpointAuthMethod: method, registration: 'pre-registered' } };
}

/** No client authentication and no client_id: the assertion alone identifies the workload. */
const noAuthentication: ClientAuth = () => {};
