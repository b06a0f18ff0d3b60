// End-to-end: consent as a person meets it in a real VS Code (code-server).
//   (temp, trusted)   three new workspace servers: one dialog lists them all, with each command or
//                     URL and variables as written (`${env:GITHUB_TOKEN}`, never its value) and the
//                     `oauth` block; Allow Selected… ticks one; the denied rows ask again when clicked.
//   (temp, untrusted) a workspace's settings cannot loosen a safety check: its startPolicy
//                     "onStartup" and confirmDestructiveTools false are ignored in Restricted Mode.
// Screenshots: test-results/screenshots/e2e-consent-*.png. Needs `node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { clickReached, defaultVsixPath, launch, repoRoot, step, waitUntil, type TreeItem, type Workbench } from './harness';
import { childrenOf, waitForTree } from './treeRows';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const TINY = join(repoRoot, 'test', 'e2e', 'workspaces', 'servers', 'tiny.mjs');
const VIEWPORT = { width: 1600, height: 1000 };
const DENIED = 'You denied this server permission to run — click to allow it';
const skip = existsSync(VSIX) ? false : `${VSIX} is missing; run \`node scripts/package.mjs\``;

const running = (items: readonly TreeItem[], name: string) => / · MCP 2025-11-25$/.test(items.find((i) => i.label === name && i.level === 1)?.description ?? '');
const denied = (items: readonly TreeItem[], name: string) => childrenOf(items, name).some((i) => i.label === DENIED);

describe('consent for several new servers, an oauth block and ${env:…} values, a denied row', { skip }, () => {
  const WS = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-consent-'));
  const TOKEN = `ghp_e2e${randomBytes(8).toString('hex')}`;
  let wb: Workbench;

  before(async () => {
    mkdirSync(join(WS, '.vscode'));
    writeFileSync(
      join(WS, '.vscode', 'mcp.json'),
      JSON.stringify(
        {
          servers: {
            // Sandboxed, with a list of hosts: the consent shows the policy as plainly as the command.
            alpha: { command: 'node', args: [TINY, '--name', 'alpha'], sandboxEnabled: true, sandbox: { filesystem: { allowRead: [dirname(TINY)] }, network: { allowedDomains: ['api.github.com'] } } },
            beta: { command: 'node', args: [TINY, '--name', 'beta', '--key', '${env:GITHUB_TOKEN}'] },
            // Nothing listens on port 9: the point is what the consent shows before any connection.
            docs: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Trace': '${env:GITHUB_TOKEN}' }, oauth: { clientId: 'docs-client', clientSecret: '${env:GITHUB_TOKEN}', scopes: ['docs.read'] } },
          },
        },
        null,
        2,
      ),
    );
    wb = await launch({ workspace: WS, vsix: VSIX, viewport: VIEWPORT, env: { GITHUB_TOKEN: TOKEN }, timeoutMs: 150_000 });
  }, { timeout: 160_000 });
  after(async () => {
    await wb?.close();
    rmSync(WS, { recursive: true, force: true });
  });

  test('one dialog lists the three servers with their exact command or URL, variables as written; Allow Selected… allows the ticked one and denies the rest', { timeout: 120_000 }, async () => {
    await step(wb, 'e2e-failed-consent-multi', async () => {
      await wb.openView('MCP Host');
      const dialog = await wb.dialog({ timeoutMs: 30_000 });
      assert.ok(dialog, 'the view starts the servers, and the new workspace servers ask first');
      assert.equal(dialog.message, 'Start 3 MCP servers defined in this workspace?');
      const lines = dialog.detail.split('\n');
      for (const line of [
        `alpha — .vscode/mcp.json (${basename(WS)})`,
        `  Command: node ${TINY} --name alpha`,
        '  Sandboxed (bubblewrap): your home folder is hidden; the workspace is read-only; /tmp is private.',
        '  Network: only api.github.com (through a filtering proxy).',
        `  Also readable: ${dirname(TINY)}.`,
        '  No sandbox: full access to your files and network.',
        `  Command: node ${TINY} --name beta --key '\${env:GITHUB_TOKEN}'`,
        '  URL: http://127.0.0.1:9/mcp',
        '    X-Trace: ${env:GITHUB_TOKEN}',
        '    Client id: docs-client',
        "    Client secret: ${env:GITHUB_TOKEN} (its value is sent to the token endpoint the server's authorization server names)",
        '    Scopes: docs.read',
      ]) {
        assert.ok(lines.includes(line), `${line}\n---\n${dialog.detail}`);
      }
      assert.ok(!dialog.detail.includes(TOKEN), 'the token value is never shown');
      // The platform decides the order (Linux puts the first button last).
      assert.deepEqual(dialog.buttons.filter((b) => b !== 'Cancel').sort(), ['Allow All', 'Allow Selected…', 'Deny All']);
      await wb.screenshot('e2e-consent-multi');
      await wb.answerDialog('Allow Selected…');

      const widget = wb.page.locator('.quick-input-widget');
      const row = (name: string) => widget.locator('.monaco-list-row', { hasText: name }).first();
      await row('alpha').waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await widget.locator('.monaco-list-row').count(), 3);
      await row('alpha').click();
      await wb.screenshot('e2e-consent-choose');
      await widget.locator('.monaco-button', { hasText: /^\s*OK\s*$/ }).click();

      const items = await waitForTree(wb, 'alpha running; beta and docs denied', (rows) => running(rows, 'alpha') && denied(rows, 'beta') && denied(rows, 'docs'), 60_000);
      assert.equal(items.find((i) => i.label === 'beta')?.description, 'blocked · .vscode/mcp.json');
      await wb.screenshot('e2e-consent-denied');
    });
  });

  test("a denied row's click asks consent again (the simple dialog for one server); Allow starts it", { timeout: 90_000 }, async () => {
    await step(wb, 'e2e-failed-consent-allow', async () => {
      await wb.clickTreeItem(DENIED); // beta's, the first denied row
      const dialog = await wb.dialog({ timeoutMs: 20_000 });
      assert.equal(dialog?.message, 'Start the MCP server "beta" defined in this workspace?');
      assert.ok(dialog.detail.includes(`Command: node ${TINY} --name beta --key '\${env:GITHUB_TOKEN}'`), dialog.detail);
      assert.ok(!dialog.detail.includes(TOKEN));
      await wb.answerDialog('Allow');
      await waitForTree(wb, 'beta running', (rows) => running(rows, 'beta'), 60_000);
    });
  });

  test('the consent of a remote server with an oauth block and an ${env:…} header shows both, as written', { timeout: 90_000 }, async () => {
    await step(wb, 'e2e-failed-consent-oauth', async () => {
      await wb.clickTreeItem(DENIED); // docs', the only one left
      const dialog = await wb.dialog({ timeoutMs: 20_000 });
      assert.equal(dialog?.message, 'Start the MCP server "docs" defined in this workspace?');
      const detail = dialog.detail.split('\n');
      assert.deepEqual(detail.slice(detail.indexOf('Headers it sends:'), detail.indexOf('Headers it sends:') + 7), [
        'Headers it sends:',
        '  X-Trace: ${env:GITHUB_TOKEN}',
        'Signs in as the OAuth client:',
        '  Client id: docs-client',
        "  Client secret: ${env:GITHUB_TOKEN} (its value is sent to the token endpoint the server's authorization server names)",
        '  Scopes: docs.read',
        '',
      ]);
      assert.ok(!dialog.detail.includes(TOKEN));
      await wb.screenshot('e2e-consent-oauth');
      await wb.answerDialog('Deny');
      await waitForTree(wb, 'docs denied again', (rows) => denied(rows, 'docs'), 20_000);
    });
  });
});

