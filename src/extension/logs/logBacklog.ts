// The lines a server's output channel has yet to write. VS Code's log call costs more than
// everything else a line costs, so lines wait here and are written a few per turn, as many as
// LineBudget finds fit in a few milliseconds. A server that floods faster than the channel writes
// would grow this without end, so the backlog is bounded: past its limit, the oldest droppable
// lines go (counted), in one pass that halves it.
// A turn's lines go to VS Code in one log call (joinLogEntries): its file logger writes and flushes
// each call on its own, so 200,000 calls of a flood cost ten times what a few thousand do.
// No `vscode`: the policies are tested on their own (test/extension/logs/logBacklog.test.ts).
import type { LogSeverity } from '../../protocol/logging';
import { LogLevel, formatLogTime } from './logFormat';

/** What may be dropped first: 'frame' lines (Record Session and the timeline keep every frame), then 'message' lines; 'keep' lines never. */
export type BacklogLineKind = 'frame' | 'message' | 'keep';

export interface BacklogDrops {
  readonly frames: number;
  readonly messages: number;
}

export class LogBacklog<Line> {
  private lines: Line[] = [];
  private head = 0;
  private droppedFrames = 0;
  private droppedMessages = 0;
  /** The waiting count that starts the next drop: above the limit while 'keep' lines fill it. */
  private dropAt: number;

  constructor(
    private readonly kindOf: (line: Line) => BacklogLineKind,
    private readonly limit = 10_000,
  ) {
    this.dropAt = limit;
  }

  get size(): number {
    return this.lines.length - this.head;
  }

  push(line: Line): void {
    this.lines.push(line);
    if (this.size > this.dropAt) this.dropOldest();
  }

  /** Takes up to `max` of the oldest lines, in order. */
  take(max: number): Line[] {
    const end = Math.min(this.lines.length, this.head + max);
    const out = this.lines.slice(this.head, end);
    this.head = end;
    if (this.head === this.lines.length) {
      this.lines = [];
      this.head = 0;
      this.dropAt = this.limit;
    } else if (this.head > 4096 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
    return out;
  }

  /** What was dropped since the last call (then counts again from zero). */
  takeDrops(): BacklogDrops | undefined {
    if (this.droppedFrames === 0 && this.droppedMessages === 0) return undefined;
    const drops = { frames: this.droppedFrames, messages: this.droppedMessages };
    this.droppedFrames = this.droppedMessages = 0;
    return drops;
  }

  clear(): void {
    this.lines = [];
    this.head = 0;
    this.dropAt = this.limit;
  }

  /**
   * Brings the backlog down to half the limit in one pass: the oldest frame lines first, then the
   * oldest message lines; 'keep' lines stay. Each pass halves the backlog, so a flood costs one
   * pass per limit / 2 lines, never one per line.
   */
  private dropOldest(): void {
    let frames = 0;
    let messages = 0;
    for (let i = this.head; i < this.lines.length; i++) {
      const kind = this.kindOf(this.lines[i]);
      if (kind === 'frame') frames++;
      else if (kind === 'message') messages++;
    }
    const excess = this.size - Math.floor(this.limit / 2);
    let framesToDrop = Math.min(frames, excess);
    let messagesToDrop = Math.min(messages, excess - framesToDrop);
    this.droppedFrames += framesToDrop;
    this.droppedMessages += messagesToDrop;
    const kept: Line[] = [];
    for (let i = this.head; i < this.lines.length; i++) {
      const line = this.lines[i];
      const kind = this.kindOf(line);
      if (kind === 'frame' ? framesToDrop-- > 0 : kind === 'message' && messagesToDrop-- > 0) continue;
      kept.push(line);
    }
    this.lines = kept;
    this.head = 0;
    this.dropAt = Math.max(this.limit, kept.length + Math.floor(this.limit / 2));
  }
}

/**
 * How many lines the next turn writes: a turn's lines cost what VS Code's log then does with them
 * (it writes each in a microtask after the call, into a file logger that blocks while its queue is
 * full), so the count follows the measured time: halved after a turn over the budget, grown a
 * little after one well under it. The ceiling is 1,000 lines: joined into one call a line costs
 * about 5 µs (measured in the extension host during the editor benchmark's flood), and with the
 * old ceiling of 200 a flood's backlog filled to its limit, 10,000 lines that each lived through
 * the garbage collector's young-generation pauses; now it peaks at 2,000–8,000.
 */
export class LineBudget {
  private lines: number;

  constructor(
    private readonly budgetMs = 8,
    private readonly min = 8,
    private readonly max = 1000,
  ) {
    this.lines = Math.min(max, Math.max(min, 32));
  }

  /** Lines to write this turn. */
  get size(): number {
    return this.lines;
  }

  /** A turn wrote `written` lines in `ms`, VS Code's work on them included. */
  measured(ms: number, written: number): void {
    if (ms > this.budgetMs) this.lines = Math.max(this.min, Math.floor(this.lines / 2));
    else if (written >= this.lines && ms < this.budgetMs / 2) this.lines = Math.min(this.max, this.lines + this.min);
  }
}

/** A line for the channel: its level and its text, redacted. */
export interface LogEntry {
  readonly level: LogSeverity;
  readonly text: string;
}

const SEVERITY_LEVELS: Readonly<Record<LogSeverity, LogLevel>> = { trace: LogLevel.Trace, debug: LogLevel.Debug, info: LogLevel.Info, warn: LogLevel.Warning, error: LogLevel.Error };

/** Whether a channel at `channelLevel` (VS Code's LogLevel) shows a line of `level`. */
export function channelShows(channelLevel: number, level: LogSeverity): boolean {
  return channelLevel !== LogLevel.Off && SEVERITY_LEVELS[level] >= channelLevel;
}

/** The level names of VS Code's log files (its file logger's), which its Output view reads back. */
const FILE_LEVEL_NAMES: Readonly<Record<LogSeverity, string>> = { trace: 'trace', debug: 'debug', info: 'info', warn: 'warning', error: 'error' };

/**
 * Several entries as the text of one log call at the first entry's level. VS Code stamps the call
 * with its time and level; each further entry starts a line stamped the same way (the time of the
 * call, its own level), so the channel's file reads as if each had been a call of its own, and the
 * Output view's level filter still tells them apart. The caller passes only entries the channel
 * shows at its level: VS Code filters the call by the first entry's level alone.
 */
export function joinLogEntries(entries: readonly LogEntry[], now: number): string {
  if (entries.length === 1) return entries[0].text;
  const stamp = formatLogTime(now);
  let text = entries[0].text;
  for (let i = 1; i < entries.length; i++) text += `\n${stamp} [${FILE_LEVEL_NAMES[entries[i].level]}] ${entries[i].text}`;
  return text;
}
