// The dialogs MCP Host shows: asking for a `${input:…}` value and asking consent to start a
// workspace-defined server.
import * as vscode from 'vscode';
import type { InputDefinition } from '../../config';
import { ConsentFacts, consentFactLines, consentPrompt, multiConsentPrompt } from './consentText';
import { plainPickText } from '../../content/untrustedText';

/** Asks for one input: an input box (masked for passwords) or a quick pick. Undefined when dismissed. */
export async function askForInput(definition: InputDefinition, sourceLabel: string): Promise<string | undefined> {
  const title = `MCP Host: ${definition.description ?? definition.id}`;
  if (definition.type === 'pickString') {
    const options = definition.options ?? [];
    const items = options.map((label) => ({ label, description: label === definition.default ? 'default' : undefined }));
    const picked = await vscode.window.showQuickPick(items, {
      title,
      placeHolder: `${definition.description ?? definition.id} (input "${definition.id}" of ${sourceLabel})`,
      ignoreFocusOut: true,
    });
    return picked?.label;
  }
  return vscode.window.showInputBox({
    title,
    prompt: `Value for input "${definition.id}" of ${sourceLabel}. It is kept in ${definition.password ? 'VS Code secret storage' : 'workspace state'}; "MCP Host: Clear Stored Inputs" forgets it.`,
    value: definition.password ? undefined : definition.default,
    password: definition.password === true,
    ignoreFocusOut: true,
  });
}

export const ALLOW = 'Allow';
export const DENY = 'Deny';

/** What the user answered; `dismissed` when the dialog was closed without a choice. */
export type ConsentAnswer = 'allowed' | 'denied' | 'dismissed';

/**
 * The modal consent dialog: the exact command line, working directory and the names of the
 * environment variables the server sets. The caller makes sure only one is open at a time.
 */
export async function askConsent(facts: ConsentFacts): Promise<ConsentAnswer> {
  const { message, detail } = consentPrompt(facts);
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW, DENY);
  return choice === ALLOW ? 'allowed' : choice === DENY ? 'denied' : 'dismissed';
}

export const ALLOW_ALL = 'Allow All';
export const ALLOW_SELECTED = 'Allow Selected…';
export const DENY_ALL = 'Deny All';

/**
 * One consent dialog for several servers (VS Code has no multi-select modal): a modal lists every
 * server with its exact command or URL and offers Allow All, Allow Selected… and Deny All; Allow
 * Selected… opens a quick pick with a checkbox per server, where the unticked ones are denied.
 * Closing either decides nothing. The answers are in the order of `all`.
 */
export async function askConsentForAll(all: readonly ConsentFacts[]): Promise<ConsentAnswer[]> {
  const same = (answer: ConsentAnswer) => all.map(() => answer);
  const { message, detail } = multiConsentPrompt(all);
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW_ALL, ALLOW_SELECTED, DENY_ALL);
  if (choice === ALLOW_ALL) return same('allowed');
  if (choice === DENY_ALL) return same('denied');
  if (choice !== ALLOW_SELECTED) return same('dismissed');
  const items = all.map((f, index) => ({ label: plainPickText(f.name), description: f.sourceLabel, detail: plainPickText(consentFactLines(f)[0]), index }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'MCP Host: allow which servers to start?',
    placeHolder: 'Tick the servers to allow, then OK. The others are denied (click a denied row later to be asked again). Escape decides nothing.',
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (!picked) return same('dismissed');
  const allowed = new Set(picked.map((p) => p.index));
  return all.map((_, i) => (allowed.has(i) ? 'allowed' : 'denied'));
}
