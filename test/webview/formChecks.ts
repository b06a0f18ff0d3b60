// The extension's side of a form's checks, for page-harness tests of the tool and prompt panels.
// The page asks for a check (`validate`) 150 ms after the last edit and counts its checks out and
// back (media/webview/runGate.js): the extension answers every one, in order. On a loaded machine
// typing can be split into several checks (the pause between two keys outlasts the 150 ms), so a
// test that answers only "the next" check leaves one out, and the page then rightly waits for it.
import type { FieldModel } from '../../src/forms/model';
import { sharedSchemaValidator } from '../../src/schema/validator';
import { readToolArguments } from '../../src/usecases/callTool';
import type { Input, OutboundMessage } from '../../src/usecases/panelMessages';
import type { WebviewPage } from './pageHarness';

/**
 * Answers a page's checks as the extension does. The returned function waits until the page has
 * asked for a check of an input `matches` accepts (one not answered yet), answers every check not
 * answered yet, in order, with `answer`, and resolves with the last matching input. `answered`:
 * how many checks the test answered itself before (the first ones).
 */
export function formChecks(page: WebviewPage, answer: (input: Input) => OutboundMessage, answered = 0): (matches: (input: Input) => boolean) => Promise<Input> {
  return async (matches) => {
    let asked: Input[] = [];
    let found: Input | undefined;
    const deadline = Date.now() + 20_000;
    for (;;) {
      asked = (await page.posted('validate')).map((m) => m.input as Input);
      found = asked.slice(answered).filter(matches).at(-1);
      if (found) break;
      if (Date.now() > deadline) throw new Error(`no check of the expected input came; the page asked for ${JSON.stringify(asked.slice(answered))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const input of asked.slice(answered)) await page.send(answer(input));
    answered = asked.length;
    return found;
  };
}

/** The form's value at `key` in a check's input (form mode), as the page holds it (numbers as typed text). */
export function formValue(input: Input, key: string): unknown {
  return input.mode === 'form' && input.state && typeof input.state === 'object' && !Array.isArray(input.state) ? (input.state as Record<string, unknown>)[key] : undefined;
}

/** The tool panel's answer to a check of `input` against `model`: its errors, and the arguments' preview when there are none. */
export function toolPanelAnswer(model: FieldModel): (input: Input) => OutboundMessage {
  return (input) => {
    const checked = readToolArguments(model, input, sharedSchemaValidator);
    return { type: 'validation', errors: checked.errors, ...(checked.errors.length === 0 ? { preview: JSON.stringify(checked.value, null, 2) } : {}) };
  };
}
