// End to end: a hostile server (test/fixtures/servers/hostile.mjs, from the user settings). The
// tree shows the valid items with "· N skipped" on each list's row, instead of one "failed" that
// hid the whole list; the tool panel says plainly what it did not check (a pattern RE2 cannot
// run, a 10,000-property outputSchema) and shows a 5,000-deep result cut.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { clickReached, defaultVsixPath, launch, poll, repoRoot, step, type TreeItem, type Workbench, waitUntil } from './harness';
import { retrying } from './retries';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const HOSTILE = join(repoRoot, 'test', 'fixtures', 'servers', 'hostile.mjs');
const skip = existsSync(VSIX) ? false : `${VSIX} is missing; run \`node scripts/package.mjs\``;

describe('a server with malformed list items', { skip }, () => {
  const WS = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-hostile-'));
  let wb: Workbench;

  before(async () => {
    wb = await launch({ workspace: WS, vsix: VSIX, viewport: { width: 1600, height: 1000 }, settings: { 'mcpHost.servers': { hostile: { command: 'node', args: [HOSTILE] } }, 'mcpHost.confirmDestructiveTools': false }, timeoutMs: 150_000 });
  }, { timeout: 160_000 });
  after(async () => {
    await wb?.close(); // throws when a process of the launch survives
    rmSync(WS, { recursive: true, force: true });
  });

  /**
   * Runs a tool through "Call Tool…" and its panel's Run button; returns the panel. The pick is
   * tried again when it closes under the typing (a panel that just drew its result can take the
   * focus back: seen once as "element is inert", then "not visible").
   */
  async function callTool(name: string): Promise<Frame> {
    await retrying(`hostile callTool ${name}: Call Tool… run again`, 3, async () => {
        await wb.page.locator('.part.sidebar .composite.title').first().click();
        await wb.runCommand('MCP Host: Call Tool…');
        const input = wb.page.locator('.quick-input-widget .quick-input-box input');
        await waitUntil(async () => !(await input.inputValue()).startsWith('>') && (await input.isEditable()), 10_000, 'the tool pick');
        await input.fill(name, { timeout: 5_000 });
        const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
        await waitUntil(async () => (await first.innerText().catch(() => '')).trim() === name, 10_000, `"${name}" first in the pick`);
        await wb.page.keyboard.press('Enter');
    }, { beforeRetry: () => wb.page.keyboard.press('Escape') });
    const frame = await waitUntil(async () => (await wb.webviewFrames(name))[0], 20_000, `the panel of ${name}`);
    await clickReached(frame.locator('#run'), 'Run');
    return frame;
  }

  test('each list shows its valid items and how many were skipped', { timeout: 90_000 }, async () => {
    await step(wb, 'e2e-failed-hostile-lists', async () => {
      await wb.openView('MCP Host');
      let rows: TreeItem[] = [];
      const described = (label: string) => rows.find((r) => r.level === 2 && r.label === label)?.description;
      await poll(
        async () => {
          rows = await wb.treeItems();
          // Each list loads on its own: wait until all four say what they hold, then check each.
          const lists = ['Tools', 'Resources', 'Resource Templates', 'Prompts'].map(described);
          return described('Tools') === '6 · 2 skipped' && lists.every((d) => d !== undefined && d !== 'loading…');
        },
        { timeoutMs: 60_000, what: 'the four lists of hostile to load', detail: () => rows.map((r) => `${'  '.repeat(r.level - 1)}${r.label} | ${r.description}`).join('\n') },
      );
      assert.equal(described('Resources'), '1 · 1 skipped');
      assert.equal(described('Resource Templates'), '1 · 1 skipped');
      assert.equal(described('Prompts'), '1 · 1 skipped');
      const log = await wb.outputChannelText('MCP: hostile', { contains: 'skipped 2 malformed tools' });
      assert.match(log, /skipped 2 malformed tools: tools\[1\]\.inputSchema\.type must be one of "object" \("no-type"\); tools\[4\]\.description must be a string \("null-description"\)/);
      await wb.screenshot('e2e-hostile-skipped-items');
    });
  });

  test('the tool panel says what it did not check, and shows a 5,000-deep result cut', { timeout: 120_000 }, async () => {
    await step(wb, 'e2e-failed-hostile-panel', async () => {
      const verdictOf = async (name: string, expected: RegExp): Promise<string> => {
        const frame = await callTool(name);
        const verdict = frame.locator('.result .verdict');
        return waitUntil(async () => {
          const text = await verdict.innerText().catch(() => '');
          return expected.test(text) && text;
        }, 30_000, `the verdict of ${name}`);
      };
      const backreference = await verdictOf('backreference', /not checked/);
      assert.match(backreference, /✓ Valid against the tool’s outputSchema/);
      assert.match(backreference, /⚠ pattern \^\(a\)\\1\$ not checked: not supported by the safe engine/);
      assert.match(await verdictOf('huge-schema', /Not checked/), /⚠ Not checked against the outputSchema: schema too large to check \(more than 3000 values\)/);
      await wb.screenshot('e2e-hostile-huge-schema');
      const deep = await callTool('deep-result');
      await waitUntil(async () => /Nested too deeply to show as a tree/.test(await deep.locator('.result .part-structured').innerText().catch(() => '')), 30_000, 'the cut structured content');
      await wb.screenshot('e2e-hostile-deep-result');
    });
  });
});
