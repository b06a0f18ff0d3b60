import { McpLocalError, toError } from '../protocol/errors';
import { Event } from '../protocol/events';
import { paramHeaders, standardHeaders, ToolHeaderDeclaration } from '../protocol/httpHeaders';
import { isModernProtocolVersion, OutboundFrame, Transport, TransportCloseInfo, TransportCloseReason, TransportLog, TransportStats } from '../protocol/transport';
import { answers, demandsAuthorization, discard, ERROR_BODY_LIMIT, ErrorBody, Exchange, HttpChannel, HttpTransportOptions, InboundMessage, isJsonRpcPayload, statusCloseReason } from './httpChannel';
import type { HttpResponse } from './nodeHttpClient';

const JSON_OR_SSE = 'application/json, text/event-stream';

/** A request whose answer is still expected, and how its response stream can be resumed. */
interface PendingAnswer {
  readonly id: string | number;
  readonly method: string;
  readonly exchange: Exchange;
  answered: boolean;
  lastEventId: string | undefined;
  /** Messages its streams delivered so far: a stream that delivers none is a failed attempt. */
  delivered: number;
}

/**
 * A stream that stayed open this long counts as working even when it carried no message (a
 * server that closes idle streams for the client to poll again); a shorter, empty one is a
 * failed attempt, so a server that ends every stream at once meets the back-off and the cap.
 */
const HELD_STREAM_MS = 10_000;

/**
 * The Streamable HTTP transport (protocol 2025-03-26 and later). Every message is a POST; a
 * request's answer comes as JSON or on an SSE stream; notifications and responses get 202.
 * `Mcp-Session-Id` is kept from the initialize answer and sent with every later request,
 * `MCP-Protocol-Version` once the client told us the version. After `initialized`, a GET
 * stream carries server-initiated messages (405: the server offers none). A dropped stream is
 * resumed with `Last-Event-ID` after the server's `retry` (never below a minimum; a back-off and a cap
 * for streams that end without a message): a dropped response
 * stream is not a cancellation. A 404 for a request carrying the session closes the transport
 * with `session-expired`; 401 (and 403 with a challenge) with `authorization-required`; an unreachable server with
 * `network-error`. Other failures fail the one message, with an error naming status and URL.
 *
 * The modern era (a version from 2026-07-28 on, given by setProtocolVersion) changes the wire:
 * every POST carries `Mcp-Method`, `Mcp-Name` where the method names a target, and
 * `Mcp-Param-*` for tool arguments marked `x-mcp-header` (see setToolHeaders); no session, no
 * GET stream, no DELETE, no resuming; a cancellation ends the request's POST instead of being
 * sent; and a JSON-RPC error answered with an HTTP error status is delivered as that request's
 * error response. Imports no `vscode`.
 */
export class StreamableHttpTransport implements Transport {
  private readonly channel: HttpChannel;
  readonly onMessage: Event<InboundMessage>;
  /** Fires once: on close, session expiry, an authorization demand or an unreachable server. */
  readonly onClose: Event<TransportCloseInfo>;
  /** HTTP events (`http`), skipped events (`invalid-json`) and oversize messages. */
  readonly onLog: Event<TransportLog>;
  private phase: 'idle' | 'open' | 'closing' | 'closed' = 'idle';
  private closing: Promise<void> | undefined;
  private _sessionId: string | undefined;
  private protocolVersion: string | undefined;
  /** The server's SSE `retry`, in ms, once it sent one. */
  private retryMs: number | undefined;
  private readonly answers = new Map<string | number, PendingAnswer>();
  private getStreamStarted = false;
  /** Modern era: the `x-mcp-header` declarations per tool name, from the client's latest tools/list. */
  private toolHeaders: ReadonlyMap<string, readonly ToolHeaderDeclaration[]> = new Map();
  /** The headers of every POST, built again only when the session id or protocol version changes. */
  private postHeadersCache: Readonly<Record<string, string>> | undefined;

  constructor(options: HttpTransportOptions) {
    this.channel = new HttpChannel(options);
    this.onMessage = this.channel.messages.event;
    this.onClose = this.channel.closes.event;
    this.onLog = this.channel.log.event;
  }

  /** The session id the server assigned, once it did. */
  get sessionId(): string | undefined {
    return this._sessionId;
  }

