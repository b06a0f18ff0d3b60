// End-to-end: the tool panel's guards, in one window whose folder runs server-filesystem and a
// server that floods notifications (test/fixtures/servers/notificationFlood.mjs):
//   - a destructive tool (server-filesystem's write_file) asks first: Cancel sends nothing, Run writes;
//   - 3,000 progress notifications redraw the panel a bounded number of times, and 3,000 updates
//     of a subscribed resource make one toast with their count.
// One launch for both suites (they were two: a launch and a close cost 20–50 s each in CI).
// Neither suite reads what the other did, so either runs alone under --test-name-pattern.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { clickReached, defaultVsixPath, launch, repoRoot, step as runStep, waitUntil as poll, type Workbench } from './harness';
import { openToolPanel } from './toolPanels';
import { allowServers, clickRowAction, waitForTree } from './treeRows';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;

/**
 * A launch on a fresh folder whose .vscode/mcp.json runs these servers (`node` and each one's
 * `args`), allowed and started before the suite's tests; closed (nothing left running) and
 * removed after them.
 */
function launchWithServers(prefix: string, servers: (folder: string) => Record<string, string[]>): { readonly wb: Workbench; readonly folder: string } {
  const launched = { wb: undefined as unknown as Workbench, folder: mkdtempSync(join(tmpdir(), prefix)) };
  before(async () => {
    mkdirSync(join(launched.folder, '.vscode'));
    const entries = Object.entries(servers(launched.folder));
    writeFileSync(join(launched.folder, '.vscode', 'mcp.json'), JSON.stringify({ servers: Object.fromEntries(entries.map(([name, args]) => [name, { type: 'stdio', command: 'node', args }])) }));
    const wb = (launched.wb = await launch({ workspace: launched.folder, vsix: VSIX, timeoutMs: 150_000 }));
    await wb.openView('MCP Host');
    for (const [name] of entries) await wb.waitForTreeItem(name, { timeoutMs: 30_000 });
    await allowServers(wb, entries.length);
    await waitForTree(wb, `the ${entries.length} servers to start`, (rows) => rows.filter((r) => r.label === 'Tools').length >= entries.length, 60_000);
  });
  after(async () => {
    if (launched.wb) {
      await launched.wb.close();
      assert.deepEqual(launched.wb.leftoverProcesses(), []);
    }
    rmSync(launched.folder, { recursive: true, force: true });
  });
  return launched;
}

