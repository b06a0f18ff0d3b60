// MCP Host's panels as tabs behave like VS Code's own editors. A panel opened by a click (a tool,
// a prompt, a server's details) is a preview: the next one opened in its editor group takes its
// place, unless the user kept it (pinned its tab, typed in its form, ran it) or turned previews
// off (`workbench.editor.enablePreview`). And the panels open when the window reloads come back:
// each page keeps what it shows (`vscode.setState`, told by a `remember` message), and the
// serializers registered for the panel types build the panel again from it.
import * as vscode from 'vscode';
import type * as z from '../../protocol/zod';
import { onDemand } from '../../protocol/zodOnDemand';
import { listItemSchemas } from '../../client/schemas';

/** The webview types of the panels a reload restores (their serializers are registered at activation). */
export const PANEL_VIEW_TYPES = { tool: 'mcpHost.toolCall', prompt: 'mcpHost.prompt', details: 'mcpHost.serverDetails' } as const;

/** What a panel needs to be built again after a reload (a prompt's arguments: its server may not list it yet). */
export type PanelRestoreState = z.infer<ReturnType<typeof panelRestoreStateSchema>>;

const panelRestoreStateSchema = onDemand((z) =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('tool'), serverId: z.string(), name: z.string() }),
    z.strictObject({ kind: z.literal('prompt'), serverId: z.string(), prompt: listItemSchemas().prompts }),
    z.strictObject({ kind: z.literal('details'), serverId: z.string() }),
  ]),
);

/** The state a page kept, when it is one of ours (a page is server-influenced: parsed, never trusted). */
export function parseRestoreState(raw: unknown): PanelRestoreState | undefined {
  const parsed = panelRestoreStateSchema().safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Tells the page what to keep for a reload; call once its script said `ready`. */
export function rememberForRestore(panel: vscode.WebviewPanel, state: PanelRestoreState): void {
  void panel.webview.postMessage({ type: 'remember', state });
}

/** A panel's place as a preview tab. */
export interface PreviewTab {
  /** The user kept the panel (typed, ran): it stays open when the next panel opens. */
  keep(): void;
}

interface PreviewEntry {
  readonly panel: vscode.WebviewPanel;
  readonly viewType: string;
  kept: boolean;
}

/** The preview panel of each editor group (by view column). */
const previews = new Map<vscode.ViewColumn, PreviewEntry>();

/**
 * Makes `panel` (just created, in the active group) the group's preview; the group's previous
 * preview closes unless it was kept or its tab pinned. A restored panel is not a preview.
 */
export function openAsPreview(panel: vscode.WebviewPanel, viewType: string): PreviewTab {
  const entry: PreviewEntry = { panel, viewType, kept: !vscode.workspace.getConfiguration('workbench.editor').get<boolean>('enablePreview', true) };
  // The panel was just created in the active group; its own viewColumn is not known until VS Code reports it.
  const column = vscode.window.tabGroups.activeTabGroup.viewColumn ?? panel.viewColumn;
  const forget = () => {
    for (const [c, e] of previews) if (e === entry) previews.delete(c);
  };
  const keep = () => {
    entry.kept = true;
    forget();
  };
  if (entry.kept || column === undefined) return { keep };
  const previous = previews.get(column);
  previews.set(column, entry);
  panel.onDidDispose(forget);
  if (previous && previous.panel !== panel && !previous.kept && !isPinned(previous)) previous.panel.dispose();
  return { keep };
}

/** Whether the user pinned the panel's tab (the API has no tab of a panel: found by type and title). */
function isPinned(entry: PreviewEntry): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.isPinned && tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(entry.viewType) && tab.label === entry.panel.title),
  );
}
