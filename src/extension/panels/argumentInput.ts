// Asks for a list of string arguments one by one (prompt arguments, template variables), with
// the server's `completion/complete` suggestions as the user types (debounced), required ones
// marked, and earlier answers sent as context for the later ones.
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import { errorMessage } from '../../protocol/errors';
import { ArgumentItem, ArgumentSpec, argumentItems, completionContext } from './argumentItems';

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** How long typing must pause before completions are asked for. */
export const COMPLETION_DEBOUNCE_MS = 250;

/** What Ask Arguments is given: the steps' title, the arguments, where completions come from, the answers to start from. */
export interface AskArgumentsOptions {
  readonly title: string;
  readonly args: readonly ArgumentSpec[];
  readonly client: McpClient | undefined;
  readonly ref: CompletionRef;
  readonly initial?: Readonly<Record<string, string>>;
  readonly log?: (text: string) => void;
}

/**
 * Runs the input steps; resolves with the values (optional ones left out when skipped), or
 * undefined when the user cancelled. Back (the title bar button) goes to the previous step.
 */
export async function askArguments(options: AskArgumentsOptions): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = { ...options.initial };
  const canComplete = !!options.client?.serverCapabilities?.completions;
  for (let i = 0; i < options.args.length; ) {
    const arg = options.args[i];
    const answer = await askOne(options, arg, i, values, canComplete);
    if (answer === 'back') {
      i = Math.max(0, i - 1);
      continue;
    }
    if (answer === undefined) return undefined;
    if (answer === '' && !arg.required) delete values[arg.name];
    else values[arg.name] = answer;
    i++;
  }
  return values;
}

/** The quick pick of one step: its title counts the steps, its placeholder says what the argument is and whether it may be skipped; Back from the second step on. */
function argumentPick(options: AskArgumentsOptions, arg: ArgumentSpec, index: number, values: Readonly<Record<string, string>>): vscode.QuickPick<ArgumentItem> {
  const pick = vscode.window.createQuickPick<ArgumentItem>();
  pick.title = `${options.title} (${index + 1}/${options.args.length})`;
  pick.placeholder = `${arg.title ?? arg.name}${arg.required ? ' (required)' : ' (optional — Enter on empty skips it)'}${arg.description ? ` — ${arg.description}` : ''}`;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = false;
  pick.buttons = index > 0 ? [vscode.QuickInputButtons.Back] : [];
  pick.value = values[arg.name] ?? '';
  return pick;
}

/** One step: the answer, 'back' (the Back button), or undefined when the user cancelled. */
function askOne(options: AskArgumentsOptions, arg: ArgumentSpec, index: number, values: Record<string, string>, canComplete: boolean): Promise<string | 'back' | undefined> {
  return new Promise((resolve) => {
    const pick = argumentPick(options, arg, index, values);
    const label = arg.title ?? arg.name;
    let suggestions: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let generation = 0;
    let done = false;
    let abort: AbortController | undefined;

    const render = () => {
      const items = argumentItems({ arg, typed: pick.value, suggestions, busy: pick.busy, canComplete });
      pick.items = items;
      if (items.length) pick.activeItems = [items[0]];
    };

    const complete = () => {
      if (!canComplete || !options.client) return;
      const mine = ++generation;
      abort?.abort();
      abort = new AbortController();
      pick.busy = true;
      render();
      options.client
        .complete(options.ref, { name: arg.name, value: pick.value }, completionContext(values, arg.name), { signal: abort.signal, timeoutMs: 10_000 })
        .then(
          (r) => {
            if (mine !== generation || done) return;
            suggestions = r.completion.values.slice(0, 100).map(String);
            render();
          },
          (error: unknown) => {
            if (mine === generation && !done) options.log?.(`completion/complete for ${arg.name} failed: ${errorMessage(error)}`);
          },
        )
        .finally(() => {
          if (mine !== generation || done) return;
          pick.busy = false;
          render();
        });
    };

    const finish = (result: string | 'back' | undefined) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      abort?.abort();
      resolve(result);
      pick.dispose();
    };

    pick.onDidChangeValue(() => {
      render();
      if (timer) clearTimeout(timer);
      timer = setTimeout(complete, COMPLETION_DEBOUNCE_MS);
    });
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      const value = chosen ? chosen.value : pick.value;
      if (value === '' && arg.required) {
        pick.placeholder = `${label} is required — type a value`;
        return;
      }
      finish(value);
    });
    pick.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish('back');
    });
    pick.onDidHide(() => finish(undefined));
    render();
    pick.show();
    complete();
  });
}
