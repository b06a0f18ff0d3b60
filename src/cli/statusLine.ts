// The progress line of a running call on a terminal: redrawn in place on stderr, and kept below
// the lines printed while it shows (the server's log messages). Off when stderr is not a
// terminal, so pipes and files get whole lines only.

const CLEAR_LINE = '\r\x1b[K';

export class StatusLine {
  private current = '';

  /**
   * `write` takes text (it escapes control characters and redacts, see terminalSafe);
   * `control` takes our own escape sequences raw. `columns`: the terminal's width; undefined
   * when stderr is not a terminal (the line is never drawn).
   */
  constructor(
    private readonly write: (text: string) => void,
    private readonly control: (sequence: string) => void,
    private readonly columns: number | undefined,
  ) {}

  show(text: string): void {
    if (this.columns === undefined) return;
    // One row only: a wrapped line could not be redrawn in place.
    const width = Math.max(10, this.columns - 1);
    this.current = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    this.control(CLEAR_LINE);
    this.write(this.current);
  }

  /** Prints a whole line above the status line. */
  printLine(line: string): void {
    if (this.current) this.control(CLEAR_LINE);
    this.write(line + '\n');
    if (this.current) this.write(this.current);
  }

  clear(): void {
    if (!this.current) return;
    this.control(CLEAR_LINE);
    this.current = '';
  }
}
