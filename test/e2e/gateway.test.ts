// End-to-end: "Share with VS Code Chat" in a real VS Code (code-server 1.139). The demo's notes
// server is shared from MCP Host's command; VS Code's own MCP support ("MCP: List Servers") lists
// it from MCP Host's provider; starting it there connects through the gateway: MCP Host's
// channel shows the gateway frames marked with VS Code's client name, and no second notes
// process runs (the pid is the one MCP Host started). Un-sharing removes the definition.
// Screenshots: test-results/screenshots/gateway-*.png. Needs `node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultVsixPath, launch, repoRoot, step as runStep, waitUntil, type Workbench } from './harness';
import { allowServers } from './treeRows';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const skip = existsSync(VSIX) ? false : `${VSIX} is missing; run \`node scripts/package.mjs\``;
const CHANNEL = 'MCP: notes';
const NOTES_SERVER = join(repoRoot, 'demo', 'servers', 'notes-server.mjs');

describe('Share with VS Code Chat', { skip, timeout: 400_000 }, () => {
  let wb: Workbench;
  let workspace: string;

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `gateway-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  const notesPids = () => wb.leftoverProcesses().filter((p) => p.cmdline.includes('notes-server.mjs')).map((p) => p.pid);
  const quickRows = () => wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'mcp-host-gateway-'));
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { notes: { type: 'stdio', command: 'node', args: [NOTES_SERVER], env: { NOTES_FILE: '${workspaceFolder}/notes.json' } } } }, null, 2));
    wb = await launch({
      workspace,
      vsix: VSIX,
      // VS Code's MCP support without Copilot: AI features on, and its own copy of the workspace's servers never started by a chat request.
      settings: { 'chat.disableAIFeatures': false, 'chat.mcp.autostart': 'never', 'chat.mcp.access': 'all' },
      timeoutMs: 300_000,
    });
  });

  after(async () => {
    await wb?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  test('share, list and start in VS Code, one server process, un-share', async () => {
    let pid: number | undefined;
    await step('start', async () => {
      await wb.openView('MCP Host');
      await wb.waitForTreeItem('notes', { timeoutMs: 30_000 });
      await allowServers(wb, 1);
      await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
      pid = await waitUntil(async () => notesPids()[0], 10_000, 'the notes server process');
      await wb.setLogLevel(CHANNEL, 'Trace');
    });

    await step('share', async () => {
      await wb.runCommandAndPick('MCP Host: Share with VS Code Chat (On/Off)', 'notes');
      await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'notes' && /shared with chat/.test(i.description)), 10_000, 'the row to say "shared with chat"');
      await wb.screenshot('gateway-shared-tree');
    });

    await step('listed by VS Code', async () => {
      await wb.runCommand('MCP: List Servers');
      await waitUntil(async () => (await quickRows().filter({ hasText: 'MCP Host' }).count()) > 0, 30_000, "MCP Host's definition in MCP: List Servers");
      await wb.screenshot('gateway-list-servers');
      await quickRows().filter({ hasText: 'MCP Host' }).first().click();
      // VS Code 1.139 lists a provider's server as Disabled until the user enables it.
      const enable = quickRows().filter({ hasText: /^\s*Enable Server/ }).first();
      if (await enable.isVisible({ timeout: 5_000 }).catch(() => false)) {
        await enable.click();
        // The palette closes and VS Code redraws its list; open it again once it is gone.
        await waitUntil(async () => !(await wb.page.locator('.quick-input-widget').isVisible()), 10_000, 'the quick pick to close');
        await wb.runCommand('MCP: List Servers');
        await waitUntil(async () => (await quickRows().filter({ hasText: 'MCP Host' }).count()) > 0, 30_000, "MCP Host's definition in MCP: List Servers");
        await quickRows().filter({ hasText: 'MCP Host' }).first().click();
      }
      await wb.pickQuickItem('Start Server');
    });

    await step('started through the gateway', async () => {
      const text = await wb.outputChannelText(CHANNEL, { contains: /\[gateway: .+ → MCP Host\].*"method":"tools\/list"/, timeoutMs: 60_000, reveal: false });
      assert.match(text, /gateway: .+ connected \(session/);
      assert.match(text, /\[gateway: MCP Host → .+\].*"result"/);
      assert.deepEqual(notesPids(), [pid], 'no second notes process: VS Code uses MCP Host\'s');
      await wb.showOutputChannel(CHANNEL);
      await wb.screenshot('gateway-trace');
      assert.ok(!/x-mcp-host-gateway-secret":/.test(text) && !/gateway-secret: \S{20,}/.test(text), 'the secret is not logged');
    });

    await step('un-share', async () => {
      // The trace left the focus in the read-only Output editor: back to the view first.
      await wb.page.keyboard.press('Escape');
      await wb.openView('MCP Host');
      await wb.runCommandAndPick('MCP Host: Share with VS Code Chat (On/Off)', 'notes');
      await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'notes' && !/shared with chat/.test(i.description)), 10_000, 'the row no longer shared');
      // An open list is a snapshot: VS Code may learn of the change after it opened, so each look
      // opens the list anew until MCP Host's entry is gone.
      await waitUntil(
        async () => {
          if (await wb.page.locator('.quick-input-widget .quick-input-box input').isVisible()) await wb.page.keyboard.press('Escape');
          await wb.runCommand('MCP: List Servers');
          await waitUntil(async () => (await quickRows().count()) > 0, 20_000, 'the list of servers');
          return (await quickRows().filter({ hasText: 'MCP Host' }).count()) === 0;
        },
        90_000,
        "MCP Host's definition to be gone",
      );
      await wb.screenshot('gateway-unshared-list');
      await wb.page.keyboard.press('Escape');
      assert.deepEqual(notesPids(), [pid]);
    });
  });
});
