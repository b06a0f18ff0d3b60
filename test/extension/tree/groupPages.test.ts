// The pages of the Servers tree's long groups: how many rows are drawn, what "Show more" loads,
// that a list change keeps the pages and a new connection resets them, and that a row's id (its
// key and occurrence) does not depend on how many pages are drawn.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GROUP_PAGE_SIZE, GroupPages, pagedRows } from '../../../src/extension/tree/groupPages';

describe('group pages', () => {
  const session = {};

  test('a group up to one page shows everything; a longer one its first page and a "more" of the next', () => {
    const pages = new GroupPages(200);
    assert.deepEqual(pages.page('s', 'tools', 0, session), { shown: 0, total: 0, hidden: 0, next: 0 });
    assert.deepEqual(pages.page('s', 'tools', 200, session), { shown: 200, total: 200, hidden: 0, next: 0 });
    assert.deepEqual(pages.page('s', 'tools', 5003, session), { shown: 200, total: 5003, hidden: 4803, next: 200 });
    assert.equal(GROUP_PAGE_SIZE, 200);
    assert.throws(() => new GroupPages(0), RangeError);
  });

  test('Show more adds a page until the last, shorter one; Show All shows the rest', () => {
    const pages = new GroupPages(200);
    pages.showMore('s', 'tools', session);
    assert.deepEqual(pages.page('s', 'tools', 5003, session), { shown: 400, total: 5003, hidden: 4603, next: 200 });
    for (let i = 0; i < 23; i++) pages.showMore('s', 'tools', session);
    assert.deepEqual(pages.page('s', 'tools', 5003, session), { shown: 5000, total: 5003, hidden: 3, next: 3 });
    pages.showMore('s', 'tools', session);
    assert.deepEqual(pages.page('s', 'tools', 5003, session), { shown: 5003, total: 5003, hidden: 0, next: 0 });
    const all = new GroupPages(200);
    all.showAll('s', 'prompts', session);
    assert.deepEqual(all.page('s', 'prompts', 999, session), { shown: 999, total: 999, hidden: 0, next: 0 });
  });

  test('groups and servers page apart', () => {
    const pages = new GroupPages(10);
    pages.showMore('a', 'tools', session);
    assert.equal(pages.page('a', 'tools', 100, session).shown, 20);
    assert.equal(pages.page('a', 'resources', 100, session).shown, 10);
    assert.equal(pages.page('b', 'tools', 100, session).shown, 10);
  });

  test('a list change (same connection) keeps the pages shown; a longer or shorter list is cut to them', () => {
    const pages = new GroupPages(200);
    pages.showMore('s', 'tools', session);
    assert.equal(pages.page('s', 'tools', 5003, session).shown, 400);
    // tools/list_changed: the list grows, then shrinks below the pages, then grows again.
    assert.deepEqual(pages.page('s', 'tools', 6000, session), { shown: 400, total: 6000, hidden: 5600, next: 200 });
    assert.deepEqual(pages.page('s', 'tools', 300, session), { shown: 300, total: 300, hidden: 0, next: 0 });
    assert.equal(pages.page('s', 'tools', 6000, session).shown, 400, 'the pages were kept while the list was short');
  });

  test('a new connection (the server restarted) starts from the first page again', () => {
    const pages = new GroupPages(200);
    pages.showMore('s', 'tools', session);
    pages.showAll('s', 'resources', session);
    const restarted = {};
    assert.equal(pages.page('s', 'tools', 5003, restarted).shown, 200);
    assert.equal(pages.page('s', 'resources', 5003, restarted).shown, 200);
    pages.showMore('s', 'tools', restarted);
    assert.equal(pages.page('s', 'tools', 5003, restarted).shown, 400);
  });

  test('showThrough loads the pages up to a row (Find Tool… revealing it), never fewer', () => {
    const pages = new GroupPages(200);
    assert.equal(pages.showThrough('s', 'tools', 150, session), false, 'on the first page already');
    assert.equal(pages.showThrough('s', 'tools', 4999, session), true);
    assert.deepEqual(pages.page('s', 'tools', 5003, session), { shown: 5000, total: 5003, hidden: 3, next: 3 });
    assert.equal(pages.showThrough('s', 'tools', 200, session), false, 'already drawn: the pages stay');
    assert.equal(pages.page('s', 'tools', 5003, session).shown, 5000);
    const restarted = {};
    assert.equal(pages.showThrough('s', 'tools', 400, restarted), true, 'a new connection starts over');
    assert.equal(pages.page('s', 'tools', 5003, restarted).shown, 600);
  });

  test('keepOnly forgets servers no longer configured', () => {
    const pages = new GroupPages(10);
    pages.showMore('a', 'tools', session);
    pages.showMore('b', 'tools', session);
    pages.keepOnly(new Set(['b']));
    assert.equal(pages.page('a', 'tools', 100, session).shown, 10);
    assert.equal(pages.page('b', 'tools', 100, session).shown, 20);
  });

  test('row ids (key and occurrence) are the same whatever the pages drawn, duplicates included', () => {
    const names = Array.from({ length: 1000 }, (_, i) => (i % 97 === 0 ? 'dup' : `tool_${i}`));
    const id = (r: { item: string; occurrence: number }) => `${r.item}#${r.occurrence}`;
    const one = pagedRows(names, (n) => n, 200).map(id);
    const three = pagedRows(names, (n) => n, 600).map(id);
    const all = pagedRows(names, (n) => n, names.length).map(id);
    assert.equal(one.length, 200);
    assert.deepEqual(three.slice(0, 200), one);
    assert.deepEqual(all.slice(0, 600), three);
    assert.equal(new Set(all).size, all.length, 'ids are unique');
    assert.deepEqual(all.filter((x) => x.startsWith('dup#')), Array.from({ length: 11 }, (_, i) => `dup#${i}`));
    // A tool added at the end (list_changed) leaves every drawn row's id as it was.
    assert.deepEqual(pagedRows([...names, 'new'], (n) => n, 200).map(id), one);
  });
});