  /** Nothing goes on the wire until the first message; the URL was checked by the constructor. */
  async start(): Promise<void> {
    if (this.phase !== 'idle') throw new McpLocalError(this.phase === 'open' ? 'usage' : 'closed', this.phase === 'open' ? 'start() can only be called once' : 'the transport was closed before it started');
    this.phase = 'open';
    this.channel.startedAt = Date.now();
    this.channel.logHttp(`Streamable HTTP to ${this.channel.displayUrl} (headers: ${this.channel.headerNames()})`);
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.postHeadersCache = undefined;
  }

  /** True in the modern era: tools/call mirrors `x-mcp-header` arguments into `Mcp-Param-*` headers. */
  get mirrorsToolHeaders(): boolean {
    return this.modern;
  }

  setToolHeaders(declarations: ReadonlyMap<string, readonly ToolHeaderDeclaration[]>): void {
    this.toolHeaders = declarations;
  }

  /** True once the client told a version of the 2026-07-28 era or later. */
  private get modern(): boolean {
    return isModernProtocolVersion(this.protocolVersion);
  }

  /**
   * POSTs one message. For a request, settles when its exchange ended: resolves once the answer
   * arrived, rejects with McpLocalError('transport') when it cannot (an HTTP error, a body that
   * is not JSON-RPC, a stream that ended without the answer and cannot be resumed). For a
   * notification or response, resolves when the server accepted it.
   */
  send(frame: OutboundFrame): Promise<void> {
    if (this.phase !== 'open') return Promise.reject(this.closedError());
    this.channel.counters.messagesSent++;
    const { info } = frame;
    if (info.kind === 'request') return this.postRequest(frame, info.id, info.method);
    if (this.modern) {
      // The modern wire has no cancellation message (ending the POST is the cancellation) and
      // carries no client responses (servers ask through input-required results instead).
      if (info.kind === 'notification' && info.method === 'notifications/cancelled') {
        this.endCancelled(frame);
        return Promise.resolve();
      }
      if (info.kind === 'response') {
        this.channel.logHttp(`dropped the response to ${JSON.stringify(info.id)}: the ${this.protocolVersion} HTTP transport carries no client responses`, 'warn');
        return Promise.resolve();
      }
    }
    const sent = this.channel.track(this.postOther(frame, info.kind === 'notification' ? info.method : `response ${JSON.stringify(info.id)}`));
    if (info.kind === 'notification' && info.method === 'notifications/cancelled') this.endCancelled(frame);
    return sent;
  }

