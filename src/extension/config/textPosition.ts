// Offsets in a configuration file as editor positions. Pure, no `vscode`.

/** The 0-based line and character (UTF-16) of `offset` in `text`; CR, LF and CRLF end lines. */
export function offsetToPosition(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) {
        if (i + 1 >= end) break; // offset points between CR and LF: still on this line
        i++;
      }
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: end - lineStart };
}
