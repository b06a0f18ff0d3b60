// What the doc tests read from Markdown: links and images outside code, and the anchors GitHub
// gives headings. A small reader on purpose: the pages are ours, written in plain CommonMark.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..', '..');

/** The pages a reader of the repository meets: README, the root documents, docs/ and the demo's. */
export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md', join('demo', 'README.md'), ...docs];
}

/** The text without fenced code blocks and inline code spans, where a `[x](y)` is no link. */
export function proseOf(text: string): string {
  return text
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, '')
    .replace(/^( {4}|\t).*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
}

/** Every link and image target in the prose: `[t](x)`, `![t](x)`, `<img src="x">`, `<a href="x">`. */
export function linkTargets(text: string): string[] {
  const prose = proseOf(text);
  const markdown = [...prose.matchAll(/!?\[(?:[^\]\n]|\n(?!\n))*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const html = [...prose.matchAll(/<(?:img|a)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  return [...markdown, ...html];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings (a repeated heading gets -1, -2, … as on GitHub). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

export const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
