// The HTTP side both remote transports share: one fetch per exchange with a per-request
// AbortController, the request slots, the counters and `http` log lines. Its parts live beside it:
// request slots (requestSlots.ts), redirects (httpRedirects.ts), sign-in (httpAuthorization.ts),
// bodies and SSE events (httpBodies.ts), error wording (httpErrors.ts).
// No `vscode` here, and never a header value in a log line or an error.
import { McpLocalError, errorMessage } from '../protocol/errors';
import { Emitter } from '../protocol/events';
import { HttpTransportStats, TransportCloseInfo, TransportLog, TransportStats } from '../protocol/transport';
import { DEFAULT_MAX_MESSAGE_BYTES } from './lineDecoder';
import { AuthorizedFetch, AuthProvider } from './httpAuthorization';
import { EventStreamHandlers, InboundMessage, parseEventData, readEventStream, readJsonBody } from './httpBodies';
import { discard, displayUrl, ErrorBody, mediaType, networkFailure, QUOTE_CHARS, QUOTED_BODY_LIMIT, quote, readErrorBody, statusFailure } from './httpErrors';
import { Exchange } from './httpExchange';
import { isRedirect, redirectHop } from './httpRedirects';
import { RequestSlots } from './requestSlots';
import { HttpRequestFn, HttpResponse, NodeHttpClient } from './nodeHttpClient';

// The channel's parts, named here for the transports and the layers above (one import path).
export type { AuthChallenge, AuthProvider } from './httpAuthorization';
export { asksForDpopNonce, demandsAuthorization, statusCloseReason } from './httpAuthorization';
export type { EventStreamHandlers, InboundMessage } from './httpBodies';
export { answers, isJsonRpcPayload } from './httpBodies';
export type { ErrorBody } from './httpErrors';
export { discard, displayUrl, ERROR_BODY_LIMIT } from './httpErrors';
export { Exchange } from './httpExchange';

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

/** The least delay before a stream is opened again, whatever the server's `retry`. */
export const DEFAULT_MIN_RECONNECT_DELAY_MS = 500;

export interface FetchOptions {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Defaults to the channel's URL. */
  readonly url?: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Abort when no response headers arrived within this many ms. */
  readonly headersTimeoutMs?: number;
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
  private readonly slots: RequestSlots;
  /** The provider's requests when the transport signs in; undefined without an auth provider. */
  private readonly authorized: AuthorizedFetch<FetchOptions> | undefined;

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
    this.slots = new RequestSlots(Math.max(1, options.maxConcurrentRequests ?? 64));
    const auth = options.auth;
    this.authorized = auth && new AuthorizedFetch(auth, this, (exchange, request) => this.fetchFollowing(exchange, request), (text) => this.logHttp(text));
  }

  /**
   * Takes one of the request slots: undefined when one was free (the caller goes on at once, without
   * waiting a tick), else a promise of the slot that rejects with the exchange's abort reason when it
   * is aborted while waiting. Every slot taken must be given back with `releaseRequestSlot()`.
   */
  acquireRequestSlot(exchange: Exchange): Promise<void> | undefined {
    return this.slots.acquire(exchange);
  }

  /** Hands the slot to the next waiting request, if any; one aborted while waiting is skipped. */
  releaseRequestSlot(): void {
    this.slots.release();
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
   * is not among them: it is logged when the provider first supplies one (`AuthorizedFetch`).
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
    this.slots.clear();
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
    return this.authorized ? this.authorized.fetch(exchange, options) : this.fetchFollowing(exchange, options);
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
        if (!isRedirect(response.status)) return response;
        await discard(response);
        const target = redirectHop(response, options.method, url, this.url, hop);
        this.logHttp(`${options.method} ${displayUrl(url)} redirected (HTTP ${response.status}) to ${displayUrl(target)}`, 'debug');
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
    return networkFailure(method, url, error);
  }

  /**
   * The error for a response with a status that is not OK: `label` (the HTTP method, maybe with
   * what was sent), the URL, the status, and the server's own message when it sent a JSON-RPC
   * error or plain text (quoted briefly).
   */
  async statusError(label: string, response: HttpResponse, url: URL = this.url): Promise<McpLocalError<'transport'>> {
    return statusFailure(label, response, await this.readErrorBody(response), url);
  }

  /**
   * Reads the start of an error response's body once, at most `limit` bytes (the rest is not
   * waited for, nor kept): undefined for a body that is neither JSON nor plain text (HTML is not
   * quoted), which is dropped unread.
   */
  readErrorBody(response: HttpResponse, limit = QUOTED_BODY_LIMIT): Promise<ErrorBody | undefined> {
    return readErrorBody(response, limit, (bytes) => void (this.counters.bytesReceived += bytes));
  }

  /** `statusError()` for a body already read with `readErrorBody()`. */
  statusErrorFrom(label: string, response: HttpResponse, body: ErrorBody | undefined, url: URL = this.url): McpLocalError<'transport'> {
    return statusFailure(label, response, body, url);
  }

  /** The media type of a response, lower case, without parameters. */
  static mediaType(response: HttpResponse): string {
    return mediaType(response);
  }

  wrongContentType(label: string, response: HttpResponse, expected: string): McpLocalError<'transport'> {
    const type = response.headers.get('content-type') ?? '(none)';
    return new McpLocalError('transport', `${label} ${this.displayUrl} answered HTTP ${response.status} with content type ${quote(type)}; expected ${expected}`, { url: this.displayUrl, status: response.status, contentType: type });
  }

  /** Reads a JSON body whole, capped at `maxMessageBytes` (see `readJsonBody`). */
  readJson(exchange: Exchange, label: string, response: HttpResponse): Promise<InboundMessage> {
    return readJsonBody(this, exchange, label, response);
  }

  /** Reads an SSE body to its end, calling the handlers per event (see `readEventStream`). */
  readEvents(exchange: Exchange, what: string, response: HttpResponse, handlers: EventStreamHandlers): Promise<void> {
    return readEventStream(this, exchange, what, response, handlers);
  }

  /** One SSE `data` as a JSON-RPC message, or undefined (logged) when it is not one. */
  parseEventData(what: string, data: string): InboundMessage | undefined {
    return parseEventData(this, what, data);
  }
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

