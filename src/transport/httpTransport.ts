import { McpLocalError, errorMessage } from '../protocol/errors';
import type { ToolHeaderDeclaration } from '../protocol/httpHeaders';
import { OutboundFrame, Transport, TransportStats } from '../protocol/transport';
import { HttpTransportOptions } from './httpChannel';
import { RelayedEvents } from './relayedEvents';
import { SseTransport } from './sse';
import { StreamableHttpTransport } from './streamableHttp';

/** Which HTTP transport to use: `http` Streamable HTTP, `sse` the legacy HTTP+SSE, `auto` the first, falling back to the second. */
export type HttpTransportMode = 'auto' | 'http' | 'sse';

export interface CreateHttpTransportOptions extends HttpTransportOptions {
  readonly mode: HttpTransportMode;
}

/** Builds the transport for a remote server. */
export function createHttpTransport(options: CreateHttpTransportOptions): Transport {
  switch (options.mode) {
    case 'http':
      return new StreamableHttpTransport(options);
    case 'sse':
      return new SseTransport(options);
    case 'auto':
      return new HttpFallbackTransport(options);
    default: {
      const never: never = options.mode;
      throw new McpLocalError('usage', `unknown HTTP transport mode ${JSON.stringify(never)}`);
    }
  }
}

/** Statuses of the initialize POST that mean "no Streamable HTTP here" (the specification's backwards-compatibility rule). */
const FALLBACK_STATUSES = new Set([400, 404, 405]);

/**
 * Streamable HTTP first; when the initialize POST is answered 400, 404 or 405, the legacy
 * HTTP+SSE transport on the same URL (GET, `endpoint` event), and initialize is sent there.
 * The modern era's `server/discover` probe that may come before decides nothing: a legacy
 * server refuses it, the client falls back to initialize, and that POST decides as before.
 * `stats().http.transport` and an `http` log line say which one is in use.
 */
export class HttpFallbackTransport implements Transport {
  /** Events of the active transport, forwarded. */
  private readonly events = new RelayedEvents();
  readonly onMessage = this.events.onMessage;
  readonly onClose = this.events.onClose;
  readonly onLog = this.events.onLog;

  private active: Transport;
  /** Until the first message was answered, a fallback is still possible. */
  private decided = false;
  private protocolVersion: string | undefined;

  constructor(private readonly options: HttpTransportOptions) {
    this.active = this.events.follow(new StreamableHttpTransport(options));
  }

  start(): Promise<void> {
    return this.active.start();
  }

  async send(frame: OutboundFrame): Promise<void> {
    if (!this.decided && frame.info.kind === 'request' && frame.info.method === 'server/discover') return this.active.send(frame);
    if (this.decided || frame.info.kind !== 'request' || frame.info.method !== 'initialize') {
      this.decided = true;
      return this.active.send(frame);
    }
    this.decided = true;
    let refusal: McpLocalError<'transport'>;
    try {
      await this.active.send(frame);
      return;
    } catch (error) {
      const status = McpLocalError.is(error, 'transport') ? error.details.status : undefined;
      if (!McpLocalError.is(error, 'transport') || typeof status !== 'number' || !FALLBACK_STATUSES.has(status)) throw error;
      // A JSON-RPC error in the answer (a modern-only server's -32022 to a legacy version) comes
      // from a Streamable HTTP server: its own answer is the story, not a fallback's 405.
      if (typeof error.details.jsonRpcCode === 'number') throw error;
      refusal = error;
      this.events.log({ kind: 'http', level: 'info', text: `POST initialize answered ${status}: falling back to the HTTP+SSE transport (protocol 2024-11-05)` });
    }
    const streamable = this.active;
    const sse = this.events.follow(new SseTransport(this.options));
    void streamable.close().finally(() => streamable.dispose());
    this.active = sse;
    if (this.protocolVersion !== undefined) sse.setProtocolVersion(this.protocolVersion);
    try {
      await sse.start();
    } catch (error) {
      // Neither transport works: the server's answer to the POST comes first, the fallback's after it.
      throw new McpLocalError('transport', `${refusal.message}; the HTTP+SSE fallback failed too: ${errorMessage(error)}`, { ...refusal.details, fallbackError: errorMessage(error) });
    }
    return sse.send(frame);
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.active.setProtocolVersion?.(version);
  }

  /** As the active transport: Streamable HTTP in the modern era mirrors tool headers, HTTP+SSE never. */
  get mirrorsToolHeaders(): boolean {
    return this.active.mirrorsToolHeaders === true;
  }

  setToolHeaders(declarations: ReadonlyMap<string, readonly ToolHeaderDeclaration[]>): void {
    this.active.setToolHeaders?.(declarations);
  }

  close(): Promise<void> {
    return this.active.close();
  }

  dispose(): void {
    const active = this.active;
    void active.close().finally(() => {
      active.dispose();
      this.events.dispose();
    });
  }

  stats(): TransportStats {
    return this.active.stats();
  }
}
