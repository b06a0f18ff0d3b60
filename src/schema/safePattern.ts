// JSON Schema `pattern`s come from servers and run in the extension host, which every extension
// shares. JavaScript's RegExp backtracks (`^(a+)+$` against 30 characters takes minutes), so
// server patterns run on RE2 (re2js), whose matching time is linear in the input. What RE2 cannot
// express (backreferences, lookaround) is reported as not checked, never run on RegExp.
// RE2 reads a few classes differently from ECMA-262 (`\s` and `.` treat some Unicode spaces and
// line separators differently): a check can differ for those characters, never hang.
import type { RE2JS } from 're2js';

type Re2Module = typeof import('./lazyChunks/re2');
let re2: Re2Module | undefined;
/** re2js is required on the first pattern compiled, not imported: activation does not load it. */
function engine(): typeof RE2JS {
  return (re2 ??= require('./lazyChunks/re2') as Re2Module).RE2JS;
}

/** Longest pattern accepted: RE2's work is linear in the input times the pattern's size. */
export const MAX_PATTERN_CHARS = 1000;

export const PATTERN_NOT_SUPPORTED = 'not supported by the safe engine';

export type SafePattern =
  /** `cost(s)` is the work a test of `s` may take, in pattern-size × input-length units. */
  | { readonly ok: true; test(s: string): boolean; cost(s: string): number }
  /** `syntax`: not a valid ECMA-262 pattern at all; `unsupported`: valid, but not run. */
  | { readonly ok: false; readonly kind: 'syntax' | 'unsupported'; readonly reason: string };

const cache = new Map<string, SafePattern>();
const MAX_CACHE = 500;

/** Compiles a schema `pattern` (ECMA-262) for the linear-time engine; cached. */
export function compileSafePattern(pattern: string): SafePattern {
  let hit = cache.get(pattern);
  if (hit === undefined) {
    hit = compile(pattern);
    if (cache.size >= MAX_CACHE) cache.clear();
    cache.set(pattern, hit);
  }
  return hit;
}

/** "pattern ^(a)\1$ not checked: not supported by the safe engine" (the pattern cut to 80 characters). */
export function uncheckedPatternNote(pattern: string, reason: string): string {
  return `pattern ${pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern} not checked: ${reason}`;
}

function compile(pattern: string): SafePattern {
  if (pattern.length > MAX_PATTERN_CHARS) return { ok: false, kind: 'unsupported', reason: `longer than ${MAX_PATTERN_CHARS} characters` };
  // Only valid ECMA-262 patterns count as patterns; compiling one never runs it.
  if (!isEcmaPattern(pattern)) return { ok: false, kind: 'syntax', reason: 'not a valid regular expression' };
  const translated = toRe2Syntax(pattern);
  if (translated === undefined) return { ok: false, kind: 'unsupported', reason: PATTERN_NOT_SUPPORTED };
  let re: RE2JS;
  try {
    re = engine().compile(translated);
  } catch {
    return { ok: false, kind: 'unsupported', reason: PATTERN_NOT_SUPPORTED };
  }
  const size = pattern.length + 1;
  return { ok: true, test: (s) => re.test(s), cost: (s) => size * (s.length + 1) };
}

function isEcmaPattern(pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      // try without the unicode flag (JSON Schema patterns are often written for either)
    }
  }
  return false;
}

/**
 * Rewrites the ECMA-262 escapes RE2 spells differently (`\uXXXX`, `\u{X}`, `\cX`, `[^]`);
 * undefined for a construct RE2 does not have at all (backreferences `\1`, `\k<name>`).
 * Lookaround is left for RE2 to refuse.
 */
function toRe2Syntax(pattern: string): string | undefined {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '[' && pattern.startsWith('[^]', i)) {
      out += '[\\s\\S]';
      i += 2;
      continue;
    }
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = pattern[i + 1] ?? '';
    const hex4 = /^u([0-9a-fA-F]{4})/.exec(pattern.slice(i + 1, i + 6));
    const braced = /^u\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i + 1, i + 10));
    if (hex4) {
      out += `\\x{${hex4[1]}}`;
      i += 5;
    } else if (braced) {
      out += `\\x{${braced[1]}}`;
      i += braced[0].length;
    } else if (next === 'c' && /[A-Za-z]/.test(pattern[i + 2] ?? '')) {
      out += `\\x{${(pattern.charCodeAt(i + 2) % 32).toString(16)}}`;
      i += 2;
    } else if (/[1-9]/.test(next) || next === 'k') {
      return undefined;
    } else {
      out += c + next;
      i += 1;
    }
  }
  return out;
}
