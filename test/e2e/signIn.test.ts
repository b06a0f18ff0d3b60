// End-to-end: signing in to protected remote servers in a real VS Code (code-server). The test
// starts two fixture authorization servers with their protected MCP servers
// (test/fixtures/servers/http/authServer.mjs, which approve without a login page) on free ports of
// 127.0.0.1 and writes .vscode/mcp.json: "protected" signs in with dynamic client registration,
// "partner" with a pre-registered confidential client whose secret comes from a password input.
// After consent each row says "sign in required"; a click asks (naming the authorization server),
// the browser tab VS Code opens reaches the fixture's authorize endpoint, the redirect comes back
// to the loopback listener, and the tools appear. Server Details show the sign-in; Sign Out asks
// again. Finally every log and trace of the run is searched for the tokens the fixtures issued
// and for the client secret. Screenshots: test-results/screenshots/signin-*.png.
// Needs `npx tsc -p . && node esbuild.mjs && node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Locator, Request } from 'playwright-core';
import { freePort, HttpPeer, startFixture } from '../transport/httpPeers';
import { channelLogFileName, defaultVsixPath, filesUnder, launch, poll, step as runStep, type Workbench, waitUntil } from './harness';
import { allowServers } from './treeRows';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const skip = existsSync(VSIX) ? false : `${VSIX} is missing; run \`node scripts/package.mjs\``;
const CLIENT_SECRET = 'e2e-partner-client-secret-7d1f3a';

