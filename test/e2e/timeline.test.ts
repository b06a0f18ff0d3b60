// The protocol timeline in a real VS Code (code-server), on one launch with server-everything:
// - calls made from the editor appear as spans (echo, a long-running call with its progress
//   linked to it), next to the handshake and the list requests;
// - the text filter narrows what is drawn; a click on a span shows both frames; "Show in
//   History" opens the tool panel on that call; the keyboard steps through the items;
// - Export writes the selected call as a recording that `mcp-host replay` replays against the
//   server (exit 0), and "Open Recording in Timeline…" shows that file's spans;
// - screenshots in the dark and the light theme (test-results/screenshots/timeline-*.png).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { answerFileDialog } from './fileDialog';
import { clickReached, defaultVsixPath, launch, repoRoot, step as runStep, waitUntil, type Workbench } from './harness';
import { allowServers } from './treeRows';
import { retrying } from './retries';

const EVERYTHING = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const CLI = join(repoRoot, 'dist', 'cli.js');

interface Drawn {
  readonly server: string;
  readonly label: string;
  readonly kind: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
}

/**
 * The items drawn on screen, as the page's list for screen readers gives them ("label, kind,
 * server[, status]", each a button over its shape): where it is, relative to the canvas.
 */
function readDrawn(): Drawn[] {
  const canvas = document.getElementById('timeline-canvas')!.getBoundingClientRect();
  return Array.from(document.querySelectorAll('#drawn-items button')).map((b) => {
    const [label, kind, server] = (b.textContent ?? '').split(', ');
    const r = b.getBoundingClientRect();
    return { label, kind, server, x: r.left - canvas.left + r.width / 2, y: r.top - canvas.top + r.height / 2, w: r.width };
  });
}

