// One HTTP exchange in flight: its own AbortController, and whether we ended it on purpose.
// Kept apart from the channel so the request slots and the body readers can take one without
// importing the whole channel.
import { McpLocalError } from '../protocol/errors';

/** An HTTP exchange in flight: its own AbortController, removed from the channel when done. */
export class Exchange {
  readonly controller = new AbortController();
  /** Set when we ended it on purpose (close, cancellation): its failure is not an error. */
  endedByUs = false;
  /**
   * Set while the exchange waits for a request slot: called with no argument when it gets one,
   * with the abort reason when it is aborted first. A hook rather than an abort listener: the
   * waits of a pipelined burst then add and remove no listener on the signal each.
   */
  waitingForSlot: ((abortReason?: unknown) => void) | undefined;
  constructor(readonly what: string) {}
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  abort(): void {
    this.endedByUs = true;
    this.end(new McpLocalError('closed', `${this.what}: aborted`));
  }
  /** Stops reading because of `error` (an oversize body, no answer in time): the failure stands. */
  fail(error: Error): void {
    this.end(error);
  }
  private end(reason: Error): void {
    this.controller.abort(reason);
    const waiting = this.waitingForSlot;
    this.waitingForSlot = undefined;
    waiting?.(reason);
  }
}
