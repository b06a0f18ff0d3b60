// The harness tested on its own, with a fixture extension (test/e2e/fixtures/harness-extension),
// so a VS Code upgrade that breaks a selector fails here and not in the middle of a real test.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fixtureExtension } from './fixtureExtensions';
import { launch, repoRoot, type Workbench } from './harness';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-host-harness-'));
let workbench: Workbench | undefined;

after(async () => {
  await workbench?.close();
  rmSync(scratch, { recursive: true, force: true });
});

test('the harness drives views, trees, commands, output and notifications', { timeout: 180_000 }, async () => {
  const second = mkdtempSync(join(scratch, 'second-'));
  const wb = await launch({
    workspace: { folders: [join(repoRoot, 'test', 'e2e', 'workspaces', 'basic'), second] },
    vsix: fixtureExtension('harness-extension'),
    trust: false,
    settings: { 'harnessFixture.probe': 'from-settings' },
    env: { MCP_E2E_PROBE: 'from-env' },
  });
  workbench = wb;
  try {
    const report = await wb.outputChannelText('Fixture Log', { contains: 'probe=' });
    assert.match(report, /probe=from-env trusted=false folders=basic,second-\w+ setting=from-settings/);

    await wb.openView('Harness Fixture');
    await wb.waitForTreeItem('item 0', { view: 'Items' });
    const items = await wb.treeItems({ view: 'Items' });
    assert.equal(items.length, 150, 'every row, read by scrolling the virtualised list');
    assert.deepEqual(items[149], { label: 'item 149', description: '', level: 1, expanded: undefined });
    assert.deepEqual(items[3], { label: 'item 3', description: 'has children', level: 1, expanded: false });

    await wb.expandTreeItem('item 3', { view: 'Items' });
    const expanded = await wb.treeItems({ view: 'Items' });
    assert.deepEqual(expanded.slice(3, 6).map((i) => [i.label, i.level]), [['item 3', 1], ['child a', 2], ['child b', 2]]);
    assert.deepEqual((await wb.treeItems({ view: 'Other' })).map((i) => i.label), ['other row']);

    await wb.runCommand('Harness Fixture: Notify');
    const toast = 'Hello from the harness fixture';
    let toasts: string[] = [];
    for (const end = Date.now() + 10_000; !toasts.includes(toast) && Date.now() < end; ) toasts = await wb.notifications();
    assert.ok(toasts.includes(toast), `toasts: ${JSON.stringify(toasts)}`);

    const plain = await wb.outputChannelText('Fixture Plain', { contains: 'plain line 299' });
    assert.equal(plain.trimEnd().split('\n').length, 300, 'the whole channel, not only the visible lines');
    assert.match(await wb.outputChannelText('Fixture Log', { contains: 'notify ran' }), /\[info\] notify ran/);
    await wb.screenshot('harness-fixture');
  } finally {
    await wb.close();
  }
  assert.deepEqual(wb.leftoverProcesses(), []);
});
