// Server and workspace text made safe to show in the editor: escaped for Markdown, `$(icon)`
// syntax defused for quick picks, invisible characters written out. Pure, no `vscode`.
import { truncate } from '../protocol/text';
import { revealInvisible } from './invisibleText';

/**
 * Text for a quick pick's label, description or detail that came from a server or a workspace:
 * VS Code draws `$(name)` there as an icon, so a server could dress a tool or a choice up as
 * something else ("$(pass-filled) verified"). The backslash makes VS Code show the text as written.
 */
export function plainPickText(text: string): string;
export function plainPickText(text: string | undefined): string | undefined;
export function plainPickText(text: string | undefined): string | undefined {
  return text?.replace(/\$\(/g, '\\$(');
}

/** Longest server-provided text shown in one tooltip field. */
export const MAX_TOOLTIP_TEXT = 2000;

/**
 * Escapes text for a MarkdownString: every ASCII punctuation character gets a backslash (so no
 * link, image, HTML, emphasis or code span can be formed), and line breaks are kept as hard breaks.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`)
    .replace(/\n/g, '  \n');
}


/** Escaped and shortened server text for a tooltip, its invisible characters written out. */
export function untrustedText(text: string, max = MAX_TOOLTIP_TEXT): string {
  return escapeMarkdown(truncate(revealInvisible(text), max));
}
