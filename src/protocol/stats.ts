import { TransportStats } from './transport';

/** Latency summary of one method, in milliseconds. */
export interface MethodStats {
  readonly requests: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly cancelled: number;
  /** Latencies leave out the time the user spent answering the server (a form, a sampling dialog). */
  readonly p50?: number;
  readonly p95?: number;
  readonly max?: number;
  /** Requests during which the user was asked something, and the time the answers took in all. */
  readonly userWait: UserWaitStats;
}

/** Time spent waiting on the user while requests were in flight: counted apart from latency. */
export interface UserWaitStats {
  readonly requests: number;
  readonly totalMs: number;
}

/** A snapshot of one connection's counters, for the health view, the CLI and tests. */
export interface ConnectionStats extends TransportStats {
  readonly requestsSent: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly cancelled: number;
  readonly inFlight: number;
  /** Without the time the user spent answering the server (see `userWait`). */
  readonly latency: { readonly p50?: number; readonly p95?: number; readonly p99?: number };
  readonly userWait: UserWaitStats;
  readonly byMethod: Readonly<Record<string, MethodStats>>;
  /** Milliseconds since the transport started, when it reports a start time. */
  readonly uptimeMs?: number;
}

/** Latency samples kept per method; older ones are overwritten (a ring). */
const SAMPLES = 512;

/** The newest `capacity` latencies of something, older ones overwritten (a ring). */
export class LatencySamples {
  private readonly samples: number[] = [];
  private next = 0;

  constructor(private readonly capacity = SAMPLES) {}

  add(ms: number): void {
    if (this.samples.length < this.capacity) this.samples.push(ms);
    else {
      this.samples[this.next] = ms;
      this.next = (this.next + 1) % this.capacity;
    }
  }

  /** The samples kept, in no particular order. */
  values(): readonly number[] {
    return this.samples;
  }
}

class MethodCounter extends LatencySamples {
  requests = 0;
  errors = 0;
  timeouts = 0;
  cancelled = 0;
  userWaits = 0;
  userWaitMs = 0;

  record(ms: number, userMs: number): void {
    if (userMs > 0) {
      this.userWaits++;
      this.userWaitMs += userMs;
    }
    this.add(ms);
  }
}

export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Counts requests, failures and latencies per method. Cheap enough for the hot path. */
export class ConnectionStatsCollector {
  private readonly methods = new Map<string, MethodCounter>();

  private counter(method: string): MethodCounter {
    let c = this.methods.get(method);
    if (!c) this.methods.set(method, (c = new MethodCounter()));
    return c;
  }

  requestSent(method: string): void {
    this.counter(method).requests++;
  }
  /** `ms`: the request's latency without `userMs`, the time the user spent answering the server meanwhile. */
  succeeded(method: string, ms: number, userMs = 0): void {
    this.counter(method).record(ms, userMs);
  }
  failed(method: string, ms: number, userMs = 0): void {
    const c = this.counter(method);
    c.errors++;
    c.record(ms, userMs);
  }
  timedOut(method: string): void {
    this.counter(method).timeouts++;
  }
  cancelled(method: string): void {
    this.counter(method).cancelled++;
  }

  snapshot(transport: TransportStats, inFlight: number): ConnectionStats {
    let requestsSent = 0;
    let errors = 0;
    let timeouts = 0;
    let cancelled = 0;
    let userWaits = 0;
    let userWaitMs = 0;
    const all: number[] = [];
    const byMethod: Record<string, MethodStats> = {};
    for (const [method, c] of this.methods) {
      requestsSent += c.requests;
      errors += c.errors;
      timeouts += c.timeouts;
      cancelled += c.cancelled;
      userWaits += c.userWaits;
      userWaitMs += c.userWaitMs;
      const sorted = [...c.values()].sort((a, b) => a - b);
      all.push(...sorted);
      byMethod[method] = {
        requests: c.requests,
        errors: c.errors,
        timeouts: c.timeouts,
        cancelled: c.cancelled,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        max: sorted[sorted.length - 1],
        userWait: { requests: c.userWaits, totalMs: c.userWaitMs },
      };
    }
    all.sort((a, b) => a - b);
    return {
      ...transport,
      requestsSent,
      errors,
      timeouts,
      cancelled,
      inFlight,
      latency: { p50: percentile(all, 50), p95: percentile(all, 95), p99: percentile(all, 99) },
      userWait: { requests: userWaits, totalMs: userWaitMs },
      byMethod,
      uptimeMs: transport.startedAt === undefined ? undefined : Date.now() - transport.startedAt,
    };
  }
}
