// The server's suggestions under a prompt argument as a keyboard and screen-reader user meets them
// (issue 39 item 12), in the page harness: the field is a combobox (expanded, controls its list,
// names the active option), the arrow keys move, Enter takes, Escape closes, the focus never
// leaves the field; and "Arguments to send" adds no Tab stop between the last field and Run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PANEL_ASSETS } from '../../src/extension/webview/webviewPage';
import { openPage, suiteBrowser } from './pageHarness';
import { initTool, promptInit } from './pageSamples';
import { THEMES } from './themes';

describe('suggestions: a combobox, and Run right after the last field', () => {
  const browser = suiteBrowser();

  test('the arrow keys move through the suggestions, Enter takes the active one, Escape closes them; focus stays in the field', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    try {
      const p = page.page;
      await page.send(promptInit);
      const field = p.locator('.field[data-path="/department"] :is(input, textarea)');
      await field.focus();
      const asked = await page.waitForPosted('complete');
      assert.deepEqual([asked.name, asked.value], ['department', '']);
      assert.equal(await field.getAttribute('role'), 'combobox');
      assert.equal(await field.getAttribute('aria-expanded'), 'false');
      const listId = (await field.getAttribute('aria-controls')) ?? '';
      assert.equal(await p.locator(`[id="${listId}"]`).getAttribute('role'), 'listbox');

      const offer = () => page.send({ type: 'completions', name: 'department', value: '', values: ['Engineering', 'Sales', 'Marketing'] });
      await offer();
      assert.equal(await field.getAttribute('aria-expanded'), 'true');
      const options = p.locator(`[id="${listId}"] [role="option"]`);
      assert.deepEqual(await options.allInnerTexts(), ['Engineering', 'Sales', 'Marketing']);
      assert.equal(await p.locator(`[id="${listId}"] button, [id="${listId}"] [tabindex="0"]`).count(), 0, 'no option is a Tab stop');
      const active = () => p.evaluate(() => {
        const input = document.activeElement!;
        const id = input.getAttribute('aria-activedescendant');
        return { focus: input.closest('.field')?.getAttribute('data-path'), option: id ? document.getElementById(id)?.textContent : null, selected: id ? document.getElementById(id)?.getAttribute('aria-selected') : null };
      });
      await p.keyboard.press('ArrowDown');
      assert.deepEqual(await active(), { focus: '/department', option: 'Engineering', selected: 'true' });
      await p.keyboard.press('ArrowDown');
      assert.deepEqual(await active(), { focus: '/department', option: 'Sales', selected: 'true' });
      await p.keyboard.press('ArrowUp');
      await p.keyboard.press('ArrowUp');
      assert.deepEqual(await active(), { focus: '/department', option: 'Marketing', selected: 'true' }, 'Up from the first wraps to the last');
      assert.deepEqual(await page.axe(), []);
      await p.keyboard.press('Enter');
      assert.equal(await field.inputValue(), 'Marketing', 'Enter took the active suggestion');
      assert.equal(await field.getAttribute('aria-expanded'), 'false');
      assert.equal(await field.getAttribute('aria-activedescendant'), null);
      assert.equal(await options.count(), 0);

      await field.fill('');
      await offer();
      assert.equal(await options.count(), 3);
      await p.keyboard.press('ArrowDown');
      await p.keyboard.press('Escape');
      assert.equal(await options.count(), 0, 'Escape closed the list');
      assert.equal(await field.getAttribute('aria-expanded'), 'false');
      assert.equal(await field.getAttribute('aria-activedescendant'), null);
      assert.equal(await field.inputValue(), '', 'Escape took nothing');
      assert.equal(await p.evaluate(() => document.activeElement?.closest('.field')?.getAttribute('data-path')), '/department');
    } finally {
      await page.close();
    }
  });

  test('a tool without completions has plain text fields, not comboboxes', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    try {
      await page.send(initTool());
      assert.equal(await page.page.locator('[role="combobox"]').count(), 0);
    } finally {
      await page.close();
    }
  });

  test('"Arguments to send" comes after Run: Tab from the last field goes to Run', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    try {
      const p = page.page;
      await page.send(promptInit);
      // The answer to the page's own check (as the extension gives it): an answer sent before the
      // page asked would be one older than its input, which the page drops.
      await page.waitForPosted('validate');
      await page.send({ type: 'validation', errors: [], preview: '{\n  "department": "Engineering"\n}' });
      await p.locator('summary', { hasText: 'Arguments to send' }).waitFor({ timeout: 10_000 });
      assert.equal(await p.locator('summary', { hasText: 'Arguments to send' }).count(), 1);
      await p.locator('.field[data-path="/tone"] :is(input, textarea)').focus();
      await p.keyboard.press('Tab');
      assert.equal(await p.evaluate(() => document.activeElement?.id), 'run');
    } finally {
      await page.close();
    }
  });
});
