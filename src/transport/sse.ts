import { McpLocalError, toError } from '../protocol/errors';
import { Event } from '../protocol/events';
import { OutboundFrame, Transport, TransportCloseInfo, TransportCloseReason, TransportLog, TransportStats } from '../protocol/transport';
import { demandsAuthorization, discard, Exchange, HttpChannel, HttpTransportOptions, InboundMessage, displayUrl, statusCloseReason } from './httpChannel';
import type { HttpResponse } from './nodeHttpClient';

/**
 * The legacy HTTP+SSE transport (protocol 2024-11-05): `start()` GETs the URL and waits for
 * the `endpoint` event; every message is POSTed to that endpoint (resolved against the SSE
 * URL; another origin is refused); the server's messages arrive as `message` events on the
 * GET stream. The stream ending closes the transport (`network-error`): this protocol cannot
 * resume a session. Imports no `vscode`.
 */
export class SseTransport implements Transport {
  private readonly channel: HttpChannel;
  readonly onMessage: Event<InboundMessage>;
  /** Fires once: on close, when start fails, or when the stream ends. */
  readonly onClose: Event<TransportCloseInfo>;
  readonly onLog: Event<TransportLog>;
  private phase: 'idle' | 'starting' | 'open' | 'closed' = 'idle';
  private closing: Promise<void> | undefined;
  private endpoint: URL | undefined;
  private stream: Exchange | undefined;
  private protocolVersion: string | undefined;

  constructor(options: HttpTransportOptions) {
    this.channel = new HttpChannel(options);
    this.onMessage = this.channel.messages.event;
    this.onClose = this.channel.closes.event;
    this.onLog = this.channel.log.event;
  }

