// Puts the focus back somewhere meaningful when the extension says a server's dialog closed and
// VS Code activated this panel again (message `focusBack`, src/usecases/dialogFocusReturn.ts).
// The element that had the focus stays focused if it still can be (a field being typed in); one
// the call hid, disabled or removed meanwhile (Cancel once the call ended) gives way to what is
// there to do now: Cancel while the call runs, else the result's heading, else Run.
// Loaded after common.js, before toolCall.js.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private to this script.
{
  /* global McpWebview */

  /** @param {Element|null} el */
  function canHoldFocus(el) {
    if (!(el instanceof HTMLElement) || el === document.body || !el.isConnected) return false;
    if (('disabled' in el && el.disabled) || el.closest('[hidden]')) return false;
    return el.getClientRects().length > 0;
  }

  function focusBack() {
    if (canHoldFocus(document.activeElement)) return;
    const cancel = document.getElementById('cancel');
    const heading = /** @type {HTMLElement|null} */ (document.querySelector('#result h2'));
    const run = document.getElementById('run');
    const target = [cancel, heading, run].find(canHoldFocus);
    if (!target) return;
    if (target === heading) target.setAttribute('tabindex', '-1');
    target.focus();
  }

  McpWebview.onMessage((/** @type {PanelMessage} */ msg) => msg.type === 'focusBack' && focusBack());
}
