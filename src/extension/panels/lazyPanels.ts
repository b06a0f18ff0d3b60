// The webview panels of the use cases, loaded on first use: activation needs none of their code,
// and the bundle build (esbuild.mjs) puts what only they use into files of its own, read when a
// panel first opens.
import type * as ToolPanelModule from './toolPanel';
import type * as PromptPanelModule from './promptPanel';
import type * as ViewPanelModule from './viewPanel';

let toolPanel: Promise<typeof ToolPanelModule> | undefined;
let promptPanel: Promise<typeof PromptPanelModule> | undefined;
let viewPanel: Promise<typeof ViewPanelModule> | undefined;

/** The tool panel's class (a tool's form and results), loaded once. */
export async function loadToolPanel(): Promise<typeof ToolPanelModule.ToolPanel> {
  return (await (toolPanel ??= import('./toolPanel.js'))).ToolPanel;
}

/** The prompt panel's class (a prompt's form and messages), loaded once. */
export async function loadPromptPanel(): Promise<typeof PromptPanelModule.PromptPanel> {
  return (await (promptPanel ??= import('./promptPanel.js'))).PromptPanel;
}

/** The read-only panel's class (a resource's contents, a prompt's messages), loaded once. */
export async function loadViewPanel(): Promise<typeof ViewPanelModule.ViewPanel> {
  return (await (viewPanel ??= import('./viewPanel.js'))).ViewPanel;
}

/** Closes every open panel of the kinds loaded so far (a kind never loaded has none open). */
export function disposeLoadedPanels(): void {
  void toolPanel?.then((m) => m.ToolPanel.disposeAll());
  void promptPanel?.then((m) => m.PromptPanel.disposeAll());
  void viewPanel?.then((m) => m.ViewPanel.disposeAll());
}
