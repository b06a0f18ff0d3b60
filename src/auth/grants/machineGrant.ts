// Grants that obtain a token without a browser (the MCP authorization extensions): client
// credentials (SEP-1046), enterprise-managed authorization (SEP-990, ID-JAG) and workload
// identity federation (SEP-1933). The configuration names one; `obtainMachineGrant` runs it
// against the authorization server discovery found and returns what the token store keeps. The
// secret values arrive resolved (from a variable or a file) and are never logged or put in errors.
import type { DiscoveredAuthorization } from '../discovery';
import { AuthError, describeOAuthFailure, noteSentCredentials, redact } from '../errors';
import { loadOAuth, TokenEndpointResponse } from '../oauth';
import { RegisteredClient, StoredGrant, type MachineGrantKind } from '../tokenStore';
import { DpopKey, dpopFetch } from './dpop';
import { resourceAndScope, type GrantRequestContext, type TokenRequest } from './grantRequest';
import { clientCredentialsRequest, type ClientCredentialsGrant } from './clientCredentials';
import { enterpriseManagedRequest, type EnterpriseManagedGrant } from './enterpriseManaged';
import { workloadIdentityRequest, type WorkloadIdentityGrant } from './workloadIdentity';

export type { ClientCredentialsGrant, EnterpriseManagedGrant, WorkloadIdentityGrant };
export { resourceAndScope, type GrantRequestContext, type TokenRequest };

/** A grant that needs no browser, as configured (values resolved). */
export type MachineGrant = ClientCredentialsGrant | EnterpriseManagedGrant | WorkloadIdentityGrant;
export type { MachineGrantKind };
// The stored grant names its kind without importing the grants (tokenStore.ts); both lists agree.
const KINDS_AGREE: [MachineGrant['kind']] extends [MachineGrantKind] ? ([MachineGrantKind] extends [MachineGrant['kind']] ? true : never) : never = true;
void KINDS_AGREE;

/** What `obtainMachineGrant` needs beyond the grant: the flow's fetch and clock. */
export interface MachineGrantOptions {
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly log: (text: string) => void;
  /** The key the token is bound to, when the flow chose DPoP. */
  readonly dpop?: DpopKey;
}

/** A human name for a grant, for logs and the consent. */
export function describeMachineGrant(grant: MachineGrant): string {
  switch (grant.kind) {
    case 'client-credentials':
      return `client credentials (client ${grant.clientId}, ${grant.privateKey ? 'private_key_jwt' : 'client secret'})`;
    case 'enterprise-managed':
      return `enterprise-managed authorization (identity provider ${grant.idp.issuer})`;
    case 'workload-identity':
      return 'workload identity federation (JWT bearer)';
  }
}

/**
 * Runs the configured grant for `found`: returns the grant to store. Rejects with AuthError
 * `token` naming the endpoint and the server's OAuth error; no secret is in the message.
 */
export async function obtainMachineGrant(grant: MachineGrant, found: DiscoveredAuthorization, scopes: readonly string[] | undefined, options: MachineGrantOptions): Promise<StoredGrant> {
  const oauth = await loadOAuth();
  const secrets = new Set<string | undefined>(grantSecrets(grant));
  const tokenRequest = async (request: TokenRequest): Promise<TokenEndpointResponse> => {
    const endpoint = request.as.token_endpoint;
    if (!endpoint) throw new AuthError('discovery', `${request.where} names no token endpoint`);
    const sent = noteSentCredentials(options.fetch, secrets);
    const fetchFn = request.dpop ? dpopFetch(request.dpop, endpoint, sent) : sent;
    const client = { client_id: request.clientId };
    try {
      const response = await oauth.genericTokenEndpointRequest(request.as, client, request.auth, request.grantType, request.parameters, {
        [oauth.customFetch]: fetchFn,
        [oauth.allowInsecureRequests]: new URL(endpoint).protocol === 'http:',
        signal: AbortSignal.timeout(30_000),
      });
      const recognizedTokenTypes = Object.fromEntries((request.tokenTypes ?? []).map((t) => [t.toLowerCase(), () => {}]));
      const tokens = await oauth.processGenericTokenEndpointResponse(request.as, client, response, { recognizedTokenTypes });
      secrets.add(tokens.access_token).add(tokens.refresh_token);
      return tokens;
    } catch (error) {
      throw new AuthError('token', redact(`no token: ${describeOAuthFailure(oauth, error, `${request.where} (${endpoint})`)}`, secrets));
    }
  };
  const ctx: GrantRequestContext = { oauth, found, scopes, log: options.log, tokenRequest };
  options.log(`obtaining a token from ${found.authorizationServer.issuer} with ${describeMachineGrant(grant)}${options.dpop ? ', bound to a DPoP key' : ''}`);
  let result: { tokens: TokenEndpointResponse; client: RegisteredClient };
  try {
    result = await run(grant, ctx, options.dpop);
  } catch (error) {
    if (AuthError.is(error)) throw error;
    throw new AuthError('token', redact((error as Error).message ?? String(error), secrets));
  }
  const { tokens, client } = result;
  const scope = tokens.scope ?? scopes?.join(' ');
  const bound = options.dpop && tokens.token_type?.toLowerCase() === 'dpop';
  // No refresh token is kept: the grant itself is run again when the token expires (RFC 6749 §4.4.3).
  return {
    client,
    accessToken: tokens.access_token,
    ...(typeof tokens.expires_in === 'number' ? { expiresAt: options.now() + tokens.expires_in * 1000 } : {}),
    ...(scope ? { scope } : {}),
    // Its lifetime sets the margin it is renewed ahead of expiry by (refreshMargin), as for a refresh.
    obtainedAt: options.now(),
    ...(bound ? { tokenType: 'DPoP' as const, dpopKey: options.dpop!.stored } : {}),
    grantType: grant.kind,
  };
}

function run(grant: MachineGrant, ctx: GrantRequestContext, dpop: DpopKey | undefined): Promise<{ tokens: TokenEndpointResponse; client: RegisteredClient }> {
  switch (grant.kind) {
    case 'client-credentials':
      return clientCredentialsRequest(grant, ctx, dpop);
    case 'enterprise-managed':
      return enterpriseManagedRequest(grant, ctx, dpop);
    case 'workload-identity':
      return workloadIdentityRequest(grant, ctx, dpop);
  }
}

/** Every secret value a configured grant holds (for redaction). */
export function grantSecrets(grant: MachineGrant): string[] {
  const values = grant.kind === 'client-credentials' ? [grant.clientSecret, grant.privateKey] : grant.kind === 'enterprise-managed' ? [grant.clientSecret, grant.idp.clientSecret, grant.idToken] : [grant.assertion, grant.clientSecret];
  return values.filter((v): v is string => typeof v === 'string' && v.length > 0);
}
