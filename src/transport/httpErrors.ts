// HTTP failures in words: a network error by its errno or TLS code, a status with the server's
// own message quoted briefly, a wrong content type; every one names the URL as shown in logs
// (no user name, password or fragment) and never a header value.
import { McpLocalError, errorMessage } from '../protocol/errors';
import type { HttpResponse } from './nodeHttpClient';

/** How much of an error body is quoted in an error message. */
export const QUOTE_CHARS = 200;
/** Network error codes that mean the server cannot be reached at all (rather than one exchange failing). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** A URL for logs and errors: no user name, password or fragment. */
export function displayUrl(url: URL): string {
  if (!url.username && !url.password && !url.hash) return url.href;
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  shown.hash = '';
  return shown.href;
}

/** The media type of a response, lower case, without parameters. */
export function mediaType(response: HttpResponse): string {
  return (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

/** A network failure naming the URL and the cause in words, with `unreachable` set when the server cannot be reached at all. */
export function networkFailure(method: string, url: URL, error: unknown): McpLocalError<'transport'> {
  // fetch wraps the socket's error as its cause; Node's http gives it as it is.
  const failure = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  const cause = failure?.cause ?? failure;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const detail = describeNetworkCause(code, typeof cause?.message === 'string' ? cause.message : errorMessage(error), url);
  return new McpLocalError('transport', `${method} ${displayUrl(url)}: ${detail}`, { url: displayUrl(url), detail, ...(code ? { code } : {}), unreachable: code !== undefined && UNREACHABLE_CODES.has(code) });
}

function describeNetworkCause(code: string | undefined, message: string, url: URL): string {
  const tls = describeTlsFailure(code === 'EPROTO' ? opensslReasonCode(message) ?? code : code, url);
  if (tls) return tls;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found (${code})`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `the connection was closed by the server (${code})`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `timed out (${code})`;
    default:
      return code ? `${message} (${code})` : message;
  }
}

/**
 * Node's http client reports some handshake failures as a socket `EPROTO` whose message holds
 * OpenSSL's reason ("…:ssl3_get_record:wrong version number:…"); fetch gave the reason as the code.
 * The reason as that code, or undefined.
 */
function opensslReasonCode(message: string): string | undefined {
  const reason = /:SSL routines:[^:]*:([a-z ]+):/i.exec(message)?.[1];
  return reason ? `ERR_SSL_${reason.trim().toUpperCase().replace(/ /g, '_')}` : undefined;
}

/** Words for certificate failures, by Node's (OpenSSL's) error code. */
const CERTIFICATE_PROBLEMS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed, and nothing this system trusts vouches for it',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in a self-signed certificate this system does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it was issued by an authority this system does not know (or the server does not send the intermediate certificates)',
  UNABLE_TO_GET_ISSUER_CERT: 'it was issued by an authority this system does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it was issued by an authority this system does not know (or the server does not send the intermediate certificates)',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet (is the clock right?)',
  CERT_REVOKED: 'it was revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it was issued for another host name',
  CERT_SIGNATURE_FAILURE: 'its signature is invalid',
  CERT_UNTRUSTED: 'it is not trusted',
};

/**
 * A TLS failure in words: an https URL to a port that speaks plain HTTP (OpenSSL's "wrong version
 * number"), or a certificate refused, naming the host and why. Undefined for other failures.
 */
function describeTlsFailure(code: string | undefined, url: URL): string | undefined {
  if (!code) return undefined;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_HTTP_REQUEST' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
    const plain = new URL(url.href);
    plain.protocol = 'http:';
    plain.username = '';
    plain.password = '';
    plain.hash = '';
    return `${url.host} does not speak TLS (https) on this port (${code}); if the server serves plain HTTP there, use ${plain.href}`;
  }
  const problem = CERTIFICATE_PROBLEMS[code];
  return problem ? `the TLS certificate of ${url.host} was refused: ${problem} (${code})` : undefined;
}

/** The start of an error body, read once: its media type, text, and whether the body went on beyond it. */
export interface ErrorBody {
  readonly type: string;
  readonly text: string;
  readonly cut: boolean;
}

/** The most of an error body that is read when it may be a JSON-RPC error answer (it fits with room to spare). */
export const ERROR_BODY_LIMIT = 1024 * 1024;
/** The most of an error body that is read only to quote the server's words. */
export const QUOTED_BODY_LIMIT = 16 * 1024;

/**
 * Reads the start of an error response's body once, at most `limit` bytes (the rest is not
 * waited for, nor kept): undefined for a body that is neither JSON nor plain text (HTML is not
 * quoted), which is dropped unread. `received` hears every chunk's size, for the counters.
 */
export async function readErrorBody(response: HttpResponse, limit: number, received: (bytes: number) => void): Promise<ErrorBody | undefined> {
  const type = mediaType(response);
  if (type !== 'application/json' && type !== 'text/plain') {
    await discard(response);
    return undefined;
  }
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let cut = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received(value.byteLength);
      if (bytes + value.byteLength > limit) {
        chunks.push(value.subarray(0, limit - bytes));
        bytes = limit;
        cut = true;
        break;
      }
      chunks.push(value);
      bytes += value.byteLength;
    }
  } catch {
    // what arrived is enough
  } finally {
    void reader.cancel().catch(() => {});
  }
  return { type, text: Buffer.concat(chunks).toString('utf8'), cut };
}

/**
 * The error for a response with a status that is not OK: `label` (the HTTP method, maybe with
 * what was sent), the URL, the status, and the server's own message when it sent a JSON-RPC
 * error or plain text (quoted briefly).
 */
export function statusFailure(label: string, response: HttpResponse, body: ErrorBody | undefined, url: URL): McpLocalError<'transport'> {
  const said = body && briefBody(body);
  const text = `${label} ${displayUrl(url)} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${said ? `: ${said.text}${said.jsonRpcCode !== undefined ? ` (JSON-RPC error ${said.jsonRpcCode})` : ''}` : ''}`;
  return new McpLocalError('transport', text, {
    url: displayUrl(url),
    status: response.status,
    ...(said ? { serverMessage: said.text } : {}),
    ...(said?.jsonRpcCode !== undefined ? { jsonRpcCode: said.jsonRpcCode } : {}),
  });
}

/** What the server said in an error body, briefly: a JSON-RPC error's message (and code), or plain text. */
function briefBody(body: ErrorBody): { text: string; jsonRpcCode?: number } | undefined {
  if (body.type === 'application/json' && !body.cut) {
    try {
      const error = (JSON.parse(body.text) as { error?: { message?: unknown; code?: unknown } }).error;
      if (typeof error?.message === 'string') return { text: oneLine(error.message), ...(typeof error.code === 'number' ? { jsonRpcCode: error.code } : {}) };
    } catch {
      // not JSON after all: quoted as text
    }
  }
  return body.text.trim() ? { text: oneLine(body.text) } : undefined;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat;
}

/** `text` on one line, cut to QUOTE_CHARS, in quotes: a server's words inside our message. */
export function quote(text: string): string {
  return JSON.stringify(oneLine(text));
}

/** Drops a response body we do not read, so its connection goes back to the pool. */
export async function discard(response: HttpResponse): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // already gone
  }
}
