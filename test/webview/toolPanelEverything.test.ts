// The tool panel page against server-everything's own tools, in the page harness (headless
// Chromium, the page as the extension builds it, no VS Code): the extension's side of the panel is
// played by the same parts the panel uses (the form model, readToolArguments, switchedInput and the
// callTool use case with a real McpClient), so each check reads what a real answer draws. These are
// the page's details that inspect.test.ts (e2e) checked through code-server until issue 35 moved
// them here; the e2e suite keeps one path per feature.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpClient, Tool } from '../../src/client';
import { PANEL_ASSETS } from '../../src/extension/webview/webviewPage';
import { switchedInput } from '../../src/extension/panels/toolPanelModel';
import { buildFormModel, fallbacks } from '../../src/forms/model';
import { initialState } from '../../src/forms/state';
import { sharedSchemaValidator } from '../../src/schema/validator';
import { callTool, readToolArguments } from '../../src/usecases/callTool';
import type { Input, OutboundMessage } from '../../src/usecases/panelMessages';
import { EVERYTHING, WireRecorder, connectStdio, waitFor } from '../client/support';
import { openPage, suiteBrowser, type WebviewPage } from './pageHarness';
import { THEMES } from './themes';

/** Why a call was cancelled when the user pressed Cancel (the tool panel's own words). */
const CANCELLED_IN_PANEL = 'you pressed Cancel in the panel';

interface PanelSide {
  /** The messages the extension's side has answered so far, by type. */
  readonly handled: string[];
  stop(): void;
}

/**
 * The extension's side of one tool panel, as src/extension/panels/toolPanel.ts answers the page:
 * `validate` with the use case's own check, `switchMode` through switchedInput(), `run` through
 * the callTool use case on the real client (running, progress, the result or failure), `cancel`
 * by aborting the call. It reads what the page posted every 20 ms.
 */
function servePanel(page: WebviewPage, client: McpClient, tool: Tool): PanelSide {
  const model = buildFormModel(tool.inputSchema);
  const handled: string[] = [];
  let seen = 0;
  let running: AbortController | undefined;
  let stopped = false;
  // A message on its way when the test closed the page has nowhere to go; any other failure counts.
  const post = (m: OutboundMessage) =>
    stopped
      ? Promise.resolve()
      : page.send(m).catch((error: unknown) => {
          if (!stopped) throw error;
        });
  const handle = async (m: Record<string, unknown>): Promise<void> => {
    const input = m.input as Input;
    if (m.type === 'validate') {
      const checked = readToolArguments(model, input, sharedSchemaValidator);
      await post({ type: 'validation', errors: checked.errors, ...(checked.errors.length === 0 ? { preview: JSON.stringify(checked.value, null, 2) } : {}) });
    } else if (m.type === 'switchMode') {
      const switched = switchedInput(model, input);
      await post('warning' in switched ? { type: 'notice', level: 'warning', text: switched.warning } : { type: 'setInput', input: switched.input });
    } else if (m.type === 'cancel') running?.abort(CANCELLED_IN_PANEL);
    else if (m.type === 'run') void run(input, m.timeoutSeconds as number | undefined);
  };
  const run = async (input: Input, timeoutSeconds: number | undefined) => {
    const abort = (running = new AbortController());
    const callId = `c${handled.length}`;
    const outcome = await callTool(
      { serverId: 'everything', tool, model, arguments: input, origin: 'the tool panel', signal: abort.signal, ...(timeoutSeconds !== undefined ? { timeout: { seconds: timeoutSeconds } } : {}) },
      {
        client: () => client,
        validator: sharedSchemaValidator,
        onStart: (a) => void post({ type: 'running', callId, startedAt: a.startedAt, arguments: JSON.stringify(a.arguments, null, 2) }),
        onProgress: (p) => void post({ type: 'progress', callId, progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}) }),
        onEnd: (end) =>
          void post(end.kind === 'failed' ? { type: 'failure', callId, failure: end.failure, durationMs: end.durationMs } : { type: 'toolResult', callId, display: end.display!, durationMs: end.durationMs }),
      },
    );
    if (outcome.kind === 'invalid') await post({ type: 'validation', errors: [...outcome.errors] });
    running = undefined;
  };
  // One reading at a time: a tick that came while the last one still handled a message would read
  // the same messages again (handling one twice and counting past the next, which was then lost).
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    void page
      .posted()
      .then(async (all) => {
        while (seen < all.length) {
          const m = all[seen++]!;
          await handle(m);
          handled.push(String(m.type));
        }
      }, () => undefined)
      .catch((error: unknown) => {
        // An answer on its way when the test closed the page has nowhere to go; any other failure counts.
        if (!stopped) throw error;
      })
      .finally(() => (reading = false));
  }, 20);
  return {
    handled,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** The first message of a tool panel for `tool`, as ToolPanel builds it. */
function initFor(tool: Tool): OutboundMessage {
  const model = buildFormModel(tool.inputSchema);
  return {
    type: 'initTool',
    header: { serverName: 'everything', name: tool.name, ...(tool.title !== undefined ? { title: tool.title } : {}), ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}), hasOutputSchema: tool.outputSchema !== undefined, fallbacks: fallbacks(model) },
    model,
    input: { mode: 'form', state: initialState(model) ?? {} },
    timeoutSeconds: 60,
    timeoutNote: 'mcpHost.requestTimeoutSeconds',
    history: [],
  };
}

