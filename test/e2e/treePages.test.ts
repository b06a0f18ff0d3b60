// A server with many tools in a real VS Code (code-server): test/fixtures/servers/scale.mjs with
// 1,000 generated tools (1,003 with its three own).
// - Opening Tools draws its first 200 rows and a "Show 200 more · 803 not shown" row; the group
//   keeps its full count. A click on that row draws 400, the first 200 unchanged.
// - "Find Tool…" searches every tool, drawn or not: a name typed in part, and words of the
//   descriptions; accepting one beyond the drawn pages opens its panel and selects its row, its
//   page loaded.
// - Show All (the row's inline action) draws the rest.
// Screenshots: test-results/screenshots/tree-pages-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultVsixPath, launch, repoRoot, step as runStep, waitUntil, type TreeItem, type Workbench } from './harness';
import { childrenOf, waitForTree, allowServers } from './treeRows';

const SCALE = join(repoRoot, 'test', 'fixtures', 'servers', 'scale.mjs');
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
/** The generated tools are named `<verb>_<subject>_<n>`; these are the fixture's own. */
const TOOL_COUNT = 1000;
const TOTAL = TOOL_COUNT + 3;

describe('a Tools group of 1,003 tools, a page at a time, every tool findable', () => {
  let wb: Workbench;
  const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-tree-pages-'));

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `tree-pages-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  const toolRows = (items: readonly TreeItem[]) => childrenOf(items, 'Tools');

  /** "MCP Host: Find Tool…", `query` typed: the labels the pick shows, once its first is `first` (or any, when undefined). */
  async function findTool(query: string, first: (label: string) => boolean): Promise<string[]> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await wb.runCommand('MCP Host: Find Tool…');
    await waitUntil(async () => (await input.isEditable()) && !(await input.inputValue()).startsWith('>') && ((await wb.page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => '')) || '').includes('Find Tool'), 20_000, 'the Find Tool pick');
    await input.fill(query);
    const list = wb.page.locator('.quick-input-widget .quick-input-list').first();
    return waitUntil(
      async () => {
        // A row's first label is the item's; the detail line below it is a label too.
        const shown = await list.evaluate((el) => Array.from(el.querySelectorAll('.monaco-list-row')).map((row) => row.querySelector('.label-name')?.textContent?.trim() ?? '')).catch(() => [] as string[]);
        const focused = ((await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first().innerText().catch(() => '')) || '').trim();
        return shown.length > 0 && focused === shown[0] && first(focused) && shown;
      },
      20_000,
      `Find Tool's first match for "${query}"`,
    );
  }

  before(async () => {
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { scale: { command: process.execPath, args: [SCALE, '--tools', String(TOOL_COUNT)] } } }, null, 2));
    wb = await launch({ workspace, vsix: VSIX, timeoutMs: 150_000, viewport: { width: 1400, height: 900 }, settings: { 'chat.mcp.access': 'none', 'chat.mcp.autostart': 'never' } });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('scale', { timeoutMs: 30_000 });
    await allowServers(wb, 1);
    await waitForTree(wb, `Tools with its count ${TOTAL}`, (items) => items.some((i) => i.label === 'Tools' && i.description === String(TOTAL)), 60_000);
  });

  after(async () => {
    if (wb) {
      await wb.close();
      assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
    }
    rmSync(workspace, { recursive: true, force: true });
  });

  test('Tools opens on its first 200 rows; "Show 200 more" draws the next 200, the first unchanged', { timeout: 240_000 }, async () => {
    await step('first-page', async () => {
      await wb.expandTreeItem('Tools');
      const items = await waitForTree(wb, '200 tool rows and a "more" row', (items) => toolRows(items).length === 201, 60_000);
      const rows = toolRows(items);
      const tools = items.find((i) => i.label === 'Tools')!;
      assert.equal(tools.description, String(TOTAL), 'the group keeps its full count');
      assert.deepEqual(rows.slice(0, 3).map((r) => r.label), ['list_invoice_0000', 'get_invoice_0001', 'create_invoice_0002']);
      assert.equal(rows[199].label, 'search_webhook_0199');
      assert.deepEqual({ label: rows[200].label, description: rows[200].description }, { label: 'Show 200 more', description: '803 not shown' });
      await wb.screenshot('tree-pages-first');

      await wb.clickTreeItem('Show 200 more');
      const next = toolRows(await waitForTree(wb, '400 tool rows and a "more" row', (items) => toolRows(items).length === 401, 60_000));
      assert.deepEqual(next.slice(0, 200).map((r) => r.label), rows.slice(0, 200).map((r) => r.label), 'the first page is unchanged');
      assert.equal(next[399].label, 'search_webhook_0399');
      assert.deepEqual({ label: next[400].label, description: next[400].description }, { label: 'Show 200 more', description: '603 not shown' });
    });
  });

  test('Find Tool… finds any tool by a part of its name or by what it does, and opens one beyond the drawn pages', { timeout: 240_000 }, async () => {
    await step('find', async () => {
      // Words of the descriptions ("Restore a deployment of shard 36…"), the last one unfinished.
      const byWords = await findTool('restore a deploym', (l) => l.startsWith('restore_deployment_'));
      assert.ok(byWords.slice(0, 5).every((l) => l.startsWith('restore_deployment_')), byWords.slice(0, 5).join(', '));
      await wb.page.keyboard.press('Escape');

      // A tool far past the 400 rows drawn: part of its name is enough.
      const target = 'search_webhook_0999';
      const byName = await findTool('webhook_099', (l) => l.includes('_webhook_099'));
      assert.ok(byName.slice(0, 10).every((l) => l.includes('_webhook_099')) && byName.includes(target), byName.slice(0, 12).join(', '));
      await wb.page.keyboard.press('Escape');
      await findTool(target, (l) => l === target);
      await wb.screenshot('tree-pages-find');
      await wb.page.keyboard.press('Enter');
      const panel = await waitUntil(async () => (await wb.webviewFrames(target))[0], 30_000, `the ${target} panel`);
      await panel.locator('#run').waitFor({ state: 'visible', timeout: 20_000 });
      // Its row is drawn (the pages up to it loaded) and selected.
      const selected = wb.page.locator('.part.sidebar .monaco-list[role="tree"] .monaco-list-row[aria-selected="true"] .label-name');
      await waitUntil(async () => ((await selected.first().innerText().catch(() => '')) || '').trim() === target, 20_000, `${target} selected in the tree`);
      await wb.screenshot('tree-pages-revealed');
      const rows = toolRows(await waitForTree(wb, '1,000 tool rows and "Show 3 more"', (items) => toolRows(items).length === 1001, 60_000));
      assert.equal(rows[999].label, target);
      assert.deepEqual({ label: rows[1000].label, description: rows[1000].description }, { label: 'Show 3 more', description: '3 not shown' });
    });
  });

  test('Show All draws the rest; the "more" row goes', { timeout: 180_000 }, async () => {
    await step('show-all', async () => {
      await wb.runCommand('View: Close All Editors');
      const row = wb.page
        .locator('.part.sidebar .monaco-list[role="tree"] .monaco-list-row')
        .filter({ has: wb.page.locator('.label-name', { hasText: /^Show 3 more$/ }) })
        .first();
      await wb.hoverTreeItem('Show 3 more');
      await row.locator('.action-label[aria-label="Show All"]').click({ timeout: 10_000 });
      const rows = toolRows(await waitForTree(wb, 'every tool row', (items) => toolRows(items).length === TOTAL && !items.some((i) => i.label.startsWith('Show ')), 60_000));
      assert.deepEqual(rows.slice(-3).map((r) => r.label), ['big_result', 'flood', 'echo']);
    });
  });
});
