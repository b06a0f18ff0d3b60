/**
 * The result of parsing a dotenv file: the variables, and the lines that were skipped.
 */
export interface DotenvResult {
  readonly values: Record<string, string>;
  /** 1-based line numbers of lines that could not be read, with why. */
  readonly warnings: { readonly line: number; readonly message: string }[];
}

const KEY = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*/;

/**
 * Parses dotenv text: `KEY=VALUE` lines, an optional `export ` prefix, blank lines and `#`
 * comments. Values may be double-quoted (escapes \n \r \t \" \\, may span lines), single-quoted
 * or backtick-quoted (literal, may span lines), or bare (trimmed; a `#` after whitespace starts a
 * comment, a `#` inside a word is kept so passwords and URLs survive). A later key wins.
 */
export function parseDotenv(text: string): DotenvResult {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const values: Record<string, string> = {};
  const warnings: { line: number; message: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const m = KEY.exec(trimmed);
    if (!m) {
      warnings.push({ line: lineNo, message: `skipped: expected KEY=VALUE` });
      continue;
    }
    const key = m[1];
    let rest = trimmed.slice(m[0].length);
    const quote = rest[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      // Find the closing quote, possibly on a later line.
      let body = rest.slice(1);
      let close = findClose(body, quote);
      let j = i;
      while (close < 0 && j + 1 < lines.length) {
        j++;
        body += '\n' + lines[j];
        close = findClose(body, quote);
      }
      if (close < 0) {
        warnings.push({ line: lineNo, message: `skipped ${key}: no closing ${quote}` });
        continue;
      }
      i = j;
      const after = body.slice(close + 1).trim();
      if (after !== '' && !after.startsWith('#')) warnings.push({ line: j + 1, message: `${key}: ignored text after the closing quote` });
      const raw = body.slice(0, close);
      values[key] = quote === '"' ? unescapeDouble(raw) : raw;
      continue;
    }
    const comment = rest.search(/\s#/);
    if (comment >= 0) rest = rest.slice(0, comment);
    values[key] = rest.trim();
  }
  return { values, warnings };
}

function findClose(body: string, quote: string): number {
  for (let k = 0; k < body.length; k++) {
    if (body[k] === '\\' && quote === '"') k++;
    else if (body[k] === quote) return k;
  }
  return -1;
}

function unescapeDouble(raw: string): string {
  return raw.replace(/\\([nrt"\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c));
}
