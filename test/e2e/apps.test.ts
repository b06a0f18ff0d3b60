// End-to-end: MCP Apps in a real VS Code (code-server), with the official example servers from
// npm (basic-vanillajs, budget-allocator, system-monitor; stdio, no network at run time) and a
// hostile app on the official SDK (test/fixtures/servers/hostileApp.mjs). A tool with a
// `ui://` view shows it in the tool panel, inside a sandboxed iframe (opaque origin) in the
// webview: the view renders, follows the theme (host-context-changed), calls a server tool from a
// button and shows the result, moves to its own tab and is torn down when that tab closes. The
// hostile view is refused everything it tries, and the log says so. The views are nested frames:
// playwright's frame locators reach into them. Screenshots: test-results/screenshots/apps-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, FrameLocator, Locator } from 'playwright-core';
import { defaultVsixPath, launch, repoRoot, step as runStep, type Workbench, waitUntil } from './harness';
import { allowServers } from './treeRows';
import { retrying } from './retries';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const modules = join(repoRoot, 'node_modules', '@modelcontextprotocol');
const poll = waitUntil;

describe('MCP Apps in a real VS Code', () => {
  let wb: Workbench;
  let workspace: string;

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `apps-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  /** The webview frame whose header shows `title`. */
  function webview(title: string, timeoutMs = 20_000): Promise<Frame> {
    return poll(async () => (await wb.webviewFrames(title))[0], timeoutMs, `the webview of ${title}`);
  }

  async function command(title: string): Promise<void> {
    await wb.page.locator('.part.sidebar .composite.title').first().click();
    await wb.runCommand(title);
  }

  async function pick(label: string): Promise<void> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await poll(async () => !((await input.inputValue()) || '').startsWith('>') && (await input.isEditable()), 10_000, 'the quick pick');
    await input.fill(label, { timeout: 5_000 });
    const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await poll(async () => ((await first.innerText().catch(() => '')) || '').trim() === label, 10_000, `"${label}" first in the quick pick`);
    await wb.page.keyboard.press('Enter');
  }

  /**
   * Opens the tool's panel from the palette: the server, then the tool. A pick that closes or
   * will not take the text before Enter (a view still settling in an earlier panel takes the
   * focus back) answered the command with a cancel: the command runs again, up to 3 times.
   */
  async function openTool(server: string, name: string): Promise<Frame> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await retrying(`apps openTool ${server} › ${name}: Call Tool… run again`, 3, async () => {
      await command('MCP Host: Call Tool…');
      await pick(server);
      await pick(name);
    }, { beforeRetry: async () => (await input.isVisible().catch(() => false)) && (await wb.page.keyboard.press('Escape')) });
    const frame = await webview(name);
    await frame.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
    return frame;
  }

  /** Answers a modal dialog whose message matches, when it comes. */
  async function approve(message: RegExp, button: string): Promise<string> {
    const dialog = await poll(async () => {
      const d = await wb.dialog({ timeoutMs: 500 });
      return d && message.test(d.message) ? d : undefined;
    }, 20_000, `a dialog matching ${message}`);
    await wb.answerDialog(button);
    return `${dialog.message}\n${dialog.detail}`;
  }

  /**
   * Runs the tool of an open panel (approving the call first when `confirm` names its dialog) and
   * returns the panel's frame holding the view: the page is built again for its first view (its
   * policy then admits the app's code), so the frame before Run is gone.
   */
  async function runWithView(name: string, confirm?: RegExp): Promise<Frame> {
    // A plain click: the page the click lands on is replaced by Run, so clickReached, which asks
    // that page whether the click arrived, would read a detached frame and click again.
    await (await webview(name)).locator('#run').click();
    if (confirm) await approve(confirm, 'Run');
    return poll(async () => {
      for (const f of await wb.webviewFrames(name)) if (await f.locator('#mcp-app iframe.mcp-app-frame').count().catch(() => 0)) return f;
      return undefined;
    }, 30_000, `the view in the panel of ${name}`);
  }

  /**
   * Clicks a button in a view that asks for approval: the modal dialog can come up before the
   * click has settled, so the click is not awaited before the dialog is answered.
   */
  async function clickAndApprove(button: Locator, message: RegExp, answer: string): Promise<string> {
    const clicking = button.click({ timeout: 15_000 }).catch(() => undefined);
    const asked = await approve(message, answer);
    await clicking;
    return asked;
  }

  /** The view inside a panel's webview (a nested, sandboxed iframe). */
  function view(frame: Frame): FrameLocator {
    return frame.frameLocator('#mcp-app iframe.mcp-app-frame');
  }

  async function logText(channel: string, contains: string | RegExp | ((t: string) => boolean), timeoutMs = 20_000): Promise<string> {
    return wb.outputChannelText(channel, { contains, timeoutMs, reveal: false });
  }

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'mcp-host-apps-'));
    mkdirSync(join(workspace, '.vscode'));
    const stdio = (script: string, ...args: string[]) => ({ type: 'stdio', command: process.execPath, args: [script, ...args] });
    writeFileSync(
      join(workspace, '.vscode', 'mcp.json'),
      JSON.stringify(
        {
          servers: {
            basic: stdio(join(modules, 'server-basic-vanillajs', 'dist', 'index.js'), '--stdio'),
            budget: stdio(join(modules, 'server-budget-allocator', 'dist', 'index.js'), '--stdio'),
            monitor: stdio(join(modules, 'server-system-monitor', 'dist', 'index.js'), '--stdio'),
            hostile: stdio(join(repoRoot, 'test', 'fixtures', 'servers', 'hostileApp.mjs')),
          },
        },
        null,
        2,
      ),
    );
    wb = await launch({ workspace, vsix: VSIX, timeoutMs: 150_000, viewport: { width: 1400, height: 1000 } });
    // Links the views ask to open never reach the network.
    await wb.page.context().route((url) => !/^https?:\/\/(127\.0\.0\.1|localhost)/.test(url.toString()), (route) => route.abort());
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('basic', { timeoutMs: 30_000 });
    await allowServers(wb, 4);
    for (const server of ['basic', 'budget', 'monitor', 'hostile']) {
      await logText(`MCP: ${server}`, /initialized|ready/, 60_000);
    }
    await wb.setLogLevel('MCP: basic', 'Trace');
    await wb.setLogLevel('MCP: hostile', 'Trace');
    if (await wb.page.locator('.part.panel').isVisible().catch(() => false)) await command('View: Toggle Panel Visibility');
  });

  after(async () => {
    if (wb) {
      await wb.close();
      assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
    }
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  test('basic-vanillajs: renders, a button calls get-time, theme, message, own tab, teardown', { timeout: 240_000 }, async () => {
    await step('open-basic', () => openTool('basic', 'get-time').then(() => undefined));
    let first = '';
    let panel!: Frame;
    await step('render', async () => {
      panel = await runWithView('get-time', /Run get-time/);
      const time = view(panel).locator('#server-time');
      first = await poll(async () => {
        const t = ((await time.innerText().catch(() => '')) || '').trim();
        return t && t !== 'Loading...' ? t : undefined;
      }, 30_000, 'the time from the tool result in the view');
      // The page around the view keeps its own strict policy: nonce scripts, no inline script.
      const policy = (await panel.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
      assert.match(policy, /script-src 'nonce-[^']+'/);
      assert.doesNotMatch(policy, /script-src[^;]*'unsafe-inline'/);
      assert.equal(await panel.locator('#mcp-app iframe').getAttribute('sandbox'), 'allow-scripts');
      const log = await logText('MCP: basic', /initializes \(protocol/);
      assert.match(log, /the app of get-time: showing ui:\/\/get-time\/mcp-app\.html \(inline\); its policy: default-src 'none'/);
      await wb.screenshot('apps-basic-rendered');
    });
    let latest = '';
    await step('button', async () => {
      const asked = await clickAndApprove(view(panel).locator('#get-time-btn'), /The app of get-time asks to run get-time/, 'Run');
      assert.match(asked, /server's content/);
      latest = await poll(async () => {
        const t = ((await view(panel).locator('#server-time').innerText().catch(() => '')) || '').trim();
        return t && t !== first && t !== 'Loading...' ? t : undefined;
      }, 30_000, 'a new time after the button');
      await logText('MCP: basic', /Calling tool get-time from the app of get-time \(from app\)/);
      await wb.screenshot('apps-basic-button');
    });
    await step('message', async () => {
      await view(panel).locator('#send-message-btn').click();
      await poll(async () => ((await panel.locator('#mcp-app-notes').innerText().catch(() => '')) || '').includes('This is message text.'), 15_000, 'the message under the view');
      await logText('MCP: basic', /the app of get-time sent a message: This is message text\./);
      await view(panel).locator('#send-log-btn').click();
      await logText('MCP: basic', /the app of get-time log info.*This is log text\./);
    });
    await step('theme', async () => {
      // The launch's theme is a light one: switching to a dark one changes the view's theme.
      await command('Preferences: Color Theme');
      await pick('Dark Modern');
      await logText('MCP: basic', /\[host → app\] .*"method":"ui\/notifications\/host-context-changed".*"theme":"dark"/);
      // The view applied it: the SDK marks the document with the theme.
      await poll(async () => (await view(panel).locator('html').getAttribute('data-theme').catch(() => null)) === 'dark' || /color-scheme:\s*dark/.test((await view(panel).locator('html').getAttribute('style').catch(() => '')) ?? ''), 15_000, 'the dark theme in the view');
      await wb.screenshot('apps-basic-dark-theme');
      await command('Preferences: Color Theme');
      await pick('Light Modern');
      await logText('MCP: basic', /"method":"ui\/notifications\/host-context-changed".*"theme":"light"/);
    });
    await step('fullscreen', async () => {
      const clicked = Date.now();
      await panel.locator('#mcp-app-fullscreen').click();
      await poll(async () => ((await panel.locator('#mcp-app-closed').innerText().catch(() => '')) || '').includes('its own tab'), 15_000, 'the panel saying the app moved');
      // The inline view's answer to the teardown reaches the host: the move does not wait out the request's timeout.
      const moved = Date.now() - clicked;
      const teardown = await logText('MCP: basic', /the view answered ui\/resource-teardown in \d+ ms/);
      const answeredIn = Number(/the view answered ui\/resource-teardown in (\d+) ms/.exec(teardown)![1]);
      assert.ok(answeredIn < 1000, `the teardown answered in ${answeredIn} ms`);
      assert.ok(moved < 5000, `the panel said the app moved ${moved} ms after the click (the 5 s teardown timeout is not waited out)`);
      assert.doesNotMatch(teardown, /resource-teardown was not answered/);
      const tabFrame = await poll(async () => {
        for (const f of wb.page.frames()) if (await f.locator('#mcp-app.fullscreen iframe').count().catch(() => 0)) return f;
        return undefined;
      }, 20_000, 'the app tab');
      const time = tabFrame.frameLocator('#mcp-app iframe').locator('#server-time');
      // The tab shows the view's latest state: the time its button fetched, not the first call's.
      const shown = await poll(async () => {
        const t = ((await time.innerText().catch(() => '')) || '').trim();
        return t && t !== 'Loading...' ? t : undefined;
      }, 30_000, 'the view in its tab with the last result');
      assert.equal(shown, latest, `the tab shows the latest time (${latest}), not the first call's (${first})`);
      await wb.screenshot('apps-basic-fullscreen');
      // Closing the tab tears the view down.
      await wb.page.locator('.tabs-container .tab', { hasText: '(app)' }).first().click();
      await wb.runCommand('View: Close Editor');
      const log = await logText('MCP: basic', /tearing down \(its tab was closed\)/);
      assert.match(log, /\[host → app\] .*"method":"ui\/resource-teardown"/);
    });
  });

  test('budget-allocator: the chart and sliders render from the tool result', { timeout: 120_000 }, async () => {
    await step('open-budget', () => openTool('budget', 'get-budget-data').then(() => undefined));
    await step('budget', async () => {
      const panel = await runWithView('get-budget-data', /Run get-budget-data/);
      await poll(async () => (await view(panel).locator('#sliders-container > *').count()) > 0, 30_000, 'the sliders');
      await poll(async () => /Allocated: \$[1-9]/.test((await view(panel).locator('#status-bar').innerText().catch(() => '')) || ''), 15_000, 'the allocation');
      await wb.screenshot('apps-budget');
    });
  });

  test('system-monitor: Start polls an app-only tool; the figures show in the view', { timeout: 120_000 }, async () => {
    await step('open-monitor', () => openTool('monitor', 'get-system-info').then(() => undefined));
    await step('monitor', async () => {
      const panel = await runWithView('get-system-info', /Run get-system-info/);
      await poll(async () => ((await view(panel).locator('#info-hostname').innerText().catch(() => '--')) || '--').trim() !== '--', 30_000, 'the host name');
      await clickAndApprove(view(panel).locator('#poll-toggle-btn'), /asks to run poll-system-stats/, 'Run, and allow it for this app view');
      await poll(async () => /\d+%/.test((await view(panel).locator('#memory-percent').innerText().catch(() => '')) || ''), 30_000, 'the memory figure');
      await logText('MCP: monitor', /Calling tool poll-system-stats from the app of get-system-info \(from app\)/);
      await wb.screenshot('apps-system-monitor');
      await view(panel).locator('#poll-toggle-btn').click();
    });
  });

  test('a hostile view is refused everything, and the log says so', { timeout: 120_000 }, async () => {
    await step('open-hostile', () => openTool('hostile', 'hostile-app').then(() => undefined));
    const pagesBefore = wb.page.context().pages().length;
    const urlBefore = wb.page.url();
    let panel!: Frame;
    await step('probes', async () => {
      panel = await runWithView('hostile-app');
      const hostile = view(panel);
      await poll(async () => (await hostile.locator('body').getAttribute('data-probed').catch(() => null)) === 'yes', 40_000, 'the probes to finish');
      const row = async (probe: string) => ((await hostile.locator(`#r-${probe}`).innerText()) || '').trim();
      assert.match(await row('top-navigation'), /^top-navigation: blocked/);
      assert.match(await row('popup'), /^popup: blocked/);
      assert.match(await row('fetch'), /^fetch: blocked/);
      assert.match(await row('parent'), /^parent: blocked/);
      assert.match(await row('other-resource'), /^other-resource: refused \(-32602: demo:\/\/resource\/static\/document\/1 is not a resource hostile lists\)/);
      assert.match(await row('file'), /^file: refused/);
      assert.match(await row('model-only'), /^model-only: refused \(-32602: model-only is not offered to apps/);
      assert.match(await row('flood'), /^flood: rate-limited \d+ of 400/);
      assert.equal(wb.page.url(), urlBefore, 'the workbench did not navigate');
      assert.equal(wb.page.context().pages().length, pagesBefore, 'no popup opened');
      const log = await logText('MCP: hostile', /rate limit: refused \d+ message/);
      assert.match(log, /refused resources\/read: demo:\/\/resource\/static\/document\/1 is not a resource hostile lists/);
      assert.match(log, /refused resources\/read: file:\/\/\/etc\/passwd/);
      assert.match(log, /refused tools\/call: model-only is not offered to apps/);
      assert.match(log, /\[app → host\] .*"method":"resources\/read"/);
      await wb.screenshot('apps-hostile-refused');
    });
    await step('destructive', async () => {
      const asked = await clickAndApprove(view(panel).locator('#wipe'), /The app of hostile-app asks to run wipe/, 'Cancel');
      assert.match(asked, /server's content/);
      await poll(async () => /^destructive: refused/.test(((await view(panel).locator('#r-destructive').innerText().catch(() => '')) || '').trim()), 15_000, 'the refused wipe in the view');
      const log = await logText('MCP: hostile', /the user declined its call of wipe/);
      assert.doesNotMatch(log, /WIPED/, 'the destructive tool never ran');
      await wb.screenshot('apps-hostile-destructive-refused');
    });
  });
});
