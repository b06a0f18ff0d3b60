// End-to-end: a gateway client that declared no elicitation gets MCP Host's own dialog. In a real
// VS Code (code-server 1.139), server-everything is shared; "Copy Gateway Entry for Another MCP
// Client" puts its gateway URL and secret header on the clipboard; a separate process on the
// official SDK 1.x (test/fixtures/clients/sdkGatewayClient.mjs, capabilities {}) calls
// trigger-elicitation-request through the gateway; MCP Host's elicitation form appears in VS Code,
// is answered, and that answer completes the other process's call.
// Screenshots: test-results/screenshots/gateway-dialog-*.png. Needs `node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { defaultVsixPath, launch, repoRoot, step as runStep, waitUntil, type Workbench } from './harness';
import { allowServers } from './treeRows';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const skip = existsSync(VSIX) ? false : `${VSIX} is missing; run \`node scripts/package.mjs\``;
const EVERYTHING = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const CLIENT = join(repoRoot, 'test', 'fixtures', 'clients', 'sdkGatewayClient.mjs');
const CHANNEL = 'MCP: everything';

describe('a gateway client without elicitation gets MCP Host\'s dialog', { skip, timeout: 400_000 }, () => {
  let wb: Workbench;
  let workspace: string;

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `gateway-dialog-failed-${name}`, fn);
  }

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'mcp-host-gateway-dialog-'));
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { everything: { type: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'] } } }, null, 2));
    wb = await launch({
      workspace,
      vsix: VSIX,
      // Shared from the start; VS Code's own copy of the workspace's server is never started.
      settings: { 'mcpHost.shareWithChat': ['everything'], 'chat.mcp.autostart': 'never' },
      timeoutMs: 300_000,
    });
  });

  after(async () => {
    await wb?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  test('the other process\'s call waits on MCP Host\'s form and completes with its answer', async () => {
    await step('start', async () => {
      await wb.openView('MCP Host');
      await wb.waitForTreeItem('everything', { timeoutMs: 30_000 });
      await allowServers(wb, 1);
      await wb.waitForTreeItem('Tools', { timeoutMs: 60_000 });
      await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'everything' && /shared with chat/.test(i.description)), 20_000, 'the row to say "shared with chat"');
    });

    let entry: { url: string; headers: Record<string, string> } | undefined;
    await step('copy the gateway entry', async () => {
      const origin = new URL(wb.page.url()).origin;
      await wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      await wb.runCommand('MCP Host: Copy Gateway Entry for Another MCP Client');
      // The palette asks which shared server (even for one): wait for that question, however late it comes.
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await waitUntil(async () => (await input.isVisible()) && ((await input.getAttribute('placeholder')) ?? '').startsWith('Copy the gateway entry'), 30_000, 'the quick pick of shared servers');
      await wb.pickQuickItem('everything');
      const copied = await waitUntil(
        async () => {
          const text = await wb.page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
          return text.includes('mcpServers') ? text : undefined;
        },
        20_000,
        'the gateway entry on the clipboard',
      );
      entry = JSON.parse(copied).mcpServers.everything;
      assert.match(entry!.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/everything$/);
      assert.ok(entry!.headers['x-mcp-host-gateway-secret']);
    });

    let client: ReturnType<typeof spawn> | undefined;
    let output = '';
    let exited: Promise<number | null> | undefined;
    await step('the other process calls a tool that elicits', async () => {
      client = spawn(process.execPath, [CLIENT, entry!.url, JSON.stringify(entry!.headers), 'trigger-elicitation-request', '{}'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      client.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
      client.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
      exited = new Promise((resolve) => client!.once('exit', (code) => resolve(code)));
    });

    await step('MCP Host\'s form appears in VS Code and is answered', async () => {
      const form: Frame = await waitUntil(async () => (await wb.webviewFrames('asks you for information'))[0], 60_000, "MCP Host's elicitation form");
      assert.match(await form.locator('.server-message').innerText(), /Please provide inputs for the following fields/);
      assert.equal(client!.exitCode, null, 'the other process is still waiting on its call');
      await form.locator('.field[data-path="/name"] input, .field[data-path="/name"] textarea').first().fill('Grace Hopper');
      await waitUntil(async () => (await form.locator('.field.invalid').count()) === 0, 10_000, 'a valid form');
      await wb.screenshot('gateway-dialog-form');
      await form.locator('#accept').click();
    });

    await step('the other process\'s call completes with the answer', async () => {
      // The bound's timer is cleared once the call ends: left running, it held the test file open
      // for a minute after its last test.
      let bound: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited!, new Promise<'timeout'>((resolve) => (bound = setTimeout(() => resolve('timeout'), 60_000)))]).finally(() => clearTimeout(bound));
      assert.equal(code, 0, `the SDK client process: ${output}`);
      const line = JSON.parse(output.trim().split('\n').at(-1)!);
      const text = (line.result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
      assert.match(text, /User provided the requested information/);
      assert.match(text, /Name: Grace Hopper/);
      // MCP Host's trace marks the call as coming from that process through the gateway.
      await wb.setLogLevel(CHANNEL, 'Trace');
      const log = await wb.outputChannelText(CHANNEL, { contains: /separate-sdk-client connected/, timeoutMs: 20_000 });
      assert.match(log, /gateway: separate-sdk-client connected \(session/);
      await wb.showOutputChannel(CHANNEL);
      await wb.screenshot('gateway-dialog-done');
    });
  });
});
