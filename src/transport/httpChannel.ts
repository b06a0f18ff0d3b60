// The HTTP side both remote transports share: one fetch with same-origin redirects and a
// per-request AbortController, size-capped JSON bodies and SSE event streams (parsed by
// eventsource-parser), HTTP errors that name the status and the URL, and the counters.
// No `vscode` here, and never a header value in a log line or an error.
import type { EventSourceMessage } from 'eventsource-parser' with { 'resolution-mode': 'import' };
import { McpLocalError, errorMessage } from '../protocol/errors';
import { Emitter } from '../protocol/events';
import { HttpTransportStats, TransportCloseInfo, TransportCloseReason, TransportLog, TransportStats } from '../protocol/transport';
import { DEFAULT_MAX_MESSAGE_BYTES } from './lineDecoder';
import { formatByteLimit } from '../protocol/text';
import { authorizedHeaders } from './authorizedHeaders';
import { HttpRequestFn, HttpResponse, NodeHttpClient, withBody } from './nodeHttpClient';

/** What both HTTP transports are configured with. */
export interface HttpTransportOptions {
  /** The server's endpoint: an absolute http(s) URL. */
  readonly url: string;
  /** Sent with every request (for example `Authorization`). Values never appear in logs or errors. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Largest inbound message in bytes (a JSON body or one SSE event). Default 128 MiB, as for stdio. */
  readonly maxMessageBytes?: number;
  /**
   * How long to wait for response headers where no request timeout applies: notifications,
   * responses, GET streams and the legacy endpoint event. Default 30000 ms. Requests are timed
   * by the connection; when it gives up on one, the cancellation also ends its POST.
   */
  readonly connectTimeoutMs?: number;
  /** How long `close()` waits for the session's DELETE and for messages still being sent. Default 2000 ms. */
  readonly closeTimeoutMs?: number;
  /** Delay before re-opening a dropped stream when the server sent no `retry`; doubled per failed attempt. Default 1000 ms. */
  readonly reconnectDelayMs?: number;
  /**
   * The least delay before re-opening a stream, whatever the server's `retry` says (a `retry: 0`
   * would otherwise mean a reconnect storm). Default 500 ms.
   */
  readonly minReconnectDelayMs?: number;
  /** Cap of the doubled reconnect delay. Default 30000 ms. */
  readonly maxReconnectDelayMs?: number;
  /** Failed attempts in a row after which a dropped stream is given up. Default 5. */
  readonly maxReconnectAttempts?: number;
  /**
   * Requests POSTed at once; more wait their turn (notifications, responses and GET streams
   * never wait). Without a cap, a burst opens a connection per request. Default 64.
   */
  readonly maxConcurrentRequests?: number;
  /** A fetch to use instead of the transport's own keep-alive requests on Node's http/https (tests record or fail exchanges with it). */
  readonly fetch?: typeof fetch;
  /** Supplies `Authorization` per request and hears 401/403 challenges (MCP authorization). */
  readonly auth?: AuthProvider;
}

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

/** One message as the server sent it: parsed JSON and its size in bytes. */
export interface InboundMessage {
  readonly message: unknown;
  readonly bytes: number;
  /** The id of our request on whose response stream it came (a server's request caused by it); null when it came on the GET stream. */
  readonly relatedRequestId?: string | number | null;
}

