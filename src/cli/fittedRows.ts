// Rows of `name (signature)  description` fit to a terminal's width (`inspect`'s tools and
// prompts). A table would pad every row to the longest signature, and on a real server (32
// tools, some with ten parameters) each row would wrap over several mostly blank lines. Here the
// names share one column (up to a cap); the signature follows and wraps between its parameters,
// under itself; the description follows on the signature's last line when it fits there, else
// on a line of its own, and is cut to the width. Nothing is padded past its own text.

/** One row: the name, its `(signature)`, and a one-line description (may be empty). */
export type FittedRow = readonly [name: string, signature: string, description: string];

/** The width used when none is known (not a terminal, no $COLUMNS). */
export const DEFAULT_COLUMNS = 80;
/** A name column wider than this share of the width is not kept for the rows with shorter names. */
const NAME_COLUMN_SHARE = 0.35;
/** The narrowest width honoured: below it lines are cut rather than wrapped to nothing. */
const MIN_COLUMNS = 40;

export function fitRows(rows: readonly FittedRow[], indent: string, columns: number = DEFAULT_COLUMNS): string[] {
  const width = Math.max(MIN_COLUMNS, columns);
  const longest = Math.max(0, ...rows.map(([name]) => name.length));
  const nameColumn = Math.min(longest, Math.floor(width * NAME_COLUMN_SHARE));
  const out: string[] = [];
  for (const [name, signature, description] of rows) {
    // A name longer than the column gets its own line; the signature starts under the column.
    const sigStart = indent.length + nameColumn + 2;
    const lines: string[] = [];
    let line: string;
    if (name.length > nameColumn) {
      lines.push(cut(indent + name, width));
      line = ' '.repeat(sigStart);
    } else {
      line = indent + name.padEnd(nameColumn) + '  ';
    }
    for (const piece of signaturePieces(signature).flatMap((p) => (p.length > width - sigStart ? words(p) : [p]))) {
      if (line.trim().length > 0 && line.length > sigStart && line.length + piece.length > width) {
        lines.push(line.trimEnd());
        line = ' '.repeat(sigStart);
      }
      line += piece;
    }
    if (description) {
      if (line.length + 2 + description.length <= width) line += '  ' + description;
      else {
        lines.push(line.trimEnd());
        line = cut(' '.repeat(sigStart) + description, width);
      }
    }
    lines.push(cut(line.trimEnd(), width));
    out.push(...lines);
  }
  return out;
}

/** `(a: string, b?: number)` as the pieces a line may break after: `(a: string, `, `b?: number)`. */
function signaturePieces(signature: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < signature.length; i++) {
    const c = signature[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    // Break after the comma between top-level parameters only, not inside a union or tuple.
    else if (c === ',' && depth === 1 && signature[i + 1] === ' ') {
      pieces.push(signature.slice(start, i + 2));
      start = i + 2;
      i++;
    }
  }
  pieces.push(signature.slice(start));
  return pieces.filter((p) => p.length > 0);
}

/** A piece too long for a line of its own, as words (each with its following blank). */
function words(piece: string): string[] {
  return piece.match(/\S+\s*/g) ?? [piece];
}

function cut(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}
