// The focus indicator measured on screen, as WCAG 2.2's focus appearance asks: the same pixels
// with the control focused and not focused, from two screenshot crops, and the contrast of the
// change. The CSS that should draw the ring is not trusted; a ring drawn in the border's colour, or
// inside a button of the same colour, changes few pixels or changes them little, and fails here.
import type { Locator, Page } from 'playwright-core';
import { decodePng, type Pixels } from '../support/pngPixels';
import { contrastRgb } from '../webview/colour';

/** How the ring compares: `ratio` is the change's contrast over a ring the size of the control's perimeter. */
export interface RingMeasure {
  readonly ratio: number;
  /** Pixels that changed at all (contrast above 1.05:1). */
  readonly changed: number;
  /** Pixels a one-pixel ring round the control has (90% of its perimeter, for rounded corners). */
  readonly needed: number;
}

/**
 * The contrast of the focus indicator: the pixels that changed between `focused` and `unfocused`
 * (the same crop), ranked by how much; the ring is the `needed` most changed, and its weakest
 * pixel is the ratio. Too few changed pixels (no ring) gives 1.
 */
export function ringContrast(focused: Pixels, unfocused: Pixels, needed: number): RingMeasure {
  const changes: number[] = [];
  for (let y = 0; y < Math.min(focused.height, unfocused.height); y++) {
    for (let x = 0; x < Math.min(focused.width, unfocused.width); x++) {
      const c = contrastRgb(focused.at(x, y), unfocused.at(x, y));
      if (c > 1.05) changes.push(c);
    }
  }
  changes.sort((a, b) => b - a);
  return { ratio: changes.length >= needed ? changes[needed - 1]! : 1, changed: changes.length, needed };
}

/** Where to crop for `target`: its box, grown by how far its outline reaches outside it. */
export async function ringArea(target: Locator): Promise<{ x: number; y: number; width: number; height: number; needed: number }> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the focused control is not on screen');
  const reach = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    return Math.max(0, (parseFloat(s.outlineOffset) || 0) + (parseFloat(s.outlineWidth) || 0));
  });
  // A ring inside the control (a tree row's) needs no margin, which would catch the next row's ring.
  const grow = reach > 0 ? Math.ceil(reach) + 1 : 0;
  const needed = Math.floor(0.9 * 2 * (box.width + box.height));
  return { x: box.x - grow, y: box.y - grow, width: box.width + 2 * grow, height: box.height + 2 * grow, needed };
}

/** A crop of the page (page coordinates, CSS pixels) as pixels. */
export async function crop(page: Page, area: { x: number; y: number; width: number; height: number }): Promise<Pixels> {
  const clip = { x: Math.max(0, area.x), y: Math.max(0, area.y), width: area.width, height: area.height };
  return decodePng(await page.screenshot({ clip, animations: 'disabled', caret: 'hide' }));
}

/**
 * Measures the ring of `target`, which has the focus now: a crop, then `away` (keys that move the
 * focus off it) and a crop of the same place, then `back` (keys that return the focus to it, if
 * any). The device pixel ratio scales `needed` with the crop.
 */
export async function measureFocusRing(page: Page, target: Locator, keys: { away: string; back?: string }): Promise<RingMeasure> {
  const area = await ringArea(target);
  const focused = await crop(page, area);
  await page.keyboard.press(keys.away);
  await page.waitForTimeout(150);
  const unfocused = await crop(page, area);
  if (keys.back) {
    await page.keyboard.press(keys.back);
    await page.waitForTimeout(150);
  }
  const scale = focused.width / area.width;
  return ringContrast(focused, unfocused, Math.floor(area.needed * scale));
}
