// The decision behind "focus comes back when a dialog closes": only the panel VS Code activates
// right after the last dialog closed is told, and only once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DialogFocusReturn, FOCUS_RETURN_WINDOW_MS } from '../../src/usecases/dialogFocusReturn';

test('the panel activated just after the last dialog closes is told once; later or earlier activations are not', () => {
  let now = 1_000;
  const focus = new DialogFocusReturn(() => now);
  assert.equal(focus.panelActivated(), false, 'no dialog closed yet');
  focus.dialogsChanged(1);
  assert.equal(focus.panelActivated(), false, 'a dialog is open');
  focus.dialogsChanged(2);
  focus.dialogsChanged(1);
  assert.equal(focus.panelActivated(), false, 'another dialog is still open');
  focus.dialogsChanged(0);
  now += 50;
  assert.equal(focus.panelActivated(), true, 'VS Code activated the panel after the dialog closed');
  assert.equal(focus.panelActivated(), false, 'only once');
  focus.dialogsChanged(1);
  focus.dialogsChanged(0);
  now += FOCUS_RETURN_WINDOW_MS + 1;
  assert.equal(focus.panelActivated(), false, 'the user switched tabs long after');
});
