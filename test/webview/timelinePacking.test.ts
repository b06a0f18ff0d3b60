// The timeline page's store and layout, in the page harness: a live session filed by the
// extension's own Timeline and sent as its panel sends it (a snapshot, then the batches of what
// changed, their columns packed by packedColumn.ts). Calls that overlap go to lanes one row apart,
// a call that follows reuses the first lane; an open call's later answer updates it in place; the
// items that leave the extension's ring leave the page. Read from the list of drawn items, whose
// buttons lie over the shapes the canvas drew (no hook for tests on the page).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TIMELINE_FEATURE } from '../../src/extension/webview/webviewPage';
import { Timeline } from '../../src/timeline/timelineModel';
import { TIMELINE_SCHEMA, TimelineView } from '../../src/timeline/timelineView';
import { openPage, suiteBrowser, type WebviewPage } from './pageHarness';
import { THEMES } from './themes';

const T0 = Date.UTC(2026, 10, 29, 7, 0, 0);

/** The list's buttons: their words and where they lie (CSS px). */
function drawn(page: WebviewPage): Promise<Array<{ text: string; top: number; left: number }>> {
  return page.page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLButtonElement>('#drawn-items button')).map((b) => ({ text: b.textContent ?? '', top: parseFloat(b.style.top), left: parseFloat(b.style.left) })),
  );
}

/** The list once `ready(texts)` holds (it follows the drawing a few times a second). */
async function waitForList(page: WebviewPage, ready: (texts: string[]) => boolean): Promise<Array<{ text: string; top: number; left: number }>> {
  const until = Date.now() + 15_000;
  for (;;) {
    const list = await drawn(page);
    if (ready(list.map((b) => b.text))) return list;
    if (Date.now() > until) throw new Error(`the list never got there: ${JSON.stringify(list.map((b) => b.text))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the timeline page: packed batches, lanes, updates and evictions', () => {
  const browser = suiteBrowser();

  test('overlapping calls take lanes a row apart; an answer updates its call; evicted items leave the page', async () => {
    // A ring of 8 frames: the later batches push the first frames out.
    const timeline = new Timeline(() => ({ maxFrames: 8, maxPayloadBytes: 1 << 20 }));
    timeline.sessionStarted('s', T0);
    const frame = (direction: 'send' | 'receive', message: unknown, dt: number) => timeline.push('s', { direction, message, bytes: JSON.stringify(message).length, time: T0 + dt });
    const call = (id: number, name: string, dt: number) => frame('send', { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }, dt);
    const answer = (id: number, dt: number) => frame('receive', { jsonrpc: '2.0', id, result: { content: [] } }, dt);
    call(1, 'long', 0);
    call(2, 'inner', 100);
    answer(2, 200);
    call(3, 'after', 600);
    answer(3, 700);
    const view = new TimelineView(timeline, () => 'everything');
    const page = await openPage(browser(), { feature: TIMELINE_FEATURE, theme: THEMES[0], title: 'Timeline', viewport: { width: 1000, height: 600 } });
    try {
      await page.send({ type: 'init', schema: TIMELINE_SCHEMA, mode: 'live', title: 'Timeline' });
      await page.send({ ...view.snapshot(), now: T0 + 800 });
      // Follow off: the view stays where the first batch put it.
      await page.page.locator('#follow').evaluate((b) => (b as HTMLButtonElement).getAttribute('aria-pressed') === 'true' && (b as HTMLButtonElement).click());
      const first = await waitForList(page, (items) => items.some((t) => t.startsWith('tools/call long')) && items.some((t) => t.startsWith('tools/call after')));
      const at = (list: typeof first, name: string) => {
        const found = list.find((b) => b.text.startsWith(`tools/call ${name}`));
        assert.ok(found, `${name} in ${JSON.stringify(list.map((b) => b.text))}`);
        return found;
      };
      assert.match(at(first, 'long').text, /, open$/, 'the long call is still open');
      assert.equal(at(first, 'inner').top - at(first, 'long').top, 20, 'the call inside the open one is one lane down');
      assert.equal(at(first, 'after').top, at(first, 'inner').top, 'a call after the inner one ended reuses its lane');
      assert.ok(at(first, 'after').left > at(first, 'inner').left, 'later is to the right');

      // The long call's answer comes: its item changes in place (same lane), no new item.
      answer(1, 750);
      await page.send({ ...view.take()!, now: T0 + 800 });
      const answered = await waitForList(page, (items) => items.some((t) => /^tools\/call long .*answered$/.test(t)));
      assert.equal(at(answered, 'long').top, at(first, 'long').top);
      assert.equal(answered.filter((b) => b.text.startsWith('tools/call long')).length, 1);

      // Four more frames: the ring of 8 lets the first call go, and so does the page.
      call(4, 'late', 760);
      answer(4, 770);
      call(5, 'later', 780);
      answer(5, 790);
      await page.send({ ...view.take()!, now: T0 + 800 });
      const held = timeline.summaries('s').filter((i) => i.kind === 'call').map((i) => i.name);
      assert.ok(!held.includes('long') && held.includes('later'), `the extension's ring let the first call go: ${held}`);
      const kept = await waitForList(page, (items) => items.some((t) => t.startsWith('tools/call later')) && !items.some((t) => t.startsWith('tools/call long')));
      // What the page lists is what the extension holds, no more.
      assert.deepEqual(kept.map((b) => /^tools\/call (\S+)/.exec(b.text)?.[1]).sort(), [...held].sort());
      assert.match(await page.page.locator('#summary').innerText(), /items/);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
});
