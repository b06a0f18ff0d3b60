// The dialogs MCP Host shows: asking for a `${input:…}` value and asking consent to start a
// workspace-defined server.
import * as vscode from 'vscode';
import type { InputDefinition } from '../config';
import { ConsentFacts, SignInFacts, consentPrompt, signInPrompt } from './format';

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

export const SIGN_IN = 'Sign In';

/** The modal asked before a sign-in opens the browser. True when the user chose Sign In. */
export async function askSignIn(facts: SignInFacts): Promise<boolean> {
  const prompt = signInPrompt(facts);
  if ('blocked' in prompt) throw new Error(prompt.blocked);
  return (await vscode.window.showWarningMessage(prompt.message, { modal: true, detail: prompt.detail }, SIGN_IN)) === SIGN_IN;
}
