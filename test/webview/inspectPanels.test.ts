// The tool, prompt and details panels with both halves real and no VS Code: the extension's side is
// the real ToolPanel, PromptPanel and DetailsPanel on the `vscode` double, over a real
// ServerRegistry running server-everything (stdio); the page's side is the panel's script in the
// page harness; panelBridge (dialogBridge.ts) carries the messages between them as VS Code does.
// The test clicks and types in the page as a user would and reads what server-everything answered
// (and what went over the wire). These are the checks that inspect.test.ts (e2e) made through
// code-server until issue 35 moved them here: the history's show and re-run, a per-call timeout,
// Server Details, args-prompt and completable-prompt, and Run's reason across a restart; the e2e
// suite keeps one path per feature. Order: none (each test opens its own panel).
import { vscode } from '../support/vscode/vscodeModule';
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { PROMPT_PANEL_VIEW_TYPE, PromptPanel } from '../../src/extension/panels/promptPanel';
import { DETAILS_VIEW_TYPE, DetailsPanel, HealthMonitor, NoiseRecorder, showServerDetails } from '../../src/extension/panels/serverActions';
import { TOOL_PANEL_VIEW_TYPE, ToolPanel } from '../../src/extension/panels/toolPanel';
import type { OpenResource } from '../../src/extension/panels/rawResults';
import { DETAILS_FEATURE, PANEL_ASSETS } from '../../src/extension/webview/webviewPage';
import { WireRecorder, waitFor } from '../client/support';
import { panelHost } from '../extension/panels/panelSupport';
import { EVERYTHING, NODE, entries } from '../registry/support';
import { type BridgedDialog, PanelBridge } from './dialogBridge';
import { suiteBrowser } from './pageHarness';

type Host = Awaited<ReturnType<typeof panelHost>>;
const noResource = async () => undefined;
const T = { timeout: 60_000 };

