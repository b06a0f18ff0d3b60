// A transport over something that is not a byte stream: messages go out through a function and
// come in through push(). It lets a JsonRpcConnection (ids, timeouts, cancellation, late answers)
// run over an MCP App view's message port or a gateway client's HTTP streams.
import { Emitter, Event } from './events';
import { OutboundFrame, Transport, TransportCloseInfo, TransportLog, TransportStats } from './transport';

export class PushTransport implements Transport {
  private readonly _onMessage = new Emitter<{ readonly message: unknown; readonly bytes: number }>();
  readonly onMessage: Event<{ readonly message: unknown; readonly bytes: number }> = this._onMessage.event;
  private readonly _onClose = new Emitter<TransportCloseInfo>();
  readonly onClose: Event<TransportCloseInfo> = this._onClose.event;
  private readonly _onLog = new Emitter<TransportLog>();
  readonly onLog: Event<TransportLog> = this._onLog.event;
  private closed = false;
  private sent = 0;
  private received = 0;

  constructor(
    /** Delivers one outbound frame; a rejection fails the request it carries. */
    private readonly out: (frame: OutboundFrame) => void | Promise<void>,
    /** The error of a send after close. */
    private readonly closedError: () => Error,
  ) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(frame: OutboundFrame): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    this.sent++;
    try {
      return Promise.resolve(this.out(frame));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** One inbound message, with its size when known. */
  push(message: unknown, bytes: number): void {
    if (this.closed) return;
    this.received++;
    this._onMessage.fire({ message, bytes });
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this._onClose.fire({ reason: { kind: 'closed-by-client' } });
    }
    return Promise.resolve();
  }

  stats(): TransportStats {
    return { bytesSent: 0, bytesReceived: 0, messagesSent: this.sent, messagesReceived: this.received, noiseLines: 0 };
  }

  dispose(): void {
    void this.close();
    this._onMessage.dispose();
    this._onClose.dispose();
    this._onLog.dispose();
  }
}
