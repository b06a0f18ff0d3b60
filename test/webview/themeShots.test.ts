// Screenshots of the pages issue 39 asks to look at in the four themes (Light 2026, Light+, High
// Contrast Dark, High Contrast Light): the tool panel with a result and Run focused, the
// elicitation form after Submit with its errors (the focus on the first field to fix), and the
// timeline with a cancelled call selected. Written to test-results/screenshots/a11y-<page>-<theme>.png
// by the page harness (seconds, no code-server); each page also passes axe in that state.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { DIALOG_ASSETS, PANEL_ASSETS } from '../../src/extension/webview/webviewPage';
import type { ObjectField } from '../../src/forms/model';
import { checkFormState } from '../../src/serverRequests/elicitation';
import { itemDetails } from '../../src/timeline/timelineSelection';
import { openPage, suiteBrowser, type WebviewPage } from './pageHarness';
import { RUNNING, elicitationForm, initTool, toolResult } from './pageSamples';
import { SCREENSHOTS, openTimeline } from './timelineSample';
import { THEMES } from './themes';

describe('the pages in four themes, as screenshots to look at', () => {
  const browser = suiteBrowser();
  before(() => mkdirSync(SCREENSHOTS, { recursive: true }));

  /** Writes the shot, then checks the state shown has no serious axe finding and no page error. */
  async function shoot(page: WebviewPage, name: string, theme: string): Promise<void> {
    await page.page.screenshot({ path: join(SCREENSHOTS, `a11y-${name}-${theme}.png`), fullPage: true });
    assert.deepEqual(await page.axe(), [], `${name} in ${theme}`);
    assert.deepEqual(page.problems, []);
  }

  for (const theme of THEMES) {
    test(`${theme.name}: the tool panel, the elicitation form with errors, the timeline`, async () => {
      const panel = await openPage(browser(), { feature: PANEL_ASSETS, theme, viewport: { width: 700, height: 900 } });
      try {
        for (const m of [initTool(), RUNNING[0]!, toolResult('c1')]) await panel.send(m);
        // Keyboard focus on Run, as after Tab from the last field (the ring is what to look at).
        await panel.page.locator('#run').focus();
        await shoot(panel, 'tool-panel', theme.file);
      } finally {
        await panel.close();
      }

      const dialog = await openPage(browser(), { feature: DIALOG_ASSETS, theme, viewport: { width: 700, height: 800 } });
      try {
        const form = elicitationForm();
        await dialog.send(form);
        await dialog.page.focus('#accept');
        await dialog.page.keyboard.press('Enter');
        const accepted = await dialog.waitForPosted('formAccept');
        if (form.type !== 'form') throw new Error('a form sample');
        const checked = checkFormState(form.view.model as ObjectField, accepted.state as never);
        await dialog.send({ type: 'formErrors', errors: checked.ok ? [] : checked.errors });
        await shoot(dialog, 'elicitation', theme.file);
      } finally {
        await dialog.close();
      }

      const { page: timeline, timeline: frames } = await openTimeline(browser(), theme);
      try {
        await timeline.page.locator('#drawn-items button', { hasText: /^tools\/call slow/ }).evaluate((b) => (b as HTMLButtonElement).click());
        // The details the panel would answer with, so the shot shows them rather than "Loading".
        const asked = await timeline.waitForPosted('details');
        const details = itemDetails(frames, 's', asked.id as number, (t) => t);
        if (details) await timeline.send({ type: 'details', details: { ...details, serverName: 'everything', inHistory: false } });
        await timeline.page.locator('#timeline-canvas').focus();
        await shoot(timeline, 'timeline', theme.file);
      } finally {
        await timeline.close();
      }
    });
  }
});
