// The tree's times in words ("12s ago"), when such a text next changes, the Roots row's
// description. Pure, no `vscode`.
/** "just now", "12s ago", "3m ago", "2h ago", or the date and time for anything older than a day. */
export function relativeTime(time: number, now: number): string {
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 2) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  return new Date(time).toLocaleString();
}

/**
 * When `relativeTime(time, …)` next reads differently: in a second while it counts seconds, at the
 * next minute while it counts minutes, the next hour while hours; never once it is a date.
 */
export function relativeTimeChangesAt(time: number, now: number): number | undefined {
  const seconds = Math.round((now - time) / 1000);
  // round(x / 1000) reaches n when x reaches n·1000 − 500.
  const at = (s: number) => time + s * 1000 - 500;
  if (seconds < 2) return at(2);
  if (seconds < 60) return at(seconds + 1);
  if (seconds < 3600) return at((Math.floor(seconds / 60) + 1) * 60);
  if (seconds < 86400) return at((Math.floor(seconds / 3600) + 1) * 3600);
  return undefined;
}

/** Description of the "Roots" node. */
export function rootsDescription(count: number, askedAt: number | undefined, now: number): string {
  const given = `${count} root${count === 1 ? '' : 's'}`;
  return askedAt === undefined ? `${given} · not asked yet` : `${given} · asked ${relativeTime(askedAt, now)}`;
}
