// axe-core in every page of every MCP Host webview, in the four themes VS Code users most need to
// read (Light 2026, Light+, both high-contrast themes): no serious or critical violation, no
// script error, nothing the CSP blocked. Pages from pageSamples.ts, built by pageHarness.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { openPage, startBrowser } from './pageHarness';
import { PAGE_SAMPLES } from './pageSamples';
import { THEMES } from './themes';

/** Pages issue 39 found failing, until its fixes land: they run, and report, without failing the suite. */
const KNOWN: Record<string, string> = {
  'tool panel, running': 'issue 39 item 3: the progress bar has no name',
  'tool panel, with a result': 'issue 39 item 5: the green of OK is 2:1 on light themes',
  'tool panel, with an app view': 'issue 39 item 5: the green of OK is 2:1 on light themes',
  'sampling dialog': 'issue 39 item 5: contrast',
};

describe('webview pages: axe-core in four themes', () => {
  let browser: Browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  for (const sample of PAGE_SAMPLES) {
    test(sample.name, KNOWN[sample.name] ? { todo: KNOWN[sample.name] } : {}, async () => {
      const found = [];
      // One page at a time: side by side, four pages on a busy machine take longer than in turn.
      for (const theme of THEMES) {
        found.push(
          await (async () => {
          const page = await openPage(browser, { feature: sample.feature, theme, ...(sample.app ? { app: sample.app } : {}), ...(sample.readyType ? { readyType: sample.readyType } : {}) });
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
