// The Servers tree's rows whose text moves on its own — "asked 7s ago" under Roots, a running
// task's "working · 12 s" — or with a store that changes often (a task's status): each such row is
// redrawn alone, only when its text changed, at the pace of its precision (every second while it
// counts seconds, every minute once it counts minutes), and only while the view is visible. The
// rest of the tree holds still: a row redrawn for nothing moves the row under the pointer (a lost
// click) and costs the workbench a thousand DOM changes. No `vscode`: the tree gives the rows and
// the clock, so node --test drives it.

/** A row's text now, and when it changes next by itself (undefined: not before something else changes). */
export interface RowText {
  readonly text: string;
  readonly changesAt?: number;
}

/** A row as drawn: the node VS Code was given (a redraw must name that object), and how its text reads at a time. */
interface DrawnRow<N> {
  readonly node: N;
  text: string;
  changesAt: number | undefined;
  /** Undefined once the row is gone (its server stopped, its task dropped). */
  readonly read: (now: number) => RowText | undefined;
}

/** The clock the rows run on (injected, so tests step it). */
export interface RowClockTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_TIMERS: RowClockTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class TreeRowClock<N> {
  private readonly rows = new Map<string, DrawnRow<N>>();
  private timer: unknown;
  private timerAt: number | undefined;
  private visible = true;

  /** `redraw` gets the nodes whose text changed, together, in the order they were drawn. */
  constructor(
    private readonly redraw: (nodes: N[]) => void,
    private readonly timers: RowClockTimers = SYSTEM_TIMERS,
  ) {}

  /** The tree drew `node` under `key` (its text read now); returns that text. */
  drawn(key: string, node: N, read: (now: number) => RowText | undefined): string | undefined {
    const now = this.timers.now();
    const text = read(now);
    if (!text) {
      this.rows.delete(key);
      return undefined;
    }
    this.rows.delete(key);
    this.rows.set(key, { node, read, text: text.text, changesAt: text.changesAt });
    this.schedule();
    return text.text;
  }

  /** The node last drawn under `key`, if it still is. */
  node(key: string): N | undefined {
    return this.rows.get(key)?.node;
  }

  /** The whole tree is drawn again: every row registers anew as it is drawn. */
  clear(): void {
    this.rows.clear();
    this.schedule();
  }

  /** While the view is hidden nothing is redrawn; shown again, what changed meanwhile is. */
  setVisible(visible: boolean): void {
    if (this.visible === visible) return;
    this.visible = visible;
    if (visible) this.check();
    else this.schedule();
  }

  /**
   * Reads the rows again (those whose key `which` selects, or all) and redraws the ones whose
   * text changed since they were drawn; rows that are gone are forgotten.
   */
  check(which?: (key: string) => boolean): void {
    // Hidden, the rows keep the text they were drawn with: shown again, the difference is redrawn.
    if (!this.visible) return this.schedule();
    const now = this.timers.now();
    const changed: N[] = [];
    for (const [key, row] of this.rows) {
      if (which && !which(key)) continue;
      const text = row.read(now);
      if (!text) {
        this.rows.delete(key);
        continue;
      }
      row.changesAt = text.changesAt;
      if (text.text === row.text) continue;
      row.text = text.text;
      changed.push(row.node);
    }
    this.schedule();
    if (changed.length) this.redraw(changed);
  }

  /** One timer, at the earliest time a row's text changes by itself (none while hidden). */
  private schedule(): void {
    let next: number | undefined;
    if (this.visible) for (const row of this.rows.values()) if (row.changesAt !== undefined && (next === undefined || row.changesAt < next)) next = row.changesAt;
    if (next === this.timerAt && (next === undefined || this.timer !== undefined)) return;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = next;
    if (next === undefined) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.timerAt = undefined;
      this.check();
    }, Math.max(0, next - this.timers.now()));
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.rows.clear();
  }
}
