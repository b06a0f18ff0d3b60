// One dialog at a time per server. Requests that ask the user something (sampling, elicitation)
// run through a lane keyed by server id: the first runs, the next ones wait their turn, and past
// `maxQueued` waiting a request is refused at once, so a server that floods gets errors instead
// of a stack of dialogs. A request whose signal aborts (the server sent notifications/cancelled)
// leaves the line; a running one sees its signal and closes its dialog.
import { raceAbort } from '../protocol/cancellation';
import { Disposable } from '../protocol/disposable';
import { McpLocalError } from '../protocol/errors';
import { Emitter, Event } from '../protocol/events';

/**
 * Where the limit comes from, for log lines. One lane holds both kinds of request, so the
 * setting (named `sampling.` for history) limits elicitation too; the log says so.
 */
export const QUEUE_LIMIT_NOTE = 'sampling and elicitation requests share this limit: setting mcpHost.sampling.maxQueued';

/** The lane already holds `limit` waiting requests. */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
  constructor(
    readonly key: string,
    readonly limit: number,
  ) {
    super(`${limit === 0 ? 'no request may wait' : limit === 1 ? '1 request already waits' : `${limit} requests already wait`} behind the open dialog`);
  }
}

/** The request was cancelled before its turn came. */
export class QueueCancelledError extends Error {
  override readonly name = 'QueueCancelledError';
  constructor(readonly reason: string) {
    super(`cancelled while waiting: ${reason}`);
  }
}

/** What a lane holds right now. */
export interface LaneState {
  readonly key: string;
  readonly running: boolean;
  readonly waiting: number;
}

interface Waiter {
  readonly start: () => void;
  readonly signal: AbortSignal;
}

interface Lane {
  running: boolean;
  readonly waiting: Waiter[];
}

export function abortReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : typeof r === 'string' ? r : 'cancelled';
}

/** Settles with `promise`, or rejects with a QueueCancelledError as soon as `signal` aborts (the dialog closes on its own). */
export function untilCancelled<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return raceAbort(promise, signal, () => new QueueCancelledError(abortReason(signal)));
}

/**
 * True when the request was closed on this side (the call it came with ended; see
 * RequestContext.signal), not cancelled by the server.
 */
export function closedByClient(signal: AbortSignal): boolean {
  return McpLocalError.is(signal.reason, 'cancelled');
}

/** The log line for a request whose signal aborted. */
export function describeAbort(signal: AbortSignal): string {
  return closedByClient(signal) ? `closed: ${abortReason(signal)}; MCP Host answers with an error` : `cancelled by the server (${abortReason(signal)}); no answer is sent`;
}

export class DialogQueue implements Disposable {
  private readonly lanes = new Map<string, Lane>();
  private readonly _onDidChange = new Emitter<LaneState>();
  /** A lane started, finished or changed its line (for "2 more waiting" in the UI). */
  readonly onDidChange: Event<LaneState> = this._onDidChange.event;

  /** `maxQueued` is read at each request, so a settings change applies to the next one. */
  constructor(private readonly maxQueued: () => number) {}

  /**
   * Runs `task` once nothing else of `key` runs. Rejects with QueueFullError when the line is
   * full, with QueueCancelledError when `signal` aborts before the turn came; otherwise settles
   * like `task`. The task gets the same signal: it must close its dialog when it aborts.
   */
  run<T>(key: string, signal: AbortSignal, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(new QueueCancelledError(abortReason(signal)));
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { running: false, waiting: [] };
      this.lanes.set(key, lane);
    }
    const current = lane;
    const execute = (): Promise<T> => {
      current.running = true;
      this.fire(key, current);
      let result: Promise<T>;
      try {
        result = task(signal);
      } catch (error) {
        result = Promise.reject(error);
      }
      return result.finally(() => this.next(key, current));
    };
    if (!current.running) return execute();

    const limit = Math.max(0, Math.floor(this.maxQueued()));
    if (current.waiting.length >= limit) return Promise.reject(new QueueFullError(key, limit));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const i = current.waiting.indexOf(waiter);
        if (i >= 0) current.waiting.splice(i, 1);
        this.fire(key, current);
        reject(new QueueCancelledError(abortReason(signal)));
      };
      const waiter: Waiter = {
        signal,
        start: () => {
          signal.removeEventListener('abort', onAbort);
          execute().then(resolve, reject);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      current.waiting.push(waiter);
      this.fire(key, current);
    });
  }

  /** What `key`'s lane holds. */
  state(key: string): LaneState {
    const lane = this.lanes.get(key);
    return { key, running: lane?.running ?? false, waiting: lane?.waiting.length ?? 0 };
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  private next(key: string, lane: Lane): void {
    lane.running = false;
    // Waiters that aborted removed themselves; the first left is next.
    const waiter = lane.waiting.shift();
    if (waiter) {
      waiter.start();
      return;
    }
    if (this.lanes.get(key) === lane) this.lanes.delete(key);
    this.fire(key, lane);
  }

  private fire(key: string, lane: Lane): void {
    this._onDidChange.fire({ key, running: lane.running, waiting: lane.waiting.length });
  }
}
