// Which tools a chat request offers the model: the enabled tools of the running servers (narrowed
// by /servers or a tool set), all of them while they fit the budget, else `find_tools` plus the
// tools already loaded; never a tool its server offers to apps only. Also what `/tools` shows: what is offered and why the rest is left out.
import { toolVisibility } from '../client/apps';
import type { Tool } from '../client/schemas';
import { NamedTool, ServerTool, nameToolsForModel } from './toolNames';
import { revealInvisible } from '../content/invisibleText';

/** The host's own search tool, offered when the enabled tools exceed the budget. */
export const FIND_TOOLS = 'find_tools';

/** The host's tool that loads a skill the model picked from the skills listed with the request (skillLoading.ts). */
export const LOAD_SKILL = 'load_skill';

/** A tool definition as a model API takes it. */
export interface ModelToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object;
}

export const FIND_TOOLS_DEFINITION: ModelToolDefinition = {
  name: FIND_TOOLS,
  description:
    'Searches the tools of the MCP servers the user has enabled and loads the best matches, so you can call them next. Describe what you want to do in a few words (e.g. "read a file", "list notes"). Call it whenever you need a tool you do not have.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'What the tool should do, in a few words' }, limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many tools to load (default 5)' } },
    required: ['query'],
  },
};

export const LOAD_SKILL_DEFINITION: ModelToolDefinition = {
  name: LOAD_SKILL,
  description: 'Loads one of the skills listed with the request (instructions an MCP server offers), by its id, verified against the server\'s listing; then, with "file", one of its other files. The user may be asked first.',
  inputSchema: {
    type: 'object',
    properties: { skill: { type: 'string', description: 'The skill\'s id, as listed (server:path)' }, file: { type: 'string', description: 'A file of a loaded skill, by its path in the skill (e.g. references/FORMS.md)' } },
    required: ['skill'],
  },
};

/** When the enabled tools are too many to send whole. */
export interface ToolBudget {
  /** At most this many tool definitions (VS Code caps a request at 128). */
  readonly maxTools: number;
  /** At most this many estimated tokens of tool definitions. */
  readonly maxTokens: number;
}

/** The definition the model sees for a tool; its description says which server it belongs to. */
export function modelDefinition(tool: NamedTool): ModelToolDefinition {
  const t = tool.tool;
  const about = [t.title && t.title !== t.name ? t.title : undefined, t.description].filter(Boolean).join(': ');
  return { name: tool.modelName, description: `${about || t.name} (tool "${t.name}" of the MCP server "${tool.serverName}")`, inputSchema: t.inputSchema };
}

/** Estimated tokens of tool definitions: the JSON's characters / 4, the common rule of thumb for English and JSON. */
export function estimateDefinitionTokens(definitions: readonly ModelToolDefinition[]): number {
  return definitions.reduce((sum, d) => sum + Math.ceil(JSON.stringify(d).length / 4), 0);
}

/** Why a tool is not offered. */
export type LeftOutReason = 'app-only' | 'server-disabled' | 'tool-disabled' | 'not-selected' | 'over-budget';

export interface ToolCatalogInput {
  /** Every tool of every running server, in tree order. */
  readonly tools: readonly ServerTool[];
  /** False for a server the user switched off for models (per workspace). */
  isServerEnabled(serverId: string): boolean;
  /** False for a tool the user switched off. */
  isToolEnabled(serverId: string, tool: string): boolean;
  /** Narrows the request (from /servers, a tool set): true for tools it includes. Absent: all. */
  readonly selected?: (tool: ServerTool) => boolean;
  readonly budget: ToolBudget;
  /** Model names of tools loaded by find_tools or used earlier: offered even in discovery mode. */
  readonly loaded: ReadonlySet<string>;
}

export interface ToolCatalog {
  /** Every tool the model may use (enabled and selected), with its model name. */
  readonly usable: readonly NamedTool[];
  /** The tools whose definitions go with the request now. */
  readonly offered: readonly NamedTool[];
  /** True when the budget is exceeded: `find_tools` is offered as well. */
  readonly discovery: boolean;
  readonly leftOut: readonly { readonly tool: ServerTool; readonly reason: LeftOutReason }[];
  /** The definitions sent: the offered tools, and find_tools in discovery mode. */
  readonly definitions: readonly ModelToolDefinition[];
}

