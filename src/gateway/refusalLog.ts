// The gateway's log of refused requests, rate-limited: any local process can send thousands of
// requests without the secret, and a line for each would bury the log (and cost more than the
// refusal). The first refusal of a quiet spell is logged as it is; the rest of its window are
// counted, and one summary line per window says how many, by status.
import type { LogSeverity } from '../protocol/logging';

/** How long after a logged refusal the next ones are only counted. */
export const DEFAULT_REFUSAL_LOG_WINDOW_MS = 10_000;

export class RefusalLog {
  private timer: NodeJS.Timeout | undefined;
  /** Refusals counted (not logged) in this window, by HTTP status. */
  private counted = new Map<number, number>();

  constructor(
    private readonly log: (level: LogSeverity, text: string, serverKey?: string) => void,
    private readonly windowMs = DEFAULT_REFUSAL_LOG_WINDOW_MS,
  ) {}

  /** A refusal with `status`; `serverKey` when it is about one server's endpoint. */
  refused(status: number, level: LogSeverity, text: string, serverKey?: string): void {
    if (this.timer) {
      this.counted.set(status, (this.counted.get(status) ?? 0) + 1);
      return;
    }
    this.log(level, text, serverKey);
    this.openWindow();
  }

  /** Logs what the window counted, if anything, and stops. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.summarise();
  }

  private openWindow(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Refusals kept coming: the next window counts too, so a flood logs one line per window.
      if (this.summarise()) this.openWindow();
    }, this.windowMs);
    this.timer.unref();
  }

  /** The summary line of the window; false when it counted nothing. */
  private summarise(): boolean {
    if (this.counted.size === 0) return false;
    let total = 0;
    const parts: string[] = [];
    for (const [status, count] of [...this.counted].sort(([a], [b]) => a - b)) {
      total += count;
      parts.push(`${status} ×${count}`);
    }
    this.counted = new Map();
    const seconds = Math.max(1, Math.round(this.windowMs / 1000));
    this.log('warn', `gateway: refused ${total} more request${total === 1 ? '' : 's'} in ${seconds} s (${parts.join(', ')}); only the first of each ${seconds} s is logged in full`);
    return true;
  }
}
