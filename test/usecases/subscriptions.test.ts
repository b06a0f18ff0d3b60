import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SubscriptionSet, resourceRowMark } from '../../src/usecases/subscriptions';

const URI = 'demo://resource/static/document/architecture.md';

describe('resource subscriptions: the book-keeping', () => {
  test('the toggle, an open editor and the server\'s acknowledgement each show in the state', () => {
    const set = new SubscriptionSet<string>();
    let changes = 0;
    set.onDidChange(() => changes++);
    const k = SubscriptionSet.key('s1', URI);
    assert.equal(set.state('s1', URI), undefined);

    assert.equal(set.setExplicit('s1', URI, true), true);
    assert.equal(set.setExplicit('s1', URI, true), false, 'no change, no event');
    assert.deepEqual(set.state('s1', URI), { explicit: true, open: false, active: false });
    assert.deepEqual([...set.wanted()], [k]);
    set.markActive(k, 'client-1');
    set.markActive(k, 'client-1');
    assert.deepEqual(set.state('s1', URI), { explicit: true, open: false, active: true });
    assert.equal(set.activeOn(k), 'client-1');
    assert.equal(changes, 2);

    // An editor opens it too, then the toggle goes off: still wanted while the editor is open.
    assert.equal(set.setOpen(new Set([k])), true);
    assert.equal(set.setOpen(new Set([k])), false);
    set.setExplicit('s1', URI, false);
    assert.deepEqual(set.state('s1', URI), { explicit: false, open: true, active: true });
    assert.deepEqual([...set.wanted()], [k]);
    set.setOpen(new Set());
    assert.deepEqual([...set.wanted()], []);
    set.markInactive(k);
    assert.equal(set.state('s1', URI), undefined);
    assert.equal(changes, 6);
  });

  test('a failed subscribe is remembered while wanted; other servers are apart', () => {
    const set = new SubscriptionSet<object>();
    const k = SubscriptionSet.key('s1', URI);
    set.setExplicit('s1', URI, true);
    set.markInactive(k, 'Method not found');
    assert.deepEqual(set.state('s1', URI), { explicit: true, open: false, active: false, error: 'Method not found' });
    assert.equal(set.state('s2', URI), undefined);
    const client = {};
    set.markActive(k, client);
    assert.deepEqual(set.state('s1', URI), { explicit: true, open: false, active: true });
    assert.deepEqual(set.all(), [{ serverId: 's1', uri: URI, explicit: true, open: false, active: true }]);
    assert.deepEqual(set.activeEntries(), [[k, client]]);
  });
});

describe('resource rows: which rows show what', () => {
  test('a server without resources.subscribe: a plain row, no toggle', () => {
    assert.deepEqual(resourceRowMark(false, undefined), { contextValue: 'resource', icon: 'file' });
    assert.deepEqual(resourceRowMark(false, { explicit: true, open: false, active: false }), { contextValue: 'resource', icon: 'file' });
  });

  test('subscribable, not subscribed: Subscribe offered, no mark', () => {
    const mark = resourceRowMark(true, undefined);
    assert.equal(mark.contextValue, 'resource.subscribable');
    assert.equal(mark.icon, 'file');
    assert.equal(mark.badge, undefined);
    // Active only (the toggle went off, the unsubscribe not done yet): not shown as subscribed.
    assert.equal(resourceRowMark(true, { explicit: false, open: false, active: true }).contextValue, 'resource.subscribable');
  });

  test('subscribed with the toggle: the bell-dot and "subscribed", Unsubscribe offered', () => {
    assert.deepEqual(resourceRowMark(true, { explicit: true, open: false, active: true }), {
      contextValue: 'resource.subscribed',
      icon: 'bell-dot',
      badge: 'subscribed',
      note: 'Subscribed: the server tells MCP Host when it changes.',
    });
    assert.equal(resourceRowMark(true, { explicit: true, open: true, active: true }).contextValue, 'resource.subscribed', 'the toggle wins over the editor');
  });

  test('subscribed because an editor shows it', () => {
    const mark = resourceRowMark(true, { explicit: false, open: true, active: true });
    assert.equal(mark.contextValue, 'resource.subscribedByEditor');
    assert.equal(mark.icon, 'bell-dot');
    assert.equal(mark.badge, 'subscribed while open');
  });

  test('wanted but not acknowledged: subscribing…, or why it failed', () => {
    assert.deepEqual(resourceRowMark(true, { explicit: true, open: false, active: false }), { contextValue: 'resource.subscribed', icon: 'bell', badge: 'subscribing…' });
    const failed = resourceRowMark(true, { explicit: true, open: false, active: false, error: 'Method not found' });
    assert.equal(failed.badge, 'subscribe failed');
    assert.match(failed.note!, /Method not found/);
  });
});