  /**
   * Aborts the streams, ends the session with DELETE (waiting at most `closeTimeoutMs`) and
   * fires onClose once with `closed-by-client`. Idempotent; never rejects.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  dispose(): void {
    void this.close().finally(() => this.channel.disposeEvents());
  }

  stats(): TransportStats {
    return this.channel.stats('streamable-http', this._sessionId);
  }

  // ---- requests ----

  private async postRequest(frame: OutboundFrame, id: string | number, method: string): Promise<void> {
    const what = `POST ${method} (id ${JSON.stringify(id)})`;
    const exchange = this.channel.begin(what);
    const pending: PendingAnswer = { id, method, exchange, answered: false, lastEventId: undefined, delivered: 0 };
    this.answers.set(id, pending);
    let slot = false;
    try {
      const waitForSlot = this.channel.acquireRequestSlot(exchange);
      if (waitForSlot) await waitForSlot;
      slot = true;
      const started = Date.now();
      const sentSession = this._sessionId !== undefined;
      const response = await this.channel.fetch(exchange, { method: 'POST', headers: this.postHeaders(frame), body: frame.json });
      this.keepSession(response, method);
      if (!response.ok) {
        if (this.modern && response.status !== 401 && response.status !== 403) {
          // Read once, within a small cap: a JSON-RPC error answer, or the server's words for the error.
          const body = await this.channel.readErrorBody(response, ERROR_BODY_LIMIT);
          if (body && this.deliverErrorAnswer(body, response, pending)) return;
          throw await this.failure('POST', response, sentSession, { body });
        }
        throw await this.failure('POST', response, sentSession);
      }
      const type = HttpChannel.mediaType(response);
      // Built only when someone reads the log: this runs for every request.
      if (this.channel.log.hasListeners) this.channel.logHttp(`${what} → ${response.status}${type ? ` ${type}` : ''} in ${Date.now() - started} ms`, 'debug');
      if (response.status === 202 && this.modern) {
        await discard(response);
        throw new McpLocalError('transport', `${method}: ${this.channel.displayUrl} answered 202 without a body; in the ${this.protocolVersion} era the answer must come on the POST's own response`, { url: this.channel.displayUrl, status: 202 });
      }
      if (response.status === 202) {
        // Accepted without a body: the answer comes on the GET stream.
        await discard(response);
        return;
      }
      if (type === 'application/json') {
        const inbound = await this.channel.readJson(exchange, 'POST', response);
        pending.answered = answers(inbound.message, id);
        this.deliver(inbound);
        if (!pending.answered) throw new McpLocalError('transport', `${method}: the JSON answer from ${this.channel.displayUrl} holds no response to request ${JSON.stringify(id)}`, { url: this.channel.displayUrl, status: response.status });
        return;
      }
      if (type === 'text/event-stream') {
        this.channel.counters.streamsOpened++;
        await this.readAnswerStream(pending, response);
        return;
      }
      await discard(response);
      throw this.channel.wrongContentType('POST', response, JSON_OR_SSE);
    } catch (error) {
      // Ended by a cancellation or by close(): the connection has already settled the request.
      if (exchange.endedByUs || this.phase !== 'open') return;
      throw this.settleFailure(error);
    } finally {
      if (slot) this.channel.releaseRequestSlot();
      this.channel.end(exchange);
      if (this.answers.get(id) === pending) this.answers.delete(id);
    }
  }

  /**
   * Reads a request's SSE stream until its answer. When the stream ends or drops first, it is
   * resumed with GET and `Last-Event-ID` after the server's `retry` (never sooner than the
   * channel's minimum); without an event id it cannot be, and the request fails. A resumed
   * stream that ends at once without a message is a failed attempt: after `maxReconnectAttempts`
   * of them the request fails with an error that says its answer cannot come.
   */
  private async readAnswerStream(pending: PendingAnswer, first: HttpResponse): Promise<void> {
    const { method, exchange } = pending;
    let response: HttpResponse | undefined = first;
    let failures = 0;
    for (;;) {
      let dropped: unknown;
      if (response) {
        const delivered = pending.delivered;
        const opened = Date.now();
        try {
          await this.readStream(exchange, `the response stream of ${method}`, response, pending);
        } catch (error) {
          if (exchange.endedByUs || McpLocalError.is(error, 'closed') || isOversize(error)) throw error;
          dropped = error;
        }
        if (pending.delivered > delivered || Date.now() - opened >= HELD_STREAM_MS) failures = 0;
        else failures++;
      }
      if (pending.answered || this.phase !== 'open') return;
      if (this.modern) {
        const how = dropped instanceof Error ? `dropped (${dropped.message})` : 'ended';
        throw new McpLocalError('transport', `${method}: the response stream from ${this.channel.displayUrl} ${how} before the answer (streams of the ${this.protocolVersion} era cannot be resumed)`, { url: this.channel.displayUrl });
      }
      if (pending.lastEventId === undefined) {
        const how = dropped instanceof Error ? `dropped (${dropped.message})` : 'ended';
        throw new McpLocalError('transport', `${method}: the response stream from ${this.channel.displayUrl} ${how} before the answer, and the server sent no event id to resume it`, { url: this.channel.displayUrl });
      }
      if (failures >= this.channel.maxReconnectAttempts) {
        throw new McpLocalError('transport', `no answer can come: ${failures} attempts in a row to resume its response stream from ${this.channel.displayUrl} failed or ended without a message`, { url: this.channel.displayUrl, attempts: failures });
      }
      await this.channel.sleep(this.channel.reconnectDelay(this.retryMs, Math.max(0, failures - 1)));
      if (this.phase !== 'open' || exchange.endedByUs) return;
      response = await this.resume(exchange, method, pending.lastEventId);
      if (!response) failures++;
    }
  }

