// An item's icon for both colour themes at once, as files: what a quick pick row needs (VS Code's
// QuickPickItem.iconPath takes `{ light, dark }` Uris and draws the one of the current theme, so
// a theme change needs nothing from us). Each variant is the resolver's choice for that theme
// (iconChoice.ts); a variant that has no file (the disk refused) counts as none, because a quick
// pick draws Uris, not data: URIs.
import type { Icon, ThemeKind } from './iconChoice';
import type { IconResolver, ShownIcon } from './iconResolver';
import type { IconOrigins } from './iconSource';

/** The icon files of an item: one per theme; the same file twice when only one variant passed. */
export interface ThemedIconFiles {
  readonly light: string;
  readonly dark: string;
}

const THEMES: readonly ThemeKind[] = ['light', 'dark'];

function paired(light: ShownIcon | null | undefined, dark: ShownIcon | null | undefined): ThemedIconFiles | undefined {
  const l = light?.file ?? dark?.file;
  const d = dark?.file ?? light?.file;
  return l && d ? { light: l, dark: d } : undefined;
}

/** The files already judged for `icons`, without starting anything; undefined when none is known yet (or none passed). */
export function peekThemedIcon(resolver: IconResolver, icons: readonly Icon[]): ThemedIconFiles | undefined {
  if (icons.length === 0) return undefined;
  return paired(resolver.peek(icons, 'light'), resolver.peek(icons, 'dark'));
}

/** True when both themes' choices for `icons` are judged (shown or refused): nothing is left to fetch. */
export function themedIconJudged(resolver: IconResolver, icons: readonly Icon[]): boolean {
  return icons.length === 0 || THEMES.every((theme) => resolver.peek(icons, theme) !== undefined);
}

/** Judges (and fetches, under src/icons' rules) both themes' choices for `icons`. */
export async function resolveThemedIcon(resolver: IconResolver, icons: readonly Icon[], origins: IconOrigins): Promise<ThemedIconFiles | undefined> {
  if (icons.length === 0) return undefined;
  const [light, dark] = await Promise.all(THEMES.map((theme) => resolver.resolve(icons, theme, origins)));
  return paired(light, dark);
}
