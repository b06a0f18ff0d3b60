// End to end: a server whose lists hold malformed items (test/fixtures/servers/hostile.mjs, from
// the user settings). The tree shows the valid items with "· N skipped" on each list's row,
// instead of one "failed" that hid the whole list.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultVsixPath, launch, poll, repoRoot, step, type TreeItem, type Workbench } from './harness';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const HOSTILE = join(repoRoot, 'test', 'fixtures', 'servers', 'hostile.mjs');
const skip = existsSync(VSIX) ? false : `${VSIX} is missing; run \`node scripts/package.mjs\``;

describe('a server with malformed list items', { skip }, () => {
  const WS = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-hostile-'));
  let wb: Workbench;

  before(async () => {
    wb = await launch({ workspace: WS, vsix: VSIX, viewport: { width: 1600, height: 1000 }, settings: { 'mcpHost.servers': { hostile: { command: 'node', args: [HOSTILE] } } }, timeoutMs: 150_000 });
  }, { timeout: 160_000 });
  after(async () => {
    await wb?.close(); // throws when a process of the launch survives
    rmSync(WS, { recursive: true, force: true });
  });

  test('each list shows its valid items and how many were skipped', { timeout: 90_000 }, async () => {
    await step(wb, 'e2e-failed-hostile-lists', async () => {
      await wb.openView('MCP Host');
      let rows: TreeItem[] = [];
      const described = (label: string) => rows.find((r) => r.level === 2 && r.label === label)?.description;
      await poll(
        async () => {
          rows = await wb.treeItems();
          return described('Tools') === '6 · 2 skipped';
        },
        { timeoutMs: 60_000, what: 'the Tools row of hostile', detail: () => rows.map((r) => `${'  '.repeat(r.level - 1)}${r.label} | ${r.description}`).join('\n') },
      );
      assert.equal(described('Resources'), '1 · 1 skipped');
      assert.equal(described('Resource Templates'), '1 · 1 skipped');
      assert.equal(described('Prompts'), '1 · 1 skipped');
      const log = await wb.outputChannelText('MCP: hostile', { contains: 'skipped 2 malformed tools' });
      assert.match(log, /skipped 2 malformed tools: tools\[1\]\.inputSchema\.type must be one of "object" \("no-type"\); tools\[4\]\.description must be a string \("null-description"\)/);
      await wb.screenshot('e2e-hostile-skipped-items');
    });
  });
});
