// The lines of a server's stderr that explain why it stopped. A server that crashes at start
// prints its reason once ("set STRIPE_SECRET_KEY", "No access token was provided") and then,
// often, a stack trace and a runtime banner: its *last* lines say nothing. So the excerpt keeps
// the first lines, every line that names something missing (a variable, key, token or file) or
// an error, and the last lines, in order, with the gaps marked. Kept as the lines stream, so a
// flood of stderr costs a bounded amount.

/** How many lines of each part an excerpt keeps. */
export interface ExcerptSizes {
  readonly head: number;
  readonly telling: number;
  readonly tail: number;
}

export const DEFAULT_EXCERPT_SIZES: ExcerptSizes = { head: 3, telling: 4, tail: 3 };

/** A frame of a stack trace (JavaScript, Python, Java, Go): never the reason itself. */
const STACK_FRAME = /^\s+(at\s|File\s"|\.\.\.\s\d+\smore)|^\s*goroutine\s\d+|^\s+\/.+\.go:\d+/;
/** Says that something is missing, refused or wrong. */
const SAYS_MISSING = /\b(missing|not\s+(been\s+)?(set|provided|found|defined|configured|specified|given)|no\b.{0,40}\b(was|were|is|are)?\s*(provided|given|set|found|specified|configured)|(is|are)\s+required|must\s+(be\s+)?(set|provided|specified|given)|please\s+(set|provide|specify|pass|supply)|ENOENT|no\s+such\s+file|(cannot|can't|could\s+not|unable\s+to)\s+(find|read|open|load)|does\s*n[o']t\s+exist|not\s+exist|invalid|unauthori[sz]ed|forbidden|permission\s+denied|EACCES)/i;
/** Names a setting: an ENV_VARIABLE, a --flag, or the words for one. */
const NAMES_SETTING = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|(^|\s)--?[a-z][\w-]+|\b(env(ironment)?|variables?|api[\s_-]?keys?|keys?|tokens?|secrets?|credentials?|passwords?|files?|paths?|director(y|ies)|folders?|config(uration)?)\b/i;
/** An error line as runtimes print them: `Error: …`, `ValueError: …`, `error: …`, `fatal: …`, `panic: …`. */
const ERROR_LINE = /^\s*([\w.]*(Error|Exception)\b|error\b|fatal\b|panic:)/i;

/** True for a line that tells why a server stopped: it names a missing setting, or it is an error (not a stack frame). */
export function isTellingLine(line: string): boolean {
  if (STACK_FRAME.test(line)) return false;
  return ERROR_LINE.test(line) || (SAYS_MISSING.test(line) && NAMES_SETTING.test(line));
}

/** True when some line names something missing (a variable, key, token, file): the server needs a setting, not another start. */
export function namesMissingSetting(lines: readonly string[]): boolean {
  return lines.some((line) => !STACK_FRAME.test(line) && SAYS_MISSING.test(line) && NAMES_SETTING.test(line));
}

/** Collects the explaining lines of a stream of stderr lines (see the file comment). */
export class StderrExcerpt {
  private count = 0;
  private readonly head: string[] = [];
  private readonly telling: { index: number; line: string }[] = [];
  private readonly tail: { index: number; line: string }[] = [];

  constructor(private readonly sizes: ExcerptSizes = DEFAULT_EXCERPT_SIZES) {}

  /** How many lines were pushed. */
  get total(): number {
    return this.count;
  }

  push(line: string): void {
    const index = this.count++;
    if (index < this.sizes.head) {
      this.head.push(line);
      return;
    }
    if (this.telling.length < this.sizes.telling && isTellingLine(line)) this.telling.push({ index, line });
    this.tail.push({ index, line });
    if (this.tail.length > this.sizes.tail) this.tail.shift();
  }

  /** The kept lines in order; `… N more lines` stands where lines were left out. */
  lines(): string[] {
    const kept = new Map<number, string>();
    this.head.forEach((line, index) => kept.set(index, line));
    for (const { index, line } of [...this.telling, ...this.tail]) kept.set(index, line);
    const out: string[] = [];
    let next = 0;
    for (const index of [...kept.keys()].sort((a, b) => a - b)) {
      if (index > next) out.push(skipped(index - next));
      out.push(kept.get(index)!);
      next = index + 1;
    }
    return out;
  }
}

function skipped(n: number): string {
  return `… ${n} more line${n === 1 ? '' : 's'}`;
}

/** The excerpt of lines already collected (a tail, a test's lines). */
export function excerptOf(lines: readonly string[], sizes: ExcerptSizes = DEFAULT_EXCERPT_SIZES): string[] {
  const excerpt = new StderrExcerpt(sizes);
  for (const line of lines) excerpt.push(line);
  return excerpt.lines();
}
