// End-to-end: the small things a user meets in the editor (issue 38, item 11), on one launch with
// a fixture server on the official SDK (test/fixtures/servers/papercuts.mjs):
// - a click on a running server's row opens or closes it and opens no Server Details tab;
// - Record Session marks the server's row while it records;
// - a tool's long plain description keeps its paragraphs; a union argument (zod's z.union, sent
//   as anyOf) is a choice of its alternatives, each with its own fields, not raw JSON; a whole
//   number field shows no ±9007199254740991 bound; the call sends what the chosen form says;
// (Diagnose Connection opening its report rendered is workbench.test.ts's "Diagnose on a broken entry".)
// Screenshots: test-results/screenshots/papercuts-*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { defaultVsixPath, launch, repoRoot, step as runStep, waitUntil, type Workbench } from './harness';
import { allowServers } from './treeRows';

const FIXTURE = join(repoRoot, 'test', 'fixtures', 'servers', 'papercuts.mjs');
const skip = !existsSync(defaultVsixPath) ? `${defaultVsixPath} is missing` : false;

describe('papercuts: what a user meets in the first hour', { skip }, () => {
  let wb: Workbench;
  const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-papercuts-'));

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `papercuts-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  const rowOf = async (label: string) => (await wb.treeItems()).find((r) => r.label === label);

  before(async () => {
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { papercuts: { command: process.execPath, args: [FIXTURE] } } }, null, 2));
    wb = await launch({ workspace, vsix: defaultVsixPath, timeoutMs: 150_000, viewport: { width: 1400, height: 900 }, settings: { 'chat.mcp.access': 'none', 'chat.mcp.autostart': 'never' } });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('papercuts', { timeoutMs: 30_000 });
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

  test('a click on a running server only opens or closes its row; Record Session marks the row', { timeout: 120_000 }, async () => {
    await step('row', async () => {
      assert.equal((await rowOf('papercuts'))?.expanded, true);
      await wb.clickTreeItem('papercuts');
      await waitUntil(async () => (await rowOf('papercuts'))?.expanded === false, 10_000, 'the row closed by the click');
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await wb.webviewFrames('server details')).length, 0, 'no Server Details tab');
      await wb.clickTreeItem('papercuts');
      await waitUntil(async () => (await rowOf('papercuts'))?.expanded === true, 10_000, 'the row opened again');

      await wb.runCommandAndPick('MCP Host: Record Session (start/stop)', 'papercuts');
      await waitUntil(async () => /^● recording · /.test((await rowOf('papercuts'))?.description ?? ''), 10_000, 'the row marked as recording');
      await wb.screenshot('papercuts-recording-row');
      await wb.runCommandAndPick('MCP Host: Record Session (start/stop)', 'papercuts');
      await waitUntil(async () => !/recording/.test((await rowOf('papercuts'))?.description ?? 'recording'), 10_000, 'the mark gone when it stops');
      await wb.page.keyboard.press('Escape');
    });
  });

  test('a tool panel: the description in paragraphs, a union argument as a choice of forms, no meaningless bound', { timeout: 120_000 }, async () => {
    await step('union', async () => {
      await wb.expandTreeItem('Tools');
      await wb.waitForTreeItem('write_note', { timeoutMs: 20_000 });
      await wb.clickTreeItem('write_note');
      const panel: Frame = await waitUntil(async () => (await wb.webviewFrames('write_note'))[0], 20_000, 'the panel of write_note');
      await panel.locator('#run').waitFor({ timeout: 10_000 });
      assert.deepEqual(await panel.locator('header .description p').allInnerTexts(), [
        'Writes a note where you say.',
        'The target is either a file path or a location:\na URI with an optional line.',
        'Answers with what it was given.',
      ]);

      const target = panel.locator('.field[data-path="/target"]');
      const choice = target.locator('select.union-choice').first();
      assert.deepEqual((await choice.locator('option').allInnerTexts()).map((t) => t.trim()), ['— choose a kind —', 'text', 'object with uri, line']);
      assert.equal(await target.locator('textarea.json').count(), 0, 'not raw JSON');
      await panel.locator('.field[data-path="/text"] textarea, .field[data-path="/text"] input').first().fill('hello');
      await choice.selectOption({ label: 'object with uri, line' });
      await panel.locator('.field[data-path="/target/uri"] input, .field[data-path="/target/uri"] textarea').first().fill('file:///notes.md');
      const line = panel.locator('.field[data-path="/target/line"]');
      await line.locator('input').fill('3');
      assert.doesNotMatch(await line.innerText(), /9007199254740991/, 'no ±MAX_SAFE_INTEGER bound');
      await wb.screenshot('papercuts-union-form');
      await waitUntil(async () => !(await panel.locator('#run').isDisabled()), 10_000, 'Run enabled');
      await panel.locator('#run').click();
      // The server answers with the arguments it got (drawn as a JSON tree).
      const result = async () => (await panel.locator('.result').innerText().catch(() => '')).replace(/\s+/g, ' ');
      await waitUntil(async () => /text: "hello"[^]*?target: \{2\}[^]*?uri: "file:\/\/\/notes\.md"[^]*?line: 3/.test(await result()), 20_000, 'the server got the object alternative');

      // The other alternative: a plain path.
      await choice.selectOption({ label: 'text' });
      await target.locator('.union-variant input, .union-variant textarea').first().fill('notes.md');
      await panel.locator('#run').click();
      await waitUntil(async () => /text: "hello"[^]*?target: "notes\.md"/.test(await result()), 20_000, 'the server got the path alternative');
      await wb.screenshot('papercuts-union-result');
    });
  });
});
