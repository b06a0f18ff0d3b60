// A config file's JSONC text before it is read: the nesting cap (checked without recursion, on
// the text and on a plain value), jsonc-parser's syntax errors in words, and line/column of an offset.
import { SyntaxKind, createScanner } from 'jsonc-parser';

/**
 * The deepest nesting of objects and arrays a config may have. Real configs need about 6; the
 * parser and every walk over the tree recurse, and a few KB of `[[[[…` would overflow the stack.
 */
export const MAX_NESTING = 64;

export function tooDeep(): string {
  return `the value is nested more than ${MAX_NESTING} levels deep: this file defines no servers until it is fixed`;
}

/** The offset of the first bracket past `max` levels of nesting, found without recursion (strings and comments skipped). */
export function textNestedDeeperThan(text: string, max: number): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      if (++depth > max) return scanner.getTokenOffset();
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/** True when a plain value nests objects and arrays more than `max` levels deep; iterative, so any depth is safe. */
export function valueNestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth + 1 > max) return true;
    for (const v of Object.values(item.value as object)) stack.push({ value: v, depth: item.depth + 1 });
  }
  return false;
}

/** jsonc-parser's error codes in words. */
export const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'invalid symbol',
  InvalidNumberFormat: 'invalid number format',
  PropertyNameExpected: 'property name expected',
  ValueExpected: 'value expected',
  ColonExpected: 'colon expected',
  CommaExpected: 'comma expected',
  CloseBraceExpected: 'closing brace expected',
  CloseBracketExpected: 'closing bracket expected',
  EndOfFileExpected: 'end of file expected',
  InvalidCommentToken: 'invalid comment token',
  UnexpectedEndOfComment: 'unexpected end of comment',
  UnexpectedEndOfString: 'unexpected end of string',
  UnexpectedEndOfNumber: 'unexpected end of number',
  InvalidUnicode: 'invalid unicode sequence',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character',
};

/** Line starts of a text, for 1-based line/column of an offset. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }
  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }
}
