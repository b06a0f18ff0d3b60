// Screenshots of the pages issue 39 asks to look at in the four themes (Light 2026, Light+, High
// Contrast Dark, High Contrast Light): the tool panel with a result and Run focused, the
// elicitation form after Submit with its errors (the focus on the first field to fix), and the
// timeline with a cancelled call selected. Written to test-results/screenshots/a11y-<page>-<theme>.png
// by the page harness (seconds, no code-server); each page also passes axe in that state. Each
// page is brought to its state once and switched through the themes (setTheme, as VS Code switches
// a live webview; themeSwitch.test.ts holds it to a fresh load; axe as themeAxe.ts runs it).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { DIALOG_ASSETS, PANEL_ASSETS } from '../../src/extension/webview/webviewPage';
import type { ObjectField } from '../../src/forms/model';
import { checkFormState } from '../../src/serverRequests/elicitation';
import { itemDetails } from '../../src/timeline/timelineSelection';
import { openPage, suiteBrowser, type WebviewPage } from './pageHarness';
import { axeInThemes } from './themeAxe';
import { RUNNING, elicitationForm, initTool, toolResult } from './pageSamples';
import { SCREENSHOTS, openTimeline } from './timelineSample';
import { THEMES } from './themes';

describe('the pages in four themes, as screenshots to look at', () => {
  const browser = suiteBrowser();
  before(() => mkdirSync(SCREENSHOTS, { recursive: true }));

  /** Switched through the four themes: in each the shot is written, then the state shown gets axe. */
  async function shootInThemes(page: WebviewPage, name: string): Promise<void> {
    const found = await axeInThemes(page, THEMES, (theme) => page.page.screenshot({ path: join(SCREENSHOTS, `a11y-${name}-${theme.file}.png`), fullPage: true }).then(() => undefined));
    const bad = found.filter((f) => f.violations.length > 0 || f.problems.length > 0);
    assert.deepEqual(bad, [], `${name}:\n${JSON.stringify(bad, null, 1)}`);
  }

  test('the tool panel with a result, Run focused', async () => {
    const panel = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]!, viewport: { width: 700, height: 900 } });
    try {
      for (const m of [initTool(), RUNNING[0]!, toolResult('c1')]) await panel.send(m);
      // Keyboard focus on Run, as after Tab from the last field (the ring is what to look at).
      await panel.page.locator('#run').focus();
      await shootInThemes(panel, 'tool-panel');
    } finally {
      await panel.close();
    }
  });

  test('the elicitation form after Submit, with its errors', async () => {
    const dialog = await openPage(browser(), { feature: DIALOG_ASSETS, theme: THEMES[0]!, viewport: { width: 700, height: 800 } });
    try {
      const form = elicitationForm();
      await dialog.send(form);
      await dialog.page.focus('#accept');
      await dialog.page.keyboard.press('Enter');
      const accepted = await dialog.waitForPosted('formAccept');
      if (form.type !== 'form') throw new Error('a form sample');
      const checked = checkFormState(form.view.model as ObjectField, accepted.state as never);
      await dialog.send({ type: 'formErrors', errors: checked.ok ? [] : checked.errors });
      await shootInThemes(dialog, 'elicitation');
    } finally {
      await dialog.close();
    }
  });

  test('the timeline with a cancelled call selected', async () => {
    const { page: timeline, timeline: frames } = await openTimeline(browser(), THEMES[0]!);
    try {
      await timeline.page.locator('#drawn-items button', { hasText: /^tools\/call slow/ }).evaluate((b) => (b as HTMLButtonElement).click());
      // The details the panel would answer with, so the shot shows them rather than "Loading".
      const asked = await timeline.waitForPosted('details');
      const details = itemDetails(frames, 's', asked.id as number, (t) => t);
      if (details) await timeline.send({ type: 'details', details: { ...details, serverName: 'everything', inHistory: false } });
      await timeline.page.locator('#timeline-canvas').focus();
      await shootInThemes(timeline, 'timeline');
    } finally {
      await timeline.close();
    }
  });
});
