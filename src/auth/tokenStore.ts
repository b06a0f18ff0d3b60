// Where sign-in results live: tokens and the registered client, keyed by the resource (the MCP
// server) and the issuer (the authorization server), so a grant is never offered to another
// authorization server. The editor backs this with SecretStorage, the CLI with a 0600 file.
import type { StoredDpopKey } from './grants/dpop';

/** How the client got its client id. */
export type ClientRegistrationKind = 'pre-registered' | 'metadata-document' | 'dynamic';

/** The client as registered with one authorization server. */
export interface RegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** `client_secret_basic`, `client_secret_post`, `none`, or `private_key_jwt` (a client credentials grant with a key). */
  readonly tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';
  readonly registration: ClientRegistrationKind;
  /** The redirect URIs it was registered with (dynamic registration). */
  readonly redirectUris?: readonly string[];
}

/** What one sign-in left behind. Every string here except the scope is secret or identifying. */
/** How a machine grant obtains its token (grants/machineGrant.ts checks that its grants' kinds are these). */
export type MachineGrantKind = 'client-credentials' | 'enterprise-managed' | 'workload-identity';

export interface StoredGrant {
  readonly client: RegisteredClient;
  readonly accessToken?: string;
  readonly refreshToken?: string;
  /** Epoch milliseconds; undefined when the server gave no `expires_in`. */
  readonly expiresAt?: number;
  /** The granted scopes (space separated), as the token response or the request said. */
  readonly scope?: string;
  /** Epoch milliseconds the access token was obtained: its lifetime sets how early it is refreshed. */
  readonly obtainedAt?: number;
  /** `DPoP` for a token bound to `dpopKey` (RFC 9449); absent for a bearer token. */
  readonly tokenType?: 'DPoP';
  /** The key pair a DPoP-bound token is bound to (its private half is secret). */
  readonly dpopKey?: StoredDpopKey;
  /** How the token was obtained without a browser (absent: the authorization code flow). */
  readonly grantType?: MachineGrantKind;
}

export namespace StoredGrant {
  /** Every secret value a grant holds, for a redactor: tokens, the client secret, the DPoP private key. */
  export function secrets(grant: StoredGrant): string[] {
    return [grant.accessToken, grant.refreshToken, grant.client.clientSecret, grant.dpopKey?.privateJwk.d].filter((v): v is string => typeof v === 'string' && v.length > 0);
  }

  /** The `Authorization` value for the grant's access token: the DPoP scheme for a bound token (RFC 9449 §7.1), else Bearer. */
  export function authorization(grant: StoredGrant | undefined): string | undefined {
    return grant?.accessToken !== undefined ? `${grant.tokenType ?? 'Bearer'} ${grant.accessToken}` : undefined;
  }
}

export interface TokenKey {
  /** The canonical URI of the MCP server (the `resource` parameter). */
  readonly resource: string;
  /** The authorization server's issuer identifier. */
  readonly issuer: string;
}

export namespace TokenKey {
  /** One string for maps and file names. */
  export function toString(key: TokenKey): string {
    return JSON.stringify([key.resource, key.issuer]);
  }
}

export interface TokenStore {
  get(key: TokenKey): Promise<StoredGrant | undefined>;
  set(key: TokenKey, grant: StoredGrant): Promise<void>;
  delete(key: TokenKey): Promise<void>;
  /**
   * Runs `work` as the only refresh of this grant among everyone sharing the store (other
   * processes too, for the CLI's file): `work` reads the grant again, since another holder may
   * have refreshed it meanwhile, and stores a rotated refresh token before anyone can use the old one.
   */
  exclusive<T>(key: TokenKey, work: () => Promise<T>): Promise<T>;
}

/** Runs work one after another within this process: the `exclusive` of stores no other process shares. */
export class RefreshQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.catch(() => {});
    return result;
  }
}

/** A TokenStore in memory: tests, and the CLI without `--token-cache`. */
export class MemoryTokenStore implements TokenStore {
  private readonly grants = new Map<string, StoredGrant>();
  private readonly refreshes = new RefreshQueue();

  async get(key: TokenKey): Promise<StoredGrant | undefined> {
    return this.grants.get(TokenKey.toString(key));
  }

  async set(key: TokenKey, grant: StoredGrant): Promise<void> {
    this.grants.set(TokenKey.toString(key), grant);
  }

  async delete(key: TokenKey): Promise<void> {
    this.grants.delete(TokenKey.toString(key));
  }

  exclusive<T>(_key: TokenKey, work: () => Promise<T>): Promise<T> {
    return this.refreshes.run(work);
  }

  /** How many grants are held (tests check that a failed sign-in stored nothing). */
  get size(): number {
    return this.grants.size;
  }

  /** Every grant held, in no particular order. */
  all(): StoredGrant[] {
    return [...this.grants.values()];
  }
}
