import { Emitter } from '../../src/protocol/events';
import { OutboundFrame, OutboundKind, Transport, TransportCloseInfo, TransportLog, TransportStats } from '../../src/protocol/transport';

/**
 * An in-memory Transport whose far end is the test: `sent` holds what the connection wrote,
 * `deliver()` plays an inbound frame, `exit()` simulates the server going away.
 */
export class MemoryTransport implements Transport {
  readonly sent: any[] = [];
  /** What the connection said each sent message is, in order. */
  readonly kinds: OutboundKind[] = [];
  /** The version the client negotiated, once it told us. */
  protocolVersion: string | undefined;
  private waiters: Array<{ match: (m: any) => boolean; resolve: (m: any) => void }> = [];
  private closed = false;
  // A real transport holds the event loop open (a pipe, a process); so does this one while open.
  private readonly keepAlive = setInterval(() => {}, 1 << 30);
  private readonly messages = new Emitter<{ message: unknown; bytes: number }>();
  private readonly closes = new Emitter<TransportCloseInfo>();
  private readonly logs = new Emitter<TransportLog>();
  readonly onMessage = this.messages.event;
  readonly onClose = this.closes.event;
  readonly onLog = this.logs.event;

  async start(): Promise<void> {}

  /** When set, the next send fails with it (as an HTTP transport fails a POST the server refused). */
  failNextSend: Error | undefined;

  async send(frame: OutboundFrame): Promise<void> {
    if (this.closed) throw new Error('closed');
    const failure = this.failNextSend;
    this.failNextSend = undefined;
    if (failure) throw failure;
    // Parsed from the text, so a test sees what went on the wire.
    const message = JSON.parse(frame.json);
    this.sent.push(message);
    this.kinds.push(frame.info);
    for (const w of this.waiters.slice()) {
      if (w.match(message)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  }

  /** Resolves with the first sent message (already sent or future) that matches. */
  next(match: (m: any) => boolean, timeoutMs = 2000): Promise<any> {
    const found = this.sent.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching message was sent')), timeoutMs);
      this.waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  deliver(message: unknown): void {
    this.messages.fire({ message, bytes: JSON.stringify(message).length });
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** The server process "exits" with `code` (default 1). */
  exit(exit: { code?: number; signal?: string; stderrTail?: string[] } = {}): void {
    this.fireClose({ reason: { kind: 'process-exited', code: exit.code ?? 1, signal: exit.signal ?? null }, process: { stderrTail: exit.stderrTail ?? [] } });
  }

  fireClose(info: TransportCloseInfo): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.closes.fire(info);
  }

  async close(): Promise<void> {
    this.fireClose({ reason: { kind: 'closed-by-client' } });
  }

  stats(): TransportStats {
    return { bytesSent: 0, bytesReceived: 0, messagesSent: this.sent.length, messagesReceived: 0, noiseLines: 0 };
  }

  dispose(): void {
    void this.close();
  }
}