describe('the tool panel page with server-everything\u2019s own answers', () => {
  const browser = suiteBrowser();
  let client: McpClient;
  let wire: WireRecorder;
  let tools: Tool[];
  before(async () => {
    ({ client, wire } = await connectStdio(process.execPath, EVERYTHING));
    tools = await client.listTools();
  });
  after(async () => client.close());

  /** A page showing `name`'s panel, with the extension's side answering it; closed after `fn`. */
  async function withPanel(name: string, fn: (page: WebviewPage, side: PanelSide) => Promise<void>): Promise<void> {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `server-everything lists ${name}`);
    const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0] });
    const side = servePanel(page, client, tool);
    try {
      await page.send(initFor(tool));
      await page.page.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
      await fn(page, side);
      assert.deepEqual(page.problems, []);
    } finally {
      side.stop();
      await page.close();
    }
  }

  const enabled = (page: WebviewPage) => page.page.waitForFunction(() => document.getElementById('run')?.getAttribute('aria-disabled') !== 'true', undefined, { timeout: 10_000 });
  const runUnavailable = (page: WebviewPage) => page.page.locator('#run').evaluate((b) => b.getAttribute('aria-disabled') === 'true');
  const calls = (name: string) => wire.sent('tools/call').filter((m) => m.params.name === name).length;

  test('echo: no complaint before typing, the required error on Run (nothing sent), then the text result with one "Open in editor"', async () => {
    await withPanel('echo', async (page, side) => {
      const field = page.page.locator('.field[data-path="/message"]');
      assert.match(await field.locator('label').first().innerText(), /message\s*\*/, 'required mark');
      // Nothing typed yet: once the extension has answered the page's first check (the required
      // field is empty), the page shows no error, no problems line, and Run works.
      await waitFor(() => side.handled.includes('validate'), 10_000, 'the first check answered');
      assert.equal(await field.locator('.error').innerText(), '', 'no error before typing');
      assert.equal((await page.page.locator('#problems').innerText()).trim(), '', 'no problems line before typing');
      assert.equal(await runUnavailable(page), false);
      // Run with the required field empty: the page knows the problem from the extension's check,
      // shows it there and takes the focus to the field; nothing is sent.
      const before = calls('echo');
      await page.page.locator('#run').click();
      await waitFor(async () => (await field.locator('.error').innerText()).includes('required'), 10_000, 'the required error after Run');
      assert.ok(!side.handled.includes('run'), 'the page did not ask to run');
      assert.equal(await page.page.evaluate(() => document.activeElement?.closest('.field')?.getAttribute('data-path')), '/message', 'the focus on the field to fix');
      assert.equal(calls('echo'), before, 'an invalid call is never sent');
      await field.locator('textarea, input').first().fill('hello from the page harness');
      await enabled(page);
      await page.page.locator('#run').click();
      const text = page.page.locator('.result .part-text pre.text, .result .part-text .markdown').first();
      await waitFor(async () => (await text.innerText().catch(() => '')).includes('Echo: hello from the page harness'), 10_000, 'the echo result');
      assert.equal(calls('echo'), before + 1);
      assert.match(await page.page.locator('.result .status').innerText(), /OK/);
      // One "Open in editor" for the result; a short part has none of its own.
      assert.equal(await page.page.locator('.result .open-result').count(), 1);
      assert.equal(await page.page.locator('.result .open-part').count(), 0);
    });
  });

  test('get-tiny-image: the PNG it answers shows from a data: URI and decodes', async () => {
    await withPanel('get-tiny-image', async (page) => {
      await page.page.locator('#run').click();
      const img = page.page.locator('.result .part-image img');
      await img.waitFor({ timeout: 10_000 });
      assert.match((await img.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
      await page.page.waitForFunction(() => ((document.querySelector('.result .part-image img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0, undefined, { timeout: 10_000 });
    });
  });

  test('get-structured-content: a titled select, then the structured content checked against the tool\u2019s outputSchema', async () => {
    await withPanel('get-structured-content', async (page) => {
      await page.page.locator('.field[data-path="/location"] select').selectOption({ label: 'Chicago' });
      await enabled(page);
      await page.page.locator('#run').click();
      const verdict = page.page.locator('.result .verdict');
      await waitFor(async () => /Valid against the tool’s outputSchema/.test(await verdict.innerText().catch(() => '')), 10_000, 'the outputSchema verdict');
      assert.match(await page.page.locator('.result .part-structured').innerText(), /temperature/);
      const sent = wire.sent('tools/call').filter((m) => m.params.name === 'get-structured-content').at(-1);
      assert.equal(sent.params.arguments.location, 'Chicago');
    });
  });

  test('get-sum in JSON mode: an invalid value is shown and cannot run, a fixed one runs, and the form takes the values back', async () => {
    await withPanel('get-sum', async (page) => {
      await page.page.locator('#toggle-mode').click();
      const json = page.page.locator('#json-input');
      await json.waitFor({ timeout: 10_000 });
      await json.fill('{ "a": 1, "b": "two" }');
      const error = page.page.locator('.field[data-path=""] > .error');
      await waitFor(async () => /b: expected a number/.test(await error.innerText().catch(() => '')), 10_000, 'the error at /b');
      assert.equal(await runUnavailable(page), true, 'invalid input cannot be run');
      const before = calls('get-sum');
      await json.fill('{ "a": 1, "b": 2 }');
      await enabled(page);
      await page.page.locator('#run').click();
      await waitFor(async () => /3/.test(await page.page.locator('.result .part-text').first().innerText().catch(() => '')), 10_000, 'the sum');
      assert.equal(calls('get-sum'), before + 1, 'only the fixed input was sent');
      // Back to the form: the values carry over.
      await page.page.locator('#toggle-mode').click();
      await waitFor(async () => (await page.page.locator('.field[data-path="/b"] input').inputValue().catch(() => '')) === '2', 10_000, 'the form with b = 2');
    });
  });

  test('get-resource-links: a resource_link drawn with the codicon as a data: mask (no emoji), and its click asks to read the resource', async () => {
    await withPanel('get-resource-links', async (page) => {
      await page.page.locator('#run').click();
      const link = page.page.locator('.result .part-link a.resource-link', { hasText: 'Text Resource 2' });
      await link.waitFor({ timeout: 10_000 });
      assert.doesNotMatch(await link.innerText(), /\p{Extended_Pictographic}/u);
      const icon = await link.locator('.icon-file').evaluate((el) => {
        const style = getComputedStyle(el);
        return { mask: style.maskImage || style.webkitMaskImage, width: el.getBoundingClientRect().width };
      });
      // A data: URI: the CSP (img-src data:) would block a file of media/, and the icon would not show.
      assert.match(icon.mask, /^url\("data:image\/svg\+xml,/);
      assert.equal(icon.width, 16);
      await link.click();
      assert.match(String((await page.waitForPosted('readResource')).uri), /^demo:\/\/resource\/dynamic\/text\/2$/);
      await page.page.locator('.result .copy-json').click();
      await page.waitForPosted('copyResult');
    });
  });

  test('trigger-long-running-operation cancelled: progress, then "Cancelled" with the reason as a neutral note, not in the error colour', async () => {
    await withPanel('trigger-long-running-operation', async (page) => {
      await page.page.locator('.field[data-path="/duration"] input').fill('20');
      await page.page.locator('.field[data-path="/steps"] input').fill('20');
      await enabled(page);
      await page.page.locator('#run').click();
      const progressText = page.page.locator('#progress .progress-text');
      await waitFor(async () => /\d+ \/ 20/.test(await progressText.innerText().catch(() => '')), 10_000, 'progress in the panel');
      await page.page.locator('#cancel').click();
      await waitFor(async () => /Cancelled/.test(await page.page.locator('.result .status').innerText().catch(() => '')), 10_000, 'the cancelled result');
      assert.match(await page.page.locator('.result .cancel-message').innerText(), /was cancelled: you pressed Cancel in the panel/);
      assert.equal(await page.page.locator('.result .error-message').count(), 0, 'no error text for a cancelled call');
      const colours = await page.page.locator('.result .status.cancelled').evaluate((el) => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--vscode-errorForeground)';
        document.body.append(probe);
        const error = getComputedStyle(probe).color;
        probe.remove();
        return { status: getComputedStyle(el).color, error };
      });
      assert.notEqual(colours.status, colours.error, 'the Cancelled label is not in the error colour');
      const call = wire.sent('tools/call').filter((m) => m.params.name === 'trigger-long-running-operation').at(-1);
      assert.ok(wire.sent('notifications/cancelled').some((m) => m.params.requestId === call.id), 'the server was told');
    });
  });
});
