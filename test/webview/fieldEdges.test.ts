// The edges of form fields (issue 39 items 3 and 6), in the page harness: in the four themes every
// text field and list of choices has an edge at 3:1 or more against what surrounds it (WCAG
// 1.4.11), and a field that needs fixing is outlined in the theme's error colour, which is not the
// colour of every other edge (High Contrast Dark gives inputValidation.errorBorder its blue). One
// page per test, switched through the themes (setTheme; themeSwitch.test.ts holds it to a fresh load).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALOG_ASSETS, PANEL_ASSETS } from '../../src/extension/webview/webviewPage';
import type { ObjectField } from '../../src/forms/model';
import { checkFormState } from '../../src/serverRequests/elicitation';
import { contrast, parseColour } from './colour';
import { openPage, suiteBrowser, type WebviewPage } from './pageHarness';
import { elicitationForm, initTool } from './pageSamples';
import { THEMES } from './themes';

interface Edge {
  readonly field: string;
  readonly border: string;
  readonly inside: string;
  readonly page: string;
}

/** Each visible field's top edge, the field's background and the page's. */
function edges(page: WebviewPage): Promise<Edge[]> {
  return page.page.evaluate(() =>
    Array.from(document.querySelectorAll('input[type="text"], input[type="email"], input[type="number"], textarea, select'))
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .map((e) => {
        const s = getComputedStyle(e);
        return { field: e.id || e.tagName, border: s.borderTopColor, inside: s.backgroundColor, page: getComputedStyle(document.documentElement).backgroundColor };
      }),
  );
}

function assertVisibleEdges(theme: string, found: readonly Edge[]): void {
  assert.ok(found.length > 0, theme);
  for (const e of found) {
    const ratio = Math.min(contrast(e.border, e.inside), contrast(e.border, e.page));
    assert.ok(ratio >= 3, `${theme}: ${e.field}'s edge ${e.border} is ${ratio.toFixed(2)}:1 against ${e.inside} / ${e.page}`);
  }
}

describe('form fields: edges that can be seen, errors in red', () => {
  const browser = suiteBrowser();

  test('the tool panel\'s fields have an edge at 3:1 or more in the four themes', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0]! });
    try {
      await page.send(initTool());
      for (const theme of THEMES) {
        if (page.theme !== theme) await page.setTheme(theme);
        assertVisibleEdges(theme.name, await edges(page));
      }
    } finally {
      await page.close();
    }
  });

  test('the elicitation form: edges at 3:1, and an invalid field outlined in the error colour, not the usual edge', async () => {
    const page = await openPage(browser(), { feature: DIALOG_ASSETS, theme: THEMES[0]! });
    try {
      const form = elicitationForm();
      if (form.type !== 'form') throw new Error('a form sample');
      await page.send(form);
      const email = page.page.getByRole('textbox', { name: /^Contact email/ });
      // As the form opens, in each theme: every edge, and the email field's usual one.
      const usual = new Map<string, string>();
      for (const theme of THEMES) {
        if (page.theme !== theme) await page.setTheme(theme);
        assertVisibleEdges(theme.name, await edges(page));
        usual.set(theme.name, await email.evaluate((e) => getComputedStyle(e).borderTopColor));
      }
      await page.page.click('#accept');
      const accepted = await page.waitForPosted('formAccept');
      const checked = checkFormState(form.view.model as ObjectField, accepted.state as never);
      await page.send({ type: 'formErrors', errors: checked.ok ? [] : checked.errors });
      assert.equal(await email.getAttribute('aria-invalid'), 'true');
      // Submitted with its errors, in each theme: the invalid edge.
      for (const theme of THEMES) {
        if (page.theme !== theme) await page.setTheme(theme);
        const { border, inside, error } = await email.evaluate((e) => ({
          border: getComputedStyle(e).borderTopColor,
          inside: getComputedStyle(e).backgroundColor,
          error: getComputedStyle(document.documentElement).getPropertyValue('--vscode-errorForeground').trim(),
        }));
        assert.notDeepEqual(parseColour(border), parseColour(usual.get(theme.name)!), `${theme.name}: the invalid edge differs from the usual one (${border})`);
        const [r, , b] = parseColour(border);
        assert.ok(r > b, `${theme.name}: the invalid edge is red, not blue (${border}; errorForeground ${error})`);
        assert.ok(contrast(border, inside) >= 3, `${theme.name}: the invalid edge ${border} at ${contrast(border, inside).toFixed(2)}:1`);
      }
    } finally {
      await page.close();
    }
  });
});
