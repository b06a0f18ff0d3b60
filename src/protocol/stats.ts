import { TransportStats } from './transport';

/** Latency summary of one method, in milliseconds. */
export interface MethodStats {
  readonly requests: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly cancelled: number;
  readonly p50?: number;
  readonly p95?: number;
  readonly max?: number;
}

/** A snapshot of one connection's counters, for the health view, the CLI and tests. */
export interface ConnectionStats extends TransportStats {
  readonly requestsSent: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly cancelled: number;
  readonly inFlight: number;
  readonly latency: { readonly p50?: number; readonly p95?: number; readonly p99?: number };
  readonly byMethod: Readonly<Record<string, MethodStats>>;
  /** Milliseconds since the transport started, when it reports a start time. */
  readonly uptimeMs?: number;
}

/** Latency samples kept per method; older ones are overwritten (a ring). */
const SAMPLES = 512;

class MethodCounter {
  requests = 0;
  errors = 0;
  timeouts = 0;
  cancelled = 0;
  private readonly samples: number[] = [];
  private next = 0;

  record(ms: number): void {
    if (this.samples.length < SAMPLES) this.samples.push(ms);
    else {
      this.samples[this.next] = ms;
      this.next = (this.next + 1) % SAMPLES;
    }
  }

  values(): readonly number[] {
    return this.samples;
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
  succeeded(method: string, ms: number): void {
    this.counter(method).record(ms);
  }
  failed(method: string, ms: number): void {
    const c = this.counter(method);
    c.errors++;
    c.record(ms);
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
    const all: number[] = [];
    const byMethod: Record<string, MethodStats> = {};
    for (const [method, c] of this.methods) {
      requestsSent += c.requests;
      errors += c.errors;
      timeouts += c.timeouts;
      cancelled += c.cancelled;
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
      byMethod,
      uptimeMs: transport.startedAt === undefined ? undefined : Date.now() - transport.startedAt,
    };
  }
}
