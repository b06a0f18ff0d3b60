import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Progress } from '../../src/client/client';
import { LatestValueThrottle, NoticeCollapser, PROGRESS_INTERVAL_MS, Timers } from '../../src/usecases/uiThrottle';
import { connectStdio, fixture, waitFor } from '../client/support';

/** Timers driven by `advance`, so a test states exactly when each interval ends. */
class ManualTimers implements Timers {
  private now = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const [id, first] = [...this.due].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (!first || first.at > end) break;
      this.due.delete(id!);
      this.now = first.at;
      first.callback();
    }
    this.now = end;
  }
  get pending(): number {
    return this.due.size;
  }
}

describe('LatestValueThrottle', () => {
  test('the first value at once, then the newest per interval; a quiet interval resets', () => {
    const timers = new ManualTimers();
    const seen: Array<[string, number]> = [];
    const throttle = new LatestValueThrottle<string, number>((k, v) => seen.push([k, v]), 100, timers);
    for (let i = 1; i <= 1000; i++) throttle.push('a', i);
    assert.deepEqual(seen, [['a', 1]]);
    timers.advance(100);
    assert.deepEqual(seen, [['a', 1], ['a', 1000]], 'the newest of the interval, older ones dropped');
    timers.advance(100);
    assert.equal(seen.length, 2, 'nothing new: nothing delivered');
    assert.equal(timers.pending, 0, 'and no timer left');
    throttle.push('a', 1001);
    assert.deepEqual(seen.at(-1), ['a', 1001], 'after a quiet interval a value goes out at once');
    throttle.dispose();
  });

  test('flush delivers the final value now; keys are independent; dispose drops what is pending', () => {
    const timers = new ManualTimers();
    const seen: Array<[string, number]> = [];
    const throttle = new LatestValueThrottle<string, number>((k, v) => seen.push([k, v]), 100, timers);
    throttle.push('a', 1);
    throttle.push('b', 1);
    throttle.push('a', 2);
    throttle.push('a', 3);
    throttle.flush('a');
    assert.deepEqual(seen, [['a', 1], ['b', 1], ['a', 3]]);
    throttle.flush('a');
    assert.equal(seen.length, 3, 'a second flush has nothing to deliver');
    throttle.push('b', 2);
    throttle.dispose();
    timers.advance(1000);
    assert.equal(seen.length, 3, 'disposed: b=2 is dropped');
    assert.equal(timers.pending, 0);
  });

  test('with real timers, values pushed for ~250 ms make a handful of deliveries ending with the last', async () => {
    const seen: number[] = [];
    const throttle = new LatestValueThrottle<string, number>((_k, v) => seen.push(v), 100);
    const started = Date.now();
    let i = 0;
    while (Date.now() - started < 250) {
      for (let j = 0; j < 50; j++) throttle.push('call', ++i);
      await new Promise((r) => setImmediate(r));
    }
    throttle.flush('call');
    assert.equal(seen.at(-1), i, 'the final value is delivered');
    assert.ok(seen.length <= Math.ceil((Date.now() - started) / 100) + 2, `${seen.length} deliveries for ${i} values`);
    assert.ok(i > seen.length * 10, `${i} values`);
  });
});

