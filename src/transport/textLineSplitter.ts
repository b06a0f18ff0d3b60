import { StringDecoder } from 'node:string_decoder';

/** Default cap on one delivered line, in UTF-16 code units; the rest of a longer line is cut. */
export const DEFAULT_MAX_LINE_CHARS = 16 * 1024;

/**
 * Splits a byte stream of human-readable text (a server's stderr) into lines.
 * UTF-8 safe across chunks; accepts `\r\n`; skips empty lines; a line longer than the cap is
 * cut and marked, so a runaway writer cannot grow memory without bound.
 */
export class TextLineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private truncated = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineChars = DEFAULT_MAX_LINE_CHARS,
  ) {}

  /** Feeds received bytes; complete lines are delivered synchronously. */
  push(chunk: Buffer): void {
    this.pushText(this.decoder.write(chunk));
  }

  /** Ends the stream and delivers a final line without a newline. */
  end(): void {
    this.pushText(this.decoder.end());
    this.flushLine();
  }

  private pushText(text: string): void {
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      this.append(text, start, newline);
      this.flushLine();
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    this.append(text, start, text.length);
  }

  private append(text: string, start: number, end: number): void {
    if (this.truncated || start === end) return;
    const room = this.maxLineChars - this.partial.length;
    if (end - start > room) {
      end = start + room;
      this.truncated = true;
    }
    this.partial += text.slice(start, end);
  }

  private flushLine(): void {
    let line = this.partial;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (this.truncated) line += ' … [line truncated]';
    this.partial = '';
    this.truncated = false;
    if (line.length > 0) this.onLine(line);
  }
}
