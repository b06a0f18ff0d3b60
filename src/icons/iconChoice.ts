// The `icons` a server sends (2025-11-25 and later: on its serverInfo, tools, resources, resource
// templates and prompts) read from the untrusted wire, and the one to show for a theme. Nothing is
// fetched here.

/** One entry of an `icons` array, as far as it is well formed. */
export interface Icon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

/** The kind of colour theme an icon is drawn on (high-contrast themes count as their base). */
export type ThemeKind = 'light' | 'dark';

/** The most icons of one item looked at: a server may send thousands. */
const MAX_ICONS_READ = 16;
/** An icon's `src` longer than this is refused unread (a data: URI of the largest icon allowed fits). */
export const MAX_ICON_SRC_LENGTH = 512 * 1024;

/** The well-formed icons in `value` (an item's `icons` field); anything else is skipped. */
export function iconsOf(value: unknown): Icon[] {
  if (!Array.isArray(value)) return [];
  const icons: Icon[] = [];
  for (const raw of value.slice(0, MAX_ICONS_READ)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const { src, mimeType, sizes, theme } = raw as Record<string, unknown>;
    if (typeof src !== 'string' || src.length === 0 || src.length > MAX_ICON_SRC_LENGTH) continue;
    icons.push({
      src,
      ...(typeof mimeType === 'string' ? { mimeType } : {}),
      ...(Array.isArray(sizes) ? { sizes: sizes.filter((s): s is string => typeof s === 'string') } : {}),
      ...(theme === 'light' || theme === 'dark' ? { theme } : {}),
    });
  }
  return icons;
}

/** How well an icon's declared sizes fit a row (16–32 px drawn, at up to 2× density): lower is better. */
function sizeFit(icon: Icon): number {
  const sides = (icon.sizes ?? []).map((s) => /^(\d+)x(\d+)$/i.exec(s)).filter((m) => m !== null).map((m) => Math.max(Number(m[1]), Number(m[2])));
  if (sides.length === 0) return 1;
  return Math.min(...sides.map((side) => (side >= 32 && side <= 64 ? 0 : side < 32 ? 2 : 1 + side / 4096)));
}

/**
 * The icons to try for `theme`, best first: those made for this theme, then those for any theme,
 * then (rather than nothing) those made for the other; within each, declared SVG last (it is
 * refused) and the size that fits a row first. At most `limit`: a refused icon does not make the
 * host try every other one a server lists.
 */
export function iconCandidates(icons: readonly Icon[], theme: ThemeKind, limit = 3): Icon[] {
  const rank = (icon: Icon): number => (icon.theme === theme ? 0 : icon.theme === undefined ? 1 : 2);
  const svg = (icon: Icon): number => (/svg/i.test(icon.mimeType ?? '') || /^data:image\/svg/i.test(icon.src) || /\.svgz?($|[?#])/i.test(icon.src) ? 1 : 0);
  return [...icons]
    .map((icon, index) => ({ icon, index }))
    .sort((a, b) => rank(a.icon) - rank(b.icon) || svg(a.icon) - svg(b.icon) || sizeFit(a.icon) - sizeFit(b.icon) || a.index - b.index)
    .slice(0, limit)
    .map((c) => c.icon);
}
