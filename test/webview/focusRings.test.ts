// Every button's focus is seen (issue 39, Done when): each visible button, link, summary and
// toolbar control of the tool panel, the prompt panel, the sampling and elicitation dialogs,
// Server Details and the timeline, focused in turn in Light 2026, Light+, High Contrast Dark and
// High Contrast Light, its focus indicator measured on screen (focusRing.ts: the same pixels
// focused and not, 3:1 or more over a ring the size of the control), not read from CSS. One page
// load per page, switched through the four themes (setTheme, as VS Code switches a live webview:
// themeSwitch.test.ts holds it to a fresh load); every control of the page is measured in each.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { crop, ringArea, ringContrast, type RingMeasure } from '../e2e/focusRing';
import { openPage, suiteBrowser } from './pageHarness';
import { PAGE_SAMPLES } from './pageSamples';
import { THEMES } from './themes';

/** WCAG 2.2 non-text contrast, and what issue 39 asks of every focus indicator. */
const RING = 3;
/** The pages and states that hold the buttons a person reaches. */
const PAGES = ['tool panel, with a result', 'tool panel, running', 'prompt panel, with a result', 'server details', 'sampling dialog', 'elicitation form', 'timeline'];
/** What takes the keyboard focus: buttons, links, disclosures, toolbar controls (roving tabindex too). */
const CONTROLS = 'button, a[href], a.md-link, summary, [role="button"], [tabindex]:not([tabindex="-1"]):not(canvas)';

describe('webview pages: every button shows its focus at 3:1 or more, measured on screen, in four themes', () => {
  const browser = suiteBrowser();

  test('tool and prompt panels, dialogs, Server Details and the timeline', async () => {
    const weak: string[] = [];
    let measured = 0;
    for (const name of PAGES) {
      const sample = PAGE_SAMPLES.find((s) => s.name === name);
      assert.ok(sample, name);
      const page = await openPage(browser(), { feature: sample.feature, theme: THEMES[0]!, ...(sample.readyType ? { readyType: sample.readyType } : {}) });
      try {
        for (const m of sample.messages) await page.send(m);
        let firstKeys: string[] | undefined;
        await page.page.evaluate(keepTabStops);
        for (const theme of THEMES) {
          if (page.theme !== theme) await page.setTheme(theme);
          // Which controls are Tab stops as the page came, not as the last theme's focusing left them.
          await page.page.evaluate(restoreTabStops);
          const rings = await measureRings(page.page);
          measured += rings.length;
          for (const r of rings) if (r.ratio < RING) weak.push(`${theme.name}, ${name}, ${r.key}: ${r.ratio.toFixed(2)}:1 (${r.changed} pixels changed, a ring needs ${r.needed})`);
          // The same controls in every theme: the switch changed how the page looks, not what it holds.
          firstKeys ??= rings.map((r) => r.key);
          assert.deepEqual(rings.map((r) => r.key), firstKeys, `${theme.name}, ${name}: the controls found`);
        }
        assert.deepEqual(page.problems, [], name);
      } finally {
        await page.close();
      }
    }
    assert.ok(measured >= 4 * 20, `controls measured: ${measured}`);
    assert.deepEqual(weak, [], `focus indicators under ${RING}:1`);
  });
});

type TabStops = { __ringTabStops?: Map<Element, string | null> };

/** Remembers every element's tabindex (a toolbar's roving tabindex moves as its controls take the focus). */
function keepTabStops(): void {
  (window as unknown as TabStops).__ringTabStops = new Map(Array.from(document.querySelectorAll('*')).map((e) => [e, e.getAttribute('tabindex')]));
}

/** Puts every tabindex back as keepTabStops() found it. */
function restoreTabStops(): void {
  const kept = (window as unknown as TabStops).__ringTabStops!;
  for (const e of Array.from(document.querySelectorAll('[tabindex]'))) if (!kept.has(e)) e.removeAttribute('tabindex');
  for (const [e, value] of kept) {
    if (value === null) e.removeAttribute('tabindex');
    else e.setAttribute('tabindex', value);
  }
}

/** Each control of the page once (the same button of each history entry looks alike), its ring measured on screen. */
async function measureRings(p: Page): Promise<Array<RingMeasure & { key: string }>> {
  const found = await p.locator(CONTROLS).evaluateAll((els) => {
    // A theme before this one named controls too; a name left over would make two match.
    for (const old of Array.from(document.querySelectorAll('[data-ring-probe]'))) delete (old as HTMLElement).dataset.ringProbe;
    const seen = new Set<string>();
    return els.flatMap((el, index) => {
      const e = el as HTMLElement;
      if ((e as HTMLButtonElement).disabled || e.closest('[hidden]') || e.getClientRects().length === 0 || e.closest('.sr-only')) return [];
      const key = `${e.tagName}.${e.className}:${e.closest('.history-item') ? '' : (e.textContent ?? '').trim().slice(0, 30)}`;
      if (seen.has(key)) return [];
      seen.add(key);
      // Named for the loop below: focusing one (a toolbar's roving tabindex) changes which match CONTROLS.
      e.dataset.ringProbe = String(index);
      return [{ index, key }];
    });
  });
  const rings: Array<RingMeasure & { key: string }> = [];
  for (const { index, key } of found) {
    const control = p.locator(`[data-ring-probe="${index}"]`);
    // In the middle of the view: a ring on the viewport's edge would be cut off by the crop.
    await control.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'nearest' }));
    await control.focus();
    const area = await ringArea(control);
    const focused = await crop(p, area);
    await control.evaluate((el) => (el as HTMLElement).blur());
    const unfocused = await crop(p, area);
    rings.push({ key, ...ringContrast(focused, unfocused, Math.floor(area.needed * (focused.width / area.width))) });
  }
  return rings;
}
