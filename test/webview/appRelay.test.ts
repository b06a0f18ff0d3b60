// The page's relay of an MCP App view's messages (media/webview/appFrame.js), in the page harness
// (headless Chromium, the page and the view's srcdoc frame as the extension builds them, no VS
// Code). The page relays what the view posts to the extension, up to 400 at once and then 200 a
// second; past that it drops messages, and it must answer every request it drops, as the
// extension answers the requests its own limit refuses: a view left waiting for an answer that
// cannot come is what CI met once (the hostile app's flood of 400 never finished).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { appContentSecurityPolicy, injectAppCsp, NO_DOMAINS, pageCspAdditions } from '../../src/apps/appCsp';
import type { ViewOutbound } from '../../src/apps/viewMessages';
import { APP_FRAME_ASSETS } from '../../src/extension/webview/webviewPage';
import { openPage, suiteBrowser } from './pageHarness';
import { appShow } from './pageSamples';
import { THEMES } from './themes';

/** Far more than the page relays at once. */
const FLOOD = 2000;

/** A view that posts FLOOD requests and a notification in one go, and keeps every answer it gets. */
const FLOOD_HTML = injectAppCsp(
  `<!DOCTYPE html><html><head><title>Flood</title></head><body><p>Flood</p><script>
window.answers = [];
window.addEventListener('message', (event) => { if (event.data && 'id' in event.data) window.answers.push(event.data); });
for (let i = 1; i <= ${FLOOD}; i++) window.parent.postMessage({ jsonrpc: '2.0', id: i, method: 'ping', params: {} }, '*');
window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'after the flood' } }, '*');
window.flooded = true;
</script></body></html>`,
  appContentSecurityPolicy(NO_DOMAINS),
);

const floodShow: ViewOutbound = { ...appShow, html: FLOOD_HTML, title: 'Flood', subtitle: 'flood · ui://flood/app.html' };

interface Answer {
  readonly id: number;
  readonly error?: { readonly code: number; readonly message: string };
}

describe('an app view\'s messages, relayed by the page', () => {
  const browser = suiteBrowser();

  test('a view that floods the page: what the page drops, it answers (-32000) and counts; what it relays goes on', async () => {
    const page = await openPage(browser(), { feature: APP_FRAME_ASSETS, theme: THEMES[0], app: { csp: pageCspAdditions(FLOOD_HTML, NO_DOMAINS) }, readyType: 'appReady' });
    try {
      await page.send(floodShow);
      let view: Frame | undefined;
      await page.page.waitForFunction(() => document.querySelector('iframe.mcp-app-frame') !== null);
      for (let i = 0; i < 100 && !view; i++) {
        view = page.page.frames().find((f) => f !== page.page.mainFrame());
        if (!view) await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(view, 'the view\'s frame');
      await view.waitForFunction(() => (window as unknown as { flooded?: boolean }).flooded === true);
      const relayed = (await page.posted('appMessage')).map((m) => m.message as { id?: number; method: string });
      const relayedPings = relayed.filter((m) => m.method === 'ping');
      await view.waitForFunction((n) => (window as unknown as { answers: unknown[] }).answers.length >= n, FLOOD - relayedPings.length, { timeout: 10_000 }).catch(() => undefined);
      const answers = (await view.evaluate(() => (window as unknown as { answers: Answer[] }).answers)) as Answer[];

      assert.ok(relayedPings.length >= 400 && relayedPings.length < FLOOD, `the page relays its burst and drops the rest (relayed ${relayedPings.length} of ${FLOOD})`);
      // Every request has exactly one fate: relayed to the extension, or answered by the page.
      const fates = new Map<number, string>();
      for (const m of relayedPings) fates.set(m.id!, 'relayed');
      for (const a of answers) {
        assert.equal(fates.get(a.id), undefined, `request ${a.id} relayed or answered twice`);
        fates.set(a.id, 'answered');
        assert.deepEqual(a.error, { code: -32000, message: 'Rate limited: the view sends too many messages' });
      }
      assert.equal(fates.size, FLOOD, 'every request relayed or answered');
      // A notification past the limit is dropped with no answer (there is none to give). The drops
      // are counted a second at a time and told to the extension (appDropped), the notification's too.
      const droppedAll = answers.length + (relayed.some((m) => m.method === 'notifications/message') ? 0 : 1);
      const told = async () => (await page.posted('appDropped')) as Array<{ viewId: string; count: number }>;
      for (let i = 0; i < 100 && (await told()).reduce((n, d) => n + d.count, 0) < droppedAll; i++) await new Promise((r) => setTimeout(r, 100));
      const reports = await told();
      assert.equal(reports.reduce((n, d) => n + d.count, 0), droppedAll, `the drops told: ${JSON.stringify(reports)}`);
      assert.ok(reports.every((d) => d.viewId === 'v1'));
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});
