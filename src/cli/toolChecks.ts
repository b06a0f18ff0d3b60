// What `tools --search` and `--pins FILE` add to the CLI: the chat's search ranking over the
// tools of every server given, and the chat's pins checked in scripts.
import { promises as fs } from 'node:fs';
import type { Tool } from '../client/schemas';
import { ChangedTool, PinStore, changedTools, formatChanges, parsePinStore, serverIdentity, withPin } from '../chat/pins';
import { ToolSearchIndex } from '../chat/toolSearch';
import type { ResolvedServer } from '../config/variables';
import type { McpClient } from '../client/client';

/** One search result as `--json` prints it. */
export interface CliSearchResult {
  readonly server: string;
  readonly tool: string;
  readonly score: number;
  readonly description: string;
}

/** The best `limit` tools of `listed` for `query`, best first. */
export function searchListedTools(listed: readonly { server: string; tools: readonly Tool[] }[], query: string, limit: number): CliSearchResult[] {
  const items = listed.flatMap((l) => l.tools.map((tool) => ({ serverName: l.server, tool })));
  return new ToolSearchIndex(items).search(query, limit).map((m) => ({ server: m.item.serverName, tool: m.item.tool.name, score: m.score, description: m.item.tool.description ?? '' }));
}

/** The results as text: score, server/tool and the description's first line. */
export function renderSearchResults(results: readonly CliSearchResult[], query: string): string {
  if (results.length === 0) return `No tool matches ${JSON.stringify(query)}.`;
  return results.map((r) => `${r.score.toFixed(3).padStart(7)}  ${r.server}/${r.tool}${r.description ? `  ${r.description.split('\n')[0].trim()}` : ''}`).join('\n');
}

/**
 * Checks `tools` of `server` against the pins in `file` (a missing file holds none). When nothing
 * changed, tools not pinned yet are pinned and the file written; the changed tools otherwise.
 */
export async function checkPinsFile(file: string, server: ResolvedServer, tools: readonly Tool[], now = Date.now()): Promise<ChangedTool[]> {
  let store: PinStore = {};
  try {
    store = parsePinStore(await fs.readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`--pins ${file}: ${(error as Error).message}`);
  }
  const identity = serverIdentity(server);
  const changed = changedTools(store, identity, tools);
  if (changed.length) return changed;
  const pinned = store[identity] ?? {};
  const fresh = tools.filter((t) => !pinned[t.name]);
  if (fresh.length) {
    for (const tool of fresh) store = withPin(store, identity, tool, now);
    await fs.writeFile(file, JSON.stringify(store, null, 2) + '\n');
  }
  return [];
}

/** The stderr lines naming each changed tool, with its diff. */
export function describeChangedPins(changed: readonly ChangedTool[], file: string): string[] {
  return changed.flatMap((c) => [`mcp-host: the tool ${c.tool} changed since it was pinned in ${file}:`, ...formatChanges(c.changes).split('\n').map((l) => `  ${l}`)]);
}

/** `--pins FILE`: true (each changed tool named on stderr) when a tool changed since it was pinned; new tools are pinned. */
export async function pinsChanged(client: McpClient, pinsFile: string, resolved: ResolvedServer, stderr: (text: string) => void, signal: AbortSignal): Promise<boolean> {
  if (!client.serverCapabilities?.tools) return false;
  const changed = await checkPinsFile(pinsFile, resolved, await client.listTools({ signal }));
  if (changed.length) stderr(describeChangedPins(changed, pinsFile).join('\n') + '\n');
  return changed.length > 0;
}
