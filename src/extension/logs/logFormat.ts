// Pure helpers for the protocol logs: level mapping and frame formatting (redaction is
// protocol/redaction's `Redactor`, re-exported here).
// No `vscode` import, so node --test can load it; levels are VS Code's `LogLevel` numbers.
import type { LoggingLevel } from '../../client/schemas';
import { frameJson, type Frame } from '../../protocol/frame';
import type { Redactor } from '../../protocol/redaction';

export { REDACTED, Redactor, redactAuthorization } from '../../protocol/redaction';
import { formatBytes } from '../../protocol/text';
import type { LogSeverity } from '../../protocol/logging';

/** VS Code's `LogLevel` values (vscode.LogLevel.Off … Error), mirrored so this module stays pure. */
export const LogLevel = { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 } as const;
export type LogLevel = (typeof LogLevel)[keyof typeof LogLevel];

/** Maps an MCP `notifications/message` level to a LogOutputChannel method. */
export function mcpLevelToLogMethod(level: LoggingLevel): LogSeverity {
  switch (level) {
    case 'debug':
      return 'debug';
    case 'info':
    case 'notice':
      return 'info';
    case 'warning':
      return 'warn';
    case 'error':
    case 'critical':
    case 'alert':
    case 'emergency':
      return 'error';
    default: {
      const never: never = level;
      return never;
    }
  }
}

/**
 * Maps a channel's log level to the `logging/setLevel` level a server should use, so the
 * server sends no more than the channel shows. Off asks for `emergency` only.
 */
export function logLevelToMcpLevel(level: number): LoggingLevel {
  if (level <= LogLevel.Debug) return level === LogLevel.Off ? 'emergency' : 'debug';
  if (level === LogLevel.Info) return 'info';
  if (level === LogLevel.Warning) return 'warning';
  return 'error';
}

/** True when a channel at `level` shows trace output (so frames are worth building). */
export function isTraceOn(level: number): boolean {
  return level === LogLevel.Trace;
}


/** Cuts `text` to `maxChars`, noting the full size; `maxChars <= 0` means no limit. */
export function cutPayload(text: string, maxChars: number): string {
  if (maxChars <= 0 || text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)} … (cut: ${text.length} chars in full)`;
}

/**
 * One trace line for a JSON-RPC frame: `[editor → server] 123 B {json}`. Secrets are removed
 * before the payload is cut, so a cut can never leave half a secret behind.
 */
export function formatFrame(frame: Pick<Frame, 'direction' | 'message' | 'bytes' | 'text'> & { readonly omitted?: boolean }, maxChars: number, redactor?: Redactor, label?: string): string {
  const arrow = label ?? (frame.direction === 'send' ? '[editor → server]' : '[server → editor]');
  if (frame.omitted) return `${arrow} ${formatBytes(frame.bytes)} (payload not kept: larger than the frames kept from before Trace)`;
  let json: string;
  try {
    json = frameJson(frame);
  } catch {
    json = String(frame.message);
  }
  if (redactor) json = redactor.redact(json);
  return `${arrow} ${formatBytes(frame.bytes)} ${cutPayload(json, maxChars)}`;
}

/** A time as the log channels print theirs, in local time: "2026-11-25 02:13:05.123". */
export function formatLogTime(epochMs: number): string {
  const d = new Date(epochMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/**
 * The lines that replay frames kept from before the channel was at Trace. The channel stamps
 * every line with the time it is written (the moment of the switch), so each frame line starts
 * with the time the frame was sent or received.
 */
export function formatEarlierFrames(frames: ReadonlyArray<Pick<Frame, 'direction' | 'message' | 'bytes' | 'time' | 'text'> & { readonly omitted?: boolean }>, maxChars: number, redactor?: Redactor): string[] {
  if (frames.length === 0) return [];
  return [
    `${frames.length} frame${frames.length === 1 ? '' : 's'} from before the level was Trace (the first at ${new Date(frames[0].time).toISOString()}), each after the time it was sent or received:`,
    ...frames.map((frame) => `${formatLogTime(frame.time)} ${formatFrame(frame, maxChars, redactor)}`),
    '(end of the earlier frames; new frames follow as they happen)',
  ];
}

/** Text of a `notifications/message` payload: strings as is, anything else as JSON. */
export function formatLogData(logger: string | undefined, data: unknown, maxChars: number): string {
  let text: string;
  if (typeof data === 'string') text = data;
  else {
    try {
      text = JSON.stringify(data) ?? String(data);
    } catch {
      text = String(data);
    }
  }
  text = cutPayload(text, maxChars);
  return logger ? `[${logger}] ${text}` : text;
}
