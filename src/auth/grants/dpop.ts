// DPoP (RFC 9449, the MCP DPoP extension SEP-1932): tokens bound to a key pair this client holds.
// One ES256 key pair per grant, made at sign-in and stored with the token (SecretStorage, the
// CLI's token cache), so a refresh and every request of a later run prove the same key. A proof
// is a JWT signed by it for one request (method, URL without query, a fresh jti, the time, the
// server's latest nonce, and on resource requests the hash of the access token). The private key
// leaves this module only as the stored JWK and is never logged.
import { createHash, randomUUID, webcrypto } from 'node:crypto';
import type { AuthorizationServer } from '../oauth';

/** The one algorithm this client signs proofs with (every DPoP server must support a P-256 curve key by default). */
export const DPOP_ALGORITHM = 'ES256';

/** The key pair as stored with the grant: both halves as JWK (the private one holds `d`: secret). */
export interface StoredDpopKey {
  readonly privateJwk: webcrypto.JsonWebKey;
  readonly publicJwk: webcrypto.JsonWebKey;
}

/** `"auto"` (default): when the authorization server advertises ES256 proofs; `"off"`: never; `"required"`: refuse a server that does not. */
export type DpopSetting = 'auto' | 'off' | 'required';

/**
 * Whether a sign-in at `as` binds its token to a key. Throws (a message for an AuthError) when
 * DPoP is required and the server does not advertise it.
 */
export function usesDpop(setting: DpopSetting | undefined, as: AuthorizationServer): boolean {
  const offered = Array.isArray(as.dpop_signing_alg_values_supported) && as.dpop_signing_alg_values_supported.includes(DPOP_ALGORITHM);
  if (setting === 'off') return false;
  if (setting === 'required' && !offered) throw new Error(`the authorization server ${as.issuer} does not advertise DPoP with ${DPOP_ALGORITHM} (dpop_signing_alg_values_supported), and this server's configuration requires DPoP`);
  return offered;
}

/** The keys of grants in use, by their stored form. */
const loaded = new WeakMap<StoredDpopKey, Promise<DpopKey>>();

/** A key pair that signs DPoP proofs and remembers each server's latest nonce. */
export class DpopKey {
  /** The latest `DPoP-Nonce` per origin (RFC 9449 §8, §9). */
  private readonly nonces = new Map<string, string>();

  private constructor(
    private readonly privateKey: webcrypto.CryptoKey,
    readonly stored: StoredDpopKey,
  ) {}

  /** A new key pair, for a new grant. */
  static async generate(): Promise<DpopKey> {
    const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const [privateJwk, publicJwk] = await Promise.all([webcrypto.subtle.exportKey('jwk', pair.privateKey), webcrypto.subtle.exportKey('jwk', pair.publicKey)]);
    const key = new DpopKey(pair.privateKey, { privateJwk, publicJwk: publicPart(publicJwk) });
    loaded.set(key.stored, Promise.resolve(key));
    return key;
  }

  /** The key of a stored grant: one object per stored key, so the nonces it learnt serve every request of the grant. */
  static of(stored: StoredDpopKey): Promise<DpopKey> {
    let key = loaded.get(stored);
    if (!key) {
      key = webcrypto.subtle
        .importKey('jwk', stored.privateJwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
        .then((privateKey) => new DpopKey(privateKey, { privateJwk: stored.privateJwk, publicJwk: publicPart(stored.publicJwk) }));
      loaded.set(stored, key);
    }
    return key;
  }

  /** Notes a nonce a server sent (any response may carry a fresh one). */
  noteNonce(url: string | URL, nonce: string | null | undefined): void {
    if (nonce) this.nonces.set(new URL(url).origin, nonce);
  }

  /** A proof for one request; `accessToken` on requests to the resource (its hash goes in `ath`). */
  async proof(method: string, url: string | URL, accessToken?: string): Promise<string> {
    const target = new URL(url);
    const nonce = this.nonces.get(target.origin);
    const header = { typ: 'dpop+jwt', alg: DPOP_ALGORITHM, jwk: this.stored.publicJwk };
    const payload = {
      jti: randomUUID(),
      htm: method.toUpperCase(),
      // RFC 9449 §4.2: the URI without query and fragment.
      htu: `${target.origin}${target.pathname}`,
      iat: Math.floor(Date.now() / 1000),
      ...(nonce ? { nonce } : {}),
      ...(accessToken !== undefined ? { ath: base64url(createHash('sha256').update(accessToken, 'ascii').digest()) } : {}),
    };
    const input = `${base64url(Buffer.from(JSON.stringify(header)))}.${base64url(Buffer.from(JSON.stringify(payload)))}`;
    // WebCrypto's ECDSA signature is already the raw r||s form JWS wants.
    const signature = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.privateKey, Buffer.from(input));
    return `${input}.${base64url(Buffer.from(signature))}`;
  }
}

/**
 * A fetch for oauth4webapi's token requests that adds a proof to each POST to `tokenEndpoint`,
 * keeps the nonce every answer carries, and sends a request refused with `use_dpop_nonce` once
 * more with the nonce the server gave (RFC 9449 §8). Other requests pass through unchanged.
 */
export function dpopFetch(key: DpopKey, tokenEndpoint: string, inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== tokenEndpoint || (init?.method ?? 'GET').toUpperCase() !== 'POST') return inner(input, init);
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(init?.headers);
      headers.set('dpop', await key.proof('POST', url));
      const response = await inner(input, { ...init, headers });
      key.noteNonce(url, response.headers.get('dpop-nonce'));
      if (attempt > 0 || response.status !== 400 || !response.headers.get('dpop-nonce') || !(await isNonceError(response))) return response;
    }
  };
}

/** True for a token endpoint's `{"error":"use_dpop_nonce"}` (read from a copy: the response stays unread). */
async function isNonceError(response: Response): Promise<boolean> {
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return body.error === 'use_dpop_nonce';
  } catch {
    return false;
  }
}

/** The public members of an EC JWK (never `d`). */
function publicPart(jwk: webcrypto.JsonWebKey): webcrypto.JsonWebKey {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}
