import { Emitter } from '../../src/protocol/events';
import { Transport, TransportCloseInfo, TransportLog, TransportStats } from '../../src/protocol/transport';

/**
 * An in-memory Transport whose far end is the test: `sent` holds what the connection wrote,
 * `deliver()` plays an inbound frame, `exit()` simulates the server going away.
 */
export class MemoryTransport implements Transport {
  readonly sent: any[] = [];
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

  async send(json: string): Promise<void> {
    if (this.closed) throw new Error('closed');
    const message = JSON.parse(json);
    this.sent.push(message);
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

  exit(info: Partial<TransportCloseInfo> = {}): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.closes.fire({ reason: 'exited', code: 1, signal: null, stderrTail: [], ...info });
  }

  async close(): Promise<void> {
    this.exit({ reason: 'closed', code: 0 });
  }

  stats(): TransportStats {
    return { bytesSent: 0, bytesReceived: 0, messagesSent: this.sent.length, messagesReceived: 0, noiseLines: 0 };
  }

  dispose(): void {
    void this.close();
  }
}
