// The elicitation form's validation as a keyboard and screen-reader user meets it (issue 39 item 4
// and 7), in the page harness: Submit with required fields empty takes focus to the first of
// them, each error sits beside its field and is linked to it, and one summary is announced.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALOG_ASSETS } from '../../src/extension/webview/webviewPage';
import type { ObjectField } from '../../src/forms/model';
import { checkFormState } from '../../src/serverRequests/elicitation';
import { measureFocusRing } from '../e2e/focusRing';
import { openPage, suiteBrowser } from './pageHarness';
import { elicitationForm, submitFormEmpty } from './pageSamples';
import { THEMES } from './themes';

describe('elicitation form: validation that can be perceived', () => {
  const browser = suiteBrowser();

  test('Submit with required fields empty: focus on the first, errors linked and marked, a summary said once', async () => {
    const page = await openPage(browser(), { feature: DIALOG_ASSETS, theme: THEMES[3]! });
    try {
      const form = elicitationForm();
      await page.send(form);
      const p = page.page;
      // Names are spoken apart: "Release name, required" — no aria-label on a span.
      const name = p.getByRole('textbox', { name: /^Release name\W+required\W*$/ });
      assert.equal(await name.getAttribute('aria-required'), 'true');
      assert.match((await name.getAttribute('aria-describedby')) ?? '', /-error .*-description/);
      assert.equal(await p.locator('span[aria-label]').count(), 0);

      await p.focus('#accept');
      await p.keyboard.press('Enter');
      const accepted = await page.waitForPosted('formAccept');
      if (form.type !== 'form') throw new Error('a form sample');
      const checked = checkFormState(form.view.model as ObjectField, accepted.state as never);
      assert.equal(checked.ok, false);
      await page.send({ type: 'formErrors', errors: checked.ok ? [] : checked.errors });

      assert.equal(await p.evaluate(() => document.activeElement?.id), await name.getAttribute('id'), 'focus on the first field to fix');
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      const errorId = ((await name.getAttribute('aria-describedby')) ?? '').split(' ')[0]!;
      assert.notEqual((await p.locator(`#${errorId}`).textContent())?.trim(), '', 'the error sits beside the field');
      assert.match((await p.locator('#form-summary').textContent()) ?? '', /2 fields need your attention: Release name, Contact email\./);
      assert.equal(await p.locator('#form-summary').getAttribute('role'), 'alert');
      assert.equal(await p.locator('.field-error[role="alert"]').count(), 0, 'field errors are not each an alert');
      assert.deepEqual(await page.axe(), []);
    } finally {
      await page.close();
    }
  });

  test('a field shows its focus at 3:1 or more, measured on screen, also the field to fix, in the four themes', async () => {
    for (const theme of THEMES) {
      const page = await openPage(browser(), { feature: DIALOG_ASSETS, theme });
      try {
        const p = page.page;
        await submitFormEmpty(page, () => p.click('#accept'));
        // The name field (to fix, its edge in the error colour) and Replicas (a valid field): the
        // focus drawn over the edge in another colour changes it too little (1.4:1 in Light 2026).
        for (const path of ['/name', '/count']) {
          const field = p.locator(`.field[data-path="${path}"] :is(input, textarea)`).first();
          await field.focus();
          const ring = await measureFocusRing(p, field, { away: 'Tab' });
          assert.ok(ring.ratio >= 3, `${theme.name}, ${path}: the focus indicator is ${ring.ratio.toFixed(2)}:1 (${ring.changed} pixels changed, a ring needs ${ring.needed})`);
        }
      } finally {
        await page.close();
      }
    }
  });
});
