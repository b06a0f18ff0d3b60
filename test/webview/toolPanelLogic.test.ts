// The tool panel's own logic, in the page harness (headless Chromium, the page as the extension
// builds it, no VS Code): what it posts as the user types and the errors the extension's own check
// finds (readToolArguments) placed at their fields; a result drawn from the extension's own display
// model (text as text, JSON as a tree, images only from allow-listed data: URIs, the structured
// content's verdict, a protocol error); and the history list with what each of its buttons posts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PANEL_ASSETS } from '../../src/extension/webview/webviewPage';
import { buildFormModel } from '../../src/forms/model';
import { sharedSchemaValidator } from '../../src/schema/validator';
import { readToolArguments } from '../../src/usecases/callTool';
import type { HistoryEntry } from '../../src/usecases/history';
import { historyItem, type Input, type OutboundMessage } from '../../src/usecases/panelMessages';
import { toolResultDisplay } from '../../src/usecases/resultModel';
import { formChecks, formValue, toolPanelAnswer } from './formChecks';
import { openPage, suiteBrowser, type WebviewPage } from './pageHarness';
import { TOOL, initTool, promptInit, toolFailure } from './pageSamples';
import { THEMES } from './themes';

const model = buildFormModel(TOOL.inputSchema);

/** The tool panel's answer to a check of an input. */
const validation = toolPanelAnswer(model);

const fieldState = (page: WebviewPage, path: string) =>
  page.page.locator(`.field[data-path="${path}"]`).evaluate((f) => ({
    invalid: f.classList.contains('invalid'),
    ariaInvalid: f.querySelector('input, select, textarea')?.getAttribute('aria-invalid') ?? null,
    error: f.querySelector(':scope > .field-error')?.textContent ?? '',
  }));
/** Run cannot act (aria-disabled: it stays a Tab stop) and says so; it is never `disabled`. */
const runDisabled = (page: WebviewPage) => page.page.locator('#run').evaluate((b) => ((b as HTMLButtonElement).disabled ? 'disabled' : b.getAttribute('aria-disabled') === 'true'));
const problems = (page: WebviewPage) => page.page.locator('#problems').innerText();

