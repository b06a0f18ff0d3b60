// The page harness's theme switch (setTheme) holds to what it stands in for: a page switched from
// the theme before to a theme looks, pixel for pixel, as the same page opened in that theme. The
// suites that check each theme on one page (axe, focus rings, screenshots) lean on this. Three
// pages whose look reads the theme in different ways: the tool panel (CSS variables), the
// elicitation form (rules for high-contrast body classes), the timeline (a canvas its script
// paints from the variables it reads, again when the body's class changes); the themes in an
// order that includes a switch between two themes of the same kind (Light 2026 → Light+).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodePng } from '../support/pngPixels';
import { contrastRgb } from './colour';
import { openPage, suiteBrowser, type WebviewPage } from './pageHarness';
import { PAGE_SAMPLES } from './pageSamples';
import { openTimeline } from './timelineSample';
import { THEMES, type ThemeInfo } from './themes';
import type { Browser } from 'playwright-core';

/**
 * The pixels that differ between screenshots of two pages (the first few, with both colours); ''
 * when none. Differ: above 1.05:1, as focusRing.ts counts a pixel changed; the same page drawn
 * twice differs below it on a few anti-aliased edge pixels (220 against 218 of 255).
 */
async function differingPixels(a: WebviewPage, b: WebviewPage): Promise<string> {
  const shot = (p: WebviewPage) => p.page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
  const [pa, pb] = [await shot(a), await shot(b)];
  if (pa.equals(pb)) return '';
  const [x, y] = [decodePng(pa), decodePng(pb)];
  if (x.width !== y.width || x.height !== y.height) return `sizes ${x.width}×${x.height} and ${y.width}×${y.height}`;
  const found: string[] = [];
  for (let j = 0; j < x.height; j++) for (let i = 0; i < x.width; i++) if (contrastRgb(x.at(i, j), y.at(i, j)) > 1.05) found.push(`(${i}, ${j}): ${x.at(i, j).join()} / ${y.at(i, j).join()}`);
  return found.length === 0 ? '' : `${found.length} pixels, ${found.slice(0, 8).join('; ')}`;
}

async function openSample(browser: Browser, name: string, theme: ThemeInfo): Promise<WebviewPage> {
  if (name === 'timeline') return (await openTimeline(browser, theme)).page;
  const sample = PAGE_SAMPLES.find((s) => s.name === name);
  assert.ok(sample, name);
  const page = await openPage(browser, { feature: sample.feature, theme });
  for (const m of sample.messages) await page.send(m);
  return page;
}

describe('the page harness: a theme switched on a live page', () => {
  const browser = suiteBrowser();

  for (const name of ['tool panel, with a result', 'elicitation form', 'timeline']) {
    test(`${name}: switched through the four themes, it looks as opened in each`, async () => {
      const switched = await openSample(browser(), name, THEMES[0]!);
      try {
        for (const theme of THEMES.slice(1)) {
          await switched.setTheme(theme);
          const fresh = await openSample(browser(), name, theme);
          try {
            assert.equal(await differingPixels(switched, fresh), '', `${name}, switched to ${theme.name}`);
          } finally {
            await fresh.close();
          }
        }
        assert.deepEqual(switched.problems, []);
      } finally {
        await switched.close();
      }
    });
  }
});
