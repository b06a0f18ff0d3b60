// The HTTP requests of the remote transports, on Node's own http/https modules with a keep-alive
// agent per transport. Node's `fetch` builds a Request, a Response and WHATWG streams for every
// exchange: measured on the bench's pipelined calls it cost about 4x the CPU of the same POST on
// `http.request` (≈ 470–980 µs against ≈ 110–250 µs per call on a loaded 2-core machine), and a
// relayed call (the gateway) pays for two exchanges. What the channel reads of an answer is the
// small `HttpResponse` below, which `fetch`'s Response also satisfies (tests may still inject a fetch).
import * as http from 'node:http';
import * as https from 'node:https';
import { urlToHttpOptions } from 'node:url';

/** The part of an HTTP answer the channel reads; `fetch`'s Response has the same shape. */
export interface HttpResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  readonly body: HttpResponseBody | null;
}

export interface HttpResponseBody {
  getReader(): HttpBodyReader;
  /** Drops the rest of the body unread. */
  cancel(): Promise<void>;
}

export interface HttpBodyReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
  releaseLock(): void;
}

export interface HttpRequestInit {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Aborting destroys the exchange; the request (or the body's read) rejects with the signal's reason. */
  readonly signal: AbortSignal;
}

/** Sends one request; resolves when the answer's headers arrived. */
export type HttpRequestFn = (url: URL, init: HttpRequestInit) => Promise<HttpResponse>;

/** A body that is not read on is paused once this much waits unread (SSE streams the reader has not caught up with). */
const PAUSE_AT_BYTES = 1024 * 1024;

/**
 * Requests over Node's http/https modules with one keep-alive agent per protocol, owned by one
 * transport (so `close()` ends its sockets and nothing is shared with another server).
 */
export class NodeHttpClient {
  private httpAgent: http.Agent | undefined;
  private httpsAgent: https.Agent | undefined;

