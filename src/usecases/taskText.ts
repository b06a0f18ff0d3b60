// How a task's state reads in one line, wherever the editor shows it (the tree row, the chat's
// progress line, the completion notice): `working · Gathering sources… · 12 s · 2/4`.
import type { Progress } from '../protocol/connection';
import type { TaskStatus } from '../client/schemas';
import type { TaskUpdate } from '../client/tasks';
import { truncate } from '../protocol/text';

/** What a line about a task says. */
export interface TaskState {
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly elapsedMs: number;
  /** `minutes` where the line must keep still while it runs (a tree row whose buttons are clicked). */
  readonly elapsedPrecision?: ElapsedPrecision;
  readonly progress?: Progress;
  /** It ended while nothing showed it (TaskEntry.unseen): the line starts with UNSEEN_MARK. */
  readonly unseen?: boolean;
}

/** The start of the line of a task that ended unseen (its notice may have gone unread). */
export const UNSEEN_MARK = '● not opened';

/** The view's badge while tasks ended unseen: their count, and where they are. */
export function unseenTasksBadge(count: number): { readonly value: number; readonly tooltip: string } | undefined {
  return count > 0 ? { value: count, tooltip: `${count} task${count === 1 ? '' : 's'} ended while no panel showed ${count === 1 ? 'it' : 'them'}: open ${count === 1 ? 'it' : 'them'} from the Tasks group` } : undefined;
}

/** How finely an elapsed time is told: `12 s`, or `under 1 min` / `3 min`. */
export type ElapsedPrecision = 'seconds' | 'minutes';

/** The state a task call reports (client/tasks.ts). */
export function taskStateOf(update: TaskUpdate): TaskState {
  const { status, statusMessage } = update.task;
  return { status, ...(statusMessage !== undefined ? { statusMessage } : {}), elapsedMs: update.elapsedMs, ...(update.progress ? { progress: update.progress } : {}) };
}

/** `status · message · elapsed · progress`, each part only when known. */
export function describeTaskState(state: TaskState): string {
  const parts: string[] = [state.status === 'input_required' ? 'waiting for input' : state.status];
  if (state.unseen) parts.unshift(UNSEEN_MARK);
  if (state.statusMessage) parts.push(truncate(state.statusMessage.trim().split(/\r?\n/, 1)[0], 120));
  parts.push(formatElapsed(state.elapsedMs, state.elapsedPrecision));
  const p = state.progress;
  if (p) parts.push(p.total !== undefined && p.total > 0 ? `${p.progress}/${p.total}` : String(p.progress));
  return parts.join(' · ');
}

/** The elapsed time (ms) at which `formatElapsed` next reads differently: the next second, or the next minute (in minutes, or once it counts hours). */
export function elapsedChangesAfter(ms: number, precision: ElapsedPrecision = 'seconds'): number {
  const step = precision === 'seconds' && ms < 3_600_000 ? 1000 : 60_000;
  return (Math.floor(Math.max(0, ms) / step) + 1) * step;
}

/** `850 ms`, `12 s`, `3 min 5 s`, `2 h 4 min`; in minutes `under 1 min`, `3 min`, `2 h 4 min`. */
export function formatElapsed(ms: number, precision: ElapsedPrecision = 'seconds'): string {
  if (precision === 'minutes' && ms < 3_600_000) return ms < 60_000 ? 'under 1 min' : `${Math.floor(ms / 60_000)} min`;
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * The tree's Tasks group in a few words: `3 running · 2 recent`, and when the server's tasks/list
 * was cut short, how many were kept and that the rest were left (`unlisted`: the store's note).
 */
export function describeTaskGroup(tasks: readonly Pick<TaskState, 'status'>[], unlisted?: string): { description: string; tooltip?: string } {
  const running = tasks.filter((t) => t.status === 'working' || t.status === 'input_required').length;
  const counts = tasks.length === 0 ? 'none' : running ? `${running} running${tasks.length > running ? ` · ${tasks.length - running} recent` : ''}` : `${tasks.length} recent`;
  if (!unlisted) return { description: counts };
  return { description: `${counts} · more on the server, not listed`, tooltip: `tasks/list ${unlisted}. Only tasks open in a panel are followed; the rest are listed again now and then.` };
}
