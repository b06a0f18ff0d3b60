// When the panel's Run (a prompt's "Get prompt") may send, and how it says it cannot. The extension
// checks the form on each edit, a round trip away: a button turned off until the answer came would
// be skipped by a Tab pressed right after typing (issue 39). So Run is never `disabled`: it stays a
// Tab stop, marked aria-disabled while the errors shown are the input's own or a call runs, and
// activated with known errors it sends nothing and takes the focus to the first field to fix.
// An answer that comes after a newer edit is dropped (it would flash an error for text already
// typed); with a check still on its way, Run sends, and the extension's own check decides.
// Loaded after common.js, before toolCall.js.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  /* global McpWebview */

  /** What the panel knows of its input's check. */
  function create() {
    /** Edited since the last check was asked (the debounce runs). */
    let editWaiting = false;
    /** Checks asked whose answer has not come. */
    let checksOut = 0;
    /** Run was asked of the extension: its `validation` answer (an invalid input) takes the focus to the field. */
    let runAsked = false;
    /** @type {readonly FieldError[]} */
    let errors = [];
    return {
      edited() {
        editWaiting = true;
      },
      checkAsked() {
        editWaiting = false;
        checksOut++;
      },
      runAsked() {
        runAsked = true;
      },
      /** The run started, or failed to: a later `validation` answers a check again. */
      runAnswered() {
        runAsked = false;
      },
      /**
       * A `validation` came: 'stale' when the input was edited since, or when a later check is
       * still out (the extension answers checks in order, so this one answers an older input:
       * show nothing, the later answer follows), 'run' when it answers Run (take the focus to the
       * first problem), else 'check'.
       * @param {readonly FieldError[] | undefined} list
       * @returns {'stale' | 'run' | 'check'}
       */
      answered(list) {
        if (checksOut > 0) checksOut--;
        const ofRun = runAsked;
        runAsked = false;
        if (!ofRun && (editWaiting || checksOut > 0)) return 'stale';
        errors = Array.isArray(list) ? list : [];
        return ofRun ? 'run' : 'check';
      },
      /** The errors of the input as it is now; undefined while its check is on its way (or an answer never came: Run then asks the extension). */
      knownErrors() {
        return editWaiting || checksOut > 0 ? undefined : errors;
      },
    };
  }

  /**
   * Draws Run: its label, and aria-disabled (a Tab stop still) while `unavailable`.
   * @param {HTMLButtonElement} button
   * @param {string} label
   * @param {boolean} unavailable
   */
  function show(button, label, unavailable) {
    button.textContent = label;
    if (unavailable) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
  }

  /**
   * Moves the focus to the first field to fix under `form` (else to `problems`, the line that lists
   * what no field could show) and says how many problems there are.
   * @param {HTMLElement} form
   * @param {HTMLElement | null} problems
   */
  function focusFirstProblem(form, problems) {
    const field = /** @type {HTMLElement|null} */ (form.querySelector('[aria-invalid="true"]') || form.querySelector('.field.invalid :is(input, textarea, select)'));
    const target = field || problems;
    if (!target) return;
    if (target === problems) problems.setAttribute('tabindex', '-1');
    target.focus();
    const said = problems && problems.textContent ? problems.textContent : '';
    if (said) McpWebview.announce(said);
  }

  // eslint-disable-next-line no-unused-vars
  var McpRunGate = { create, show, focusFirstProblem };
}