  /** GET with `Last-Event-ID`; undefined when this attempt failed but another may work. */
  private async resume(exchange: Exchange, method: string, lastEventId: string): Promise<HttpResponse | undefined> {
    const sentSession = this._sessionId !== undefined;
    let response: HttpResponse;
    try {
      response = await this.channel.fetch(exchange, { method: 'GET', headers: this.getHeaders(lastEventId), headersTimeoutMs: this.channel.connectTimeoutMs });
    } catch (error) {
      if (exchange.endedByUs || this.phase !== 'open') throw error;
      this.channel.logHttp(`resuming the response stream of ${method} failed: ${(error as Error).message}`, 'warn');
      return undefined;
    }
    if (response.status === 405) {
      await discard(response);
      throw new McpLocalError('transport', `${method}: the response stream dropped and ${this.channel.displayUrl} does not allow resuming it (GET answered 405)`, { url: this.channel.displayUrl, status: 405 });
    }
    if (!response.ok) throw await this.failure(`GET (resuming ${method})`, response, sentSession);
    if (HttpChannel.mediaType(response) !== 'text/event-stream') {
      await discard(response);
      throw this.channel.wrongContentType(`GET (resuming ${method})`, response, 'text/event-stream');
    }
    this.channel.counters.streamResumptions++;
    this.channel.logHttp(`resumed the response stream of ${method} after event ${JSON.stringify(lastEventId)}`);
    return response;
  }

  /** Reads one SSE stream, delivering messages; notes event ids and `retry`, and an awaited answer. */
  private readStream(exchange: Exchange, what: string, response: HttpResponse, pending: PendingAnswer | undefined, onId?: (id: string) => void, onMessage?: () => void): Promise<void> {
    return this.channel.readEvents(exchange, what, response, {
      onEvent: (event) => {
        if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
        const inbound = this.channel.parseEventData(what, event.data);
        if (!inbound) return;
        if (pending) {
          pending.delivered++;
          if (answers(inbound.message, pending.id)) pending.answered = true;
        }
        onMessage?.();
        // A request of the server's on a request's own stream belongs to that request (it may go to
        // whoever made it); one on the GET stream belongs to none.
        this.deliver(isRequest(inbound.message) ? { ...inbound, relatedRequestId: pending ? pending.id : null } : inbound);
      },
      onId: (id) => {
        if (pending) pending.lastEventId = id;
        onId?.(id);
      },
      onRetry: (ms) => (this.retryMs = ms),
    });
  }

  // ---- notifications and responses ----

  private async postOther(frame: OutboundFrame, what: string): Promise<void> {
    const exchange = this.channel.begin(`POST ${what}`);
    const started = Date.now();
    try {
      const sentSession = this._sessionId !== undefined;
      const response = await this.channel.fetch(exchange, { method: 'POST', headers: this.postHeaders(frame), body: frame.json, headersTimeoutMs: this.channel.connectTimeoutMs });
      this.keepSession(response, what);
      if (!response.ok) throw await this.failure(`POST ${what} to`, response, sentSession);
      await discard(response);
      this.channel.logHttp(`POST ${what} → ${response.status} in ${Date.now() - started} ms`, 'debug');
      if (frame.info.kind === 'notification' && frame.info.method === 'notifications/initialized' && !this.modern) this.openGetStream();
    } catch (error) {
      if (exchange.endedByUs && this.phase !== 'open') throw this.closedError();
      throw this.settleFailure(error);
    } finally {
      this.channel.end(exchange);
    }
  }

  /** After we cancelled a request, its POST is of no more use: end it (the server saw the cancellation first). */
  private endCancelled(frame: OutboundFrame): void {
    const requestId = (frame.message as { params?: { requestId?: unknown } }).params?.requestId;
    const pending = typeof requestId === 'string' || typeof requestId === 'number' ? this.answers.get(requestId) : undefined;
    if (pending && !pending.answered) pending.exchange.abort();
  }

  // ---- the GET stream ----

  /** Opens the stream for server-initiated messages, and keeps it open until close. */
  private openGetStream(): void {
    if (this.getStreamStarted) return;
    this.getStreamStarted = true;
    void this.runGetStream();
  }

