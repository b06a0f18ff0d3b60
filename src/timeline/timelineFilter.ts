// Which timeline items are shown: by server, method, text, direction, errors and slowness (a call
// slower than the 95th percentile of its method). A session marker follows only the server filter;
// progress drawn along a call follows its call.
import type { ItemSummary } from './timelineModel';

export interface TimelineFilter {
  /** Servers shown; undefined shows all. */
  readonly servers?: readonly string[];
  /** Methods shown; undefined or empty shows all. */
  readonly methods?: readonly string[];
  /** Case-insensitive text the method or the name contains. */
  readonly text?: string;
  /** Who started it: `send` is the editor (its calls, its notifications), `receive` the server. */
  readonly direction?: 'all' | 'send' | 'receive';
  /** Only failed items (error answers, tool results with isError, frames that answer nothing known). */
  readonly errors?: boolean;
  /** Only answered calls slower than the p95 of their method. */
  readonly slow?: boolean;
}

export const NO_FILTER: TimelineFilter = {};

/** True when the filter lets everything through. */
export function isEmptyFilter(filter: TimelineFilter): boolean {
  return filter.servers === undefined && !filter.methods?.length && !filter.text && (filter.direction ?? 'all') === 'all' && !filter.errors && !filter.slow;
}

/**
 * The filter as a test of one item. `p95` gives a method's 95th percentile latency; `parent`
 * finds the call a progress item belongs to (progress is shown exactly when its call is).
 */
export function itemFilter(filter: TimelineFilter, p95: (method: string) => number | undefined, parent: (item: ItemSummary) => ItemSummary | undefined): (item: ItemSummary) => boolean {
  const servers = filter.servers ? new Set(filter.servers) : undefined;
  const methods = filter.methods?.length ? new Set(filter.methods) : undefined;
  const text = filter.text?.trim().toLowerCase() || undefined;
  const direction = filter.direction ?? 'all';
  const own = (item: ItemSummary): boolean => {
    if (servers && !servers.has(item.server)) return false;
    if (item.kind === 'session') return true;
    if (methods && !methods.has(item.method)) return false;
    if (text && !item.method.toLowerCase().includes(text) && !(item.name ?? '').toLowerCase().includes(text)) return false;
    if (direction !== 'all' && item.direction !== direction) return false;
    if (filter.errors && item.status !== 'error') return false;
    if (filter.slow) {
      if (item.end === undefined || (item.kind !== 'call' && item.kind !== 'serverCall')) return false;
      const bound = p95(item.method);
      if (bound === undefined || item.end - item.start <= bound) return false;
    }
    return true;
  };
  return (item) => {
    if (item.kind === 'progress') {
      const call = parent(item);
      return call ? own(call) : own(item);
    }
    return own(item);
  };
}
