// Smoke test in a real VS Code: the packaged VSIX installs into code-server, its view container
// opens, its tree renders, and nothing is left running afterwards.
// Needs `node scripts/package.mjs` first (scripts/test.mjs does it) and installs code-server
// into the cache folder when it is missing (a few minutes, once).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { codeServerProcesses, defaultVsixPath, installCodeServer, launch, repoRoot, type Workbench } from './harness';

const WORKSPACE = join(repoRoot, 'test', 'e2e', 'workspaces', 'basic');
/** The top-level rows the "MCP Host" tree shows for WORKSPACE: its one configured server. */
const EXPECTED_TREE_ITEMS = ['everything'];
/** MCP_HOST_VSIX tries a VSIX built elsewhere. */
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;

let workbench: Workbench | undefined;
after(() => workbench?.close());

test('code-server installs (cached after the first run)', { timeout: 15 * 60_000 }, async () => {
  const install = await installCodeServer();
  assert.ok(existsSync(install.entry), install.entry);
});

test('the MCP Host view renders its tree in a real VS Code', { timeout: 180_000 }, async () => {
  assert.ok(existsSync(VSIX), `${VSIX} is missing; run \`node scripts/package.mjs\``);
  const wb = await launch({ workspace: WORKSPACE, vsix: VSIX });
  workbench = wb;
  let serverPids: number[] = [];
  try {
    serverPids = wb.leftoverProcesses().map((p) => p.pid);
    assert.ok(serverPids.length > 0, 'code-server runs while the workbench is open');

    await wb.openView('MCP Host');
    // On timeout the error lists the rows shown and any activation error.
    await wb.waitForTreeItem(EXPECTED_TREE_ITEMS[0], { timeoutMs: 30_000 });
    assert.deepEqual(wb.activationErrors(), [], 'no extension failed to activate');
    const items = await wb.treeItems();
    assert.deepEqual(
      items.filter((i) => i.level === 1).map((i) => i.label),
      EXPECTED_TREE_ITEMS,
    );

    // A server defined in the workspace asks for consent before it starts.
    const consent = await wb.dialog({ timeoutMs: 20_000 });
    assert.ok(consent, 'a consent dialog for the workspace server');
    assert.match(consent.message, /"everything"/);
    await wb.answerDialog('Allow');
    await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
    assert.ok(
      wb.leftoverProcesses().some((p) => p.cmdline.includes('server-everything')),
      'the MCP server runs as a process of the launch',
    );
    await wb.screenshot('smoke-mcp-host-view');
  } finally {
    await wb.close();
  }
  // The MCP server is a grandchild of code-server; close() must take it along.
  assert.deepEqual(wb.leftoverProcesses(), [], 'no process of the launch outlives close()');
  const ours = codeServerProcesses().filter((p) => serverPids.includes(p.pid) || p.cmdline.includes(wb.userDataDir));
  assert.deepEqual(ours, [], 'no code-server process is left');
});