describe('the tool, prompt and details panels, extension and page joined, with server-everything', () => {
  const browser = suiteBrowser();
  let host: Host;
  let wire: WireRecorder;
  let bridge: PanelBridge | undefined;
  const id = () => host.idOf('everything');

  before(async () => {
    host = await panelHost(entries({ everything: { command: NODE, args: EVERYTHING } }));
    // As editorHost.ts does: the registry's changes reach the panels.
    host.registry.onDidChange(() => host.serversChanged.fire(undefined));
    wire = new WireRecorder(host.registry.get(id())!.client!);
  });
  after(() => host.close());
  beforeEach(() => vscode.recorder.reset());
  afterEach(async () => {
    await bridge?.stop();
    ToolPanel.disposeAll();
    PromptPanel.disposeAll();
    DetailsPanel.disposeAll();
    assert.deepEqual(bridge?.problems ?? [], [], 'no page errors or CSP violations');
    bridge = undefined;
  });

  /** Opens a panel through `open` and returns its page once the page has said ready. */
  async function bridged(viewType: string, feature: typeof PANEL_ASSETS, open: () => void): Promise<BridgedDialog> {
    bridge = new PanelBridge(browser, { viewType, feature });
    open();
    return bridge.dialog(0);
  }

  const toolPage = async (name: string, openResource: OpenResource = noResource): Promise<Page> => {
    const { page } = await bridged(TOOL_PANEL_VIEW_TYPE, PANEL_ASSETS, () => ToolPanel.show(host.ctx, id(), name, openResource));
    await page.page.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
    return page.page;
  };
  const promptPage = async (name: string): Promise<Page> => {
    const prompt = host.registry.get(id())!.prompts!.find((p) => p.name === name)!;
    const { page } = await bridged(PROMPT_PANEL_VIEW_TYPE, PANEL_ASSETS, () => PromptPanel.show(host.ctx, id(), prompt, noResource));
    await page.page.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
    return page.page;
  };
  const enabled = (p: Page) => p.waitForFunction(() => document.getElementById('run')?.getAttribute('aria-disabled') !== 'true', undefined, { timeout: 10_000 });
  const text = async (p: Page, selector: string) => (await p.locator(selector).first().innerText().catch(() => '')) || '';

  test('history: two echo calls, newest first; the first shown again from the history with its arguments, then re-run as the newest entry', T, async () => {
    const p = await toolPage('echo');
    const input = p.locator('.field[data-path="/message"]').locator('textarea, input').first();
    const items = p.locator('.history-item');
    const call = async (message: string) => {
      await input.fill(message);
      await enabled(p);
      const before = await items.count();
      await p.locator('#run').click();
      await waitFor(async () => (await text(p, '.result')).includes(`Echo: ${message}`), 20_000, `the result of "${message}"`);
      await waitFor(async () => (await items.count()) > before, 10_000, 'a new history entry');
    };
    await call('first of two');
    await call('second of two');
    assert.match(await items.first().innerText(), /second of two/, 'newest first');
    assert.match(await text(p, '.result .status'), /OK/);

    const first = items.filter({ hasText: 'Echo: first of two' }).first();
    await first.locator('.show-history').click();
    await waitFor(async () => (await p.locator('.result .from-history').count()) === 1, 10_000, 'the from-history banner');
    await waitFor(async () => (await text(p, '.result')).includes('Echo: first of two') && !(await text(p, '.result')).includes('second of two'), 10_000, 'the first result shown again');
    assert.match(await text(p, '.result .status'), /OK/);
    // The arguments are in a closed <details>: in the DOM, not on screen.
    assert.match((await p.locator('.result .from-history').textContent()) ?? '', /first of two/, 'with its arguments');

    const sent = wire.sent('tools/call').length;
    const before = await items.count();
    await first.locator('.rerun-history').click();
    await waitFor(async () => (await items.count()) > before, 20_000, 'the re-run in the history');
    await waitFor(async () => (await p.locator('.result .from-history').count()) === 0 && (await text(p, '.result')).includes('Echo: first of two'), 10_000, 'a fresh result');
    assert.match(await items.first().innerText(), /first of two/, 'the re-run is the newest entry');
    assert.deepEqual(wire.sent('tools/call').slice(sent).map((m) => m.params.arguments), [{ message: 'first of two' }], 'the re-run sent the first call\u2019s arguments');
  });

  test('a per-call timeout of 2 s: the note says where the default comes from, then "Timed out" in the panel and in the history; the server is told (notifications/cancelled, reason timeout)', T, async () => {
    const p = await toolPage('trigger-long-running-operation');
    // Progress every 5 s (it resets the timeout), so the 2 s timeout fires before the first.
    await p.locator('.field[data-path="/duration"] input').fill('10');
    await p.locator('.field[data-path="/steps"] input').fill('2');
    assert.match(await text(p, '#timeout-note'), /mcpHost\.requestTimeoutSeconds|default/, 'the server default, and where it comes from');
    await p.locator('#timeout').fill('2');
    await p.locator('#timeout').dispatchEvent('change');
    await waitFor(async () => /set for this call/.test(await text(p, '#timeout-note')), 5_000, 'the per-call timeout');
    await enabled(p);
    await p.locator('#run').click();
    await waitFor(async () => /Timed out/.test(await text(p, '.result .status')), 15_000, 'the timed-out result');
    assert.match(await text(p, '.result .error-message'), /timed out after 2000 ms/);
    await waitFor(async () => (await p.locator('.history-item.timeout').count()) >= 1, 10_000, 'a timeout history entry');
    const call = wire.sent('tools/call').filter((m) => m.params.name === 'trigger-long-running-operation' && m.params.arguments?.steps === 2).at(-1);
    assert.ok(call, 'the call was sent');
    const cancel = await waitFor(() => wire.sent('notifications/cancelled').find((m) => m.params.requestId === call.id), 5_000, 'notifications/cancelled for the call');
    assert.equal(cancel.params.reason, 'timeout');
    const frames = wire.frames.map((f) => f.message);
    assert.ok(frames.indexOf(cancel) > frames.indexOf(call), 'cancelled after the call was sent');
  });

  test('Server Details rendered: pid, protocol, capabilities, instructions, command, working directory, per-method latencies, roots; PATH behind a closed disclosure', T, async () => {
    // The per-method table counts what this client sent: one tools/call first.
    await host.ctx.runningClient(id())!.callTool('echo', { message: 'for the table' });
    const noise = new NoiseRecorder();
    const monitor = new HealthMonitor(host.ctx);
    try {
      const { page } = await bridged(DETAILS_VIEW_TYPE, DETAILS_FEATURE, () => showServerDetails(host.ctx, host.registry.get(id())!, noise, monitor));
      const p = page.page;
      await waitFor(async () => (await p.locator('#methods td.method', { hasText: 'tools/call' }).count()) > 0, 15_000, 'the per-method table with tools/call');
      const facts = await text(p, '#facts');
      assert.match(facts, /Process id\s+\d+/);
      assert.match(facts, /Protocol version\s+2025-11-25/);
      assert.match(await text(p, '#capabilities'), /tools/);
      assert.ok(((await p.locator('#instructions').textContent()) ?? '').length > 0, 'server-everything sends instructions');
      assert.match(await text(p, '#command-line'), /server-everything/);
      assert.match(await text(p, '#command-facts'), /Working directory/);
      assert.match(await text(p, '#roots-asked'), /roots\/list/);
      // A rendered page, not Markdown source; PATH is folded away.
      assert.doesNotMatch(await text(p, '#app'), /\|---|`/);
      assert.equal(await p.locator('details[data-key="path"]').getAttribute('open'), null);
      assert.equal(await p.locator('#path').isVisible(), false);
    } finally {
      noise.dispose();
      monitor.dispose();
    }
  });

  test('args-prompt: the arguments in a form like a tool\u2019s (required marked, "Get prompt"), then the messages', T, async () => {
    const p = await promptPage('args-prompt');
    const city = p.locator('.field[data-path="/city"]');
    assert.match(await city.locator('label').first().innerText(), /city\s*\*/, 'required mark');
    assert.match(await text(p, '#run'), /Get prompt/);
    await city.locator('input, textarea').first().fill('Paris');
    await p.locator('.field[data-path="/state"] input, .field[data-path="/state"] textarea').first().fill('Texas');
    await enabled(p);
    await p.locator('#run').click();
    await waitFor(async () => /Paris/.test(await text(p, '.result .message')), 15_000, 'the prompt messages');
    assert.match(await text(p, '.result .message .role'), /user/i);
    assert.deepEqual(wire.sent('prompts/get').at(-1).params, { name: 'args-prompt', arguments: { city: 'Paris', state: 'Texas' } });
  });

  test('completable-prompt: the server\u2019s suggestions for "E" (Enter takes Engineering), none under the chosen value, the first answer sent as context for the second', T, async () => {
    const p = await promptPage('completable-prompt');
    // What the page is told, recorded in the page: the positive signal before "no suggestions".
    await p.evaluate(() => {
      const w = window as unknown as { told: unknown[] };
      w.told = [];
      window.addEventListener('message', (e) => w.told.push(e.data));
    });
    const told = (name: string, value: string) =>
      p.evaluate(([n, v]) => (window as unknown as { told: Array<{ type?: string; name?: string; value?: string }> }).told.some((m) => m.type === 'completions' && m.name === n && m.value === v), [name, value]);
    const department = p.locator('.field[data-path="/department"] input, .field[data-path="/department"] textarea').first();
    const suggestions = (field: string) => p.locator(`.field[data-path="/${field}"] .suggestion`).allInnerTexts();
    const completions = () => wire.sent('completion/complete');
    await department.click();
    await department.pressSequentially('E');
    // The server filters by prefix: only Engineering.
    await waitFor(async () => JSON.stringify(await suggestions('department')) === JSON.stringify(['Engineering']), 10_000, 'Engineering suggested for "E"');
    const asked = completions().at(-1);
    assert.deepEqual(asked.params.ref, { type: 'ref/prompt', name: 'completable-prompt' });
    assert.deepEqual(asked.params.argument, { name: 'department', value: 'E' });
    await department.press('Enter');
    assert.equal(await department.inputValue(), 'Engineering', 'Enter took the suggestion, not the typed "E"');
    // The value chosen, its suggestions go (the server's answer for "Engineering" is only itself):
    // checked once that answer has reached the page.
    await waitFor(() => told('department', 'Engineering'), 10_000, 'the answer for "Engineering" at the page');
    assert.deepEqual(await suggestions('department'), [], 'no suggestions left under a chosen value');

    // The second argument's completions depend on the first: Engineering's team.
    const name = p.locator('.field[data-path="/name"] input, .field[data-path="/name"] textarea').first();
    await name.click();
    await waitFor(async () => JSON.stringify((await suggestions('name')).sort()) === JSON.stringify(['Alice', 'Bob', 'Charlie']), 10_000, 'the Engineering team suggested');
    const context = completions().filter((m) => m.params.argument?.name === 'name').at(-1);
    assert.deepEqual(context?.params.context, { arguments: { department: 'Engineering' } });
    await p.locator('.field[data-path="/name"] .suggestion', { hasText: 'Bob' }).click();
    await enabled(p);
    await p.locator('#run').click();
    await waitFor(async () => /Please promote Bob to the head of the Engineering team\./.test(await text(p, '.result .message')), 15_000, 'the prompt messages');
  });

  test('get-resource-links: Copy result as JSON puts the result on the clipboard and says so in the status bar; a resource_link asks to open its resource', T, async () => {
    const opened: string[] = [];
    const p = await toolPage('get-resource-links', async (serverId, uri) => void opened.push(`${serverId} ${uri}`));
    await enabled(p);
    await p.locator('#run').click();
    const link = p.locator('.result .part-link a.resource-link', { hasText: 'Text Resource 2' });
    await link.waitFor({ timeout: 20_000 });
    await p.locator('.result .copy-json').click();
    await waitFor(() => vscode.recorder.callsOf('window.setStatusBarMessage').length > 0, 10_000, 'the status bar message');
    assert.deepEqual(vscode.recorder.callsOf('window.setStatusBarMessage')[0]![0], 'Result copied as JSON');
    const copied = JSON.parse(vscode.env.clipboard.text) as { content: Array<{ type: string; uri?: string }> };
    assert.ok(copied.content.some((c) => c.type === 'resource_link' && c.uri === 'demo://resource/dynamic/text/2'), 'the result as JSON, its resource links in it');
    await link.click();
    await waitFor(() => opened.length > 0, 10_000, 'the resource asked for');
    assert.deepEqual(opened, [`${id()} demo://resource/dynamic/text/2`]);
  });

  test('preview panels: the next panel takes an untouched one’s place; one the user typed in (the page says so before it asks for the check) stays', T, async () => {
    bridge = new PanelBridge(browser, { viewType: TOOL_PANEL_VIEW_TYPE, feature: PANEL_ASSETS });
    ToolPanel.show(host.ctx, id(), 'echo', noResource);
    const echo = await bridge.dialog(0);
    ToolPanel.show(host.ctx, id(), 'get-sum', noResource);
    const sum = await bridge.dialog(1);
    assert.equal(echo.panel.isDisposed, true, 'the untouched echo panel was replaced');
    await echo.closed;
    const p = sum.page.page;
    await p.locator('.field[data-path="/a"] input').fill('1');
    await p.locator('.field[data-path="/b"] input').fill('2');
    // The arguments to send, drawn from the extension's answer, say the edit was heard.
    await waitFor(async () => /"b": 2/.test((await p.locator('#send-preview pre').textContent().catch(() => '')) ?? ''), 10_000, 'the arguments to send, validated by the extension');
    ToolPanel.show(host.ctx, id(), 'get-tiny-image', noResource);
    await bridge.dialog(2);
    assert.equal(sum.panel.isDisposed, false, 'typed in: kept');
  });

  test('a restart: while the server restarts Run says why it cannot run, and once the tool is listed again the reason and any notice go', T, async () => {
    const p = await toolPage('echo');
    const run = p.locator('#run');
    assert.equal(await run.getAttribute('title'), null, 'a running server: no reason on Run');
    // The restart can be quicker than a poll: every title Run gets is noted as it is set.
    await run.evaluate((el) => {
      const seen: string[] = [];
      (window as unknown as { runTitles: string[] }).runTitles = seen;
      new MutationObserver(() => {
        const title = el.getAttribute('title');
        if (title !== null) seen.push(title);
      }).observe(el, { attributes: true, attributeFilter: ['title'] });
    });
    await host.registry.restart(id());
    const titles = await waitFor(async () => {
      const seen = await p.evaluate(() => (window as unknown as { runTitles: string[] }).runTitles);
      return seen.length > 0 && seen;
    }, 20_000, 'the reason on Run while the server restarts');
    assert.match(titles[0]!, /everything/, `the reason names the server (${JSON.stringify(titles)})`);
    await waitFor(async () => (await run.getAttribute('title')) === null, 30_000, 'Run without a stale reason');
    assert.equal(await p.locator('.notice').filter({ hasText: /not running|no longer lists/ }).count(), 0, 'no stale notice');
    // The next tests' wire is the new client's.
    wire = new WireRecorder(host.registry.get(id())!.client!);
  });
});