describe('server-filesystem and the flood fixture in one window', () => {
  const launched = launchWithServers('mcp-inspect-e2e-fs-flood-', () => ({
    files: [join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), '${workspaceFolder}'],
    flood: [join(repoRoot, 'test', 'fixtures', 'servers', 'notificationFlood.mjs')],
  }));

  describe('a destructive tool asks first (server-filesystem)', () => {

    test('write_file: Cancel sends nothing; Run writes the file', { timeout: 90_000 }, async () => {
      const { wb, folder } = launched;
      const target = join(folder, 'written.txt');
      const frame = await openToolPanel(wb, 'files', 'write_file');
      await frame.locator('.badge.destructive').waitFor({ timeout: 10_000 });
      await frame.locator('.field[data-path="/path"] textarea, .field[data-path="/path"] input').first().fill(target);
      await frame.locator('.field[data-path="/content"] textarea, .field[data-path="/content"] input').first().fill('written from the tool panel');
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');

      await clickReached(frame.locator('#run'), 'Run');
      const asked = await wb.dialog({ timeoutMs: 10_000 });
      assert.ok(asked, 'a confirmation dialog');
      assert.match(asked.message, /Run write_file on files\?/);
      assert.match(asked.detail, /The server says this tool may delete or overwrite things\. Servers describe their tools themselves; MCP Host cannot check this\./);
      await wb.screenshot('inspect-destructive-confirm');
      await wb.answerDialog('Cancel');
      assert.equal(existsSync(target), false, 'nothing was sent');
      assert.equal(await frame.locator('.history-item').count(), 0);

      await clickReached(frame.locator('#run'), 'Run');
      await wb.dialog({ timeoutMs: 10_000 });
      await wb.answerDialog('Run');
      // The server creates the file, then writes it: wait for the content, not only the file.
      await poll(async () => existsSync(target) && readFileSync(target, 'utf8') === 'written from the tool panel', 15_000, 'the file to be written');
      await poll(async () => /OK/.test(await frame.locator('.result .status').innerText().catch(() => '')), 15_000, 'the result');
      // The call that ran is in the history, and it is the only one: the cancelled Run sent nothing.
      await poll(async () => (await frame.locator('.history-item').count()) >= 1, 10_000, 'the call in the history');
      assert.equal(await frame.locator('.history-item').count(), 1, 'one call: the cancelled Run sent none');
    });
  });

  describe('a server that floods notifications: the UI work stays bounded (flood fixture)', () => {

    /** Opens the tool's panel, sets `count`, runs it; resolves with the panel once `result` shows, and the milliseconds it took. */
    async function runFlood(tool: string, count: number, result: RegExp, beforeRun: (frame: Frame) => Promise<void> = async () => {}): Promise<{ frame: Frame; ms: number }> {
      const frame = await openToolPanel(launched.wb, 'flood', tool);
      await frame.locator('.field[data-path="/count"] input').first().fill(String(count));
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await beforeRun(frame);
      const started = Date.now();
      await clickReached(frame.locator('#run'), 'Run');
      let shown = '';
      await poll(async () => result.test((shown = await frame.locator('#app').innerText().catch(() => ''))), 60_000, `the result of ${tool}`).catch((error: Error) => {
        throw new Error(`${error.message}; the panel shows: ${JSON.stringify(shown.slice(-600))}`);
      });
      return { frame, ms: Date.now() - started };
    }

    test('3,000 progress notifications: the panel updates a bounded number of times and shows the last one', { timeout: 120_000 }, (t) => runStep(launched.wb, 'inspect-failed-flood-progress', async () => {
      const { frame, ms } = await runFlood('flood-progress', 3000, /sent 3000 progress notifications/, (f) =>
        // Counts what the panel draws: each progress message rewrites the progress text.
        f.evaluate(() => {
          const w = window as unknown as { progressDrawn: number; progressText: string };
          w.progressDrawn = 0;
          new MutationObserver((records) => {
            for (const r of records) {
              const el = r.target as HTMLElement;
              if (el.classList?.contains('progress-text') && el.textContent !== 'Running…') {
                w.progressDrawn++;
                w.progressText = el.textContent ?? '';
              }
            }
          }).observe(document.querySelector('#progress')!, { childList: true, subtree: true, characterData: true });
        }),
      );
      const drawn = await frame.evaluate(() => {
        const w = window as unknown as { progressDrawn: number; progressText: string };
        return { progressDrawn: w.progressDrawn, progressText: w.progressText };
      });
      t.diagnostic(`${drawn.progressDrawn} progress updates drawn in ${ms} ms`);
      assert.ok(drawn.progressDrawn >= 1, 'progress was shown');
      assert.ok(drawn.progressDrawn <= ms / 100 + 5, `${drawn.progressDrawn} progress updates drawn in ${ms} ms for 3,000 notifications`);
      assert.equal(drawn.progressText, 'step 3000 of 3000 — 3000 / 3000', 'the last value is shown');
    }));

    test('3,000 updates of a subscribed resource without an editor: one toast with the count', { timeout: 120_000 }, (t) => runStep(launched.wb, 'inspect-failed-flood-updates', async () => {
      const { wb } = launched;
      await wb.openView('MCP Host');
      await wb.expandTreeItem('Resources');
      await clickRowAction(wb, 'counter', 'Subscribe to Resource');
      await poll(async () => ((await wb.treeItems()).find((i) => i.label === 'counter')?.description ?? '').startsWith('subscribed · '), 15_000, 'the subscribed mark');
      // Clicking the row opened it; updates of an open resource refresh its editor instead.
      await wb.runCommand('View: Close All Editors');
      await poll(async () => (await wb.page.locator('.part.editor .tabs-container .tab').count()) === 0, 10_000, 'the editors to close');
      await runFlood('flood-updates', 3000, /sent 3000 updates/);
      // The positive signal first: the toast with its count; then that it is the only one.
      await poll(async () => (await wb.notifications()).some((n) => /flood:\/\/counter was updated \([\d,]+ times\)/.test(n)), 15_000, 'the toast counting the updates');
      const toasts = (await wb.notifications()).filter((n) => n.includes('flood://counter was updated'));
      t.diagnostic(`toasts: ${JSON.stringify(toasts)}`);
      await wb.screenshot('inspect-flood-updates');
      assert.equal(toasts.length, 1, `one toast: ${JSON.stringify(toasts)}`);
      // VS Code folds identical toasts into one by itself; what says the updates were collapsed
      // (not shown one by one) is the count.
      const count = /^flood: flood:\/\/counter was updated \(([\d,]+) times\)\.$/.exec(toasts[0])?.[1];
      assert.ok(count && Number(count.replace(/,/g, '')) > 1, `the toast counts the updates: ${toasts[0]}`);
    }));
  });
});
