// The status bar entry's text from the servers' states. Pure, no `vscode`.
import type { StatusKind } from './serverRowText';

export interface StatusCounts {
  readonly total: number;
  readonly running: number;
  readonly starting: number;
  /** Waiting for the user (consent or an input) before they can start. */
  readonly waiting: number;
  readonly error: number;
  readonly blocked: number;
  /** Remote servers waiting for the user to sign in. */
  readonly signin: number;
  readonly problems: number;
}

/** Counts of servers by state. */
export function countStatuses(kinds: readonly StatusKind[], problems: number): StatusCounts {
  const count = (k: StatusKind) => kinds.filter((x) => x === k).length;
  return { total: kinds.length, running: count('running'), starting: count('starting'), waiting: count('waiting'), error: count('error'), blocked: count('blocked'), signin: count('signin'), problems };
}

/**
 * "$(server) MCP 2 running, 1 error", or undefined when nothing is configured (the item hides).
 * `waitingFor` names what waiting servers wait for ("consent", or "you" when it may be an input).
 */
export function statusBarText(c: StatusCounts, waitingFor: 'consent' | 'you' = 'you', reconnecting = 0): string | undefined {
  if (c.total === 0 && c.problems === 0) return undefined;
  const parts = [`${c.running} running`];
  if (c.starting) parts.push(`${c.starting} starting`);
  if (c.waiting) parts.push(`${c.waiting} waiting for ${waitingFor}`);
  // Errors that are lost connections being re-established are said apart.
  if (reconnecting) parts.push(`${reconnecting} reconnecting`);
  if (c.error > reconnecting) parts.push(`${c.error - reconnecting} error${c.error - reconnecting === 1 ? '' : 's'}`);
  if (c.blocked) parts.push(`${c.blocked} blocked`);
  if (c.signin) parts.push(`${c.signin} to sign in`);
  if (c.problems) parts.push(`${c.problems} config problem${c.problems === 1 ? '' : 's'}`);
  return `$(server) MCP ${parts.join(', ')}`;
}
