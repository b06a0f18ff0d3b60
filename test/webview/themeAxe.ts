// axe-core over one page state in several themes without a page load per theme: the whole rule
// set in the first theme, then in each further theme (switched on the same page, setTheme()) only
// the rules whose outcome reads colours, while the page's geometry and visibility are what they
// were in the first theme. Why that is enough: axe's other rules read the DOM and ARIA (the same:
// a theme switch changes only the body's theme classes and data-vscode-* attributes) and, through
// computed style, whether and where an element is shown, which the layout print below compares;
// colours are read only by the color-contrast check (the rules color-contrast and
// color-contrast-enhanced, the latter off by default) and link-in-text-block (axe-core 4.14,
// lib/checks/color/). A theme that moves or hides anything gets the whole rule set again.
import type { AxeViolation, WebviewPage } from './pageHarness';
import type { ThemeInfo } from './themes';

/** The rules, on by default, whose result can differ between two themes with the same layout. */
export const COLOUR_RULES: readonly string[] = ['color-contrast', 'link-in-text-block'];

/** What axe found in one theme, and the page's errors and CSP reports until then. */
export interface ThemeFindings {
  readonly theme: string;
  readonly violations: AxeViolation[];
  readonly problems: string[];
  /** The whole rule set ran in this theme (the first, or the layout differed from the first's). */
  readonly wholeRun: boolean;
}

/**
 * Where and how every element is shown: its box, and the computed properties axe's visibility and
 * focus checks read (display, visibility, opacity, overflow, clipping, position, size of text,
 * generated content). Equal prints: axe's rules other than COLOUR_RULES see the same page.
 */
export function layoutPrint(page: WebviewPage): Promise<string> {
  return page.page.evaluate(() => {
    const props = ['display', 'visibility', 'opacity', 'overflow-x', 'overflow-y', 'clip', 'clip-path', 'position', 'z-index', 'content-visibility', 'pointer-events', 'font-size', 'font-weight', 'text-indent', 'transform'];
    const lines: string[] = [];
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      const generated = ['::before', '::after'].map((p) => getComputedStyle(el, p).content).join('|');
      lines.push(`${el.tagName} ${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)}x${Math.round(r.height)} ${el.scrollWidth}x${el.scrollHeight} ${props.map((p) => s.getPropertyValue(p)).join(';')} ${generated}`);
    }
    return lines.join('\n');
  });
}

/**
 * axe over `page` in each of `themes` (the page as it is now, switched to each in turn): the whole
 * rule set in the first, then COLOUR_RULES alone where the layout print matches the first's (the
 * first's other findings carried over), the whole set where it does not. `inTheme` runs after each
 * switch, before axe (a screenshot, a measurement).
 */
export async function axeInThemes(page: WebviewPage, themes: readonly ThemeInfo[], inTheme?: (theme: ThemeInfo) => Promise<void>): Promise<ThemeFindings[]> {
  const found: ThemeFindings[] = [];
  let first: { print: string; others: AxeViolation[] } | undefined;
  for (const theme of themes) {
    if (page.theme !== theme) await page.setTheme(theme);
    await inTheme?.(theme);
    const print = await layoutPrint(page);
    if (first && print === first.print) {
      const colours = await page.axe({ rules: COLOUR_RULES });
      found.push({ theme: theme.name, violations: [...first.others, ...colours], problems: [...page.problems], wholeRun: false });
      continue;
    }
    const violations = await page.axe();
    first ??= { print, others: violations.filter((v) => !COLOUR_RULES.includes(v.id)) };
    found.push({ theme: theme.name, violations, problems: [...page.problems], wholeRun: true });
  }
  return found;
}
