// "Find Tool…": a quick pick over every tool of every running server, drawn or not. The tree
// draws a long Tools group a page at a time, and its own find sees only the rows it drew; this
// searches them all, ranked by the same BM25 as @mcp's find_tools (chat/toolSearch.ts), the last
// word matched as typed. Accepting opens the tool's panel (the tree row's command) and shows its
// row in the tree. Loaded on first use (commands.ts).
import * as vscode from 'vscode';
import { ToolSearchIndex, type SearchableTool } from '../../chat/toolSearch';
import type { Tool } from '../../client/schemas';
import { truncate } from '../../protocol/text';
import type { ServerHandle } from '../../registry';
import { pagedRows } from './groupPages';
import { plainPickText } from '../../content/untrustedText';
import { revealInvisible } from '../../content/invisibleText';

/** A tool of a running server, where it sits in that server's list. */
export interface FoundTool extends SearchableTool {
  readonly serverId: string;
  /** Which tool of that name (a server may list a name twice): 0 for the first. */
  readonly occurrence: number;
}

/** What Find Tool… needs of the host. */
export interface FindToolDeps {
  /** The running servers, in configuration order. */
  runningServers(): readonly ServerHandle[];
  /** Opens the tool's panel (the tree row's command). */
  openTool(serverId: string, name: string): Thenable<unknown>;
  /** Selects the tool's row in the tree, loading its page; false when the tree has no such row (never rejects). */
  revealTool(serverId: string, name: string, occurrence: number): Promise<boolean>;
}

/** Items shown at most: the first tools before anything is typed, then the best matches (fewer: redrawn per key). */
const MAX_LISTED = 200;
const MAX_MATCHES = 50;

/** Every tool of `servers`, in the tree's order. */
export function toolsOf(servers: readonly ServerHandle[]): FoundTool[] {
  const out: FoundTool[] = [];
  for (const h of servers) {
    const tools = h.tools ?? [];
    for (const { item: tool, occurrence } of pagedRows(tools, (t) => t.name, tools.length)) out.push({ serverId: h.id, serverName: h.entry.name, tool, occurrence, ...(h.client?.instructions ? { serverInstructions: h.client.instructions } : {}) });
  }
  return out;
}

/** The tools that match `query` (as typed), best first; all of them, in order, for an empty query. */
export function rankTools(index: ToolSearchIndex<FoundTool>, query: string): FoundTool[] {
  if (!query.trim()) return index.items.slice(0, MAX_LISTED);
  return index.search(query, MAX_MATCHES, { asYouType: true }).map((m) => m.item);
}

type Item = vscode.QuickPickItem & { readonly found: FoundTool };

function itemOf(found: FoundTool, multipleServers: boolean): Item {
  const t: Tool = found.tool;
  const title = t.title ?? t.annotations?.title;
  return {
    label: plainPickText(found.tool.name),
    description: plainPickText([multipleServers || !title ? found.serverName : undefined, title].filter(Boolean).join(' · ')),
    detail: t.description ? plainPickText(truncate(revealInvisible(t.description.replace(/\s+/g, ' ')), 200)) : undefined,
    // Our ranking decides what is shown, not the quick pick's own filter; the quick pick still
    // puts the names the typed text matches first (its sort, in stable API), the rest keep our order.
    alwaysShow: true,
    found,
  };
}

/** Shows the pick; `serverId` limits it to one server (the command run from a Tools group). */
export async function findTool(deps: FindToolDeps, serverId?: string): Promise<void> {
  const servers = deps.runningServers().filter((h) => !serverId || h.id === serverId);
  const tools = toolsOf(servers);
  if (tools.length === 0) {
    void vscode.window.showInformationMessage(serverId ? 'MCP Host: that server lists no tools.' : 'MCP Host: no running server lists tools.');
    return;
  }
  const index = new ToolSearchIndex(tools);
  const multipleServers = new Set(tools.map((t) => t.serverId)).size > 1;
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'Find Tool';
  pick.placeholder = `Search ${tools.length.toLocaleString('en-US')} tools${servers.length > 1 ? ` of ${servers.length} servers` : ` of ${servers[0].entry.name}`} by name, title or description`;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const show = (query: string) => {
    pick.items = rankTools(index, query).map((t) => itemOf(t, multipleServers));
  };
  show('');
  const picked = await new Promise<FoundTool | undefined>((resolve) => {
    pick.onDidChangeValue(show);
    pick.onDidAccept(() => {
      resolve(pick.activeItems[0]?.found);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!picked) return;
  // The panel first (it takes the focus), the row beside it (a quiet selection): revealing a tool
  // far down a long list loads every page up to it, which takes VS Code a while to draw.
  const opened = deps.openTool(picked.serverId, picked.tool.name);
  void deps.revealTool(picked.serverId, picked.tool.name, picked.occurrence);
  await opened;
}
