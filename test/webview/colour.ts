// Colour arithmetic for the page checks: computed CSS colours and WCAG 2 contrast ratios.

/** [r, g, b, a] from a computed colour ("rgb(1, 2, 3)", "rgba(1, 2, 3, 0.5)", "color(srgb 0.1 0.2 0.3)", "#rrggbb"). */
export function parseColour(text: string): [number, number, number, number] {
  const hex = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(text.trim());
  if (hex) {
    const n = parseInt(hex[1]!, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, hex[2] ? parseInt(hex[2], 16) / 255 : 1];
  }
  // color-mix() computes to "color(srgb r g b / a)", each channel 0..1.
  const srgb = /^color\(srgb ([^)]+)\)$/.exec(text.trim());
  if (srgb) {
    const [r, g, b, a] = srgb[1]!.split(/[ /]+/).filter(Boolean).map(Number);
    return [r! * 255, g! * 255, b! * 255, a ?? 1];
  }
  const m = /^rgba?\(([^)]+)\)$/.exec(text.trim());
  if (!m) throw new Error(`not a colour: ${text}`);
  const [r, g, b, a] = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
  return [r!, g!, b!, a ?? 1];
}

function luminance([r, g, b]: readonly number[]): number {
  const c = [r!, g!, b!].map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
}

/** The WCAG contrast ratio of two opaque colours (a translucent `fg` is laid over `bg` first). */
export function contrast(fg: string, bg: string): number {
  const b = parseColour(bg);
  const f = parseColour(fg);
  const over = [0, 1, 2].map((i) => f[i]! * f[3] + b[i]! * (1 - f[3]));
  return contrastRgb(over, b);
}

/** The WCAG contrast ratio of two opaque [r, g, b] colours (0..255), e.g. two pixels of a screenshot. */
export function contrastRgb(a: readonly number[], b: readonly number[]): number {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}
