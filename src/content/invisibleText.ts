// Characters a reader cannot see, made visible in server text shown to the user (tool
// descriptions, approvals, pin diffs). A description can carry instructions for the model that
// the user never sees: Unicode tag characters (U+E0000–E007F, each an ASCII letter in disguise),
// zero-width characters, bidirectional controls that reorder what is shown, variation selectors
// past the emoji ones. A diff of two texts that differ only there shows identical lines, so the
// one function here writes them out: a run of tag characters as `[hidden: "…"]` with the text it
// spells, every other one as `⟨U+200B⟩`. No `vscode`: the CLI, the chat core and the editor share it.

/** One invisible code point, or a run of tag characters (which spell ASCII text). */
const INVISIBLE =
  /(?:[\u{E0020}-\u{E007E}]+)|[\u{E0000}-\u{E001F}\u{E007F}\u{E0080}-\u{E00FF}\u{E0100}-\u{E01EF}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0E\uFEFF\uFFA0\uFFF0-\uFFFB]/gu;

function codePoint(c: string): string {
  return `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** `text` with every invisible or bidirectional character written out visibly. */
export function revealInvisible(text: string): string {
  return text.replace(INVISIBLE, (match) => {
    const first = match.codePointAt(0)!;
    if (first >= 0xe0020 && first <= 0xe007e) return `[hidden: ${JSON.stringify([...match].map((c) => String.fromCodePoint(c.codePointAt(0)! - 0xe0000)).join(''))}]`;
    return codePoint(match);
  });
}

/** True when `text` holds a character {@link revealInvisible} writes out. */
export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  const found = INVISIBLE.test(text);
  INVISIBLE.lastIndex = 0;
  return found;
}

/** `text` without its invisible characters: what a reader sees of it. */
export function visiblePart(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * A note for a change from `before` to `after` when invisible characters are in play: the change
 * is only in them (the lines look the same), or they are there; undefined when neither holds any.
 */
export function invisibleChangeNote(before: string, after: string): string | undefined {
  if (!hasInvisible(before) && !hasInvisible(after)) return undefined;
  if (visiblePart(before) === visiblePart(after)) return '(the change is invisible: only characters a reader cannot see differ; they are written out above as ⟨U+…⟩ and [hidden: "…"])';
  return '(holds characters a reader cannot see; they are written out above as ⟨U+…⟩ and [hidden: "…"])';
}