describe('Restricted Mode: a workspace cannot change the start policy or turn off tool confirmation', { skip }, () => {
  const WS = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-restricted-'));
  let wb: Workbench;

  before(async () => {
    mkdirSync(join(WS, '.vscode'));
    // What a crafted workspace would like: start the user's servers at once, and call tools unasked.
    writeFileSync(join(WS, '.vscode', 'settings.json'), JSON.stringify({ 'mcpHost.startPolicy': 'onStartup', 'mcpHost.confirmDestructiveTools': false }));
    wb = await launch({
      workspace: WS,
      vsix: VSIX,
      trust: false,
      viewport: VIEWPORT,
      settings: { 'mcpHost.servers': { 'user-server': { command: 'node', args: [TINY, '--name', 'user-tiny'] } }, 'mcpHost.startPolicy': 'never' },
      timeoutMs: 150_000,
    });
  }, { timeout: 160_000 });
  after(async () => {
    await wb?.close();
    rmSync(WS, { recursive: true, force: true });
  });

  test("the user's startPolicy \"never\" holds and a tool that may change things is confirmed, whatever the workspace's settings say", { timeout: 120_000 }, async () => {
    await step(wb, 'e2e-failed-restricted-settings', async () => {
      await wb.openView('MCP Host');
      await waitForTree(wb, 'user-server listed, stopped', (rows) => /^stopped · User settings$/.test(rows.find((i) => i.label === 'user-server')?.description ?? ''), 60_000);
      const host = await wb.outputChannelText('MCP Host', { contains: 'activation' });
      assert.doesNotMatch(host, /Starting the configured servers/, 'the workspace\'s "onStartup" is ignored');
      assert.match((await wb.treeItems()).find((i) => i.label === 'user-server')?.description ?? '', /^stopped/);

      await wb.runCommandAndPick('MCP Host: Start Server', 'user-server');
      await waitForTree(wb, 'user-server running', (rows) => running(rows, 'user-server'), 60_000);

      await wb.page.locator('.part.sidebar .composite.title').first().click();
      await wb.runCommand('MCP Host: Call Tool…');
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await waitUntil(async () => !(await input.inputValue()).startsWith('>') && (await input.isEditable()), 10_000, 'the tool pick');
      await input.fill('hello');
      const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
      await waitUntil(async () => (await first.innerText().catch(() => '')).trim() === 'hello', 10_000, '"hello" first in the pick');
      await wb.page.keyboard.press('Enter');
      const frame: Frame = await waitUntil(async () => (await wb.webviewFrames('hello'))[0], 20_000, 'the panel of hello');
      await clickReached(frame.locator('#run'), 'Run');
      const confirm = await wb.dialog({ timeoutMs: 20_000 });
      assert.equal(confirm?.message, 'Run hello on user-server?', 'the workspace\'s confirmDestructiveTools false is ignored');
      await wb.screenshot('e2e-consent-restricted-confirm');
      await wb.answerDialog('Run');
    });
  });
});
