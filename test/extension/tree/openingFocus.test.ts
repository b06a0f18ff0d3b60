// The Servers view's first row takes the focus when a person opens the view (issue 39 item 12):
// at once when its rows are there, again when the row is replaced by its server's next state (the
// tree's focus does not follow a replaced row), after a consent dialog the opening brought; never
// for a view VS Code restores, for Find Tool's reveal, once the person went elsewhere, or late.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FIRST_REPORT_MS, firstRowState, OPENING_MOMENT_MS, OpeningFocus, type FirstRow } from '../../../src/extension/tree/openingFocus';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const row = (id: string, state: FirstRow['state'] = 'settled'): FirstRow => ({ id, state });

/** A focus decision whose view was registered long enough ago that a visibility change is a person's. */
function registered() {
  const c = clock();
  const focus = new OpeningFocus(c.now);
  c.advance(FIRST_REPORT_MS + 1);
  return { c, focus };
}

describe('OpeningFocus: the first row focused when a person opens the Servers view', () => {
  test('opened with its rows: the first row at once, once', () => {
    const { focus } = registered();
    focus.visibilityChanged(true);
    assert.equal(focus.rowsChanged(row('server:running:a')), 'server:running:a');
    assert.equal(focus.rowsChanged(row('server:running:a')), undefined, 'the same row is not focused again');
  });

  test('the consent the opening brought, answered: the row that replaced the focused one gets the focus', () => {
    const { c, focus } = registered();
    focus.visibilityChanged(true);
    assert.equal(focus.rowsChanged(row('server:stopped:a')), 'server:stopped:a');
    assert.equal(focus.rowsChanged(row('server:stopped:a', 'answering')), undefined);
    c.advance(60_000); // the person reads the dialog: no moment runs out meanwhile
    assert.equal(focus.rowsChanged(row('server:stopped:a', 'changing')), undefined, 'not while it starts');
    c.advance(OPENING_MOMENT_MS - 500);
    assert.equal(focus.rowsChanged(row('server:running:a')), 'server:running:a');
  });

  test('a start slower than the moment after the answer does not take the focus: the person may have opened the Command Palette meanwhile', () => {
    const { c, focus } = registered();
    focus.visibilityChanged(true);
    assert.equal(focus.rowsChanged(row('server:stopped:a')), 'server:stopped:a');
    assert.equal(focus.rowsChanged(row('server:stopped:a', 'answering')), undefined);
    c.advance(5_000);
    assert.equal(focus.rowsChanged(row('server:stopped:a', 'changing')), undefined);
    // Each step of a slow start is a change of the rows: none of them carries the moment on.
    c.advance(OPENING_MOMENT_MS - 500);
    assert.equal(focus.rowsChanged(row('server:stopped:a', 'changing')), undefined);
    c.advance(1_000);
    assert.equal(focus.rowsChanged(row('server:running:a')), undefined);
    assert.equal(focus.active, false);
  });

  test('rows that come a moment after the opening ("Reading configuration…" first) take it; late ones do not', () => {
    const { c, focus } = registered();
    focus.visibilityChanged(true);
    assert.equal(focus.rowsChanged(undefined), undefined);
    c.advance(OPENING_MOMENT_MS - 100);
    assert.equal(focus.rowsChanged(row('server:stopped:a')), 'server:stopped:a');

    const late = registered();
    late.focus.visibilityChanged(true);
    late.c.advance(OPENING_MOMENT_MS + 1);
    assert.equal(late.focus.rowsChanged(row('server:stopped:a')), undefined);
    assert.equal(late.focus.active, false);
  });

  test('a start that begins after the moment does not take the focus back', () => {
    const { c, focus } = registered();
    focus.visibilityChanged(true);
    assert.equal(focus.rowsChanged(row('server:stopped:a')), 'server:stopped:a');
    c.advance(OPENING_MOMENT_MS + 1);
    assert.equal(focus.rowsChanged(row('server:stopped:a', 'changing')), undefined);
    assert.equal(focus.rowsChanged(row('server:running:a')), undefined);
  });

  test('the person went elsewhere: nothing more', () => {
    const { focus } = registered();
    focus.visibilityChanged(true);
    assert.equal(focus.rowsChanged(row('server:stopped:a')), 'server:stopped:a');
    focus.interrupted();
    assert.equal(focus.rowsChanged(row('server:running:a')), undefined);

    const hidden = registered();
    hidden.focus.visibilityChanged(true);
    hidden.focus.visibilityChanged(false);
    assert.equal(hidden.focus.rowsChanged(row('server:running:a')), undefined);
  });

  test('a view VS Code shows as MCP Host starts (restored) is not an opening; a later one is', () => {
    const c = clock();
    const focus = new OpeningFocus(c.now);
    c.advance(FIRST_REPORT_MS - 500);
    focus.visibilityChanged(true);
    assert.equal(focus.rowsChanged(row('server:running:a')), undefined);
    c.advance(60_000);
    focus.visibilityChanged(false);
    focus.visibilityChanged(true);
    assert.equal(focus.rowsChanged(row('server:running:a')), 'server:running:a');
  });

  test("Find Tool's reveal shows the view: not an opening", async () => {
    const { focus } = registered();
    await focus.revealing(async () => {
      focus.visibilityChanged(true);
    });
    assert.equal(focus.rowsChanged(row('server:running:a')), undefined);
  });

  test('a server row waits for the person (consent, an input), changes (starting, stopping), or is settled', () => {
    assert.equal(firstRowState('waiting'), 'answering');
    assert.equal(firstRowState('starting'), 'changing');
    assert.equal(firstRowState('stopping'), 'changing');
    for (const kind of ['stopped', 'running', 'error', 'blocked', 'signin'] as const) assert.equal(firstRowState(kind), 'settled');
  });
});
