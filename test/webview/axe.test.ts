// axe-core in every page of every MCP Host webview, in the four themes VS Code users most need to
// read (Light 2026, Light+, both high-contrast themes): no serious or critical violation, no
// script error, nothing the CSP blocked. Pages from pageSamples.ts, built by pageHarness.ts. Each
// page state is loaded once and switched through the themes (setTheme, as VS Code switches a live
// webview); axe runs whole in the first theme and its colour rules in the others while the layout
// stays the same (themeAxe.ts says why that is enough).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openPage, suiteBrowser } from './pageHarness';
import { PAGE_SAMPLES } from './pageSamples';
import { axeInThemes } from './themeAxe';
import { THEMES } from './themes';

describe('webview pages: axe-core in four themes', () => {
  const browser = suiteBrowser();

  for (const sample of PAGE_SAMPLES) {
    test(sample.name, async (t) => {
      const page = await openPage(browser(), { feature: sample.feature, theme: THEMES[0]!, ...(sample.app ? { app: sample.app } : {}), ...(sample.readyType ? { readyType: sample.readyType } : {}) });
      try {
        for (const m of sample.messages) await page.send(m);
        const found = await axeInThemes(page, THEMES);
        t.diagnostic(`whole rule set in: ${found.filter((f) => f.wholeRun).map((f) => f.theme).join(', ')}`);
        const bad = found.filter((f) => f.violations.length > 0 || f.problems.length > 0);
        assert.deepEqual(bad, [], `${sample.name}:\n${JSON.stringify(bad, null, 1)}`);
      } finally {
        await page.close();
      }
    });
  }
});
