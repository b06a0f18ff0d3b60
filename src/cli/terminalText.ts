// What the CLI writes is partly the server's text (names, descriptions, results, error messages,
// stderr lines, traced frames), and a terminal obeys the control characters in it: OSC 0 sets the
// window title, OSC 52 writes the clipboard, OSC 8 hides a link behind text, CSI moves the cursor
// to overwrite or hide lines, a carriage return rewrites the line it is on. Every write goes
// through `terminalSafe`, which shows such characters as `\u001b`-style escapes.

/**
 * C0 controls but tab and line feed, DEL, C1 controls (U+0080–U+009F: a terminal may read U+009B
 * as CSI), and the bidirectional overrides and isolates that reorder what a line shows.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character except `\n` and `\t` written as a `\uXXXX` escape, and CRLF
 * line ends as `\n`. ESC is escaped, so no escape sequence survives. In JSON text (`--json`) it
 * changes no value: the escapes are JSON's own, and JSON.stringify never leaves C0 raw.
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