describe('NoticeCollapser', () => {
  test('a burst makes one notice with its count; while it is open more are only counted', async () => {
    const timers = new ManualTimers();
    const shown: Array<[string, number]> = [];
    const close = new Map<string, () => void>();
    const collapser = new NoticeCollapser<string>((k, count) => {
      shown.push([k, count]);
      return new Promise<void>((resolve) => close.set(k, resolve));
    }, 300, timers);
    for (let i = 0; i < 5000; i++) collapser.add('r1');
    collapser.add('r2');
    assert.deepEqual(shown, [], 'gathered first');
    timers.advance(300);
    assert.deepEqual(shown, [['r1', 5000], ['r2', 1]]);
    for (let i = 0; i < 7000; i++) collapser.add('r1');
    timers.advance(10_000);
    assert.equal(shown.length, 2, 'r1 is still open: counted, not shown');
    close.get('r1')!();
    await Promise.resolve();
    await Promise.resolve();
    timers.advance(300);
    assert.deepEqual(shown.at(-1), ['r1', 7000], 'one notice for everything since');
    close.get('r2')!();
    close.get('r1')!();
    await new Promise((r) => setImmediate(r));
    timers.advance(1000);
    assert.equal(shown.length, 3);
    assert.equal(timers.pending, 0);
    collapser.dispose();
  });

  test('a notice that fails to show still lets the next one through; dispose stops everything', async () => {
    const timers = new ManualTimers();
    const shown: number[] = [];
    const collapser = new NoticeCollapser<string>((_k, count) => {
      shown.push(count);
      return Promise.reject(new Error('no window'));
    }, 300, timers);
    collapser.add('r');
    timers.advance(300);
    await new Promise((r) => setImmediate(r));
    collapser.add('r');
    collapser.add('r');
    timers.advance(300);
    assert.deepEqual(shown, [1, 2]);
    collapser.add('r');
    collapser.dispose();
    timers.advance(1000);
    assert.deepEqual(shown, [1, 2]);
    assert.equal(timers.pending, 0);
  });
});

describe('UI work against a server that floods notifications', { timeout: 60_000 }, () => {
  test('5,000 progress notifications make a bounded number of UI updates, ending with the last', async () => {
    const { client } = await connectStdio('node', [fixture('notificationFlood.mjs')]);
    try {
      const shown: Progress[] = [];
      let received = 0;
      // The tool panel's wiring: every notification is pushed, the panel sees what is delivered.
      const progressShown = new LatestValueThrottle<string, Progress>((_id, p) => shown.push(p), PROGRESS_INTERVAL_MS);
      const started = Date.now();
      const result = await client
        .callTool('flood-progress', { count: 5000 }, { onProgress: (p) => (received++, progressShown.push('call', p)) })
        .finally(() => progressShown.flush('call'));
      const elapsed = Date.now() - started;
      progressShown.dispose();
      assert.deepEqual(result.content, [{ type: 'text', text: 'sent 5000 progress notifications' }]);
      assert.equal(received, 5000, 'every notification arrived');
      assert.ok(shown.length <= elapsed / PROGRESS_INTERVAL_MS + 2, `${shown.length} UI updates in ${elapsed} ms`);
      assert.deepEqual(shown.at(-1), { progress: 5000, total: 5000, message: 'step 5000 of 5000' }, 'the final value is shown');
    } finally {
      await client.close();
    }
  });

  test('5,000 resource updates make one toast with their count and a bounded number of editor refreshes', async () => {
    const { client } = await connectStdio('node', [fixture('notificationFlood.mjs')]);
    const notices: Array<[string, number]> = [];
    const refreshes: string[] = [];
    // The resource features' wiring: refresh open editors through a throttle, toasts through a collapser.
    const editorRefresh = new LatestValueThrottle<string, undefined>((uri) => refreshes.push(uri), 500);
    const collapser = new NoticeCollapser<string>((uri, count) => {
      notices.push([uri, count]);
      return new Promise(() => {}); // the user never closes it
    }, 300);
    try {
      let received = 0;
      client.onResourceUpdated((uri) => {
        received++;
        editorRefresh.push(uri, undefined);
        collapser.add(uri);
      });
      await client.subscribeResource('flood://counter');
      const started = Date.now();
      await client.callTool('flood-updates', { count: 5000 });
      await waitFor(() => received === 5000, 10_000, 'all updates');
      await new Promise((r) => setTimeout(r, 700));
      const elapsed = Date.now() - started;
      assert.deepEqual(notices.map(([uri]) => uri), ['flood://counter'], 'one toast');
      assert.ok(notices[0][1] >= 1 && notices[0][1] <= 5000, `it stands for ${notices[0][1]} updates`);
      assert.ok(refreshes.length <= elapsed / 500 + 2, `${refreshes.length} editor refreshes in ${elapsed} ms`);
    } finally {
      editorRefresh.dispose();
      collapser.dispose();
      await client.close();
    }
  });
});
