// Every button's focus is seen (issue 39, Done when): each visible button, link, summary and
// toolbar control of the tool panel, the prompt panel, the sampling and elicitation dialogs,
// Server Details and the timeline, focused in turn in Light 2026, Light+, High Contrast Dark and
// High Contrast Light, its focus indicator measured on screen (focusRing.ts: the same pixels
// focused and not, 3:1 or more over a ring the size of the control), not read from CSS. One page
// load per page and theme; every control of the page is measured in it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crop, ringArea, ringContrast } from '../e2e/focusRing';
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
    for (const theme of THEMES) {
      for (const name of PAGES) {
        const sample = PAGE_SAMPLES.find((s) => s.name === name);
        assert.ok(sample, name);
        const page = await openPage(browser(), { feature: sample.feature, theme, ...(sample.readyType ? { readyType: sample.readyType } : {}) });
        try {
          for (const m of sample.messages) await page.send(m);
          const p = page.page;
          // Each control once: the same button of each history entry looks alike.
          const found = await p.locator(CONTROLS).evaluateAll((els) => {
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
          for (const { index, key } of found) {
            const control = p.locator(`[data-ring-probe="${index}"]`);
            // In the middle of the view: a ring on the viewport's edge would be cut off by the crop.
            await control.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'nearest' }));
            await control.focus();
            const area = await ringArea(control);
            const focused = await crop(p, area);
            await control.evaluate((el) => (el as HTMLElement).blur());
            const unfocused = await crop(p, area);
            const ring = ringContrast(focused, unfocused, Math.floor(area.needed * (focused.width / area.width)));
            measured++;
            if (ring.ratio < RING) weak.push(`${theme.name}, ${name}, ${key}: ${ring.ratio.toFixed(2)}:1 (${ring.changed} pixels changed, a ring needs ${ring.needed})`);
          }
          assert.deepEqual(page.problems, [], `${theme.name}, ${name}`);
        } finally {
          await page.close();
        }
      }
    }
    assert.ok(measured >= 4 * 20, `controls measured: ${measured}`);
    assert.deepEqual(weak, [], `focus indicators under ${RING}:1`);
  });
});
