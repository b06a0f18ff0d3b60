// The timeline page for the keyboard and for screen readers, in the page harness (headless
// Chromium, the page as the extension builds it, VS Code's variables of four themes): a session's
// real frames filed by the extension's own Timeline and sent as its panel sends them. The list of
// drawn items says what each is, its server and status; activating one selects it; the toolbar is
// one Tab stop; the details show their focus and close on Escape; a cancelled call's span on the
// canvas is measured at 3:1 or more against the background; axe finds nothing serious or critical.
// The four themes on one page, switched as VS Code switches a live webview (setTheme;
// themeSwitch.test.ts holds it to a fresh load).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { itemDetails } from '../../src/timeline/timelineSelection';
import { suiteBrowser, type WebviewPage } from './pageHarness';
import { SCREENSHOTS, openTimeline } from './timelineSample';
import { contrast, contrastRgb } from './colour';
import { axeInThemes } from './themeAxe';
import { THEMES } from './themes';

const listed = (page: WebviewPage) => page.page.evaluate(() => Array.from(document.querySelectorAll('#drawn-items button')).map((b) => b.textContent ?? ''));

describe('the timeline page for the keyboard and screen readers', () => {
  const browser = suiteBrowser();
  before(() => mkdirSync(SCREENSHOTS, { recursive: true }));

  test('the drawn items are a list that says what each is, its server and status; nothing test-only on the page', async () => {
    const { page } = await openTimeline(browser(), THEMES[0]);
    const items = await listed(page);
    assert.ok(items.includes('tools/call echo · 5 ms, editor request, everything, answered'), JSON.stringify(items));
    assert.ok(items.includes('tools/call slow · 500 ms · cancelled, editor request, everything, cancelled'), JSON.stringify(items));
    assert.ok(items.some((t) => /^tools\/call broken · 20 ms · error, editor request, everything, error$/.test(t)), JSON.stringify(items));
    assert.equal(await page.page.locator('h1').innerText(), 'Timeline');
    assert.equal(await page.page.evaluate(() => 'mcpTimeline' in window), false);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a list item activated selects its item; the details take the focus, show it, and close on Escape', async () => {
    const { page, timeline } = await openTimeline(browser(), THEMES[0]);
    await page.page.locator('#drawn-items button', { hasText: /^tools\/call echo/ }).evaluate((b) => (b as HTMLButtonElement).click());
    const asked = await page.waitForPosted('details');
    assert.equal(asked.server, 's');
    const details = itemDetails(timeline, 's', asked.id as number, (t) => t);
    assert.ok(details);
    await page.send({ type: 'details', details: { ...details, serverName: 'everything', inHistory: false } });
    assert.equal(await page.page.evaluate(() => document.activeElement?.id), 'details');
    await page.page.keyboard.press('Escape');
    assert.equal(await page.page.locator('#details').isHidden(), true, 'Escape closes the details');
    assert.equal(await page.page.evaluate(() => document.activeElement?.id), 'timeline-canvas');
    // From the keyboard: an item selected with the arrows, Enter to its details, whose focus is drawn.
    await page.page.keyboard.press('ArrowDown');
    await page.page.keyboard.press('Enter');
    assert.equal(await page.page.evaluate(() => document.activeElement?.id), 'details');
    const outline = await page.page.locator('#details').evaluate((d) => `${getComputedStyle(d).outlineStyle} ${getComputedStyle(d).outlineWidth}`);
    assert.match(outline, /^solid [1-9]/, 'the focus on the details is seen');
    await page.close();
  });

  test('the toolbar is one Tab stop; the arrows move between its controls', async () => {
    const { page } = await openTimeline(browser(), THEMES[0]);
    const stops = () => page.page.locator('[role="toolbar"]').evaluate((t) => Array.from(t.querySelectorAll('button, select, input')).filter((c) => (c as HTMLElement).tabIndex === 0).length);
    assert.equal(await stops(), 1);
    await page.page.keyboard.press('Tab');
    const at = () => page.page.evaluate(() => {
      const controls = Array.from(document.querySelectorAll('[role="toolbar"] button, [role="toolbar"] select, [role="toolbar"] input'));
      return controls.indexOf(document.activeElement as Element);
    });
    assert.equal(await at(), 0, 'Tab enters the toolbar at its first control');
    await page.page.keyboard.press('ArrowRight');
    assert.equal(await at(), 1, 'Right goes to the next control');
    await page.page.keyboard.press('ArrowLeft');
    await page.page.keyboard.press('ArrowLeft');
    assert.ok((await at()) > 1, 'Left from the first control wraps to the last');
    await page.page.keyboard.press('Tab');
    assert.equal(await page.page.evaluate(() => document.activeElement?.id), 'timeline-canvas', 'one more Tab leaves the toolbar');
    assert.equal(await stops(), 1);
    await page.close();
  });

  test('in the four themes: a cancelled span is 3:1 against the background, the legend too; no serious or critical axe violation', async () => {
    const { page } = await openTimeline(browser(), THEMES[0]!);
    try {
      // Nothing selected yet: the span's own colour is measured, not a selection's edge.
      for (const theme of THEMES) {
        if (page.theme !== theme) await page.setTheme(theme);
        await assertCancelledReads(page, theme.name);
      }
      await page.page.locator('#drawn-items button', { hasText: /^tools\/call slow/ }).evaluate((x) => (x as HTMLButtonElement).click());
      const found = await axeInThemes(page, THEMES, (theme) => page.page.screenshot({ path: join(SCREENSHOTS, `timeline-page-${theme.file}.png`) }).then(() => undefined));
      assert.deepEqual(found.filter((f) => f.violations.length > 0 || f.problems.length > 0), []);
    } finally {
      await page.close();
    }
  });
});

/** The cancelled call's span on the canvas, and the legend's keys, at 3:1 or more against the background. */
async function assertCancelledReads(page: WebviewPage, theme: string): Promise<void> {
  const measured = await page.page.evaluate(() => {
    const b = Array.from(document.querySelectorAll('#drawn-items button')).find((x) => /^tools\/call slow/.test(x.textContent ?? '')) as HTMLElement;
    const canvas = document.getElementById('timeline-canvas') as HTMLCanvasElement;
    const dpr = window.devicePixelRatio || 1;
    const ctx = canvas.getContext('2d')!;
    const px = (x: number, y: number) => Array.from(ctx.getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data.slice(0, 3));
    // Inside the span, left of its label; and the plot's background above the lanes.
    return { span: px(b.offsetLeft + 2, b.offsetTop + 3), bg: px(canvas.clientWidth - 5, canvas.clientHeight - 5) };
  });
  const ratio = contrastRgb(measured.span, measured.bg);
  assert.ok(ratio >= 3, `${theme}: cancelled span ${measured.span} on ${measured.bg} is ${ratio.toFixed(2)}:1`);
  // The legend's keys are the colours the canvas draws, so they too reach 3:1 (Light+'s own orange is 1.5:1).
  const keys = await page.page.evaluate(() => ({
    bg: getComputedStyle(document.documentElement).backgroundColor,
    swatches: Array.from(document.querySelectorAll('.legend-item .swatch:not(.open)')).map((s) => [s.className, getComputedStyle(s).backgroundColor] as const),
  }));
  for (const [name, colour] of keys.swatches) assert.ok(contrast(colour, keys.bg) >= 3, `${theme}: the legend's ${name} ${colour} on ${keys.bg} is ${contrast(colour, keys.bg).toFixed(2)}:1`);
}