type EventSourceModule = typeof import('eventsource-parser', { with: { 'resolution-mode': 'import' } });
let parserModule: Promise<EventSourceModule> | undefined;
/** eventsource-parser is ESM only; loaded once, on the first stream. */
function loadEventSourceParser(): Promise<EventSourceModule> {
  return (parserModule ??= import('eventsource-parser'));
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** Network error codes that mean the server cannot be reached at all (rather than one exchange failing). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** The least delay before a stream is opened again, whatever the server's `retry`. */
export const DEFAULT_MIN_RECONNECT_DELAY_MS = 500;
/** How much of an error body is quoted in an error message. */
const QUOTE_CHARS = 200;

/** An HTTP exchange in flight: its own AbortController, removed from the channel when done. */
export class Exchange {
  readonly controller = new AbortController();
  /** Set when we ended it on purpose (close, cancellation): its failure is not an error. */
  endedByUs = false;
  /**
   * Set while the exchange waits for a request slot: called with no argument when it gets one,
   * with the abort reason when it is aborted first. A hook rather than an abort listener: the
   * waits of a pipelined burst then add and remove no listener on the signal each.
   */
  waitingForSlot: ((abortReason?: unknown) => void) | undefined;
  constructor(readonly what: string) {}
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  abort(): void {
    this.endedByUs = true;
    this.end(new McpLocalError('closed', `${this.what}: aborted`));
  }
  /** Stops reading because of `error` (an oversize body, no answer in time): the failure stands. */
  fail(error: Error): void {
    this.end(error);
  }
  private end(reason: Error): void {
    this.controller.abort(reason);
    const waiting = this.waitingForSlot;
    this.waitingForSlot = undefined;
    waiting?.(reason);
  }
}

export interface FetchOptions {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Defaults to the channel's URL. */
  readonly url?: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Abort when no response headers arrived within this many ms. */
  readonly headersTimeoutMs?: number;
}

/** Handlers of one SSE stream. */
export interface EventStreamHandlers {
  /** An event with data. `event` is the type (undefined means `message`). */
  onEvent(event: EventSourceMessage): void;
  /** Every event id, including that of a priming event (an id and an empty data line). */
  onId?(id: string): void;
  onRetry?(ms: number): void;
}

/**
 * The HTTP plumbing of one transport: requests, bodies, counters and `http` log lines.
 * Every exchange has its own AbortController, kept in a set only while it runs, so nothing
 * grows over many requests; `abortAll()` ends them on close.
 */
export class HttpChannel {
  readonly url: URL;
  /** The URL as shown in logs and errors: without user name, password or fragment. */
  readonly displayUrl: string;
  readonly maxMessageBytes: number;
  readonly connectTimeoutMs: number;
  readonly closeTimeoutMs: number;
  private readonly requestFn: HttpRequestFn;
  private readonly baseHeaders: Readonly<Record<string, string>>;
  private readonly exchanges = new Set<Exchange>();
  /** Notifications and responses being POSTed: close() lets them finish briefly (cancellations must arrive). */
  private readonly outgoing = new Set<Promise<void>>();
  /** Ends the pending `sleep()`s early when the channel stops. */
  private readonly wakers = new Set<() => void>();
  private readonly maxConcurrentRequests: number;
  private requestSlotsUsed = 0;
  /** Whether the last request carried an `Authorization` from the auth provider (logged when it changes). */
  private sendsSignInAuthorization = false;
  /** Requests waiting for a slot, first come first served (an aborted one stays until skipped). */
  private readonly slotQueue: Exchange[] = [];

  readonly counters = { bytesSent: 0, bytesReceived: 0, messagesSent: 0, messagesReceived: 0, invalidMessages: 0, streamsOpened: 0, streamResumptions: 0 };
  private readonly statusCounts: Record<string, number> = {};
  startedAt: number | undefined;

  /** The transport's events; it exposes them as onMessage, onClose and onLog. */
  readonly messages = new Emitter<InboundMessage>((e) => this.listenerFailed('onMessage', e));
  readonly closes = new Emitter<TransportCloseInfo>((e) => this.listenerFailed('onClose', e));
  // A failing log listener cannot be reported through the log itself.
  readonly log = new Emitter<TransportLog>();

  constructor(readonly options: HttpTransportOptions) {
    this.url = parseEndpoint(options.url);
    this.displayUrl = displayUrl(this.url);
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 2000;
    const given = options.fetch;
    if (given) this.requestFn = (url, init) => given(url, { ...init, redirect: 'manual' });
    else {
      const client = new NodeHttpClient();
      this.requestFn = client.request;
      // The transport has closed (DELETE sent, streams aborted): its kept-alive sockets go too.
      this.closes.event(() => client.close());
    }
    this.baseHeaders = { ...(options.headers ?? {}) };
    this.maxConcurrentRequests = Math.max(1, options.maxConcurrentRequests ?? 64);
  }

  /**
   * Takes one of the request slots: undefined when one was free (the caller goes on at once, without
   * waiting a tick), else a promise of the slot that rejects with the exchange's abort reason when it
   * is aborted while waiting. Every slot taken must be given back with `releaseRequestSlot()`.
   */
  acquireRequestSlot(exchange: Exchange): Promise<void> | undefined {
    if (this.requestSlotsUsed < this.maxConcurrentRequests) {
      this.requestSlotsUsed++;
      return undefined;
    }
    if (exchange.signal.aborted) return Promise.reject(exchange.signal.reason);
    return new Promise<void>((resolve, reject) => {
      exchange.waitingForSlot = (abortReason) => (abortReason === undefined ? resolve() : reject(abortReason));
      this.slotQueue.push(exchange);
    });
  }

  /** Hands the slot to the next waiting request, if any; one aborted while waiting is skipped. */
  releaseRequestSlot(): void {
    for (let next = this.slotQueue.shift(); next; next = this.slotQueue.shift()) {
      const grant = next.waitingForSlot;
      if (!grant) continue;
      next.waitingForSlot = undefined;
      grant();
      return;
    }
    this.requestSlotsUsed--;
  }

  /** Remembers a message being sent until it settles; returns it. */
  track(sent: Promise<void>): Promise<void> {
    this.outgoing.add(sent);
    const forget = () => void this.outgoing.delete(sent);
    sent.then(forget, forget);
    return sent;
  }

  /** Waits until the messages being sent settled, at most `closeTimeoutMs`. */
  async drainOutgoing(): Promise<void> {
    if (this.outgoing.size) await Promise.race([Promise.allSettled([...this.outgoing]), this.sleep(this.closeTimeoutMs)]);
  }

  disposeEvents(): void {
    this.messages.dispose();
    this.closes.dispose();
    this.log.dispose();
  }

  private listenerFailed(event: string, error: unknown): void {
    this.logHttp(`an ${event} listener threw: ${errorMessage(error)}`, 'warn');
  }

  /**
   * Names (never values) of the configured headers, for the log. An `Authorization` from sign-in
   * is not among them: it is logged when the provider first supplies one (`fetchAuthorized`).
   */
  headerNames(): string {
    const names = Object.keys(this.baseHeaders);
    return names.length ? names.join(', ') : 'none';
  }

  /** Headers of a request: the configured ones, then the protocol's own. */
  headers(own: Record<string, string | undefined>): Record<string, string> {
    const out: Record<string, string> = { ...this.baseHeaders };
    for (const name in own) {
      const value = own[name];
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  begin(what: string): Exchange {
    const exchange = new Exchange(what);
    this.exchanges.add(exchange);
    return exchange;
  }

  end(exchange: Exchange): void {
    this.exchanges.delete(exchange);
  }

  /** Aborts every exchange in flight and ends every `sleep()`. */
  stop(): void {
    for (const exchange of this.exchanges) exchange.abort();
    this.exchanges.clear();
    // Each waiting request was rejected by its abort.
    this.slotQueue.length = 0;
    for (const wake of [...this.wakers]) wake();
  }

  /** Waits `ms` (an unref'd timer), or less when the channel stops. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wakers.add(done);
    });
  }

  /**
   * Delay before re-opening a dropped stream: the server's `retry` when it sent one (never less
   * than `minReconnectDelayMs`), doubled per failed attempt. With the attempt cap this bounds the
   * GETs a server can draw: at most one per minimum delay, and none once given up.
   */
  reconnectDelay(retryMs: number | undefined, failures: number): number {
    const base = Math.max(retryMs ?? this.options.reconnectDelayMs ?? 1000, this.options.minReconnectDelayMs ?? DEFAULT_MIN_RECONNECT_DELAY_MS);
    return Math.min(base * 2 ** failures, Math.max(base, this.options.maxReconnectDelayMs ?? 30_000));
  }

  /** Failed attempts in a row after which a dropped stream is given up. */
  get maxReconnectAttempts(): number {
    return this.options.maxReconnectAttempts ?? 5;
  }

  /** How many exchanges are in flight (for tests of growth). */
  get inFlight(): number {
    return this.exchanges.size;
  }

  stats(transport: HttpTransportStats['transport'], sessionId: string | undefined, url = this.displayUrl): TransportStats {
    const c = this.counters;
    return {
      bytesSent: c.bytesSent,
      bytesReceived: c.bytesReceived,
      messagesSent: c.messagesSent,
      messagesReceived: c.messagesReceived,
      noiseLines: c.invalidMessages,
      startedAt: this.startedAt,
      http: { url, transport, ...(sessionId !== undefined ? { sessionId } : {}), statusCounts: { ...this.statusCounts }, streamsOpened: c.streamsOpened, streamResumptions: c.streamResumptions },
    };
  }

  logHttp(text: string, level: TransportLog['level'] = 'info'): void {
    this.log.fire({ kind: 'http', level, text });
  }

  /**
   * Fetches with `redirect: 'manual'` and follows a redirect only within the origin (307/308
   * for any method, 301/302/303 only for GET: the others would turn a POST into a GET).
   * Rejects with McpLocalError('transport') naming the URL for a network failure, a timeout or
   * a redirect that is not followed; with the exchange's abort reason when it was aborted.
   */
  fetch(exchange: Exchange, options: FetchOptions): Promise<HttpResponse> {
    // Not async itself: without auth the request's promise is fetchFollowing's own, one layer less per request.
    const auth = this.options.auth;
    return auth ? this.fetchAuthorized(exchange, options, auth) : this.fetchFollowing(exchange, options);
  }

  /**
   * `fetch()` with the provider's `Authorization`, sent once more when a 401/403 challenge is
   * answered `retry`; twice when the first try carried none (a new session: the stored token it
   * then finds may be refused in turn, and is refreshed rather than ending the run).
   */
  private async fetchAuthorized(exchange: Exchange, options: FetchOptions, auth: AuthProvider): Promise<HttpResponse> {
    const url = (options.url ?? this.url).href;
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
      let response = await this.fetchFollowing(exchange, headers === options.headers ? options : { ...options, headers });
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
      const verdict = await auth.onChallenge({ status: response.status as 401 | 403, url: this.displayUrl, ...(challenge ? { wwwAuthenticate: challenge } : {}), ...(value !== undefined ? { refused: value } : {}), ...(body ? { body } : {}) });
      if (verdict !== 'retry' || exchange.signal.aborted) return response;
      await discard(response);
      this.logHttp(`${options.method} answered ${response.status}: sent again with renewed authorization`);
      tried += 1;
    }
  }

  private async fetchFollowing(exchange: Exchange, options: FetchOptions): Promise<HttpResponse> {
    let url = options.url ?? this.url;
    const body = options.body;
    if (body !== undefined) this.counters.bytesSent += Buffer.byteLength(body);
    let timer: NodeJS.Timeout | undefined;
    if (options.headersTimeoutMs !== undefined && options.headersTimeoutMs > 0) {
      const ms = options.headersTimeoutMs;
      timer = setTimeout(() => exchange.fail(new McpLocalError('transport', `${options.method} ${displayUrl(url)}: no answer within ${ms} ms`, { url: displayUrl(url), timeoutMs: ms })), ms);
      timer.unref();
    }
    try {
      for (let hop = 0; ; hop++) {
        let response: HttpResponse;
        try {
          response = await this.requestFn(url, { method: options.method, headers: options.headers, body, signal: exchange.signal });
        } catch (error) {
          throw this.networkError(exchange, options.method, url, error);
        }
        this.count(response.status);
        if (!REDIRECT_STATUSES.has(response.status)) return response;
        const target = redirectTarget(response, url);
        await discard(response);
        const where = `${options.method} ${displayUrl(url)}`;
        if (!target) throw new McpLocalError('transport', `${where} answered a redirect (HTTP ${response.status}) without a valid Location`, { url: displayUrl(url), status: response.status });
        if (target.origin !== this.url.origin || target.username !== url.username || target.password !== url.password) {
          throw new McpLocalError('transport', `${where} was redirected to another origin (${target.origin}); redirects are followed only within ${this.url.origin}`, { url: displayUrl(url), status: response.status, redirect: target.origin });
        }
        const keepsMethod = response.status === 307 || response.status === 308 || options.method === 'GET';
        if (!keepsMethod) throw new McpLocalError('transport', `${where} was redirected with HTTP ${response.status}, which would turn the ${options.method} into a GET; only 307 and 308 are followed`, { url: displayUrl(url), status: response.status });
        if (hop + 1 >= MAX_REDIRECTS) throw new McpLocalError('transport', `${where}: more than ${MAX_REDIRECTS} redirects`, { url: displayUrl(url), status: response.status });
        this.logHttp(`${where} redirected (HTTP ${response.status}) to ${displayUrl(target)}`, 'debug');
        url = target;
      }
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  private count(status: number): void {
    const key = String(status);
    this.statusCounts[key] = (this.statusCounts[key] ?? 0) + 1;
  }

  /** The error for a fetch that threw: our own abort reason, or a network failure naming the URL. */
  networkError(exchange: Exchange, method: string, url: URL, error: unknown): Error {
    if (exchange.signal.aborted) {
      const reason: unknown = exchange.signal.reason;
      return reason instanceof Error ? reason : new McpLocalError('closed', `${method} ${displayUrl(url)}: aborted`);
    }
    // fetch wraps the socket's error as its cause; Node's http gives it as it is.
    const failure = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
    const cause = failure?.cause ?? failure;
    const code = typeof cause?.code === 'string' ? cause.code : undefined;
    const detail = describeNetworkCause(code, typeof cause?.message === 'string' ? cause.message : errorMessage(error), url);
    return new McpLocalError('transport', `${method} ${displayUrl(url)}: ${detail}`, { url: displayUrl(url), detail, ...(code ? { code } : {}), unreachable: code !== undefined && UNREACHABLE_CODES.has(code) });
  }

  /**
   * The error for a response with a status that is not OK: `label` (the HTTP method, maybe with
   * what was sent), the URL, the status, and the server's own message when it sent a JSON-RPC
   * error or plain text (quoted briefly).
   */
  async statusError(label: string, response: HttpResponse, url: URL = this.url): Promise<McpLocalError> {
    return this.statusErrorFrom(label, response, await this.readErrorBody(response), url);
  }

  /**
   * Reads the start of an error response's body once, at most `limit` bytes (the rest is not
   * waited for, nor kept): undefined for a body that is neither JSON nor plain text (HTML is not
   * quoted), which is dropped unread.
   */
  async readErrorBody(response: HttpResponse, limit = QUOTED_BODY_LIMIT): Promise<ErrorBody | undefined> {
    const type = HttpChannel.mediaType(response);
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
        if (bytes + value.byteLength > limit) {
          chunks.push(value.subarray(0, limit - bytes));
          this.counters.bytesReceived += value.byteLength;
          bytes = limit;
          cut = true;
          break;
        }
        chunks.push(value);
        bytes += value.byteLength;
        this.counters.bytesReceived += value.byteLength;
      }
    } catch {
      // what arrived is enough
    } finally {
      void reader.cancel().catch(() => {});
    }
    return { type, text: Buffer.concat(chunks).toString('utf8'), cut };
  }

  /** `statusError()` for a body already read with `readErrorBody()`. */
  statusErrorFrom(label: string, response: HttpResponse, body: ErrorBody | undefined, url: URL = this.url): McpLocalError {
    const said = body && briefBody(body);
    const text = `${label} ${displayUrl(url)} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${said ? `: ${said.text}${said.jsonRpcCode !== undefined ? ` (JSON-RPC error ${said.jsonRpcCode})` : ''}` : ''}`;
    return new McpLocalError('transport', text, {
      url: displayUrl(url),
      status: response.status,
      ...(said ? { serverMessage: said.text } : {}),
      ...(said?.jsonRpcCode !== undefined ? { jsonRpcCode: said.jsonRpcCode } : {}),
    });
  }

  /** The media type of a response, lower case, without parameters. */
  static mediaType(response: HttpResponse): string {
    return (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  }

  wrongContentType(label: string, response: HttpResponse, expected: string): McpLocalError {
    const type = response.headers.get('content-type') ?? '(none)';
    return new McpLocalError('transport', `${label} ${this.displayUrl} answered HTTP ${response.status} with content type ${quote(type)}; expected ${expected}`, { url: this.displayUrl, status: response.status, contentType: type });
  }

  /**
   * Reads a JSON body whole, refusing more than `maxMessageBytes` (the read stops there), and
   * parses it once. Rejects with McpLocalError('transport') for an oversize or non-JSON body.
   */
  async readJson(exchange: Exchange, label: string, response: HttpResponse): Promise<InboundMessage> {
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const body = response.body;
    if (body) {
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
          this.counters.bytesReceived += value.byteLength;
          if (bytes > this.maxMessageBytes) {
            const text = `${label} ${this.displayUrl}: the answer is larger than the ${formatByteLimit(this.maxMessageBytes)} limit; dropped`;
            const error = new McpLocalError('transport', text, { url: this.displayUrl, limitBytes: this.maxMessageBytes });
            exchange.fail(error);
            this.log.fire({ kind: 'oversize', text });
            throw error;
          }
          chunks.push(value);
        }
      } catch (error) {
        throw McpLocalError.is(error) ? error : this.networkError(exchange, label, this.url, error);
      } finally {
        reader.releaseLock();
      }
    }
    // The usual small answer arrives in one chunk: decoded where it lies, not copied first.
    const text = chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength).toString('utf8') : Buffer.concat(chunks, bytes).toString('utf8');
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.counters.invalidMessages++;
      throw new McpLocalError('transport', `${label} ${this.displayUrl} answered with a body that is not JSON (${(error as Error).message}): ${quote(text.slice(0, QUOTE_CHARS))}`, { url: this.displayUrl, status: response.status });
    }
    if (!isJsonRpcPayload(message)) {
      this.counters.invalidMessages++;
      throw new McpLocalError('transport', `${label} ${this.displayUrl} answered with JSON that is not a JSON-RPC message: ${quote(text.slice(0, QUOTE_CHARS))}`, { url: this.displayUrl, status: response.status });
    }
    this.counters.messagesReceived += Array.isArray(message) ? message.length : 1;
    return { message, bytes };
  }

  /**
   * Reads an SSE body to its end, calling the handlers per event. Resolves when the stream
   * ended; rejects with the exchange's abort reason, a network error, or an oversize event
   * (McpLocalError('transport'), also logged as `oversize`).
   */
  async readEvents(exchange: Exchange, what: string, response: HttpResponse, handlers: EventStreamHandlers): Promise<void> {
    const { createParser } = await loadEventSourceParser();
    let oversize = false;
    const limit = this.maxMessageBytes;
    const parser = createParser({
      onEvent: (event) => {
        // eventsource-parser 3 (the line that runs on Node 20) reports ids with their event; the
        // priming event of a resumable stream has an empty data line, so it is reported too.
        if (event.id !== undefined) handlers.onId?.(event.id);
        // A UTF-8 byte is at least one character: only a long event needs its bytes counted.
        if (event.data.length * 3 > limit && Buffer.byteLength(event.data) > limit) {
          oversize = true;
          return;
        }
        handlers.onEvent(event);
      },
      onRetry: handlers.onRetry,
      // Unknown fields and bad `retry` values are ignored as the SSE standard says; only the cap matters.
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') oversize = true;
      },
      maxBufferSize: limit,
    });
    const decoder = new TextDecoder('utf-8');
    const body = response.body;
    if (!body) return;
    const reader = body.getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw this.networkError(exchange, what, this.url, error);
        }
        if (chunk.done) {
          const rest = decoder.decode();
          if (rest) parser.feed(rest);
          return;
        }
        this.counters.bytesReceived += chunk.value.byteLength;
        parser.feed(decoder.decode(chunk.value, { stream: true }));
        if (oversize) {
          const text = `${what}: an event from ${this.displayUrl} is larger than the ${formatByteLimit(limit)} limit; the stream was closed`;
          const error = new McpLocalError('transport', text, { url: this.displayUrl, limitBytes: limit });
          exchange.fail(error);
          this.log.fire({ kind: 'oversize', text });
          throw error;
        }
      }
    } finally {
      reader.releaseLock();
    }
  }

  /**
   * Parses one SSE `data` as a JSON-RPC message. Returns undefined (and logs it) when it is not
   * one: a bad event is skipped, it does not end the stream.
   */
  parseEventData(what: string, data: string): InboundMessage | undefined {
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch (error) {
      this.counters.invalidMessages++;
      this.log.fire({ kind: 'invalid-json', text: `${what}: skipped an event that is not JSON (${(error as Error).message}): ${quote(data.slice(0, QUOTE_CHARS))}` });
      return undefined;
    }
    if (!isJsonRpcPayload(message)) {
      this.counters.invalidMessages++;
      this.log.fire({ kind: 'invalid-json', text: `${what}: skipped an event that is not a JSON-RPC message: ${quote(data.slice(0, QUOTE_CHARS))}` });
      return undefined;
    }
    this.counters.messagesReceived += Array.isArray(message) ? message.length : 1;
    return { message, bytes: Buffer.byteLength(data) };
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

/** The close reason for a status that is not OK: `authorization-required` when it demands authorization. */
export function statusCloseReason(response: HttpResponse, url: string, message: string): TransportCloseReason {
  if (demandsAuthorization(response)) {
    const challenge = response.headers.get('www-authenticate');
    return { kind: 'authorization-required', status: response.status as 401 | 403, url, ...(challenge ? { wwwAuthenticate: challenge } : {}) };
  }
  return { kind: 'http-status', status: response.status, url, message };
}

/** True for a JSON-RPC message object, or a non-empty array of them (a batch). */
export function isJsonRpcPayload(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isJsonRpcObject);
  return isJsonRpcObject(value);
}

function isJsonRpcObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

/** True when `payload` holds the response (result or error) to request `id`. */
export function answers(payload: unknown, id: string | number): boolean {
  if (Array.isArray(payload)) return payload.some((m) => answers(m, id));
  const m = payload as { id?: unknown; method?: unknown };
  return m.id === id && m.method === undefined;
}

function parseEndpoint(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new McpLocalError('usage', `not a valid URL: ${quote(raw.slice(0, QUOTE_CHARS))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpLocalError('usage', `a remote server needs an http or https URL, not ${url.protocol}`);
  return url;
}

/** A URL for logs and errors: no user name, password or fragment. */
export function displayUrl(url: URL): string {
  if (!url.username && !url.password && !url.hash) return url.href;
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  shown.hash = '';
  return shown.href;
}

function redirectTarget(response: HttpResponse, from: URL): URL | undefined {
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
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

/** A copy of `headers` without `name` in any letter case (the provider's value replaces a configured one). */
/** True when a `WWW-Authenticate` asks for a (new) DPoP nonce: the DPoP scheme with `error="use_dpop_nonce"` (RFC 9449 §9). */
export function asksForDpopNonce(wwwAuthenticate: string | undefined): boolean {
  return !!wwwAuthenticate && /(^|[\s,])DPoP\s(.*[\s,])?error\s*=\s*"?use_dpop_nonce\b/i.test(wwwAuthenticate);
}

/** Drops a response body we do not read, so its connection goes back to the pool. */
export async function discard(response: HttpResponse): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // already gone
  }
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
const QUOTED_BODY_LIMIT = 16 * 1024;

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

function quote(text: string): string {
  return JSON.stringify(oneLine(text));
}
