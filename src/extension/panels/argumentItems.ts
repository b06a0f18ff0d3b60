// The items of one step of Ask Arguments (argumentInput.ts), decided without `vscode`: what the
// quick pick lists for what was typed, the server's suggestions and the argument's needs.
import { plainPickText } from '../../content/untrustedText';

/** One argument a prompt or a resource template asks for. */
export interface ArgumentSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A quick pick item that carries the value it stands for. */
export interface ArgumentItem {
  readonly label: string;
  readonly description: string;
  readonly value: string;
  readonly alwaysShow: true;
}

/** What one step shows, as it is now. */
export interface ArgumentStepState {
  readonly arg: ArgumentSpec;
  /** What is in the input box. */
  readonly typed: string;
  /** The server's last `completion/complete` values for it. */
  readonly suggestions: readonly string[];
  /** True while the server is asked for suggestions. */
  readonly busy: boolean;
  /** True when the server offers completions at all. */
  readonly canComplete: boolean;
}

/**
 * The items, first the one Enter takes: Skip for an empty optional argument, then the server's
 * suggestions (so Enter after typing "E" takes "Engineering"), then what was typed, to send as it
 * is. Never an empty list ("0 Results"): until there is something to take, one item says what to do.
 */
export function argumentItems({ arg, typed, suggestions, busy, canComplete }: ArgumentStepState): ArgumentItem[] {
  const suggested: ArgumentItem[] = suggestions.map((s) => ({ label: plainPickText(s), description: 'suggested by the server', value: s, alwaysShow: true }));
  const asTyped: ArgumentItem[] = typed !== '' && !suggestions.includes(typed) ? [{ label: plainPickText(typed), description: 'as typed', value: typed, alwaysShow: true }] : [];
  const skip: ArgumentItem[] = typed === '' && !arg.required ? [{ label: '$(debug-step-over) Skip', description: `leave ${arg.name} out`, value: '', alwaysShow: true }] : [];
  const prompt: ArgumentItem[] =
    typed === '' && skip.length === 0 && suggested.length === 0
      ? [{ label: `$(edit) Type ${arg.title ?? arg.name}`, description: busy ? 'asking the server for suggestions…' : canComplete ? 'the server suggests nothing for an empty value' : 'required', value: '', alwaysShow: true }]
      : [];
  return [...skip, ...suggested, ...asTyped, ...prompt];
}

/** The other arguments answered so far, sent with a completion request as its context; undefined when there are none. */
export function completionContext(values: Readonly<Record<string, string>>, name: string): { arguments: Record<string, string> } | undefined {
  const context: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (k !== name) context[k] = v;
  return Object.keys(context).length ? { arguments: context } : undefined;
}
