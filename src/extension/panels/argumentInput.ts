// Asks for a list of string arguments one by one (prompt arguments, template variables), with
// the server's `completion/complete` suggestions as the user types (debounced), required ones
// marked, and earlier answers sent as context for the later ones.
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import { errorMessage } from '../../protocol/errors';
import { plainPickText } from '../../content/untrustedText';

export interface ArgumentSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** How long typing must pause before completions are asked for. */
export const COMPLETION_DEBOUNCE_MS = 250;

interface ValueItem extends vscode.QuickPickItem {
  readonly value: string;
}

/**
 * Runs the input steps; resolves with the values (optional ones left out when skipped), or
 * undefined when the user cancelled. Back (the title bar button) goes to the previous step.
 */
export async function askArguments(options: {
  readonly title: string;
  readonly args: readonly ArgumentSpec[];
  readonly client: McpClient | undefined;
  readonly ref: CompletionRef;
  readonly initial?: Readonly<Record<string, string>>;
  readonly log?: (text: string) => void;
}): Promise<Record<string, string> | undefined> {
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

function askOne(
  options: Parameters<typeof askArguments>[0],
  arg: ArgumentSpec,
  index: number,
  values: Record<string, string>,
  canComplete: boolean,
): Promise<string | 'back' | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<ValueItem>();
    const label = arg.title ?? arg.name;
    pick.title = `${options.title} (${index + 1}/${options.args.length})`;
    pick.placeholder = `${label}${arg.required ? ' (required)' : ' (optional — Enter on empty skips it)'}${arg.description ? ` — ${arg.description}` : ''}`;
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = false;
    pick.buttons = index > 0 ? [vscode.QuickInputButtons.Back] : [];
    pick.value = values[arg.name] ?? '';
    let suggestions: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let generation = 0;
    let done = false;
    let abort: AbortController | undefined;

    // The server's suggestions come first, so Enter after typing "E" takes "Engineering"; what
    // was typed follows, to send as it is. An empty optional field keeps "Skip" first.
    const render = () => {
      const typed = pick.value;
      const suggested: ValueItem[] = suggestions.map((s) => ({ label: plainPickText(s), description: 'suggested by the server', value: s, alwaysShow: true }));
      const asTyped: ValueItem[] = typed !== '' && !suggestions.includes(typed) ? [{ label: plainPickText(typed), description: 'as typed', value: typed, alwaysShow: true }] : [];
      const skip: ValueItem[] = typed === '' && !arg.required ? [{ label: '$(debug-step-over) Skip', description: `leave ${arg.name} out`, value: '', alwaysShow: true }] : [];
      // Never an empty list ("0 Results"): until there is something to take, say what to do.
      const prompt: ValueItem[] =
        typed === '' && skip.length === 0 && suggested.length === 0
          ? [{ label: `$(edit) Type ${label}`, description: pick.busy ? 'asking the server for suggestions…' : canComplete ? 'the server suggests nothing for an empty value' : 'required', value: '', alwaysShow: true }]
          : [];
      const items = [...skip, ...suggested, ...asTyped, ...prompt];
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
      const context: Record<string, string> = {};
      for (const [k, v] of Object.entries(values)) if (k !== arg.name) context[k] = v;
      options.client
        .complete(options.ref, { name: arg.name, value: pick.value }, Object.keys(context).length ? { arguments: context } : undefined, { signal: abort.signal, timeoutMs: 10_000 })
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