describe('the tool panel page: validation, results and history', () => {
  const browser = suiteBrowser();

  test('what the user types is posted; the extension\'s errors show at the fields touched, then all of them after Run', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0] });
    try {
      const checked = formChecks(page, validation);
      await page.send(initTool());
      await page.page.locator('.field[data-path="/replicas"] input').fill('42');
      const typed = await checked((input) => formValue(input, 'replicas') === '42');
      assert.equal(typed.mode, 'form');
      assert.deepEqual((await page.posted('edited')).length, 1, 'the first edit says so once');
      // Only the field the user touched shows its error (the required ones wait for Run).
      const replicas = await fieldState(page, '/replicas');
      assert.deepEqual({ invalid: replicas.invalid, ariaInvalid: replicas.ariaInvalid }, { invalid: true, ariaInvalid: 'true' });
      assert.match(replicas.error, /10/, replicas.error);
      assert.equal((await fieldState(page, '/message')).invalid, false, 'an untouched field shows no error yet');
      assert.equal(await problems(page), '1 problem — fix it to run');
      assert.equal(await runDisabled(page), true);

      await page.page.locator('.field[data-path="/replicas"] input').fill('3');
      await checked((input) => formValue(input, 'replicas') === '3');
      assert.equal((await fieldState(page, '/replicas')).invalid, false, 'a fixed field loses its error');
      assert.equal(await problems(page), '');
      assert.equal(await runDisabled(page), false);

      // Run with problems the page knows (message and region are required, not yet shown): nothing
      // is sent; every problem shows and the focus goes to the first field to fix. (The click's
      // handler decides at once: what it posts is there when the click returns.)
      await page.page.locator('#run').click();
      assert.equal((await page.posted('run')).length, 0, `a Run with known problems sends nothing; the page posted ${JSON.stringify(await page.posted())}`);
      assert.equal((await fieldState(page, '/message')).invalid, true);
      assert.equal((await fieldState(page, '/region')).invalid, true);
      assert.equal(await problems(page), '2 problems — fix them to run');
      assert.equal(await page.page.evaluate(() => document.activeElement?.closest('.field')?.getAttribute('data-path')), '/message', 'the focus on the first field to fix');

      // Run while the check of the last edit is on its way: the input goes as it is, and the
      // extension answers an invalid Run with every problem.
      const asked = (await page.posted('validate')).length;
      await page.page.locator('.field[data-path="/message"] :is(input, textarea)').first().fill('ship it');
      await page.page.waitForFunction((n) => (window as unknown as { __posted: Array<{ type: string }> }).__posted.filter((m) => m.type === 'validate').length > n, asked);
      // Run is aria-disabled while problems show (a Tab stop still, and it still takes a click);
      // Playwright counts aria-disabled as not enabled, so the click is forced.
      await page.page.locator('#run').click({ force: true });
      const run = (await page.waitForPosted('run')).input as Input;
      assert.equal(formValue(run, 'message'), 'ship it');
      await checked((input) => formValue(input, 'message') === 'ship it');
      const ofRun = readToolArguments(model, run, sharedSchemaValidator);
      assert.deepEqual(ofRun.errors.map((e) => e.path), ['/region']);
      await page.send({ type: 'validation', errors: ofRun.errors } satisfies OutboundMessage);
      assert.equal((await fieldState(page, '/message')).invalid, false);
      assert.equal((await fieldState(page, '/region')).invalid, true);
      assert.equal(await problems(page), '1 problem — fix it to run');

      // Edit as JSON carries the input over to the extension, which answers with the text.
      await page.page.locator('#toggle-mode').click();
      assert.equal(((await page.waitForPosted('switchMode')).input as Input).mode, 'form');
      await page.send({ type: 'setInput', input: { mode: 'json', text: '{ "replicas": 3 }' } } satisfies OutboundMessage);
      assert.equal(await page.page.locator('#json-input').inputValue(), '{ "replicas": 3 }');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test('a result: server text stays text, JSON is a tree, only allow-listed data: images show, the verdict is said', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0] });
    try {
      await page.send(initTool());
      await page.send({ type: 'running', callId: 'c1', startedAt: Date.now(), arguments: '{}' } satisfies OutboundMessage);
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
      const display = toolResultDisplay(
        {
          content: [
            { type: 'text', text: '<img src=x onerror="window.__pwned=1">' },
            { type: 'text', text: '{"deployed": ["eu-west"]}' },
            { type: 'image', data: png, mimeType: 'image/png' },
            { type: 'resource_link', uri: 'test://static/resource/1', name: 'Resource 1' },
          ],
          structuredContent: { ok: 'yes' },
        },
        TOOL.outputSchema,
        sharedSchemaValidator,
      );
      // An image the extension would never send (SVG as an image): the page's second look drops it.
      const forged = { index: 9, kind: 'image', mimeType: 'image/svg+xml', dataUri: 'data:image/svg+xml;base64,PHN2Zy8+', bytes: 6 };
      await page.send({ type: 'toolResult', callId: 'c1', display: { ...display, parts: [...display.parts, forged] }, durationMs: 12 } as unknown as OutboundMessage);
      assert.equal(await page.page.locator('.status.ok').innerText(), 'OK');
      const texts = await page.page.locator('.part-text pre.text').allInnerTexts();
      assert.ok(texts.includes('<img src=x onerror="window.__pwned=1">'), JSON.stringify(texts));
      assert.equal(await page.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null), null, 'no markup from the server ran');
      assert.ok((await page.page.locator('.part-text .json-key').allInnerTexts()).includes('deployed: '), 'the JSON text is drawn as a tree');
      const images = await page.page.locator('.part-image img').evaluateAll((els) => els.map((e) => (e as HTMLImageElement).src.slice(0, 22)));
      assert.deepEqual(images, ['data:image/png;base64,'], 'the PNG shows, the forged SVG does not');
      assert.match(await page.page.locator('.verdict').innerText(), /^✗ Does not match the tool’s outputSchema/);
      assert.match(await page.page.locator('.verdict-error').first().innerText(), /ok/);
      // Its buttons post what the extension acts on.
      await page.page.locator('.resource-link').click();
      assert.deepEqual(await page.waitForPosted('readResource'), { type: 'readResource', uri: 'test://static/resource/1' });
      await page.page.locator('.open-result').click();
      assert.deepEqual(await page.waitForPosted('openResult'), { type: 'openResult', callId: 'c1' });
      assert.equal(await page.page.locator('#run').innerText(), 'Run', 'the call is over');

      await page.send({ type: 'running', callId: 'c2', startedAt: Date.now(), arguments: '{}' } satisfies OutboundMessage);
      await page.send(toolFailure('c2'));
      assert.equal(await page.page.locator('.status.error').innerText(), 'Protocol error -32602');
      assert.equal(await page.page.locator('.error-meaning').innerText(), 'Invalid params');
      assert.equal(await page.page.locator('#result .part').count(), 0, 'the failure replaced the result');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test('the history: newest first with outcome, origin and task; each button posts its entry; Re-run waits while a call runs', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0] });
    try {
      await page.send({ ...initTool(), history: [] } as OutboundMessage);
      assert.equal(await page.page.locator('.history-list').count(), 0);
      assert.match(await page.page.locator('#history').innerText(), /No calls yet\./);
      const entry = (e: Partial<HistoryEntry> & Pick<HistoryEntry, 'id' | 'outcome' | 'summary'>): HistoryEntry => ({ serverId: 's', kind: 'tool', name: TOOL.name, durationMs: 20, time: Date.UTC(2026, 10, 29, 6, 0), arguments: { message: 'hi', region: 'eu-west' }, ...e });
      const entries = [
        entry({ id: 'h3', outcome: 'ok', summary: 'deployed', result: { content: [] }, origin: 'chat (@mcp)', task: { id: 'task-0123456789', status: 'completed' } }),
        entry({ id: 'h2', outcome: 'cancelled', summary: 'you pressed Cancel', origin: 'the tool panel' }),
        entry({ id: 'h1', outcome: 'error', summary: 'too big', argumentsOmitted: true, arguments: undefined, failure: { kind: 'protocol', code: -32602, message: 'too big' } }),
      ];
      await page.send({ type: 'history', entries: entries.map((e) => historyItem(e, 'the tool panel')) } satisfies OutboundMessage);
      const rows = await page.page.locator('.history-item').evaluateAll((items) =>
        items.map((i) => ({
          id: (i as HTMLElement).dataset.id,
          outcome: i.querySelector('.outcome')?.textContent,
          summary: i.querySelector('.summary')?.textContent,
          task: i.querySelector('.history-task')?.textContent,
          disabled: Array.from(i.querySelectorAll('button')).map((b) => `${b.textContent}:${(b as HTMLButtonElement).disabled}`).join(' '),
        })),
      );
      assert.deepEqual(rows, [
        { id: 'h3', outcome: '✓', summary: 'chat (@mcp)deployed', task: 'task task-012 · completed', disabled: 'Show:false Load:false Re-run:false' },
        { id: 'h2', outcome: '⊘', summary: 'you pressed Cancel', task: '', disabled: 'Show:true Load:false Re-run:false' },
        { id: 'h1', outcome: '✗', summary: 'too big', task: '', disabled: 'Show:false Load:true Re-run:true' },
      ]);
      await page.page.locator('.history-item[data-id="h3"] .rerun-history').click();
      assert.deepEqual(await page.waitForPosted('rerun'), { type: 'rerun', historyId: 'h3' });
      await page.page.locator('.history-item[data-id="h2"] .load-history').click();
      assert.deepEqual(await page.waitForPosted('loadHistory'), { type: 'loadHistory', historyId: 'h2' });
      await page.page.locator('.history-item[data-id="h1"] .show-history').click();
      assert.deepEqual(await page.waitForPosted('showHistory'), { type: 'showHistory', historyId: 'h1' });
      // While a call runs, a history that comes (the call's own entry) offers no Re-run.
      await page.send({ type: 'running', callId: 'c3', startedAt: Date.now(), arguments: '{}' } satisfies OutboundMessage);
      await page.send({ type: 'history', entries: entries.map((e) => historyItem(e, 'the tool panel')) } satisfies OutboundMessage);
      assert.deepEqual(await page.page.locator('.rerun-history').evaluateAll((bs) => bs.map((b) => (b as HTMLButtonElement).disabled)), [true, true, true]);
      await page.page.getByRole('button', { name: 'Clear' }).click();
      assert.deepEqual(await page.waitForPosted('clearHistory'), { type: 'clearHistory' });
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });

  test('two checks out: the answer to the older one shows nothing, the answer to the newer one shows its errors', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0] });
    try {
      await page.send(initTool());
      const replicas = page.page.locator('.field[data-path="/replicas"] input');
      // A check asked for `value` after the first `k` checks (the form may still ask for its first state, replicas 2, late).
      const checkOf = (value: string, k: number) =>
        page.page.waitForFunction(
          ([v, n]) => (window as unknown as { __posted: Array<{ type: string; input?: { state?: { replicas?: unknown } } }> }).__posted.filter((m) => m.type === 'validate').slice(n as number).some((m) => m.input?.state?.replicas === v),
          [value, k] as const,
        );
      const before = (await page.posted('validate')).length;
      await replicas.fill('42');
      await checkOf('42', before);
      await replicas.fill('43');
      await checkOf('43', before);
      const asked = (await page.posted('validate')).slice(before).map((m) => m.input as Input);
      const newer = asked.at(-1)!;
      assert.deepEqual(asked.slice(-2).map((input) => formValue(input, 'replicas')), ['42', '43']);
      // The extension answers in order; every answer but the last is about an input no longer typed.
      for (const _older of asked.slice(0, -1)) {
        await page.send({ type: 'validation', errors: [{ path: '/replicas', keyword: 'maximum', message: 'the older answer: must be at most 10' }] } satisfies OutboundMessage);
        assert.equal((await fieldState(page, '/replicas')).error, '', 'an older answer is not shown');
      }
      await page.send(validation(newer!));
      assert.match((await fieldState(page, '/replicas')).error, /10/);
      assert.doesNotMatch((await fieldState(page, '/replicas')).error, /older answer/);
      assert.equal(await problems(page), '1 problem — fix it to run');
    } finally {
      await page.close();
    }
  });

  test('a prompt\'s panel has no history', async () => {
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0] });
    try {
      await page.send(promptInit);
      await page.send({ type: 'history', entries: [] } satisfies OutboundMessage);
      assert.equal(await page.page.locator('.history-header').count(), 0);
      assert.equal(await page.page.locator('#run').innerText(), 'Get prompt');
    } finally {
      await page.close();
    }
  });
});