  /** Bound, so the channel can hold it as its request function. */
  readonly request: HttpRequestFn = (url, init) =>
    new Promise<HttpResponse>((resolve, reject) => {
      const { signal } = init;
      if (signal.aborted) return reject(signal.reason);
      const secure = url.protocol === 'https:';
      const agent = secure ? (this.httpsAgent ??= new https.Agent({ keepAlive: true })) : (this.httpAgent ??= new http.Agent({ keepAlive: true }));
      const options = requestOptions(url, init, agent);
      const send = (retried: boolean): void => {
        const req = (secure ? https : http).request(options, (res) => resolve(new NodeHttpResponse(res, signal)));
        // An abort destroys the exchange (request and answer). One listener, dropped when the
        // exchange closes: Node's own `signal` option watches the request's end with several
        // listeners of its own on every request, a cost a relayed call (the gateway) pays twice.
        const onAbort = () => req.destroy(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        req.once('close', () => signal.removeEventListener('abort', onAbort));
        req.once('error', (error: NodeJS.ErrnoException) => {
          // The reason, not the socket's error, is what callers see of an abort.
          if (signal.aborted) return reject(signal.reason);
          // A kept-alive socket the server closed while it sat idle (its keep-alive timeout, often
          // 5 s, passed during a sign-in, say) fails the next request before any answer: the
          // server never read it, so it goes once more on a new socket.
          if (!retried && req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return send(true);
          reject(error);
        });
        req.end(init.body);
      };
      send(false);
    });

  /** Ends every kept-alive socket (exchanges still running were aborted by their owner). */
  close(): void {
    this.httpAgent?.destroy();
    this.httpsAgent?.destroy();
  }
}

/** Where a URL points, as http.request's options: worked out once per URL object (a transport sends every POST to the same one). */
const targets = new WeakMap<URL, http.RequestOptions>();

/**
 * The options of one request. The headers go as a flat list with Host and Content-Length in it:
 * given an object, Node copies it through setHeader one header at a time (the same checks of
 * names and values apply to the list). A URL with credentials keeps Node's own path, which turns
 * them into Basic authorization.
 */
function requestOptions(url: URL, init: HttpRequestInit, agent: http.Agent): http.RequestOptions {
  let target = targets.get(url);
  if (!target) targets.set(url, (target = urlToHttpOptions(url)));
  const length = init.body === undefined ? undefined : String(Buffer.byteLength(init.body));
  if (target.auth) return { ...target, method: init.method, headers: length === undefined ? { ...init.headers } : { ...init.headers, 'content-length': length }, agent };
  const headers: string[] = [];
  let host = false;
  for (const name in init.headers) {
    host ||= name.toLowerCase() === 'host';
    headers.push(name, init.headers[name]);
  }
  if (!host) headers.push('host', url.host);
  if (length !== undefined) headers.push('content-length', length);
  return { ...target, method: init.method, headers, agent };
}

/** `response` with `text` as its whole body (standing in for one whose body was read already). */
export function withBody(response: HttpResponse, text: string): HttpResponse {
  let chunk: Uint8Array | undefined = Buffer.from(text, 'utf8');
  const reader: HttpBodyReader = {
    read() {
      const value = chunk;
      chunk = undefined;
      return Promise.resolve(value ? { done: false, value } : { done: true, value: undefined });
    },
    cancel() {
      chunk = undefined;
      return Promise.resolve();
    },
    releaseLock() {},
  };
  return { status: response.status, ok: response.ok, statusText: response.statusText, headers: response.headers, body: { getReader: () => reader, cancel: () => reader.cancel() } };
}

class NodeHttpResponse implements HttpResponse, HttpResponseBody, HttpBodyReader {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: HttpResponse['headers'];
  readonly body: HttpResponseBody;
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private ended = false;
  private failure: unknown;
  private waiting: { resolve(result: ReadableStreamReadResult<Uint8Array>): void; reject(error: unknown): void } | undefined;

  constructor(
    private readonly res: http.IncomingMessage,
    signal: AbortSignal,
  ) {
    this.status = res.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    this.statusText = res.statusMessage ?? '';
    const raw = res.headers;
    this.headers = {
      get: (name) => {
        const value = raw[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
      has: (name) => raw[name.toLowerCase()] !== undefined,
    };
    this.body = this;
    res.on('data', (chunk: Buffer) => this.push(chunk));
    res.once('end', () => {
      this.ended = true;
      this.settle();
    });
    // A body that stops short (the socket closed, the exchange aborted) is an error for the reader.
    res.once('close', () => {
      if (this.ended) return;
      this.failure ??= signal.aborted ? signal.reason : Object.assign(new Error('the connection closed before the answer was complete'), { code: 'ECONNRESET' });
      this.settle();
    });
    res.once('error', (error) => {
      this.failure ??= signal.aborted ? signal.reason : error;
      this.settle();
    });
  }

  getReader(): HttpBodyReader {
    return this;
  }

  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const chunk = this.queue.shift();
    if (chunk) {
      this.queuedBytes -= chunk.length;
      if (this.res.isPaused() && this.queuedBytes < PAUSE_AT_BYTES) this.res.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  cancel(): Promise<void> {
    this.queue.length = 0;
    this.queuedBytes = 0;
    // A body read to its end leaves the socket to the agent for the next request.
    if (!this.ended) this.res.destroy();
    return Promise.resolve();
  }

  releaseLock(): void {}

  private push(chunk: Buffer): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ done: false, value: chunk });
      return;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (this.queuedBytes >= PAUSE_AT_BYTES) this.res.pause();
  }

  /** Wakes a waiting read with the end or the failure (queued chunks were handed out first). */
  private settle(): void {
    const waiting = this.waiting;
    if (!waiting || this.queue.length > 0) return;
    this.waiting = undefined;
    if (this.failure !== undefined) waiting.reject(this.failure);
    else waiting.resolve({ done: true, value: undefined });
  }
}