  private async runGetStream(): Promise<void> {
    let lastEventId: string | undefined;
    let failures = 0;
    while (this.phase === 'open') {
      const exchange = this.channel.begin('GET stream');
      let received = false;
      let opened: number | undefined;
      try {
        const sentSession = this._sessionId !== undefined;
        const response = await this.channel.fetch(exchange, { method: 'GET', headers: this.getHeaders(lastEventId), headersTimeoutMs: this.channel.connectTimeoutMs });
        if (response.status === 405) {
          await discard(response);
          this.channel.logHttp('the server offers no stream for server-initiated messages (GET answered 405)');
          return;
        }
        if (!response.ok) throw await this.failure('GET', response, sentSession);
        if (HttpChannel.mediaType(response) !== 'text/event-stream') {
          await discard(response);
          throw this.channel.wrongContentType('GET', response, 'text/event-stream');
        }
        this.channel.counters.streamsOpened++;
        if (lastEventId !== undefined) this.channel.counters.streamResumptions++;
        this.channel.logHttp(lastEventId === undefined ? 'GET stream opened' : `GET stream resumed after event ${JSON.stringify(lastEventId)}`);
        opened = Date.now();
        await this.readStream(
          exchange,
          'the GET stream',
          response,
          undefined,
          (id) => (lastEventId = id),
          () => (received = true),
        );
        if (this.phase !== 'open') return;
        this.channel.logHttp('GET stream ended by the server', received ? 'info' : 'debug');
      } catch (error) {
        if (this.phase !== 'open' || exchange.endedByUs) return;
        if (isOversize(error)) return;
        // The server is gone (connection refused): nothing else can work either, so the
        // transport closes now, and the host sees the lost connection at once.
        if (McpLocalError.is(error, 'transport') && error.details.unreachable === true) {
          this.settleFailure(error);
          return;
        }
        this.channel.logHttp(`GET stream: ${(error as Error).message}`, 'warn');
      } finally {
        this.channel.end(exchange);
      }
      // A stream that carried a message, or stayed open a while, worked; one that ended at once
      // without a message (a `retry: 0` storm) or failed is a failed attempt.
      if (received || (opened !== undefined && Date.now() - opened >= HELD_STREAM_MS)) failures = 0;
      else failures++;
      if (failures >= this.channel.maxReconnectAttempts) {
        this.channel.logHttp(`GET stream given up after ${failures} attempts in a row failed or ended without a message; server-initiated messages arrive only on response streams`, 'warn');
        return;
      }
      await this.channel.sleep(this.channel.reconnectDelay(this.retryMs, Math.max(0, failures - 1)));
    }
  }

  // ---- session, headers, failures ----

  private postHeaders(frame: OutboundFrame): Readonly<Record<string, string>> {
    // Modern headers name each message, so they are built per message; legacy ones once per session and version.
    if (this.modern) return this.channel.headers({ 'content-type': 'application/json', accept: JSON_OR_SSE, 'mcp-protocol-version': this.protocolVersion, ...this.mirroredHeaders(frame) });
    return (this.postHeadersCache ??= this.channel.headers({ 'content-type': 'application/json', accept: JSON_OR_SSE, 'mcp-session-id': this._sessionId, 'mcp-protocol-version': this.protocolVersion }));
  }

  /** Modern era: `Mcp-Method`, `Mcp-Name` and, for a tools/call of a tool with declarations, `Mcp-Param-*`. */
  private mirroredHeaders(frame: OutboundFrame): Record<string, string> {
    if (frame.info.kind === 'response') return {};
    const params = (frame.message as { params?: { name?: unknown; arguments?: unknown } }).params;
    const headers = standardHeaders(frame.info.method, params);
    if (frame.info.method !== 'tools/call' || typeof params?.name !== 'string') return headers;
    const declarations = this.toolHeaders.get(params.name);
    return declarations ? { ...headers, ...paramHeaders(declarations, params.arguments) } : headers;
  }

  private getHeaders(lastEventId: string | undefined): Record<string, string> {
    return this.channel.headers({ accept: 'text/event-stream', 'mcp-session-id': this._sessionId, 'mcp-protocol-version': this.protocolVersion, 'last-event-id': lastEventId });
  }

  private keepSession(response: HttpResponse, what: string): void {
    // The modern era has no sessions: an `Mcp-Session-Id` from the server is ignored.
    if (this._sessionId !== undefined || this.modern) return;
    const id = response.headers.get('mcp-session-id');
    if (id === null || !response.ok) return;
    this._sessionId = id;
    this.postHeadersCache = undefined;
    this.channel.logHttp(`session started (${what}): ${id}`);
  }

  /**
   * The error for a status that is not OK. A 404 for a request carrying the session, and
   * a demand for authorization (401, 403 with a challenge), also close the transport (nothing
   * else can work), so pending requests fail too. Another 403 fails its message, in the server's words.
   */
  private async failure(what: string, response: HttpResponse, sentSession: boolean, read?: { readonly body: ErrorBody | undefined }): Promise<Error> {
    const error = read ? this.channel.statusErrorFrom(what, response, read.body) : await this.channel.statusError(what, response);
    const url = this.channel.displayUrl;
    if (response.status === 404 && sentSession) {
      this.channel.logHttp(`session expired: ${what} answered 404 for session ${this._sessionId}`, 'warn');
      this.fail({ kind: 'session-expired', url }, error);
    } else if (demandsAuthorization(response)) {
      this.fail(statusCloseReason(response, url, error.message), error);
    }
    return error;
  }

