// The tool panel and the elicitation form as a keyboard and screen-reader user meets them (issue
// 39), in the page harness: the focus ring outside the control at ≥ 3:1 in the four themes, where
// focus lands after Run, a result, Edit as JSON and a server's dialog closing, outcomes said once through the live region,
// text fields with a visible edge, and no sideways scroll in a 342-px column.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PANEL_ASSETS } from '../../src/extension/webview/webviewPage';
import { buildFormModel } from '../../src/forms/model';
import { initialState } from '../../src/forms/state';
import type { Input } from '../../src/usecases/panelMessages';
import { contrast, parseColour } from './colour';
import { formChecks, formValue, toolPanelAnswer } from './formChecks';
import { openPage, suiteBrowser, type WebviewPage } from './pageHarness';
import { initTool, PAGE_SAMPLES, RUNNING, toolFailure, toolResult } from './pageSamples';
import { THEMES } from './themes';

const activeId = (page: WebviewPage) => page.page.evaluate(() => `${document.activeElement?.tagName.toLowerCase()}#${document.activeElement?.id ?? ''}:${document.activeElement?.textContent?.slice(0, 20) ?? ''}`);
const announced = (page: WebviewPage) => page.page.waitForFunction(() => document.getElementById('announcer')?.textContent || undefined).then((h) => h.jsonValue() as Promise<string>);

