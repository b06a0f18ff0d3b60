// The decision behind "View: Show MCP Host puts the focus on the first row": an opening (hidden to
// visible) focuses once the configuration is read, once and soon; a view visible at activation, a
// view the extension reveals itself and a late load do not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SHOW_FOCUS_WINDOW_MS, ViewFocusOnShow } from '../../src/usecases/viewFocusOnShow';

test('a view opened by the person focuses its rows once they are read, once', () => {
  let now = 0;
  const focus = new ViewFocusOnShow(false, () => now);
  assert.equal(focus.shouldFocus(true), false, 'not opened yet');
  focus.visibilityChanged(true);
  assert.equal(focus.shouldFocus(false), false, 'the configuration is still being read');
  now += 300;
  assert.equal(focus.shouldFocus(true), true, 'the rows are there');
  assert.equal(focus.shouldFocus(true), false, 'only once');
  focus.visibilityChanged(false);
  focus.visibilityChanged(true);
  assert.equal(focus.shouldFocus(true), true, 'opened again');
});

test('a view VS Code restored at startup, one hidden again, one opened long ago, one the extension reveals: no focus', async () => {
  let now = 0;
  const restored = new ViewFocusOnShow(true, () => now);
  assert.equal(restored.shouldFocus(true), false, 'visible at activation');
  restored.visibilityChanged(true);
  assert.equal(restored.shouldFocus(true), false, 'still the same opening');

  const hidden = new ViewFocusOnShow(false, () => now);
  hidden.visibilityChanged(true);
  hidden.visibilityChanged(false);
  assert.equal(hidden.shouldFocus(true), false, 'hidden before its rows came');

  const late = new ViewFocusOnShow(false, () => now);
  late.visibilityChanged(true);
  now += SHOW_FOCUS_WINDOW_MS + 1;
  assert.equal(late.shouldFocus(true), false, 'the person has moved on');

  const own = new ViewFocusOnShow(false, () => now);
  await own.revealing(async () => own.visibilityChanged(true));
  assert.equal(own.shouldFocus(true), false, 'Find Tool revealed a row without the focus');
});