  /**
   * Opens the SSE stream and resolves once the server named its message endpoint. Rejects with
   * McpLocalError('transport') naming the status and URL (onClose fires then too).
   */
  async start(): Promise<void> {
    if (this.phase !== 'idle') throw new McpLocalError(this.phase === 'closed' ? 'closed' : 'usage', this.phase === 'closed' ? 'the transport was closed before it started' : 'start() can only be called once');
    this.phase = 'starting';
    this.channel.startedAt = Date.now();
    this.channel.logHttp(`HTTP+SSE to ${this.channel.displayUrl} (headers: ${this.channel.headerNames()})`);
    const exchange = this.channel.begin('GET (SSE stream)');
    this.stream = exchange;
    let reason: TransportCloseReason | undefined;
    try {
      const response = await this.channel.fetch(exchange, { method: 'GET', headers: this.channel.headers({ accept: 'text/event-stream' }), headersTimeoutMs: this.channel.connectTimeoutMs });
      if (!response.ok) {
        const error = await this.channel.statusError('GET', response);
        reason = statusCloseReason(response, this.channel.displayUrl, String(error.details.serverMessage ?? response.statusText));
        throw error;
      }
      if (HttpChannel.mediaType(response) !== 'text/event-stream') {
        await discard(response);
        throw this.channel.wrongContentType('GET', response, 'text/event-stream');
      }
      this.channel.counters.streamsOpened++;
      this.channel.logHttp('SSE stream opened; waiting for the endpoint event');
      this.endpoint = await this.readUntilEndpoint(exchange, response);
      this.phase = 'open';
      this.channel.logHttp(`message endpoint: ${displayUrl(this.endpoint)}`);
    } catch (error) {
      this.channel.end(exchange);
      const failure = toError(error);
      // close() during the start has already fired onClose.
      if (this.closedWhileStarting()) throw new McpLocalError('closed', 'the transport was closed while starting');
      this.finish(reason ?? startFailure(failure, this.channel.displayUrl), failure);
      throw failure;
    }
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** POSTs one message to the endpoint; resolves when the server accepted it. */
  send(frame: OutboundFrame): Promise<void> {
    if (this.phase !== 'open' || !this.endpoint) return Promise.reject(new McpLocalError('closed', 'the transport is closed'));
    this.channel.counters.messagesSent++;
    return this.channel.track(this.post(frame, this.endpoint));
  }

  /** Lets messages being sent finish briefly, then ends the stream; fires onClose once with `closed-by-client`. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.phase === 'closed') return;
      if (this.phase === 'open') await this.channel.drainOutgoing();
      this.finish({ kind: 'closed-by-client' });
    })();
    return this.closing;
  }

  dispose(): void {
    void this.close().finally(() => this.channel.disposeEvents());
  }

  stats(): TransportStats {
    return this.channel.stats('sse', undefined);
  }

  private async post(frame: OutboundFrame, endpoint: URL): Promise<void> {
    const what = frame.info.kind === 'response' ? `response ${JSON.stringify(frame.info.id)}` : frame.info.method;
    const exchange = this.channel.begin(`POST ${what}`);
    const started = Date.now();
    try {
      const headers = this.channel.headers({ 'content-type': 'application/json', 'mcp-protocol-version': this.protocolVersion });
      const response = await this.channel.fetch(exchange, { method: 'POST', url: endpoint, headers, body: frame.json, headersTimeoutMs: this.channel.connectTimeoutMs });
      if (!response.ok) {
        const error = await this.channel.statusError(`POST ${what} to`, response, endpoint);
        // The endpoint is the session: when it is gone, or authorization is demanded, nothing else can work.
        if (response.status === 404 || demandsAuthorization(response)) this.finish(response.status === 404 ? { kind: 'session-expired', url: this.channel.displayUrl } : statusCloseReason(response, this.channel.displayUrl, response.statusText), error);
        throw error;
      }
      await discard(response);
      this.channel.logHttp(`POST ${what} → ${response.status} in ${Date.now() - started} ms`, 'debug');
    } catch (error) {
      if (exchange.endedByUs) throw new McpLocalError('closed', 'the transport is closed');
      if (McpLocalError.is(error, 'transport') && error.details.unreachable === true) this.finish({ kind: 'network-error', url: this.channel.displayUrl, message: String(error.details.detail) }, error);
      throw error;
    } finally {
      this.channel.end(exchange);
    }
  }

  /**
   * Reads the stream in the background for the transport's life; resolves with the endpoint
   * from the first `endpoint` event. Rejects when the stream ends first, the endpoint is on
   * another origin, or it does not come within `connectTimeoutMs`.
   */
  private readUntilEndpoint(exchange: Exchange, response: HttpResponse): Promise<URL> {
    return new Promise<URL>((resolve, reject) => {
      let endpoint: URL | undefined;
      const timer = setTimeout(() => {
        const error = new McpLocalError('transport', `GET ${this.channel.displayUrl}: no endpoint event within ${this.channel.connectTimeoutMs} ms`, { url: this.channel.displayUrl });
        exchange.fail(error);
        reject(error);
      }, this.channel.connectTimeoutMs);
      timer.unref();
      const reading = this.channel.readEvents(exchange, 'the SSE stream', response, {
        onEvent: (event) => {
          if (event.event === 'endpoint') {
            if (endpoint) return;
            let target: URL;
            try {
              target = new URL(event.data.trim(), this.channel.url);
            } catch {
              const error = new McpLocalError('transport', `GET ${this.channel.displayUrl}: the endpoint event holds no valid URL`, { url: this.channel.displayUrl });
              exchange.fail(error);
              return reject(error);
            }
            if (target.origin !== this.channel.url.origin) {
              const error = new McpLocalError('transport', `GET ${this.channel.displayUrl}: the server named a message endpoint on another origin (${target.origin}); refused`, { url: this.channel.displayUrl, endpointOrigin: target.origin });
              exchange.fail(error);
              return reject(error);
            }
            endpoint = target;
            clearTimeout(timer);
            resolve(target);
            return;
          }
          if (event.event !== undefined && event.event !== 'message') return;
          const inbound = this.channel.parseEventData('the SSE stream', event.data);
          if (inbound && this.phase === 'open') this.channel.messages.fire(inbound);
        },
      });
      reading.then(
        () => {
          clearTimeout(timer);
          if (!endpoint) reject(new McpLocalError('transport', `GET ${this.channel.displayUrl}: the SSE stream ended before the endpoint event`, { url: this.channel.displayUrl }));
          else this.streamEnded(new McpLocalError('transport', `the SSE stream from ${this.channel.displayUrl} ended`, { url: this.channel.displayUrl, detail: 'the SSE stream ended' }));
        },
        (error: Error) => {
          clearTimeout(timer);
          if (!endpoint) reject(error);
          else this.streamEnded(error);
        },
      );
    });
  }

  private closedWhileStarting(): boolean {
    return this.phase === 'closed';
  }

  private streamEnded(error: Error): void {
    if (this.phase !== 'open' || this.stream?.endedByUs) return;
    const detail = McpLocalError.is(error, 'transport') && typeof error.details.detail === 'string' ? error.details.detail : error.message;
    this.finish({ kind: 'network-error', url: this.channel.displayUrl, message: detail }, error);
  }

  /** Ends everything and fires onClose once. */
  private finish(reason: TransportCloseReason, error?: Error): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.channel.stop();
    if (this.stream) this.channel.end(this.stream);
    if (reason.kind !== 'closed-by-client') this.channel.logHttp(`closed: the server ${TransportCloseReason.describe(reason)}`, 'warn');
    this.channel.closes.fire(error ? { reason, error } : { reason });
  }

}

/** The close reason for a start that failed other than by an HTTP status. */
function startFailure(error: Error, url: string): TransportCloseReason {
  if (McpLocalError.is(error, 'transport') && error.details.unreachable === true) return { kind: 'network-error', url, message: String(error.details.detail) };
  return { kind: 'start-failed', message: error.message };
}
