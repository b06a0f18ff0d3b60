// The client credentials grant (RFC 6749 §4.4; MCP extension SEP-1046,
// io.modelcontextprotocol/oauth-client-credentials): a configured client authenticates with a
// secret (client_secret_basic or _post) or with a private key (private_key_jwt, RFC 7523 §2.2: a
// JWT signed by the key, issued and subject the client id, audience the issuer) and gets a token
// for the MCP server. No browser, no user.
import { createPrivateKey, webcrypto } from 'node:crypto';
import { secretAuth } from '../clientAuthentication';
import type { RegisteredClient } from '../tokenStore';
import type { TokenEndpointResponse } from '../oauth';
import type { DpopKey } from './dpop';
import { GrantRequestContext, resourceAndScope } from './grantRequest';

export interface ClientCredentialsGrant {
  readonly kind: 'client-credentials';
  readonly clientId: string;
  /** The client secret (one of clientSecret and privateKey). */
  readonly clientSecret?: string;
  /** The private key, PEM (PKCS#8, or PKCS#1/SEC1), for private_key_jwt. */
  readonly privateKey?: string;
  /** The JWS algorithm of the key: ES256 (default for EC keys), ES384, RS256 (default for RSA keys), PS256. */
  readonly signingAlgorithm?: string;
}

/** The private key algorithms this client signs client assertions with. */
export const SIGNING_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'PS256'] as const;

export async function clientCredentialsRequest(grant: ClientCredentialsGrant, ctx: GrantRequestContext, dpop: DpopKey | undefined): Promise<{ tokens: TokenEndpointResponse; client: RegisteredClient }> {
  const { oauth, found } = ctx;
  const as = found.authorizationServer;
  let auth;
  let method: RegisteredClient['tokenEndpointAuthMethod'];
  if (grant.privateKey !== undefined) {
    auth = oauth.PrivateKeyJwt(await importSigningKey(grant.privateKey, grant.signingAlgorithm));
    method = 'private_key_jwt';
  } else if (grant.clientSecret !== undefined) {
    ({ auth, method } = secretAuth(oauth, as, grant.clientSecret));
  } else {
    throw new Error(`the client credentials grant of client ${grant.clientId} has neither a client secret nor a private key`);
  }
  ctx.log(`client credentials: client ${grant.clientId}, token endpoint authentication ${method}`);
  const tokens = await ctx.tokenRequest({ as, clientId: grant.clientId, auth, grantType: 'client_credentials', parameters: resourceAndScope(ctx), where: `the token endpoint of ${as.issuer}`, ...(dpop ? { dpop } : {}) });
  return { tokens, client: { clientId: grant.clientId, tokenEndpointAuthMethod: method, registration: 'pre-registered' } };
}

/**
 * The PEM key as a WebCrypto signing key for `algorithm` (default by the key's type). Throws a
 * message that names the problem, never the key.
 */
export async function importSigningKey(pem: string, algorithm: string | undefined): Promise<webcrypto.CryptoKey> {
  let der: Buffer;
  let type: string | undefined;
  let curve: string | undefined;
  try {
    const key = createPrivateKey(pem);
    type = key.asymmetricKeyType;
    curve = key.asymmetricKeyDetails?.namedCurve;
    der = key.export({ type: 'pkcs8', format: 'der' });
  } catch {
    throw new Error('the private key is not a PEM private key (PKCS#8, PKCS#1 or SEC1)');
  }
  const alg = algorithm ?? (type === 'rsa' ? 'RS256' : curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256');
  const params = importParameters(alg);
  if (!params) throw new Error(`unsupported signing algorithm ${JSON.stringify(alg)} (use one of ${SIGNING_ALGORITHMS.join(', ')})`);
  try {
    return await webcrypto.subtle.importKey('pkcs8', der, params, false, ['sign']);
  } catch {
    throw new Error(`the private key does not fit the signing algorithm ${alg}`);
  }
}

function importParameters(alg: string): webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | undefined {
  switch (alg) {
    case 'ES256':
      return { name: 'ECDSA', namedCurve: 'P-256' };
    case 'ES384':
      return { name: 'ECDSA', namedCurve: 'P-384' };
    case 'ES512':
      return { name: 'ECDSA', namedCurve: 'P-521' };
    case 'RS256':
      return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    case 'PS256':
      return { name: 'RSA-PSS', hash: 'SHA-256' };
    default:
      return undefined;
  }
}