describe('the protocol timeline in a real VS Code', () => {
  let wb: Workbench;
  const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-timeline-'));
  const exported = join(workspace, 'echo-bug-report.jsonl');

  /** The timeline page whose title starts with `title` (its own document inside the webview). */
  function timelinePage(title: string, timeoutMs = 30_000): Promise<Frame> {
    return waitUntil(
      async () => {
        for (const frame of wb.page.frames()) {
          const found = await frame.evaluate((t) => document.title.startsWith(t) && document.getElementById('drawn-items') !== null, title).catch(() => false);
          if (found) return frame;
        }
        return undefined;
      },
      timeoutMs,
      `the timeline page "${title}"`,
    );
  }

  const drawn = (frame: Frame) => frame.evaluate(readDrawn);
  /** How many items pass the filter, from the summary ("1 server · 40 items · 1 error · 3 shown"). */
  const shown = async (frame: Frame) => {
    const text = await frame.locator('#summary').innerText();
    const n = /([\d,]+) shown/.exec(text) ?? /([\d,]+) items/.exec(text);
    return n ? Number(n[1].replace(/,/g, '')) : -1;
  };

  /** Clicks the drawn item whose label matches (with Follow off: a following view moves under the pointer). */
  async function clickItem(frame: Frame, label: RegExp): Promise<Drawn> {
    const follow = frame.locator('#follow');
    if ((await follow.count()) > 0 && (await follow.getAttribute('aria-pressed')) === 'true') await follow.click();
    // The list follows the drawing within a fifth of a second: the item where it stays put.
    let last: Drawn | undefined;
    const item = await waitUntil(
      async () => {
        const now = (await drawn(frame)).find((d) => label.test(d.label));
        const settled = now && last && now.x === last.x && now.y === last.y ? now : undefined;
        last = now;
        if (!settled) await frame.waitForTimeout(300);
        return settled;
      },
      20_000,
      `a drawn item ${label} that stays put`,
    );
    await frame.locator('#timeline-canvas').click({ position: { x: Math.max(1, item.x), y: item.y } });
    return item;
  }

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `timeline-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  async function callTool(name: string, fill: (frame: Frame) => Promise<void>): Promise<Frame> {
    // A webview that had the focus may take it back and close the pick under the test: then both run again.
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await retrying(`timeline callTool ${name}: Call Tool… run again`, 3, async () => {
        await wb.page.locator('.part.sidebar .composite.title').first().click();
        await wb.runCommand('MCP Host: Call Tool…');
        // Typed first: the list of tools is long and virtualised; the filtered list's first row is the one.
        await waitUntil(async () => (await input.isEditable()) && !(await input.inputValue()).startsWith('>'), 10_000, 'the tool pick');
        await input.fill(name, { timeout: 5_000 });
        const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
        await waitUntil(async () => ((await first.innerText().catch(() => '')) || '').trim() === name, 10_000, `"${name}" first in the pick`);
        await wb.page.keyboard.press('Enter');
    });
    const frame = await waitUntil(async () => (await wb.webviewFrames(name))[0], 20_000, `the tool panel of ${name}`);
    await frame.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
    await fill(frame);
    await waitUntil(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
    await clickReached(frame.locator('#run'), 'Run');
    return frame;
  }

  before(async () => {
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }, null, 2));
    wb = await launch({ workspace, vsix: defaultVsixPath, timeoutMs: 150_000, viewport: { width: 1500, height: 950 }, settings: { 'chat.mcp.access': 'none', 'chat.mcp.autostart': 'never', 'workbench.colorTheme': 'Default Dark Modern' } });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('everything', { timeoutMs: 30_000 });
    await allowServers(wb, 1);
    await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
  });

  after(async () => {
    if (wb) {
      await wb.close();
      assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
    }
    rmSync(workspace, { recursive: true, force: true });
  });

  test('calls from the editor are spans on the timeline; progress is linked to its call', { timeout: 180_000 }, async () => {
    await step('spans', async () => {
      const echo = await callTool('echo', (frame) => frame.locator('.field[data-path="/message"] textarea, .field[data-path="/message"] input').first().fill('hello timeline'));
      await waitUntil(async () => ((await echo.locator('.result').innerText().catch(() => '')) || '').includes('Echo: hello timeline'), 20_000, 'the echo result');
      const long = await callTool('trigger-long-running-operation', async (frame) => {
        await frame.locator('.field[data-path="/duration"] input').fill('2');
        await frame.locator('.field[data-path="/steps"] input').fill('4');
      });
      await waitUntil(async () => /OK/.test(await long.locator('.result .status').innerText().catch(() => '')), 30_000, 'the long call to finish');

      await wb.runCommand('MCP Host: Open Timeline');
      const page = await timelinePage('Timeline');
      await waitUntil(async () => (await drawn(page)).some((d) => /^tools\/call echo · /.test(d.label)), 20_000, 'the echo span');
      const items = await drawn(page);
      const labels = items.map((d) => d.label);
      for (const expected of [/^initialize · \d/, /^tools\/list · \d/, /^tools\/call echo · \d/, /^tools\/call trigger-long-running-operation · \d/]) {
        assert.ok(labels.some((l) => expected.test(l)), `${expected} in ${JSON.stringify(labels)}`);
      }
      assert.ok(items.every((d) => d.server === 'everything'), JSON.stringify(items));
      // Progress is drawn along its call (4 steps), not as loose ticks.
      assert.equal(items.filter((d) => d.kind === 'progress').length, 4, JSON.stringify(items.filter((d) => d.kind !== 'call')));
      // A healthy session has no errors: a legacy server's error answer to the era probe
      // (server/discover) is how its start goes, drawn as answered, not counted.
      assert.match(await page.locator('#summary').innerText(), /^1 server · \d+ items · 0 errors$/);
      const errors = (await drawn(page)).filter((d) => /error/.test(d.label)).map((d) => d.label);
      assert.deepEqual(errors, []);
      assert.ok(labels.some((l) => /^server\/discover · /.test(l)), `the probe is still drawn: ${JSON.stringify(labels)}`);
      await wb.screenshot('timeline-dark');
    });
  });

  test('a filter narrows the spans; a click shows both frames; Show in History opens the call', { timeout: 180_000 }, async () => {
    await step('filter-details', async () => {
      const page = await timelinePage('Timeline');
      const before = await shown(page);
      await page.locator('#text-filter').fill('echo');
      await waitUntil(async () => (await shown(page)) < before, 10_000, 'fewer items shown');
      await waitUntil(async () => {
        const now = await drawn(page);
        return now.length > 0 && now.every((d) => /echo/.test(d.label)) && now;
      }, 10_000, 'only echo drawn');
      assert.match(await page.locator('#summary').innerText(), / shown/);
      await wb.screenshot('timeline-filtered');

      await clickItem(page, /^tools\/call echo · /);
      const details = page.locator('#details');
      await waitUntil(async () => (await details.locator('.frame').count()) === 2, 10_000, 'two frames in the details');
      const frames = details.locator('.frame');
      assert.match(await frames.nth(0).innerText(), /Request · editor → server/);
      assert.match(await frames.nth(0).innerText(), /hello timeline/);
      assert.match(await frames.nth(1).innerText(), /Answer · server → editor/);
      assert.match(await frames.nth(1).innerText(), /Echo: hello timeline/);
      assert.match(await details.locator('.details-facts').innerText(), /answered/);
      await wb.screenshot('timeline-details');

      await details.locator('#show-history').click();
      const panel = await waitUntil(async () => (await wb.webviewFrames('echo'))[0], 20_000, 'the tool panel');
      await waitUntil(async () => /From the history: the call of/.test(await panel.locator('.from-history').innerText().catch(() => '')), 20_000, 'the history entry shown');
      assert.match(await panel.locator('.result').innerText(), /Echo: hello timeline/);
      await wb.screenshot('timeline-show-in-history');

      // Back to the timeline; the filter cleared, the keyboard steps through the items.
      await wb.runCommand('MCP Host: Open Timeline');
      await page.locator('#text-filter').fill('');
      await waitUntil(async () => (await shown(page)) === before, 10_000, 'every item shown again');
      await page.locator('#timeline-canvas').focus();
      await wb.page.keyboard.press('Escape');
      await wb.page.keyboard.press('Home');
      await wb.page.keyboard.press('ArrowDown');
      await waitUntil(async () => (await page.locator('#announce').innerText()).length > 0, 10_000, 'the selected item announced');
      const first = await page.locator('#announce').innerText();
      await wb.page.keyboard.press('ArrowDown');
      await waitUntil(async () => (await page.locator('#announce').innerText()) !== first, 10_000, 'the next item announced');
      assert.match(await page.locator('#announce').innerText(), /everything, at \d\d:\d\d:\d\d/);
    });
  });

  test('keyboard and screen reader: a heading, the toolbar one Tab stop, the list of drawn items picks one, the details show focus and close on Escape', { timeout: 120_000 }, async () => {
    await step('access', async () => {
      const page = await timelinePage('Timeline');
      assert.equal(await page.locator('h1').innerText(), 'Timeline');
      assert.equal(await page.evaluate(() => 'mcpTimeline' in window), false, 'nothing test-only on the page');
      // The toolbar: one control in the Tab order; the arrows move between them.
      const toolbar = page.locator('[role="toolbar"]');
      await page.locator('#text-filter').focus();
      const tabStops = () => toolbar.evaluate((t) => Array.from(t.querySelectorAll('button, select, input')).filter((c) => (c as HTMLElement).tabIndex === 0).map((c) => c.id || c.textContent));
      assert.deepEqual(await tabStops(), ['text-filter']);
      await wb.page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'direction-filter', 'Right at the end of the empty field goes to the next control');
      await wb.page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'errors-filter');
      assert.deepEqual(await tabStops(), ['errors-filter'], 'the control last used is the one Tab stop');
      await wb.page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'timeline-canvas', 'Tab leaves the toolbar for the canvas');

      // A screen reader activates an item of the list: it is selected, the details get the focus (seen), Escape closes them.
      await wb.page.keyboard.press('0');
      const item = page.locator('#drawn-items button', { hasText: /^tools\/call echo · / }).first();
      await waitUntil(async () => (await item.count()) > 0, 10_000, 'the echo call in the list');
      assert.match(await item.innerText(), /^tools\/call echo · [\d.]+ m?s, editor request, everything, answered$/);
      await item.evaluate((b) => (b as HTMLButtonElement).click());
      const details = page.locator('#details');
      await waitUntil(async () => (await details.locator('.frame').count()) === 2, 10_000, 'the details of the picked item');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'details');
      await page.locator('#timeline-canvas').focus();
      await wb.page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'details', 'Enter on the canvas moves to the details');
      assert.notEqual(await details.evaluate((d) => getComputedStyle(d).outlineStyle), 'none', 'the focus on the details is drawn');
      await wb.screenshot('timeline-details-focus');
      await wb.page.keyboard.press('Escape');
      await waitUntil(async () => details.isHidden(), 5_000, 'Escape closes the details');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'timeline-canvas', 'the focus goes back to the canvas');
    });
  });

  test('Export writes the selected call as a recording that replays; the recording opens in the timeline', { timeout: 180_000 }, async () => {
    await step('export', async () => {
      const page = await timelinePage('Timeline');
      await page.locator('#text-filter').fill('echo');
      await waitUntil(async () => (await drawn(page)).every((d) => /echo/.test(d.label)), 10_000, 'only echo drawn');
      await clickItem(page, /^tools\/call echo · /);
      await waitUntil(async () => /Export item/.test(await page.locator('#export').innerText()), 10_000, 'Export offers the item');
      await page.locator('#export').click();
      await answerFileDialog(wb, exported);
      await waitUntil(async () => existsSync(exported) && readFileSync(exported, 'utf8').includes('Echo: hello timeline'), 20_000, 'the exported file');
      assert.equal(statSync(exported).mode & 0o777, 0o600, 'readable by its owner only');
      const lines = readFileSync(exported, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
      assert.equal(lines[0].mcpHostRecording, 1);
      assert.match(String(lines[0].server), /server-everything/);
      const methods = lines.slice(1).map((l) => l.message.method ?? 'answer');
      assert.deepEqual(methods.filter((m) => m === 'tools/call'), ['tools/call']);
      assert.ok(methods.includes('initialize'), 'the handshake comes with it');
      // The bug report replays against the server.
      const replay = spawnSync(process.execPath, [CLI, 'replay', exported, '--', process.execPath, EVERYTHING, 'stdio'], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(replay.status, 0, replay.stdout + replay.stderr);
      assert.match(replay.stdout, /^1 request replayed, 0 with different answers$/m);

      await wb.page.locator('.part.sidebar .composite.title').first().click();
      await wb.runCommand('MCP Host: Open Recording in Timeline…');
      await answerFileDialog(wb, exported);
      const recording = await timelinePage('Timeline — echo-bug-report.jsonl');
      await waitUntil(async () => (await drawn(recording)).some((d) => /^tools\/call echo · /.test(d.label)), 20_000, 'the recorded echo span');
      const labels = (await drawn(recording)).map((d) => d.label);
      assert.ok(labels.some((l) => /^initialize · /.test(l)), JSON.stringify(labels));
      assert.equal(await recording.locator('#follow').count(), 0, 'a recording does not follow');
      await clickItem(recording, /^tools\/call echo · /);
      await waitUntil(async () => (await recording.locator('#details .frame').count()) === 2, 10_000, 'both recorded frames');
      await wb.screenshot('timeline-recording');
    });
  });

  test('the light theme', { timeout: 120_000 }, async () => {
    await step('light', async () => {
      await wb.page.locator('.part.sidebar .composite.title').first().click();
      await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
      await waitUntil(async () => wb.page.locator('.monaco-workbench.vs').count(), 20_000, 'the light theme');
      await wb.runCommand('MCP Host: Open Timeline');
      const page = await timelinePage('Timeline');
      await page.locator('#text-filter').fill('');
      await clickItem(page, /^tools\/call trigger-long-running-operation · /);
      await waitUntil(async () => (await page.locator('#details .links .link-button').count()) >= 4, 10_000, 'the linked progress');
      await waitUntil(async () => page.evaluate(() => document.body.classList.contains('vscode-light')), 10_000, 'the page in the light theme');
      await wb.screenshot('timeline-light');
    });
  });

  test('the four themes of the accessibility audit', { timeout: 120_000 }, async () => {
    await step('themes', async () => {
      const page = await timelinePage('Timeline');
      const themes = [
        { setting: 'Light 2026', file: 'light-2026', body: 'vscode-light' },
        { setting: 'Light+', file: 'light-plus', body: 'vscode-light' },
        { setting: 'Default High Contrast', file: 'hc-dark', body: 'vscode-high-contrast' },
        { setting: 'Default High Contrast Light', file: 'hc-light', body: 'vscode-high-contrast-light' },
      ];
      for (const theme of themes) {
        writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': theme.setting }));
        await waitUntil(async () => page.evaluate((b) => document.body.classList.contains(b) && (b !== 'vscode-high-contrast' || !document.body.classList.contains('vscode-high-contrast-light')), theme.body), 20_000, `the page in ${theme.setting}`);
        await wb.page.waitForTimeout(500);
        await wb.screenshot(`timeline-theme-${theme.file}`);
        // axe-core in the page (evaluated, as DevTools would: the page's CSP admits no other script).
        if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
          const result = await axe.run(document, { resultTypes: ['violations'] });
          return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        });
        assert.deepEqual(violations, [], `serious or critical axe violations in ${theme.setting}`);
      }
      rmSync(join(workspace, '.vscode', 'settings.json'));
    });
  });

  test("with a server's row selected, the view's title bar opens the timeline on every server", { timeout: 120_000 }, async () => {
    await step('title-bar', async () => {
      const page = wb.page;
      await wb.waitForTreeItem('everything');
      // The server's row selected: VS Code hands it to the title bar's commands too.
      await wb.clickTreeItem('everything', { view: 'Servers' });
      // The live timeline (not the recording's, whose title also starts with "Timeline").
      const live = await waitUntil(async () => {
        for (const frame of page.frames()) if (await frame.evaluate(() => document.title === 'Timeline' && document.getElementById('drawn-items') !== null).catch(() => false)) return frame;
        return undefined;
      }, 30_000, 'the live timeline page');
      // The title bar opens on every server, not on the selected row's (which it used to narrow to).
      await page.locator('.part.sidebar .monaco-list[role="tree"]').first().hover();
      await page.locator('.part.sidebar .action-label[aria-label="Open Timeline"]').first().click();
      await page.waitForTimeout(2_000);
      const chips = live.locator('.server-chips .chip');
      assert.ok((await chips.count()) > 0);
      assert.equal(await live.locator('.server-chips .chip[aria-pressed="false"]').count(), 0, 'the timeline on every server');
      await wb.screenshot('timeline-all-servers');
    });
  });
});
