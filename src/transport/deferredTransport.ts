// A transport whose code is loaded when it starts. The extension's bundle build (esbuild.mjs)
// puts a module reached only through `import()` into a file of its own, so the HTTP transports
// (and eventsource-parser) are read on the first remote server's start, and the stdio transport
// on the first local one's, not at activation.
import type { ToolHeaderDeclaration } from '../protocol/httpHeaders';
import { OutboundFrame, Transport, TransportStats } from '../protocol/transport';
import { RelayedEvents } from './relayedEvents';

/**
 * Stands for the transport `load()` gives, which it loads on `start()` (or `close()`), then
 * forwards every call and event to it. Before then it has sent and received nothing; the
 * protocol version and tool headers set meanwhile are handed over when it loads.
 */
export class DeferredTransport implements Transport {
  private readonly events = new RelayedEvents();
  readonly onMessage = this.events.onMessage;
  readonly onClose = this.events.onClose;
  readonly onLog = this.events.onLog;

  private loading: Promise<Transport> | undefined;
  private inner: Transport | undefined;
  private protocolVersion: string | undefined;
  private toolHeaders: ReadonlyMap<string, readonly ToolHeaderDeclaration[]> | undefined;

  constructor(private readonly load: () => Promise<Transport>) {}

  async start(): Promise<void> {
    return (await this.loaded()).start();
  }

  send(frame: OutboundFrame): Promise<void> {
    // The client sends only after start(), so the transport is there.
    return this.inner ? this.inner.send(frame) : this.loaded().then((t) => t.send(frame));
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner?.setProtocolVersion?.(version);
  }

  /** As the loaded transport; false before it loads (nothing was listed yet). */
  get mirrorsToolHeaders(): boolean {
    return this.inner?.mirrorsToolHeaders === true;
  }

  setToolHeaders(declarations: ReadonlyMap<string, readonly ToolHeaderDeclaration[]>): void {
    this.toolHeaders = declarations;
    this.inner?.setToolHeaders?.(declarations);
  }

  async close(): Promise<void> {
    return (await this.loaded()).close();
  }

  dispose(): void {
    void this.close()
      .catch(() => {})
      .finally(() => {
        this.events.dispose();
        this.inner?.dispose();
      });
  }

  stats(): TransportStats {
    return this.inner?.stats() ?? { bytesSent: 0, bytesReceived: 0, messagesSent: 0, messagesReceived: 0, noiseLines: 0 };
  }

  private loaded(): Promise<Transport> {
    return (this.loading ??= this.load().then((transport) => {
      this.events.follow(transport);
      if (this.protocolVersion !== undefined) transport.setProtocolVersion?.(this.protocolVersion);
      if (this.toolHeaders !== undefined) transport.setToolHeaders?.(this.toolHeaders);
      this.inner = transport;
      return transport;
    }));
  }
}