/** Builds the catalog of one round of a request. */
export function buildToolCatalog(input: ToolCatalogInput): ToolCatalog {
  const leftOut: { tool: ServerTool; reason: LeftOutReason }[] = [];
  const candidates: ServerTool[] = [];
  for (const t of input.tools) {
    // MCP Apps: a tool whose `_meta.ui.visibility` leaves out "model" is for its view alone.
    if (!toolVisibility(t.tool).model) leftOut.push({ tool: t, reason: 'app-only' });
    else if (!input.isServerEnabled(t.serverId)) leftOut.push({ tool: t, reason: 'server-disabled' });
    else if (!input.isToolEnabled(t.serverId, t.tool.name)) leftOut.push({ tool: t, reason: 'tool-disabled' });
    else if (input.selected && !input.selected(t)) leftOut.push({ tool: t, reason: 'not-selected' });
    else candidates.push(t);
  }
  const usable = nameToolsForModel(candidates, [FIND_TOOLS, LOAD_SKILL]);
  const all = usable.map(modelDefinition);
  const fits = usable.length <= input.budget.maxTools && estimateDefinitionTokens(all) <= input.budget.maxTokens;
  if (fits) return { usable, offered: usable, discovery: false, leftOut, definitions: all };
  const offered = usable.filter((t) => input.loaded.has(t.modelName)).slice(-Math.max(0, input.budget.maxTools - 1));
  for (const t of usable) if (!offered.includes(t)) leftOut.push({ tool: t, reason: 'over-budget' });
  return { usable, offered, discovery: true, leftOut, definitions: [FIND_TOOLS_DEFINITION, ...offered.map(modelDefinition)] };
}

/** A named tool set: entries are server names ("notes") or "server/tool". */
export type ToolSets = Readonly<Record<string, readonly string[]>>;

/** The selection of the tool sets `names` (a tool is in when any entry names its server or it). */
export function toolSetSelection(sets: ToolSets, names: readonly string[]): ((tool: ServerTool) => boolean) | undefined {
  const entries = names.flatMap((n) => sets[n] ?? []);
  if (names.length === 0) return undefined;
  return (t) => entries.some((e) => e === t.serverName || e === `${t.serverName}/${t.tool.name}`);
}

/** The text of `/tools`: what is offered and, grouped, what is left out and why. */
export function describeCatalog(catalog: ToolCatalog): string {
  const lines: string[] = [];
  const tokens = estimateDefinitionTokens(catalog.definitions);
  lines.push(`**${catalog.usable.length}** tool(s) usable; **${catalog.definitions.length}** definition(s) sent with a request (about ${tokens} tokens).`);
  if (catalog.discovery) lines.push(`The usable tools exceed the budget, so the model gets \`${FIND_TOOLS}\` and loads tools by searching.`);
  for (const t of catalog.offered) lines.push(`- \`${t.modelName}\` — ${t.serverName}: ${oneLine(t.tool)}`);
  const why: Record<LeftOutReason, string> = { 'app-only': 'offered to its app view only, by the server (_meta.ui.visibility)', 'server-disabled': 'server switched off for models', 'tool-disabled': 'switched off for models', 'not-selected': 'not in the servers or tool set of this request', 'over-budget': `found through ${FIND_TOOLS}` };
  for (const reason of Object.keys(why) as LeftOutReason[]) {
    const these = catalog.leftOut.filter((l) => l.reason === reason);
    if (these.length) lines.push(`\nLeft out (${why[reason]}): ${these.map((l) => `${l.tool.serverName}/${l.tool.tool.name}`).join(', ')}`);
  }
  return lines.join('\n');
}

function oneLine(tool: Tool): string {
  const text = revealInvisible((tool.description ?? '').replace(/\s+/g, ' ').trim());
  return text.length > 100 ? text.slice(0, 99) + '…' : text;
}
