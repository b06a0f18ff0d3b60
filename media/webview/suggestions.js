// The server's suggestions (completion/complete) under a text field of the Call Tool and prompt
// forms, as an ARIA 1.2 combobox with a list popup: the field keeps the focus and says which
// suggestion is active (aria-activedescendant), the arrow keys move through the list, Enter takes
// the active one (or the first, unless what is typed is one of them), Escape closes the list. The
// options are not buttons, so the list adds no Tab stop between the last field and Run.
// Loaded after common.js, before toolCall.js.
// @ts-check
'use strict';
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  const { h } = McpWebview;
  let lastId = 0;

  /**
   * Makes `input` a combobox over a list of suggestions; `ask(path, value)` asks the server for
   * them as the field is focused or edited (its answer comes to `show`). Returns the field and its
   * list, to put where the input would go.
   * @param {SuggestingField} input
   * @param {string} path
   * @param {(path: string, value: string) => void} ask
   */
  function combobox(input, path, ask) {
    const listId = (input.id || 'field-' + ++lastId) + '-suggestions';
    const list = h('div', { class: 'suggestions', id: listId, role: 'listbox', 'aria-label': 'Suggestions from the server' });
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', listId);
    input.addEventListener('focus', () => ask(path, input.value));
    input.addEventListener('input', () => ask(path, input.value));
    // Focus gone to another control closes the list; the panel losing focus (the editor, another
    // tab) leaves the field the page's active element, and the list where it was.
    input.addEventListener('blur', () => setTimeout(() => document.activeElement !== input && close(input, list)));
    input.addEventListener('keydown', (event) => {
      const e = /** @type {KeyboardEvent} */ (event);
      if (e.ctrlKey || e.metaKey) return;
      const options = /** @type {HTMLElement[]} */ ([...list.querySelectorAll('[role="option"]')]);
      const active = options.findIndex((o) => o.getAttribute('aria-selected') === 'true');
      if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && options.length && !e.shiftKey) {
        e.preventDefault();
        const next = e.key === 'ArrowDown' ? (active + 1) % options.length : (active <= 0 ? options.length : active) - 1;
        activate(input, options, next);
      } else if (e.key === 'Escape' && options.length) {
        // The list closes; the Escape goes no further (it would leave the field or the panel).
        e.preventDefault();
        e.stopPropagation();
        close(input, list);
      } else if (e.key === 'Enter' && !e.shiftKey && options.length) {
        const typed = input.value;
        const chosen = active >= 0 ? options[active] : options.map((o) => o.textContent).includes(typed) ? undefined : options[0];
        if (!chosen) return;
        e.preventDefault();
        take(input, list, chosen.textContent || '');
      }
    });
    return h('div', { class: 'suggesting' }, [input, list]);
  }

  /**
   * The option at `index` is the active one: marked, named by the field, scrolled into view.
   * @param {SuggestingField} input
   * @param {HTMLElement[]} options
   * @param {number} index
   */
  function activate(input, options, index) {
    options.forEach((o, i) => o.setAttribute('aria-selected', i === index ? 'true' : 'false'));
    const option = options[index];
    input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView({ block: 'nearest' });
  }

  /**
   * @param {SuggestingField} input
   * @param {Element} list
   */
  function close(input, list) {
    list.textContent = '';
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  }

  /**
   * A suggestion goes into the field as if typed.
   * @param {SuggestingField} input
   * @param {Element} list
   * @param {string} value
   */
  function take(input, list, value) {
    close(input, list);
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.focus();
  }

  /**
   * Shows the server's suggestions under the field at `path` (if its text is still `value` and it
   * still has the focus); clicking one puts it in the field as if typed.
   * @param {Element} root
   * @param {string} path
   * @param {string} value
   * @param {unknown} values
   */
  function show(root, path, value, values) {
    const field = [...root.querySelectorAll('.field')].find((el) => /** @type {HTMLElement} */ (el).dataset.path === path);
    const input = /** @type {HTMLInputElement|null} */ (field && field.querySelector('.suggesting [role="combobox"]'));
    const list = field && field.querySelector('.suggestions');
    if (!input || !list || input.value !== value) return;
    close(input, list);
    const all = (Array.isArray(values) ? values : []).map(String);
    // A value already chosen (or typed in full) needs no suggestions under it; nor a field left.
    if (all.includes(value) || document.activeElement !== input) return;
    all.slice(0, 20).forEach((v, i) => {
      list.append(
        h('div', {
          class: 'suggestion',
          role: 'option',
          id: list.id + '-' + i,
          'aria-selected': 'false',
          title: 'Suggested by the server',
          // The field keeps the focus while the pointer picks.
          onmousedown: (/** @type {MouseEvent} */ e) => e.preventDefault(),
          onclick: () => take(input, list, v),
        }, [v]),
      );
    });
    input.setAttribute('aria-expanded', all.length ? 'true' : 'false');
  }

  // eslint-disable-next-line no-unused-vars
  var McpSuggestions = Object.freeze({ combobox, show });
}
