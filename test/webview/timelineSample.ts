// A timeline as its panel shows it, for the page checks: a session's real frames filed by the
// extension's own Timeline and sent as the panel sends them (the handshake, an echo call answered in
// 5 ms, a long call the editor cancelled, a failed call).
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { TIMELINE_FEATURE } from '../../src/extension/webview/webviewPage';
import { Timeline } from '../../src/timeline/timelineModel';
import { TIMELINE_SCHEMA, TimelineView } from '../../src/timeline/timelineView';
import { openPage, type WebviewPage } from './pageHarness';
import type { ThemeInfo } from './themes';

/** Where the page checks write their screenshots (the e2e suites' folder). */
export const SCREENSHOTS = join(__dirname, '..', '..', '..', 'test-results', 'screenshots');
const T0 = Date.UTC(2026, 10, 29, 7, 0, 0);

/** A session: the handshake, an echo call answered in 5 ms, a long call the editor cancelled, a failed call. */
function session(): Timeline {
  const timeline = new Timeline(() => ({ maxFrames: 10_000, maxPayloadBytes: 1 << 24 }));
  timeline.sessionStarted('s', T0);
  const frame = (direction: 'send' | 'receive', message: unknown, dt: number) => timeline.push('s', { direction, message, bytes: JSON.stringify(message).length, time: T0 + dt });
  frame('send', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-host', version: '1' } } }, 0);
  frame('receive', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'everything', version: '1' } } }, 40);
  frame('send', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }, 300);
  frame('receive', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Echo: hi' }] } }, 305);
  frame('send', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: {} } }, 400);
  frame('send', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'you pressed Cancel' } }, 900);
  frame('send', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'broken', arguments: {} } }, 1000);
  frame('receive', { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad arguments' } }, 1020);
  return timeline;
}

/** The timeline page in `theme` with the session drawn (its list of drawn items filled). */
export async function openTimeline(browser: Browser, theme: ThemeInfo): Promise<{ page: WebviewPage; timeline: Timeline }> {
  const timeline = session();
  const view = new TimelineView(timeline, () => 'everything');
  const page = await openPage(browser, { feature: TIMELINE_FEATURE, theme, title: 'Timeline', viewport: { width: 1000, height: 600 } });
  await page.send({ type: 'init', schema: TIMELINE_SCHEMA, mode: 'recording', title: 'Timeline' });
  await page.send({ ...view.snapshot(), now: T0 + 1100 });
  await page.page.waitForFunction(() => document.querySelectorAll('#drawn-items button').length >= 4);
  return { page, timeline };
}

