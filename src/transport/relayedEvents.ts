// The events of a transport that stands for another: one loaded on start (DeferredTransport) or
// swapped for a fallback (HttpFallbackTransport).
import { Disposable, DisposableStore } from '../protocol/disposable';
import { Emitter } from '../protocol/events';
import type { Transport, TransportCloseInfo, TransportLog } from '../protocol/transport';
import type { InboundMessage } from './httpChannel';

/** onMessage, onClose and onLog that fire what the followed transport fires. */
export class RelayedEvents implements Disposable {
  private readonly _onMessage = new Emitter<InboundMessage>();
  private readonly _onClose = new Emitter<TransportCloseInfo>();
  private readonly _onLog = new Emitter<TransportLog>();
  readonly onMessage = this._onMessage.event;
  readonly onClose = this._onClose.event;
  readonly onLog = this._onLog.event;
  private forwarding = new DisposableStore();

  /** Forwards the events of `transport` from now on; those of the one followed before are dropped. */
  follow<T extends Transport>(transport: T): T {
    this.forwarding.dispose();
    const store = (this.forwarding = new DisposableStore());
    store.add(transport.onMessage((m) => this._onMessage.fire(m)));
    store.add(transport.onLog((l) => this._onLog.fire(l)));
    store.add(transport.onClose((c) => this._onClose.fire(c)));
    return transport;
  }

  /** A log line of the standing-in transport itself. */
  log(line: TransportLog): void {
    this._onLog.fire(line);
  }

  dispose(): void {
    this.forwarding.dispose();
    this._onMessage.dispose();
    this._onClose.dispose();
    this._onLog.dispose();
  }
}
