// End-to-end: remote servers in a real VS Code (code-server). The test starts server-everything
// twice on free ports of 127.0.0.1 — in streamableHttp mode for an `http` entry and in sse mode
// for an `sse` entry — and writes a temp workspace whose .vscode/mcp.json points at them. Opening
// the view asks consent for each, showing the URL, the transport and the headers (the literal
// Authorization value masked); both start and fill the tree with host and transport on their
// rows; "MCP: remote" at Trace shows the JSON-RPC frames beside the HTTP events; echo is called
// through the form; no log file ever holds the Authorization value; changing a header asks
// consent again; killing the http server turns its row to "reconnecting…" without any call. Screenshots:
// test-results/screenshots/remote-*.png. Needs `npx tsc -p . && node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { HttpPeer, startEverything } from '../transport/httpPeers';
import { clickReached, channelLogFileName, defaultVsixPath, filesUnder, launch, step as runStep, traceFrames, type Workbench, waitUntil } from './harness';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const skip = existsSync(VSIX) ? false : `${VSIX} is missing; run \`node scripts/package.mjs\``;
const SECRET = 'e2e-literal-bearer-5150';
const CHANNEL = 'MCP: remote';

describe('remote servers in a real VS Code', { skip, timeout: 300_000 }, () => {
  let wb: Workbench;
  let http: HttpPeer;
  let sse: HttpPeer;
  let workspace: string;

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `remote-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  /** Picks `label` in the quick pick that is open (typing first, then Enter on the first row). */
  async function pick(label: string): Promise<void> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await waitUntil(async () => !((await input.inputValue()) || '').startsWith('>') && (await input.isEditable()), 10_000, 'the quick pick');
    await input.fill(label, { timeout: 5_000 });
    const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await waitUntil(async () => ((await first.innerText().catch(() => '')) || '').trim() === label, 10_000, `"${label}" first in the quick pick`);
    await wb.page.keyboard.press('Enter');
  }

  before(async () => {
    [http, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
    workspace = mkdtempSync(join(tmpdir(), 'mcp-host-remote-'));
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(
      join(workspace, '.vscode', 'mcp.json'),
      JSON.stringify(
        {
          servers: {
            remote: { type: 'http', url: http.url, headers: { Authorization: `Bearer ${SECRET}`, 'X-Client': 'mcp-host-e2e' } },
            legacy: { type: 'sse', url: sse.url },
          },
        },
        null,
        2,
      ),
    );
    wb = await launch({ workspace, vsix: VSIX, timeoutMs: 150_000, viewport: { width: 1600, height: 1000 } });
  });

  after(async () => {
    if (wb) {
      await wb.close();
      assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
    }
    await Promise.all([http, sse].filter(Boolean).map((p) => p.close()));
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  test('consent shows the URL, the transport and the headers (secret masked); both start and fill the tree', { timeout: 120_000 }, async () => {
    await step('consent', async () => {
      await wb.openView('MCP Host');
      await wb.waitForTreeItem('remote', { timeoutMs: 30_000 });
      const first = await wb.dialog({ timeoutMs: 30_000 });
      assert.ok(first, 'a consent dialog');
      await wb.screenshot('remote-consent');
      // Both entries start together: one dialog lists them.
      assert.equal(first.message, 'Start 2 MCP servers defined in this workspace?');
      assert.ok(first.detail.includes(`URL: ${http.url}`), first.detail);
      assert.ok(first.detail.includes('Transport: HTTP\n'), first.detail);
      assert.ok(first.detail.includes('Authorization: Bearer ••••'), first.detail);
      assert.ok(first.detail.includes('X-Client: mcp-host-e2e'), first.detail);
      assert.ok(!first.detail.includes(SECRET), 'the literal credential is masked');
      assert.ok(first.detail.includes(`URL: ${sse.url}`) && first.detail.includes('Transport: HTTP+SSE'), first.detail);
      await wb.answerDialog('Allow All');
    });
    await step('tree', async () => {
      const host = new URL(http.url).host;
      const rows = await waitUntil(
        async () => {
          const items = await wb.treeItems();
          const remote = items.find((i) => i.label === 'remote');
          const legacy = items.find((i) => i.label === 'legacy');
          return remote?.description.includes('Streamable HTTP') && legacy?.description.includes('HTTP+SSE') && items;
        },
        60_000,
        'both remote servers running',
      );
      const remote = rows.find((i) => i.label === 'remote')!;
      assert.ok(remote.description.includes(host), remote.description);
      assert.ok(rows.find((i) => i.label === 'legacy')!.description.includes(new URL(sse.url).host));
      await wb.expandTreeItem('remote');
      await wb.waitForTreeItem('Tools', { timeoutMs: 20_000 });
      await wb.screenshot('remote-tree');
    });
  });

  test('echo through the form; the trace shows frames and HTTP events; no log holds the Authorization value', { timeout: 150_000 }, async () => {
    await step('trace', async () => {
      await wb.setLogLevel(CHANNEL, 'Trace');
      await wb.runCommand('MCP Host: Call Tool…');
      await pick('remote');
      await pick('echo');
      const frame = await waitUntil(async () => (await wb.webviewFrames('echo'))[0] as Frame | undefined, 20_000, 'the echo panel');
      const field = frame.locator('.field[data-path="/message"]');
      await field.waitFor({ timeout: 10_000 });
      await field.locator('textarea, input').first().fill('hello over http');
      await waitUntil(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await clickReached(frame.locator('#run'), 'Run');
      const text = frame.locator('.result .part-text pre.text, .result .part-text .markdown');
      await waitUntil(async () => ((await text.first().innerText().catch(() => '')) || '').includes('Echo: hello over http'), 30_000, 'the echo result');
      await wb.screenshot('remote-echo');

      const log = await wb.outputChannelText(CHANNEL, {
        contains: (t) => traceFrames(t).some((f) => f.direction === 'send' && f.message?.method === 'tools/call') && /POST tools\/call \(id \d+\) → 200/.test(t),
        timeoutMs: 30_000,
      });
      await wb.screenshot('remote-trace');
      assert.ok(traceFrames(log).some((f) => f.direction === 'receive' && (JSON.stringify(f.message) ?? '').includes('Echo: hello over http')), 'the response frame');
      assert.match(log, /session started \(initialize\)/);
      assert.match(log, /GET stream opened/);
      assert.ok(!log.includes(SECRET), 'the trace never shows the Authorization value');
      // Every log file of the session (VS Code's own configuration cache holds mcp.json as written: not a log).
      const logs = filesUnder(join(wb.userDataDir, 'logs'));
      assert.ok(logs.some((f) => f.endsWith(`${channelLogFileName(CHANNEL)}.log`)), 'the channel log is among them');
      for (const file of logs) assert.ok(!readFileSync(file, 'utf8').includes(SECRET), `${file} holds the Authorization value`);
    });
  });

  test('a changed header asks consent again, showing the new value', { timeout: 120_000 }, async () => {
    await step('consent-again', async () => {
      await wb.runCommand('View: Hide Panel');
      const file = join(workspace, '.vscode', 'mcp.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"X-Client": "mcp-host-e2e"', '"X-Client": "mcp-host-e2e-v2"'));
      const dialog = await wb.dialog({ timeoutMs: 30_000 });
      assert.ok(dialog, 'consent is asked again for the changed entry');
      assert.match(dialog.message, /"remote"/);
      assert.ok(dialog.detail.includes('X-Client: mcp-host-e2e-v2') && dialog.detail.includes('Authorization: Bearer ••••'), dialog.detail);
      await wb.screenshot('remote-consent-again');
      await wb.answerDialog('Allow');
      await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'remote')?.description.includes('Streamable HTTP'), 60_000, 'remote running again');
    });
  });

  test('a server that goes away: its row says "reconnecting…" with the reason, without any call', { timeout: 120_000 }, async () => {
    await step('reconnecting', async () => {
      await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'remote')?.description.includes('Streamable HTTP'), 60_000, 'remote running');
      // Killed, and nothing asked of it: only the stream for server-initiated messages notices.
      await http.close();
      const row = await waitUntil(async () => (await wb.treeItems()).find((i) => i.label === 'remote' && i.description.startsWith('reconnecting…')), 30_000, 'the row to say reconnecting…');
      assert.ok(row.description.includes(new URL(http.url).host), row.description);
      await wb.expandTreeItem('remote');
      const children = await waitUntil(
        async () => {
          const items = await wb.treeItems();
          return items.some((i) => i.label.startsWith('the connection closed unexpectedly') && /connection refused/.test(i.label)) && items.some((i) => /^Reconnecting \(\d+ of \d+\)$/.test(i.label)) && items;
        },
        20_000,
        'the reason and the Reconnecting row',
      );
      assert.ok(children.length > 0);
      const bar = await wb.page.locator('.statusbar-item', { hasText: 'MCP' }).first().innerText();
      assert.match(bar, /1 reconnecting/);
      await wb.screenshot('remote-reconnecting');
    });
  });
});