describe('sign-in to protected remote servers in a real VS Code', { skip, timeout: 400_000 }, () => {
  let wb: Workbench;
  let protectedServer: HttpPeer;
  let partner: HttpPeer;
  let workspace: string;

  const step = (name: string, fn: () => Promise<void>) => runStep(wb, `signin-failed-${name}`, fn, async () => void (await wb.page.keyboard.press('Escape')));

  /** Waits until the row of `name` describes itself with `pattern`. */
  const rowSays = (name: string, pattern: RegExp, timeoutMs = 60_000) =>
    waitUntil(async () => (await wb.treeItems()).find((i) => i.label === name && pattern.test(i.description)), timeoutMs, `the "${name}" row to say ${pattern}`);

  /**
   * Watches for the browser tab VS Code opens on the authorization page, from before "Sign In"
   * is clicked (a pre-registered client opens it at once). code-server opens a 127.0.0.1 URL
   * through its port proxy (/proxy/<port>/…), so the request is recognised by its path and its
   * `resource`. `opened()` answers VS Code's "open external website?" if asked and resolves with
   * the URL the tab requested.
   */
  function watchAuthorize(server: HttpPeer): { opened(): Promise<URL> } {
    const context = wb.page.context();
    const port = new URL(server.url).port;
    let requested: URL | undefined;
    const onRequest = (r: Request) => {
      const url = new URL(r.url());
      const direct = url.port === port && url.pathname === '/authorize';
      const proxied = url.pathname === `/proxy/${port}/authorize`;
      if ((direct || proxied) && url.searchParams.get('resource') === server.url) requested = url;
    };
    context.on('request', onRequest);
    return {
      async opened() {
        try {
          await poll(
            async () => {
              const ask = requested ? undefined : await wb.dialog();
              if (ask) await wb.answerDialog(ask.buttons.find((b) => /^open$/i.test(b)) ?? ask.buttons[0]);
              return requested !== undefined;
            },
            { timeoutMs: 30_000, what: 'the browser tab to request the authorization page' },
          );
        } finally {
          context.off('request', onRequest);
        }
        return requested!;
      },
    };
  }

  /** The Sign-in section of the Server Details panel of `name`, once it is drawn. */
  function signInSection(name: string): Promise<Locator> {
    return waitUntil(
      async () => {
        const frame = (await wb.webviewFrames(name))[0];
        const section = frame?.locator('#sign-in-section');
        return section && (await section.count()) ? section : undefined;
      },
      30_000,
      `the sign-in section of the Server Details of ${name}`,
    );
  }

  /** Closes the sign-in tabs and brings the workbench to the front (a background page does not draw its webviews). */
  async function closeOtherTabs(): Promise<void> {
    for (const page of wb.page.context().pages()) if (page !== wb.page) await page.close().catch(() => undefined);
    await wb.page.bringToFront();
  }

  before(async () => {
    const callbackPort = await freePort();
    [protectedServer, partner] = await Promise.all([
      startFixture('authServer.mjs'),
      startFixture('authServer.mjs', ['--client', `partner-app:${CLIENT_SECRET}:http://127.0.0.1:${callbackPort}/callback`]),
    ]);
    workspace = mkdtempSync(join(tmpdir(), 'mcp-host-signin-'));
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(
      join(workspace, '.vscode', 'mcp.json'),
      JSON.stringify(
        {
          inputs: [{ id: 'partner-secret', type: 'promptString', description: 'Partner client secret', password: true }],
          servers: {
            protected: { type: 'http', url: protectedServer.url },
            partner: { type: 'http', url: partner.url, oauth: { clientId: 'partner-app', clientSecret: '${input:partner-secret}', callbackPort } },
          },
        },
        null,
        2,
      ),
    );
    wb = await launch({ workspace, vsix: VSIX, timeoutMs: 150_000, viewport: { width: 1400, height: 900 } });
  });

  after(async () => {
    if (wb) {
      await closeOtherTabs();
      await wb.close();
      assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
    }
    await Promise.all([protectedServer, partner].filter(Boolean).map((p) => p.close()));
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  test('consent, then each row says sign in is required; nothing opened a browser', { timeout: 120_000 }, async () => {
    await step('consent', async () => {
      await wb.openView('MCP Host');
      await wb.waitForTreeItem('protected', { timeoutMs: 30_000 });
      const asked = await allowServers(wb, 2);
      const shown = asked.map((a) => `${a.message}\n${a.detail}`).join('\n');
      for (const name of ['protected', 'partner']) assert.match(shown, new RegExp(`"?${name}"?`), `consent names ${name}`);
      // The partner's client secret, asked once and kept in secret storage.
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal(await input.getAttribute('type'), 'password');
      await input.fill(CLIENT_SECRET);
      await wb.page.keyboard.press('Enter');
      await rowSays('protected', /^sign in required/);
      await rowSays('partner', /^sign in required/);
      assert.equal(wb.page.context().pages().length, 1, 'no browser tab opened without a click');
      const stats = (await (await fetch(new URL('/control/stats', protectedServer.url))).json()) as { registrations: number; authorizations: unknown[] };
      assert.equal(stats.authorizations.length, 0, 'no authorization was started');
      const row = await wb.hoverTreeItem('protected');
      assert.equal(await row.locator('.actions .action-label[aria-label="Sign In"]').count(), 1, 'the inline Sign In action');
      await wb.screenshot('signin-row');
      // Server Details before signing in say so. (Opening a webview before the first sign-in tab
      // also matters to code-server: a first webview created after a tab on its own origin went
      // through its port proxy stays empty.)
      await wb.runCommandAndPick('MCP Host: Show Server Details', 'partner');
      const before = await signInSection('partner');
      assert.match(await before.innerText(), /State\s+sign in required/);
      assert.ok((await before.innerText()).includes(new URL(partner.url).origin), 'the authorization server is named');
      await wb.runCommand('View: Close All Editors');
    });
  });

  test('Cancel on the sign-in notification while the page never comes back: no error, nothing kept, the row still asks', { timeout: 120_000 }, async () => {
    await step('sign-in-cancel', async () => {
      const context = wb.page.context();
      // The authorization page never loads: the user waits in vain, then cancels.
      const neverLoads = (url: URL) => url.pathname.endsWith('/authorize');
      await context.route(neverLoads, (route) => route.abort());
      try {
        await wb.clickTreeItem('protected');
        assert.ok(await wb.dialog({ timeoutMs: 30_000 }), 'the sign-in prompt');
        const tab = watchAuthorize(protectedServer);
        await wb.answerDialog('Sign In');
        const redirect = new URL((await tab.opened()).searchParams.get('redirect_uri')!);
        const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'signing in to "protected"' });
        await toast.first().waitFor({ timeout: 20_000 });
        await wb.screenshot('signin-waiting');
        await wb.answerNotification('signing in to "protected"', 'Cancel');
        await toast.first().waitFor({ state: 'detached', timeout: 20_000 });
        await wb.outputChannelText('MCP: protected', { contains: 'cancelled by the user before the browser came back; nothing stored', reveal: false });
        await rowSays('protected', /^sign in required/, 20_000);
        const listenerPort = /^\/proxy\/(\d+)\//.exec(redirect.pathname)?.[1] ?? redirect.port;
        await assert.rejects(fetch(`http://127.0.0.1:${listenerPort}/callback`), 'the loopback listener is closed');
        assert.deepEqual((await wb.notifications()).filter((n) => /error|failed|stopped/i.test(n)), [], 'a cancel is not an error');
      } finally {
        await context.unroute(neverLoads);
        await closeOtherTabs();
      }
    });
  });

  test('a click on the row asks, naming the authorization server; the browser signs in; the tools appear', { timeout: 150_000 }, async () => {
    await step('sign-in', async () => {
      await wb.setLogLevel('MCP: protected', 'Trace');
      const issuerHost = new URL(protectedServer.url).host;
      await wb.clickTreeItem('protected');
      const ask = await wb.dialog({ timeoutMs: 30_000 });
      assert.ok(ask, 'the sign-in prompt');
      assert.equal(ask.message, `Sign in to "protected" at ${issuerHost}?`);
      assert.match(ask.detail, new RegExp(`Your browser opens http://${issuerHost.replace(/\./g, '\\.')}/authorize to sign in for ${protectedServer.url.replace(/[./]/g, '\\$&')}`));
      assert.match(ask.detail, /scopes\): mcp offline_access|scopes\): mcp/);
      assert.doesNotMatch(ask.detail, /The sign-in page is on/, 'same origin: no warning');
      await wb.screenshot('signin-prompt');
      const tab = watchAuthorize(protectedServer);
      await wb.answerDialog('Sign In');
      const authorize = await tab.opened();
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorize.searchParams.get('resource'), protectedServer.url);
      const redirect = new URL(authorize.searchParams.get('redirect_uri')!);
      await rowSays('protected', /^auth-fixture 1\.0\.0/, 60_000);
      await closeOtherTabs();
      await wb.expandTreeItem('protected');
      await wb.waitForTreeItem('Tools', { timeoutMs: 20_000 });
      await wb.expandTreeItem('Tools');
      await wb.waitForTreeItem('echo', { timeoutMs: 20_000 });
      await wb.screenshot('signin-signed-in');
      const log = await wb.outputChannelText('MCP: protected', { contains: 'token obtained', reveal: false });
      assert.match(log, /protected resource metadata from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp/);
      assert.match(log, /authorization server metadata from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server/);
      assert.match(log, /client: dynamically registered/);
      assert.match(log, /scopes: mcp/);
      assert.match(log, /token obtained from/);
      // The redirect listener (reached directly, or through code-server's port proxy) is closed after its one use.
      const listenerPort = /^\/proxy\/(\d+)\//.exec(redirect.pathname)?.[1] ?? redirect.port;
      await assert.rejects(fetch(`http://127.0.0.1:${listenerPort}/callback`), 'the loopback listener is closed');
    });
  });

  test('Server Details show the sign-in: issuer, scopes, expiry, refresh, registration', { timeout: 60_000 }, async () => {
    await step('details', async () => {
      // A click on a running server's row only opens or closes it: details come from the command.
      await wb.runCommandAndPick('MCP Host: Show Server Details', 'protected');
      const section = await signInSection('protected');
      const text = await section.innerText();
      assert.match(text, /signed in/);
      assert.ok(text.includes(new URL(protectedServer.url).origin), text);
      assert.match(text, /Granted scopes\s+mcp/);
      assert.match(text, /Access token expires\s+in \d+ min/);
      assert.match(text, /Refresh\s+automatic, shortly before it expires/);
      assert.match(text, /dynamic client registration \(RFC 7591\)/);
      await section.scrollIntoViewIfNeeded();
      await wb.screenshot('signin-details');
      await wb.runCommand('View: Close All Editors');
    });
  });

  test('the pre-registered client signs in from the command palette with its secret', { timeout: 120_000 }, async () => {
    await step('partner', async () => {
      await wb.runCommandAndPick('MCP Host: Sign In', 'partner');
      const ask = await wb.dialog({ timeoutMs: 30_000 });
      assert.ok(ask);
      assert.match(ask.message, /Sign in to "partner"/);
      const tab = watchAuthorize(partner);
      await wb.answerDialog('Sign In');
      const authorize = await tab.opened();
      assert.equal(authorize.searchParams.get('client_id'), 'partner-app');
      await rowSays('partner', /^auth-fixture 1\.0\.0/, 60_000);
      await closeOtherTabs();
      const stats = (await (await fetch(new URL('/control/stats', partner.url))).json()) as { registrations: number; lastTokenAuth: string };
      assert.equal(stats.registrations, 0, 'no dynamic registration');
      assert.equal(stats.lastTokenAuth, 'body', 'client_secret_post, as the server lists');
      assert.match(await wb.outputChannelText('MCP: partner', { contains: 'token obtained', reveal: false }), /client: pre-registered/);
    });
  });

  test('Sign Out deletes the tokens and stops the server; the row asks again', { timeout: 90_000 }, async () => {
    await step('sign-out', async () => {
      const page = wb.page;
      const row = page.locator('.part.sidebar .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^protected$/ }) }).first();
      await row.click({ button: 'right' });
      const item = page.locator('.context-view .monaco-menu').getByRole('menuitem', { name: 'Sign Out', exact: true });
      await item.hover();
      await poll(async () => item.evaluate((el) => el === document.activeElement || el.contains(document.activeElement) || (el.getRootNode() as ShadowRoot).activeElement === el), { timeoutMs: 5_000, what: 'the menu item to take the focus' });
      await page.keyboard.press('Enter');
      await rowSays('protected', /^sign in required/);
      assert.match(await wb.outputChannelText('MCP: protected', { contains: 'signed out', reveal: false }), /signed out: the stored tokens and client registration of this server were deleted/);
      await rowSays('partner', /^auth-fixture 1\.0\.0/, 5_000);
      const hovered = await wb.hoverTreeItem('protected');
      assert.equal(await hovered.locator('.actions .action-label[aria-label="Sign In"]').count(), 1, 'Sign In again');
      await wb.screenshot('signin-signed-out');
    });
  });

  test('no log, trace or output channel holds a token or the client secret', { timeout: 60_000 }, async () => {
    await step('grep', async () => {
      const secrets: string[] = [CLIENT_SECRET];
      for (const peer of [protectedServer, partner]) {
        const issued = (await (await fetch(new URL('/control/secrets', peer.url))).json()) as { tokens: string[]; clientSecrets: string[] };
        secrets.push(...issued.tokens, ...issued.clientSecrets);
      }
      assert.ok(secrets.length >= 5, `tokens were issued (${secrets.length} secrets to look for)`);
      const trace = await wb.outputChannelText('MCP: protected', { reveal: false });
      assert.match(trace, /Authorization from sign-in/, 'the trace names the header, not its value');
      const files = [...filesUnder(join(wb.userDataDir, 'logs')), (wb as unknown as { serverLogPath?: () => string }).serverLogPath?.()].filter((f): f is string => typeof f === 'string' && existsSync(f));
      for (const channel of ['MCP: protected', 'MCP: partner', 'MCP Host']) assert.ok(files.some((f) => f.endsWith(`${channelLogFileName(channel)}.log`)), `the "${channel}" channel is among the files`);
      assert.ok(files.some((f) => /exthost/i.test(f)), `the extension host log is among the files: ${files.join(', ')}`);
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        for (const secret of secrets) assert.ok(!text.includes(secret), `${file} holds a secret (${secret.slice(0, 3)}…)`);
      }
    });
  });
});