describe('tool panel: focus, announcements, theme', () => {
  const browser = suiteBrowser();

  test('the focus ring of Run is drawn outside it in focusBorder, at 3:1 or more against the page, in the four themes', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    try {
      await page.send(initTool());
      for (const theme of THEMES) {
        if (page.theme !== theme) await page.setTheme(theme);
        await page.page.focus('#run');
        const ring = await page.page.evaluate(() => {
          const run = document.getElementById('run')!;
          const s = getComputedStyle(run);
          const root = getComputedStyle(document.documentElement);
          return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), offset: parseFloat(s.outlineOffset), colour: s.outlineColor, page: root.backgroundColor, focusBorder: root.getPropertyValue('--vscode-focusBorder').trim() };
        });
        assert.notEqual(ring.style, 'none', theme.name);
        assert.ok(ring.width >= 1, `${theme.name}: ${JSON.stringify(ring)}`);
        assert.ok(ring.offset >= 1, `${theme.name}: the ring is outside the button, ${JSON.stringify(ring)}`);
        assert.deepEqual(parseColour(ring.colour), parseColour(ring.focusBorder), theme.name);
        const ratio = contrast(ring.colour, ring.page);
        assert.ok(ratio >= 3, `${theme.name}: focus ring ${ratio.toFixed(2)}:1`);
        const edge = await page.page.evaluate(() => getComputedStyle(document.querySelector('input[type="text"]')!).borderTopColor);
        assert.ok(parseColour(edge)[3] > 0, `${theme.name}: a text field has a visible border (${edge})`);
      }
    } finally {
      await page.close();
    }
  });

  test('Run stays a Tab stop while the check of the last keystroke is on its way; with a known problem it sends nothing and takes the focus to the field', async () => {
    // echo's form: one required field, so the next Tab stop after it is Run.
    const model = buildFormModel({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
    const answer = toolPanelAnswer(model);
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    // The test answers the opening check itself (late, on purpose); the rest as the extension does.
    const checked = formChecks(page, answer, 1);
    try {
      const p = page.page;
      await page.send({ ...initTool(), model, input: { mode: 'form', state: initialState(model) ?? {} }, history: [] });
      const field = p.locator('.field[data-path="/message"] :is(input, textarea)').first();
      const opening = (await page.waitForPosted('validate')).input as Input;
      // Typed, and Tab at once: the answer to the check of the empty form comes after the keystroke.
      await field.focus();
      await p.keyboard.type('typed');
      await page.send(answer(opening));
      await p.keyboard.press('Tab');
      assert.match(await activeId(page), /^button#run/, 'Tab right after typing reaches Run');
      assert.equal(await p.locator('.field[data-path="/message"]').evaluate((f) => f.classList.contains('invalid')), false, 'the answer about the empty form shows no error for text already typed');
      // Enter before the check of "typed" came back: the page asks, the extension's check decides.
      await p.keyboard.press('Enter');
      assert.deepEqual((await page.waitForPosted('run')).input, { mode: 'form', state: { message: 'typed' } });
      await checked((input) => formValue(input, 'message') === 'typed');
      assert.match(await activeId(page), /^button#run/, 'a valid answer moves no focus');
      // Emptied: its check answered, Run says it cannot act, is still a Tab stop, and posts nothing.
      await field.fill('');
      await checked((input) => formValue(input, 'message') === '');
      assert.equal(await p.locator('#run').getAttribute('aria-disabled'), 'true');
      assert.equal(await p.locator('#run').evaluate((b) => (b as HTMLButtonElement).disabled), false, 'never disabled: a Tab stop');
      await p.keyboard.press('Tab');
      assert.match(await activeId(page), /^button#run/);
      const runs = (await page.posted('run')).length;
      await p.keyboard.press('Enter');
      assert.equal(await p.evaluate(() => document.activeElement?.closest('.field')?.getAttribute('data-path')), '/message', 'the focus on the field to fix');
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.match(await announced(page), /1 problem/);
      assert.equal((await page.posted('run')).length, runs, 'nothing posted');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test('Run moves focus to Cancel and says so; the result takes focus to its heading and is said once; a failure too', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[1]! });
    try {
      await page.send(initTool());
      await page.page.focus('#run');
      await page.send(RUNNING[0]);
      assert.match(await activeId(page), /^button#cancel/);
      assert.match(await announced(page), /Running\. Cancel stops it\./);
      await page.send(RUNNING[1]);
      assert.equal(await page.page.getAttribute('[role="progressbar"]', 'aria-label'), 'Progress of the call');
      await page.send(toolResult('c1'));
      assert.match(await activeId(page), /^h2#:Result/);
      await page.page.waitForFunction(() => document.getElementById('announcer')?.textContent?.startsWith('OK'));
      assert.equal(await page.page.locator('[aria-live]').count(), 1, 'one live region: the announcer');
      await page.page.focus('#run');
      await page.send({ ...RUNNING[0], callId: 'c2' });
      await page.send(toolFailure('c2'));
      assert.match(await activeId(page), /^h2#:Result/);
      await page.page.waitForFunction(() => document.getElementById('announcer')?.textContent?.startsWith('Protocol error -32602'));
    } finally {
      await page.close();
    }
  });

  test('a dialog closed and the panel active again: focus back on Cancel while running, on the result once done, never out of a field', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    try {
      const p = page.page;
      await page.send(initTool());
      await p.focus('#run');
      await page.send(RUNNING[0]);
      // The focus the page had is gone while the dialog was open (what the audit saw when it closed).
      await p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.send({ type: 'focusBack' });
      assert.match(await activeId(page), /^button#cancel/);
      // The call ended while the dialog was open: Cancel is hidden, its focus is gone.
      await page.send(toolResult('c1'));
      await p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.send({ type: 'focusBack' });
      assert.match(await activeId(page), /^h2#:Result/);
      // A field being typed in keeps the focus.
      await p.locator('.field[data-path="/replicas"] input').focus();
      await page.send({ type: 'focusBack' });
      assert.equal(await p.evaluate(() => document.activeElement?.closest('.field')?.getAttribute('data-path')), '/replicas');
    } finally {
      await page.close();
    }
  });

  test('closing the app view in the panel moves focus to the note that says so, or to the result', async () => {
    const sample = PAGE_SAMPLES.find((s) => s.name === 'tool panel, with an app view')!;
    for (const text of ['The app view was closed.', undefined]) {
      const page = await openPage(browser(), { feature: sample.feature, theme: THEMES[0]!, ...(sample.app ? { app: sample.app } : {}) });
      try {
        for (const m of sample.messages) await page.send(m);
        await page.page.focus('#mcp-app-close');
        await page.send({ type: 'appClosed', viewId: 'v1', ...(text ? { text } : {}) });
        assert.match(await activeId(page), text ? /^section#mcp-app-closed:The app view was clo/ : /^h2#:Result/);
      } finally {
        await page.close();
      }
    }
  });

  test('the history buttons are named by the call they act on', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    try {
      await page.send(initTool());
      const names = await page.page.locator('.history-item button').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      assert.equal(new Set(names).size, names.length, `each name says which call: ${names.join(' | ')}`);
      assert.match(names[0] ?? '', /^Show the call at .+ \(ok\)$/);
      assert.match(names[5] ?? '', /^Re-run the call at .+ \(error\)$/);
    } finally {
      await page.close();
    }
  });

  test('Edit as JSON keeps focus on the toggle', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    try {
      await page.send(initTool());
      await page.page.focus('#toggle-mode');
      await page.send({ type: 'setInput', input: { mode: 'json', text: '{}' } });
      assert.match(await activeId(page), /^button#toggle-mode:Edit as form/);
    } finally {
      await page.close();
    }
  });

  test('a 342-px column (200% zoom) does not scroll sideways, long default URL and all', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]!, viewport: { width: 342, height: 700 } });
    try {
      await page.send(initTool());
      const { scroll, client } = await page.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(scroll <= client, `content ${scroll} px in a ${client}-px column`);
    } finally {
      await page.close();
    }
  });
});
