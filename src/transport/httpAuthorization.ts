// MCP authorization on the HTTP transports: the provider's `Authorization` (and DPoP proof) on
// each request, a 401/403 challenge answered by the provider, a request sent once more when it
// says `retry`, and a DPoP nonce retry (RFC 9449 §9). Header values never reach a log or error.
import type { TransportCloseReason } from '../protocol/transport';
import { authorizedHeaders } from './authorizedHeaders';
import { discard } from './httpErrors';
import type { Exchange } from './httpExchange';
import { HttpResponse, withBody } from './nodeHttpClient';

/** A 401 or 403 from the server, as an auth provider is told about it. */
export interface AuthChallenge {
  readonly status: 401 | 403;
  /** The endpoint that answered, as shown in logs. */
  readonly url: string;
  /** The `WWW-Authenticate` header, when the server sent one. */
  readonly wwwAuthenticate?: string;
  /** The `Authorization` value the refused request carried, so a provider can tell a token renewed meanwhile. Secret: compare, never log. */
  readonly refused?: string;
  /** The start of a 401's body (at most CHALLENGE_BODY_BYTES, decoded), for a message quoting the server. */
  readonly body?: string;
}

/**
 * Authorization for the HTTP transports. `authorization()` gives the header value for each
 * request (undefined: send none). On 401/403 the transport asks `onChallenge`: `retry` means new
 * credentials are ready (a refresh, or a sign-in the host allowed) and the request is sent once
 * more; `fail` closes the transport with `authorization-required`. Values never appear in logs.
 */
export interface AuthProvider {
  authorization(): Promise<string | undefined>;
  onChallenge(challenge: AuthChallenge): Promise<'retry' | 'fail'>;
  /** The `DPoP` header (RFC 9449 §7) for a request carrying `authorization`, when its token is bound to a key; undefined otherwise. */
  proof?(request: { readonly method: string; readonly url: string }, authorization: string): Promise<string | undefined>;
  /** A `DPoP-Nonce` the server sent (RFC 9449 §9), for the next proofs. */
  noteNonce?(url: string, nonce: string): void;
}

/** A request as the authorized fetch sends it (the channel's FetchOptions). */
export interface AuthorizedRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url?: URL;
  readonly headers: Readonly<Record<string, string>>;
}

/** The requests of one channel with a sign-in: what the channel's fetch does when it has an auth provider. */
export class AuthorizedFetch<Options extends AuthorizedRequest> {
  /** Whether the last request carried an `Authorization` from the auth provider (logged when it changes). */
  private sendsSignInAuthorization = false;

  constructor(
    private readonly auth: AuthProvider,
    /** The endpoint, and how it is shown in logs. */
    private readonly endpoint: { readonly url: URL; readonly displayUrl: string },
    /** Sends one request (following redirects). */
    private readonly send: (exchange: Exchange, options: Options) => Promise<HttpResponse>,
    private readonly logHttp: (text: string) => void,
  ) {}

  /**
   * Sends with the provider's `Authorization`, once more when a 401/403 challenge is answered
   * `retry`; twice when the first try carried none (a new session: the stored token it then
   * finds may be refused in turn, and is refreshed rather than ending the run).
   */
  async fetch(exchange: Exchange, options: Options): Promise<HttpResponse> {
    const auth = this.auth;
    const url = (options.url ?? this.endpoint.url).href;
    let nonceRetried = false;
    let tries = 1;
    for (let tried = 0; ; ) {
      const value = await auth.authorization();
      if (tried === 0 && value === undefined) tries = 2;
      const proof = value !== undefined ? await auth.proof?.({ method: options.method, url }, value) : undefined;
      const headers = authorizedHeaders(options.headers, value, proof);
      if ((value !== undefined) !== this.sendsSignInAuthorization) {
        this.sendsSignInAuthorization = value !== undefined;
        this.logHttp(value !== undefined ? 'requests carry Authorization from sign-in' : 'requests carry no Authorization from sign-in (no token)');
      }
      let response = await this.send(exchange, headers === options.headers ? options : { ...options, headers });
      const nonce = proof !== undefined ? response.headers.get('dpop-nonce') : null;
      if (nonce) auth.noteNonce?.(url, nonce);
      const challenge = response.headers.get('www-authenticate');
      // RFC 9449 §9: a proof without the server's current nonce is sent once more with it; this retry is the nonce's own.
      if (response.status === 401 && nonce && !nonceRetried && asksForDpopNonce(challenge ?? undefined)) {
        nonceRetried = true;
        await discard(response);
        this.logHttp(`${options.method} answered 401 use_dpop_nonce: sent again with the server's DPoP nonce`);
        continue;
      }
      if ((response.status !== 401 && response.status !== 403) || tried >= tries) return response;
      let body: string | undefined;
      if (response.status === 401) ({ response, text: body } = await readChallengeBody(response));
      const verdict = await auth.onChallenge({ status: response.status as 401 | 403, url: this.endpoint.displayUrl, ...(challenge ? { wwwAuthenticate: challenge } : {}), ...(value !== undefined ? { refused: value } : {}), ...(body ? { body } : {}) });
      if (verdict !== 'retry' || exchange.signal.aborted) return response;
      await discard(response);
      this.logHttp(`${options.method} answered ${response.status}: sent again with renewed authorization`);
      tried += 1;
    }
  }
}

/**
 * True for an answer that asks for (other) credentials: a 401, or a 403 with a challenge
 * (`insufficient_scope`). A 403 without one is a refusal (the server's policy, an origin or host
 * check): asking for sign-in cannot help, so it fails like any other status, in the server's words.
 */
export function demandsAuthorization(response: HttpResponse): boolean {
  return response.status === 401 || (response.status === 403 && response.headers.has('www-authenticate'));
}

/** The close reason for a status that is not OK: `authorization-required` when it demands authorization. */
export function statusCloseReason(response: HttpResponse, url: string, message: string): TransportCloseReason {
  if (demandsAuthorization(response)) {
    const challenge = response.headers.get('www-authenticate');
    return { kind: 'authorization-required', status: response.status as 401 | 403, url, ...(challenge ? { wwwAuthenticate: challenge } : {}) };
  }
  return { kind: 'http-status', status: response.status, url, message };
}

/** True when a `WWW-Authenticate` asks for a (new) DPoP nonce: the DPoP scheme with `error="use_dpop_nonce"` (RFC 9449 §9). */
export function asksForDpopNonce(wwwAuthenticate: string | undefined): boolean {
  return !!wwwAuthenticate && /(^|[\s,])DPoP\s(.*[\s,])?error\s*=\s*"?use_dpop_nonce\b/i.test(wwwAuthenticate);
}

/** How much of a 401's body is read for the auth provider: enough for a server's one-line reason. */
const CHALLENGE_BODY_BYTES = 4096;

/**
 * The start of a 401's body, read once and at most CHALLENGE_BODY_BYTES (the rest is dropped
 * unread), and a response standing in for the consumed one with that start as its body.
 */
async function readChallengeBody(response: HttpResponse): Promise<{ response: HttpResponse; text: string }> {
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (reader && size < CHALLENGE_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body that breaks off is quoted as far as it came.
  } finally {
    await reader?.cancel().catch(() => {});
  }
  const text = Buffer.concat(chunks).subarray(0, CHALLENGE_BODY_BYTES).toString('utf8');
  return { response: withBody(response, text), text };
}
