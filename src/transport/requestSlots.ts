// The cap on requests POSTed at once: a burst waits its turn instead of opening a connection per
// request. First come first served; a request aborted while waiting gives up its place.
import type { Exchange } from './httpExchange';

/** A fixed number of request slots and the exchanges waiting for one. */
export class RequestSlots {
  private used = 0;
  /** Requests waiting for a slot, first come first served (an aborted one stays until skipped). */
  private readonly queue: Exchange[] = [];

  constructor(private readonly size: number) {}

  /**
   * Takes one slot: undefined when one was free (the caller goes on at once, without waiting a
   * tick), else a promise of the slot that rejects with the exchange's abort reason when it is
   * aborted while waiting. Every slot taken must be given back with `release()`.
   */
  acquire(exchange: Exchange): Promise<void> | undefined {
    if (this.used < this.size) {
      this.used++;
      return undefined;
    }
    if (exchange.signal.aborted) return Promise.reject(exchange.signal.reason);
    return new Promise<void>((resolve, reject) => {
      exchange.waitingForSlot = (abortReason) => (abortReason === undefined ? resolve() : reject(abortReason));
      this.queue.push(exchange);
    });
  }

  /** Hands the slot to the next waiting request, if any; one aborted while waiting is skipped. */
  release(): void {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      const grant = next.waitingForSlot;
      if (!grant) continue;
      next.waitingForSlot = undefined;
      grant();
      return;
    }
    this.used--;
  }

  /** Forgets the waiting requests (each was rejected by its abort). */
  clear(): void {
    this.queue.length = 0;
  }
}
