// Asks VS Code for the language models once after start-up (and again when extensions change),
// so the chat's model picker has a model to select when no Copilot is installed.
//
// Why: VS Code's workbench learns a provider extension's models only when something asks for
// them (`LanguageModelsService._resolveAllLanguageModels`, called from `selectLanguageModels`,
// a provider's change event, or a configured group). Copilot asks at start; without Copilot
// nothing does, so the picker shows "Models" with none selected, the request to @mcp carries no
// model, and the extension host's fallback (`getDefaultLanguageModel`) only accepts a Copilot
// model: VS Code answers "Language model unavailable" before @mcp's handler is called
// (measured in VS Code 1.139; test/e2e/chat.test.ts). `vscode.lm.selectChatModels()` is the
// public way to ask; it is silent (no sign-in prompts) and cheap, and it runs off the activation path.
import * as vscode from 'vscode';
import { describeListedModels } from '../../chat/modelAvailability';

/** How long after activation the first look waits (the workbench is still restoring). */
const FIRST_LOOK_DELAY_MS = 1_000;

/** True when the user switched VS Code's AI features off (there is no Chat view to pick a model in). */
function aiFeaturesOff(): boolean {
  return vscode.workspace.getConfiguration('chat').get<boolean>('disableAIFeatures') === true;
}

/**
 * Keeps the chat's model list resolved: once shortly after activation, again when an extension is
 * installed or removed (a model provider may have arrived), and when AI features are switched on.
 * `log` gets one line per look (how many models VS Code listed).
 */
export function keepChatModelsListed(log: (text: string) => void): vscode.Disposable {
  let disposed = false;
  const look = (why: string) => {
    if (disposed || aiFeaturesOff()) return;
    vscode.lm.selectChatModels().then(
      (models) => log(describeListedModels(why, models)),
      (error: unknown) => log(`Listing the language models failed (${why}): ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  const timer = setTimeout(() => look('start-up'), FIRST_LOOK_DELAY_MS);
  const subs = [
    vscode.extensions.onDidChange(() => look('extensions changed')),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('chat.disableAIFeatures')) look('AI features switched on');
    }),
  ];
  return new vscode.Disposable(() => {
    disposed = true;
    clearTimeout(timer);
    for (const s of subs) s.dispose();
  });
}
