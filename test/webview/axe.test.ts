// axe-core in every page of every MCP Host webview, in the four themes VS Code users most need to
// read (Light 2026, Light+, both high-contrast themes): no serious or critical violation, no
// script error, nothing the CSP blocked. Pages from pageSamples.ts, built by pageHarness.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openPage, suiteBrowser } from './pageHarness';
import { PAGE_SAMPLES } from './pageSamples';
import { THEMES } from './themes';

describe('webview pages: axe-core in four themes', () => {
  const browser = suiteBrowser();

  for (const sample of PAGE_SAMPLES) {
    test(sample.name, async () => {
      const found = [];
      // One page at a time: side by side, four pages on a busy machine take longer than in turn.
      for (const theme of THEMES) {
        found.push(
          await (async () => {
          const page = await openPage(browser(), { feature: sample.feature, theme, ...(sample.app ? { app: sample.app } : {}), ...(sample.readyType ? { readyType: sample.readyType } : {}) });
          try {
            for (const m of sample.messages) await page.send(m);
            return { theme: theme.name, violations: await page.axe(), problems: page.problems };
          } finally {
            await page.close();
          }
          })(),
        );
      }
      const bad = found.filter((f) => f.violations.length > 0 || f.problems.length > 0);
      assert.deepEqual(bad, [], `${sample.name}:\n${JSON.stringify(bad, null, 1)}`);
    });
  }
});