  /**
   * Modern era: when a request's HTTP error carries a JSON-RPC error response (a modern server
   * answers an unsupported version, a missing capability or a header mismatch with 400 and one),
   * delivers it as the answer to that request, so the client reads its code and data. An error
   * without an id is taken as this POST's answer. 401/403 stay with the auth handling. Returns
   * false, with the body left to read, when there is no such error.
   */
  private deliverErrorAnswer(body: ErrorBody, response: HttpResponse, pending: PendingAnswer): boolean {
    if (body.type !== 'application/json' || body.cut) return false;
    let message: { id?: unknown; error?: { code?: unknown } };
    try {
      message = JSON.parse(body.text) as typeof message;
    } catch {
      return false;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message) || !isJsonRpcPayload(message) || typeof message.error?.code !== 'number') return false;
    if (message.id !== pending.id && message.id !== null && message.id !== undefined) return false;
    this.channel.counters.messagesReceived++;
    const inbound: InboundMessage = { message, bytes: Buffer.byteLength(body.text) };
    this.channel.logHttp(`POST ${pending.method} (id ${JSON.stringify(pending.id)}) → ${response.status}: JSON-RPC error ${message.error.code}, delivered as the answer`, 'debug');
    pending.answered = true;
    this.deliver(message.id === pending.id ? inbound : { message: { ...message, id: pending.id }, bytes: inbound.bytes });
    return true;
  }

  /** An unreachable server closes the transport; any other failure fails only its message. */
  private settleFailure(error: unknown): Error {
    if (McpLocalError.is(error, 'transport') && error.details.unreachable === true) {
      this.fail({ kind: 'network-error', url: this.channel.displayUrl, message: String(error.details.detail ?? error.message) }, error);
    }
    if (this.phase !== 'open' && !McpLocalError.is(error, 'transport')) return this.closedError();
    return toError(error);
  }

  /** Closes because of the server: everything in flight ends, no DELETE (the session is gone or unusable). */
  private fail(reason: TransportCloseReason, error: Error): void {
    if (this.phase !== 'open') return;
    this.phase = 'closed';
    this.channel.stop();
    this.channel.logHttp(`closed: the server ${TransportCloseReason.describe(reason)}`, 'warn');
    this.channel.closes.fire({ reason, error });
  }

  private async shutdown(): Promise<void> {
    const wasOpen = this.phase === 'open';
    if (this.phase === 'closed') return;
    this.phase = 'closing';
    if (wasOpen) {
      // Cancellations sent just before closing should reach the server.
      await this.channel.drainOutgoing();
      this.channel.stop();
      if (this._sessionId !== undefined) await this.deleteSession();
    }
    this.phase = 'closed';
    this.channel.closes.fire({ reason: { kind: 'closed-by-client' } });
  }

  /** Ends the session on the server; a 405 means it does not allow that. Failures are only logged. */
  private async deleteSession(): Promise<void> {
    const exchange = this.channel.begin('DELETE session');
    try {
      const response = await this.channel.fetch(exchange, { method: 'DELETE', headers: this.channel.headers({ 'mcp-session-id': this._sessionId, 'mcp-protocol-version': this.protocolVersion }), headersTimeoutMs: this.channel.closeTimeoutMs });
      await discard(response);
      this.channel.logHttp(`session ended (DELETE → ${response.status})`, response.ok || response.status === 405 ? 'info' : 'warn');
    } catch (error) {
      this.channel.logHttp(`DELETE of the session failed: ${(error as Error).message}`, 'debug');
    } finally {
      this.channel.end(exchange);
    }
  }

  private deliver(inbound: InboundMessage): void {
    if (this.phase === 'open') this.channel.messages.fire(inbound);
  }

  private closedError(): McpLocalError {
    return new McpLocalError('closed', 'the transport is closed');
  }

}

function isOversize(error: unknown): boolean {
  return McpLocalError.is(error, 'transport') && error.details.limitBytes !== undefined;
}

function isRequest(message: unknown): boolean {
  const m = message as { id?: unknown; method?: unknown } | null;
  return typeof m === 'object' && m !== null && typeof m.method === 'string' && m.id !== undefined;
}
