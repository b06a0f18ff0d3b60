// The transport under a gateway session's JsonRpcConnection to its client: the requests the
// gateway sends the client (a server's sampling, elicitation and roots requests, forwarded) go
// out as SSE events on the stream of the call that caused them, or on the session's GET stream;
// the client's answers come back as POSTs, which the session hands in here. So the session's
// requests get the connection's ids, timeouts, cancellation and late-answer handling, as the
// MCP Apps host's do, instead of a second hand-made request table.
import type { ServerResponse } from 'node:http';
import type { JsonRpcResponse, RequestId } from '../protocol/messages';
import { PushTransport } from '../protocol/pushTransport';
import type { OutboundFrame } from '../protocol/transport';
import { ResponseStream, writeSseEvent } from './responseStream';

/** Where one request to the client goes: the stream of the call it belongs to, or the GET stream. */
export type Carrier = { readonly kind: 'call'; readonly stream: ResponseStream } | { readonly kind: 'standalone'; readonly response: ServerResponse };

export class ClientChannel {
  /** The carrier of each request in flight, by the connection's id (told before the request is sent). */
  private readonly carriers = new Map<RequestId, Carrier>();
  /** Requests whose carrier closed: the client is gone, so their cancellation is not sent. */
  private readonly gone = new Set<RequestId>();
  /** What the session's JsonRpcConnection runs over. */
  readonly transport = new PushTransport(
    (frame) => this.send(frame),
    () => new Error('the gateway session is closed'),
  );

  constructor(
    /** The session's GET stream, where notifications not tied to a request go (or nothing). */
    private readonly standalone: () => ServerResponse | undefined,
    /** Every message to the client, for the server's trace. */
    private readonly trace: (message: unknown) => void,
  ) {}

  /** True while requests to the client are waiting for its answer. */
  get waiting(): boolean {
    return this.carriers.size > 0;
  }

  /** The request with connection id `id` goes to `carrier`. */
  route(id: RequestId, carrier: Carrier): void {
    this.carriers.set(id, carrier);
  }

  /** The request ended (answered, failed, cancelled): its route is forgotten. */
  unroute(id: RequestId): void {
    this.carriers.delete(id);
    this.gone.delete(id);
  }

  /** The request's carrier closed: the client went away, so it is not told of the cancellation. */
  carrierGone(id: RequestId): void {
    this.gone.add(id);
  }

  /** An answer the client POSTed; false when no request of ours is waiting for it. */
  deliver(response: JsonRpcResponse): boolean {
    if (response.id === null || !this.carriers.has(response.id)) return false;
    this.transport.push(response, 0);
    return true;
  }

  private send(frame: OutboundFrame): void {
    const message = frame.message as unknown as Record<string, unknown>;
    if (frame.info.kind === 'request') {
      const carrier = this.carriers.get(frame.info.id);
      if (!carrier) throw new Error(`${frame.info.method}: the gateway client has no open stream to receive it`);
      return this.write(message, carrier);
    }
    // notifications/cancelled of a request whose client is gone has no one to reach.
    const cancelled = message.method === 'notifications/cancelled' ? (message.params as { requestId?: RequestId } | undefined)?.requestId : undefined;
    if (cancelled !== undefined && this.gone.has(cancelled)) return;
    const stream = this.standalone();
    if (stream && !stream.writableEnded) this.write(message, { kind: 'standalone', response: stream });
  }

  private write(message: Record<string, unknown>, carrier: Carrier): void {
    this.trace(message);
    if (carrier.kind === 'call') carrier.stream.sendBefore(message);
    else writeSseEvent(carrier.response, message);
  }
}
