// End-to-end, two servers of test/fixtures/servers/http/hostileAuth.mjs that a sign-in cannot
// simply satisfy. "elsewhere" (--page-elsewhere): its authorization server puts the sign-in page
// on another host:port than its issuer (issuer http://127.0.0.1:P, page http://localhost:Q); the
// prompt must name the host the browser will open and warn; the user cancels and nothing opens.
// "apikey" (--api-key): a 401 without any OAuth metadata; its row offers Set Token, which puts
// `Authorization: Bearer ${input:apikey-token}` in the entry and the key in secret storage, and
// the server then runs. Screenshots: test-results/screenshots/signin-elsewhere-prompt.png,
// signin-apikey-row.png, signin-apikey-running.png.
// Needs `npx tsc -p . && node esbuild.mjs && node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HttpPeer, startFixture } from '../transport/httpPeers';
import { defaultVsixPath, launch, step as runStep, type Workbench, waitUntil } from './harness';
import { allowServers } from './treeRows';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const skip = existsSync(VSIX) ? false : `${VSIX} is missing; run \`node scripts/package.mjs\``;

describe('the sign-in prompt names the host the browser opens', { skip, timeout: 300_000 }, () => {
  let wb: Workbench;
  let server: HttpPeer;
  let apiKeyServer: HttpPeer;
  let workspace: string;
  const API_KEY = 'e2e-api-key-5c1e9a77';

  before(async () => {
    [server, apiKeyServer] = await Promise.all([startFixture('hostileAuth.mjs', ['--page-elsewhere', '--lifetime', '280']), startFixture('hostileAuth.mjs', ['--api-key', API_KEY, '--lifetime', '280'])]);
    workspace = mkdtempSync(join(tmpdir(), 'mcp-host-signin-elsewhere-'));
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { elsewhere: { type: 'http', url: server.url }, apikey: { type: 'http', url: apiKeyServer.url } } }, null, 2));
    wb = await launch({ workspace, vsix: VSIX, timeoutMs: 150_000, viewport: { width: 1400, height: 900 } });
  });

  after(async () => {
    if (wb) {
      await wb.close();
      assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
    }
    await Promise.all([server, apiKeyServer].filter(Boolean).map((p) => p.close()));
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  test('another host:port than the issuer: the prompt names it and warns; Cancel opens nothing', { timeout: 200_000 }, async () => {
    await runStep(wb, 'signin-elsewhere-failed', async () => {
      await wb.openView('MCP Host');
      await wb.waitForTreeItem('elsewhere', { timeoutMs: 30_000 });
      await allowServers(wb, 2);
      await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'elsewhere' && /^sign in required/.test(i.description)), 60_000, 'the row to say sign in required');
      await wb.clickTreeItem('elsewhere');
      const ask = await wb.dialog({ timeoutMs: 30_000 });
      assert.ok(ask, 'the sign-in prompt');
      const port = new URL(server.url).port;
      const page = /^Sign in to "elsewhere" at (localhost:\d+)\?$/.exec(ask.message);
      assert.ok(page, ask.message);
      assert.notEqual(page[1], `localhost:${port}`);
      assert.match(ask.detail, new RegExp(`Your browser opens http://${page[1]}/authorize to sign in for`));
      assert.match(ask.detail, new RegExp(`The sign-in page is on http://${page[1]}, not on the authorization server http://127\\.0\\.0\\.1:${port} nor on the MCP server http://127\\.0\\.0\\.1:${port}\\.`));
      await wb.screenshot('signin-elsewhere-prompt');
      await wb.answerDialog(ask.buttons.find((b) => /cancel/i.test(b)) ?? 'Cancel');
      assert.equal(wb.page.context().pages().length, 1, 'no browser tab opened');
      const stats = (await (await fetch(new URL('/control/stats', server.url))).json()) as { authorizations: unknown[] };
      assert.equal(stats.authorizations.length, 0);
    }, async () => void (await wb.page.keyboard.press('Escape')));
  });

  test('an API-key server: its row offers Set Token, which writes an ${input:…} header and keeps the key in secret storage; the server runs', { timeout: 200_000 }, async () => {
    await runStep(wb, 'signin-apikey-failed', async () => {
      await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'apikey' && /^sign in required/.test(i.description)), 60_000, 'the apikey row to say sign in required');
      // The first row keeps the focus from the prompt: the pointer leaves it before hovering this one.
      await wb.page.mouse.move(700, 700);
      const row = await wb.hoverTreeItem('apikey');
      const action = row.locator('.actions .action-label[aria-label="Set Token"]');
      assert.equal(await action.count(), 1, 'the inline Set Token action');
      await wb.screenshot('signin-apikey-row');
      // The row carries the action (above); a hover-only button is a flaky target for a pointer in
      // a loaded browser, so the same command runs from the palette, as a keyboard user would.
      await wb.page.keyboard.press('Escape');
      await wb.runCommandAndPick('MCP Host: Set Token', 'apikey');
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 20_000 });
      // The same quick input turns from the server pick into the token box: wait for the change.
      await waitUntil(async () => (await input.getAttribute('type')) === 'password', 20_000, 'the token box (a password input)');
      await input.fill(API_KEY);
      await wb.page.keyboard.press('Enter');
      // The edited entry is a changed entry: consent is asked again, naming the header by its variable.
      const consent = await wb.dialog({ timeoutMs: 30_000 });
      assert.ok(consent, 'consent for the changed entry');
      assert.ok(!`${consent.message}\n${consent.detail}`.includes(API_KEY), 'the key is not shown');
      await wb.answerDialog('Allow');
      await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'apikey' && /^hostile-auth 1\.0\.0/.test(i.description)), 60_000, 'the apikey row to run');
      await wb.screenshot('signin-apikey-running');
      const written = readFileSync(join(workspace, '.vscode', 'mcp.json'), 'utf8');
      assert.ok(!written.includes(API_KEY), 'the key is not in the file');
      const config = JSON.parse(written) as { servers: { apikey: { headers: Record<string, string> } }; inputs: Array<{ id: string; password?: boolean }> };
      assert.equal(config.servers.apikey.headers.Authorization, 'Bearer ${input:apikey-token}');
      assert.deepEqual(config.inputs.map((i) => [i.id, i.password]), [['apikey-token', true]]);
    }, async () => void (await wb.page.keyboard.press('Escape')));
  });
});
