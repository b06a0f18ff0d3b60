// Shapes shared by the sampling and elicitation services.
import type { LogSeverity } from '../protocol/logging';

/** The server a request came from, as the user knows it. */
export interface ServerIdentity {
  readonly id: string;
  readonly name: string;
}

/** Writes one line to a server's output channel. */
export type ServerRequestLog = (serverId: string, level: LogSeverity, text: string) => void;

/** Shortens server text for a log line: one line, at most `max` characters. */
export function clip(text: string, max = 2000): string {
  const flat = text.replace(/\r?\n/g, '⏎');
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat;
}
