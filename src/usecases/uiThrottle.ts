// A server decides how often it sends progress and `notifications/resources/updated`; the UI must
// not do work per notification (a flooding server would post thousands of webview messages,
// re-read a resource thousands of times, pop thousands of toasts). Two small shapes the VS Code
// layer uses: a throttle that delivers the newest value at most once per interval, and a
// collapser that keeps one notice per key open with the count of what it stands for.
// No `vscode` import; timers are injected so tests can drive them.
import type { Disposable } from '../protocol/disposable';

/** The timer functions used (the global ones by default). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const globalTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How often progress reaches the screen: about the rate a person can follow. */
export const PROGRESS_INTERVAL_MS = 100;

interface Lane<T> {
  timer: unknown;
  pending?: { readonly value: T };
}

/**
 * Delivers values per key at most once per `intervalMs`: the first at once, then, at the end of
 * each interval, the newest that arrived during it (older ones are dropped). `flush` delivers
 * the pending value now, so the final value is never lost.
 */
export class LatestValueThrottle<K, T> implements Disposable {
  private readonly lanes = new Map<K, Lane<T>>();

  constructor(
    private readonly deliver: (key: K, value: T) => void,
    private readonly intervalMs: number,
    private readonly timers: Timers = globalTimers,
  ) {}

  push(key: K, value: T): void {
    const lane = this.lanes.get(key);
    if (lane) {
      lane.pending = { value };
      return;
    }
    this.lanes.set(key, { timer: this.timers.setTimeout(() => this.tick(key), this.intervalMs) });
    this.deliver(key, value);
  }

  /** Delivers what is pending for `key` at once and forgets the key (the next push is delivered at once). */
  flush(key: K): void {
    const lane = this.lanes.get(key);
    if (!lane) return;
    this.timers.clearTimeout(lane.timer);
    this.lanes.delete(key);
    if (lane.pending) this.deliver(key, lane.pending.value);
  }

  private tick(key: K): void {
    const lane = this.lanes.get(key);
    if (!lane) return;
    if (!lane.pending) {
      // A quiet interval: the next value goes out at once.
      this.lanes.delete(key);
      return;
    }
    const { value } = lane.pending;
    lane.pending = undefined;
    lane.timer = this.timers.setTimeout(() => this.tick(key), this.intervalMs);
    this.deliver(key, value);
  }

  /** Drops everything pending. */
  dispose(): void {
    for (const lane of this.lanes.values()) this.timers.clearTimeout(lane.timer);
    this.lanes.clear();
  }
}

interface NoticeState {
  count: number;
  timer?: unknown;
  showing: boolean;
}

/**
 * Collapses repeated notices per key: events within `gatherMs` make one notice with their count,
 * and while a notice for a key is open (until the promise `show` returned settles) further events
 * are only counted, and shown as one notice when it closes. At most one notice per key is open.
 */
export class NoticeCollapser<K> implements Disposable {
  private readonly states = new Map<K, NoticeState>();
  private disposed = false;

  constructor(
    private readonly show: (key: K, count: number) => PromiseLike<unknown>,
    private readonly gatherMs: number,
    private readonly timers: Timers = globalTimers,
  ) {}

  add(key: K): void {
    if (this.disposed) return;
    let state = this.states.get(key);
    if (!state) this.states.set(key, (state = { count: 0, showing: false }));
    state.count++;
    if (!state.showing && state.timer === undefined) state.timer = this.timers.setTimeout(() => this.open(key), this.gatherMs);
  }

  private open(key: K): void {
    const state = this.states.get(key);
    if (!state || this.disposed) return;
    state.timer = undefined;
    const count = state.count;
    state.count = 0;
    state.showing = true;
    const closed = () => {
      state.showing = false;
      if (this.disposed) return;
      if (state.count > 0) state.timer = this.timers.setTimeout(() => this.open(key), this.gatherMs);
      else this.states.delete(key);
    };
    Promise.resolve(this.show(key, count)).then(closed, closed);
  }

  dispose(): void {
    this.disposed = true;
    for (const state of this.states.values()) if (state.timer !== undefined) this.timers.clearTimeout(state.timer);
    this.states.clear();
  }
}
