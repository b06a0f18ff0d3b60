import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DialogQueue, QueueCancelledError, QueueFullError } from '../../src/serverRequests/dialogQueue';

/** A task the test finishes by hand. */
function gate<T>() {
  let open!: (v: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}

describe('DialogQueue', () => {
  test('runs one task per server at a time, in arrival order; other servers are not held up', async () => {
    const queue = new DialogQueue(() => 3);
    const order: string[] = [];
    const a = gate<string>();
    const b = gate<string>();
    const never = new AbortController().signal;
    const first = queue.run('s1', never, async () => {
      order.push('first started');
      return a.promise;
    });
    const second = queue.run('s1', never, async () => {
      order.push('second started');
      return b.promise;
    });
    const other = queue.run('s2', never, async () => {
      order.push('other started');
      return 'other';
    });
    assert.equal(await other, 'other');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, ['first started', 'other started'], 'the second request of s1 waits');
    assert.deepEqual(queue.state('s1'), { key: 's1', running: true, waiting: 1 });
    a.open('one');
    assert.equal(await first, 'one');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, ['first started', 'other started', 'second started']);
    b.open('two');
    assert.equal(await second, 'two');
    assert.deepEqual(queue.state('s1'), { key: 's1', running: false, waiting: 0 });
  });

  test('past maxQueued waiting requests a new one is refused at once, and the limit is read per request', async () => {
    let limit = 2;
    const queue = new DialogQueue(() => limit);
    const never = new AbortController().signal;
    const g = gate<void>();
    const running = queue.run('s', never, () => g.promise);
    const waiting = [queue.run('s', never, async () => 'w1'), queue.run('s', never, async () => 'w2')];
    await assert.rejects(queue.run('s', never, async () => 'flood'), (e: unknown) => e instanceof QueueFullError && e.limit === 2);
    limit = 3;
    const third = queue.run('s', never, async () => 'w3');
    await assert.rejects(queue.run('s', never, async () => 'flood'), QueueFullError);
    g.open();
    await running;
    assert.deepEqual(await Promise.all([...waiting, third]), ['w1', 'w2', 'w3']);
  });

  test('maxQueued 0 allows only the open dialog', async () => {
    const queue = new DialogQueue(() => 0);
    const never = new AbortController().signal;
    const g = gate<void>();
    const running = queue.run('s', never, () => g.promise);
    await assert.rejects(queue.run('s', never, async () => 1), QueueFullError);
    g.open();
    await running;
  });

  test('a waiting request whose signal aborts leaves the line and never runs', async () => {
    const queue = new DialogQueue(() => 3);
    const never = new AbortController().signal;
    const g = gate<void>();
    const running = queue.run('s', never, () => g.promise);
    const cancel = new AbortController();
    let ran = false;
    const cancelled = queue.run('s', cancel.signal, async () => {
      ran = true;
    });
    const after = queue.run('s', never, async () => 'after');
    assert.equal(queue.state('s').waiting, 2);
    cancel.abort('the server cancelled');
    await assert.rejects(cancelled, (e: unknown) => e instanceof QueueCancelledError && /the server cancelled/.test(e.message));
    assert.equal(queue.state('s').waiting, 1, 'the cancelled request left the line');
    g.open();
    await running;
    assert.equal(await after, 'after');
    assert.equal(ran, false);
  });

  test('a running task sees its signal abort, and the next one starts when it settles', async () => {
    const queue = new DialogQueue(() => 3);
    const cancel = new AbortController();
    const seen: string[] = [];
    const running = queue.run('s', cancel.signal, (signal) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`closed: ${String(signal.reason)}`)))));
    const next = queue.run('s', new AbortController().signal, async () => seen.push('next'));
    cancel.abort('gone');
    await assert.rejects(running, /closed: gone/);
    await next;
    assert.deepEqual(seen, ['next']);
  });

  test('an already aborted signal is refused without running', async () => {
    const queue = new DialogQueue(() => 3);
    const c = new AbortController();
    c.abort('early');
    await assert.rejects(queue.run('s', c.signal, async () => 1), QueueCancelledError);
    assert.deepEqual(queue.state('s'), { key: 's', running: false, waiting: 0 });
  });

  test('a task that throws synchronously frees the lane', async () => {
    const queue = new DialogQueue(() => 3);
    const never = new AbortController().signal;
    await assert.rejects(
      queue.run('s', never, () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await queue.run('s', never, async () => 'ok'), 'ok');
  });
});
