// The tool-calling loop of one chat request, model-independent: send the conversation and the
// offered tools → for each tool call the model makes, ask approval as policy says, then run it
// through the one tool-call use case → send the results back → until the model answers without
// a tool call or the round limit is reached. The VS Code layer supplies the model and the UI.
import type { CallToolResult } from '../client/schemas';
import { ToolCallPorts, callTool } from '../usecases/callTool';
import { summarizeFailure } from '../usecases/resultModel';
import { ApprovalDecision, ApprovalSettings, SessionGrants, approvalNeed, maskedArguments } from './approval';
import { DefinitionChange, formatChanges } from './pins';
import { revealInvisible } from '../content/invisibleText';
import { ModelResultPart, toolResultForModel } from './resultParts';
import { SkillPorts, loadSkill, skillsContextText } from './skillLoading';
import { FIND_TOOLS, LOAD_SKILL, LOAD_SKILL_DEFINITION, ModelToolDefinition, ToolCatalog, modelDefinition } from './toolCatalog';
import { NamedTool } from './toolNames';
import { ToolSearchIndex } from './toolSearch';

/** A part of a chat message, model-independent. */
export type ChatPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'call'; readonly callId: string; readonly name: string; readonly input: object }
  | { readonly kind: 'result'; readonly callId: string; readonly parts: readonly ModelResultPart[] };

export interface ChatMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly ChatPart[];
}

/** What the model streams back: text, or a tool call. */
export type ModelOutput = Extract<ChatPart, { kind: 'text' } | { kind: 'call' }>;

/** What the user is asked before a call. */
export interface ApprovalRequest {
  readonly tool: NamedTool;
  /** The arguments with secret-looking values masked. */
  readonly shownArguments: unknown;
  readonly reason: string;
  /** Set when the tool changed since the user approved it: what changed. */
  readonly changes?: readonly DefinitionChange[];
}

/** One call, as the response shows it. */
export interface ChatCallReport {
  readonly tool: NamedTool;
  readonly outcome: 'answered' | 'tool-error' | 'denied' | 'failed' | 'invalid';
  readonly summary: string;
  /** The call as it ran and what the server answered (answered and tool-error only): what an app view is told. */
  readonly call?: { readonly arguments: Record<string, unknown>; readonly result: CallToolResult };
}

export interface ChatLoopPorts {
  /** Sends the conversation with these tool definitions; streams the model's answer. */
  send(messages: readonly ChatMessage[], tools: readonly ModelToolDefinition[]): AsyncIterable<ModelOutput>;
  /** The tools of this round (enablement and budget may differ as tools get loaded). */
  catalog(loaded: ReadonlySet<string>): ToolCatalog;
  /** Asks the user; resolves with the answer. */
  approve(request: ApprovalRequest): Promise<ApprovalDecision>;
  /** The approval settings of a server (trust, auto-approval of read-only tools). */
  approvalSettings(serverId: string): ApprovalSettings;
  /** The changes since the user approved `tool`, when it is pinned and changed; undefined otherwise. */
  pinChanges(tool: NamedTool): readonly DefinitionChange[] | undefined;
  /** The user approved a call of `tool`: pin its definition. */
  pinApproved(tool: NamedTool): void;
  /** The ports of the tool-call use case for `tool` (client, history, log, progress). */
  callPorts(tool: NamedTool): ToolCallPorts;
  /** Text of the model's answer, as it streams. */
  onText(text: string): void;
  /** A call is about to run (after approval). */
  onCallStart?(tool: NamedTool, args: object): void;
  onCallEnd?(report: ChatCallReport): void;
  /** find_tools ran: the names it loaded. */
  onToolsFound?(query: string, loaded: readonly NamedTool[]): void;
  /** The skills of the running servers: listed to the model with the request, loaded through load_skill. */
  readonly skills?: SkillPorts;
}

export interface ChatLoopOptions {
  /** At most this many model requests (each may make several tool calls). */
  readonly maxRounds: number;
  /** The model takes images (and audio): tool results pass them as data, else describe them. */
  readonly acceptsImages: boolean;
  readonly acceptsAudio?: boolean;
  readonly grants: SessionGrants;
  /** Cancels the request: the model request, and the tool call in flight (notifications/cancelled). */
  readonly signal?: AbortSignal;
  /** Model names already loaded (from earlier turns); find_tools adds to it. */
  readonly loaded?: Set<string>;
  /** The app view that wrote this request (its `ui/message`), when one did: every call then asks. */
  readonly writtenByApp?: string;
}

/** How the loop ended. */
export type ChatLoopEnd =
  | { readonly kind: 'answered'; readonly rounds: number; readonly calls: number }
  | { readonly kind: 'round-limit'; readonly rounds: number; readonly calls: number }
  | { readonly kind: 'cancelled'; readonly rounds: number; readonly calls: number };

/** The text the model reads when the user denies a call. */
export const DENIED_TEXT = 'The user denied this tool call. Do not call it again for this request; answer without it or ask the user.';

/** Runs the loop; `messages` starts with the user's request (and any history). */
export async function runChatLoop(messages: ChatMessage[], ports: ChatLoopPorts, options: ChatLoopOptions): Promise<ChatLoopEnd> {
  const loaded = options.loaded ?? new Set<string>();
  const skills = ports.skills?.offered.length ? ports.skills : undefined;
  // The skills go with the user's request as text (name, description, server): nothing of them is read yet.
  const last = messages.at(-1);
  if (skills && last?.role === 'user') messages[messages.length - 1] = { role: 'user', parts: [{ kind: 'text', text: skillsContextText(skills.offered) + '\n\n' }, ...last.parts] };
  let calls = 0;
  for (let round = 1; round <= options.maxRounds; round++) {
    if (options.signal?.aborted) return { kind: 'cancelled', rounds: round - 1, calls };
    const catalog = ports.catalog(loaded);
    const toolCalls: Extract<ChatPart, { kind: 'call' }>[] = [];
    const assistant: ChatPart[] = [];
    for await (const part of ports.send(messages, skills ? [...catalog.definitions, LOAD_SKILL_DEFINITION] : catalog.definitions)) {
      if (part.kind === 'text') {
        ports.onText(part.text);
        assistant.push(part);
      } else {
        toolCalls.push(part);
        assistant.push(part);
      }
    }
    if (toolCalls.length === 0) return { kind: 'answered', rounds: round, calls };
    messages.push({ role: 'assistant', parts: assistant });
    const results: ChatPart[] = [];
    for (const call of toolCalls) {
      if (options.signal?.aborted) return { kind: 'cancelled', rounds: round, calls };
      calls++;
      results.push({ kind: 'result', callId: call.callId, parts: await runOneCall(call, catalog, loaded, ports, options) });
    }
    messages.push({ role: 'user', parts: results });
  }
  return { kind: 'round-limit', rounds: options.maxRounds, calls };
}

function text(value: string): ModelResultPart[] {
  return [{ kind: 'text', text: value }];
}

async function runOneCall(call: Extract<ChatPart, { kind: 'call' }>, catalog: ToolCatalog, loaded: Set<string>, ports: ChatLoopPorts, options: ChatLoopOptions): Promise<ModelResultPart[]> {
  if (call.name === FIND_TOOLS && catalog.discovery) return findTools(call.input, catalog, loaded, ports);
  if (call.name === LOAD_SKILL && ports.skills?.offered.length) return loadSkill(call.input, ports.skills, { settings: (id) => ports.approvalSettings(id), grants: options.grants, ...(options.writtenByApp !== undefined ? { writtenByApp: options.writtenByApp } : {}) });
  // Only offered tools may be called: a disabled or unloaded tool is refused, whatever the model says.
  const tool = catalog.offered.find((t) => t.modelName === call.name);
  if (!tool) {
    const usable = catalog.usable.some((t) => t.modelName === call.name);
    return text(usable ? `The tool ${call.name} is not loaded: call ${FIND_TOOLS} first.` : `There is no tool named ${call.name}.`);
  }
  const args = call.input && typeof call.input === 'object' && !Array.isArray(call.input) ? (call.input as Record<string, unknown>) : {};
  const changes = ports.pinChanges(tool);
  const need = approvalNeed(tool.serverId, tool.tool, ports.approvalSettings(tool.serverId), options.grants, !!changes?.length, options.writtenByApp);
  if (need.ask) {
    const decision = await ports.approve({ tool, shownArguments: maskedArguments(args), reason: need.reason, ...(changes?.length ? { changes } : {}) });
    if (decision === 'deny') {
      ports.onCallEnd?.({ tool, outcome: 'denied', summary: 'denied by the user' });
      return text(DENIED_TEXT);
    }
    if (decision === 'session') options.grants.grant(tool.serverId, tool.tool.name);
    ports.pinApproved(tool);
  }
  loaded.add(tool.modelName);
  ports.onCallStart?.(tool, args);
  // Chat asks in the response: the use case's own confirmation does not ask a second time.
  const { confirm: _confirm, ...callPorts } = ports.callPorts(tool);
  const outcome = await callTool({ serverId: tool.serverId, tool: tool.tool, arguments: { mode: 'value', value: args }, origin: 'chat (@mcp)', ...(options.signal ? { signal: options.signal } : {}) }, callPorts);
  switch (outcome.kind) {
    case 'answered': {
      const result: CallToolResult = outcome.result;
      ports.onCallEnd?.({ tool, outcome: result.isError ? 'tool-error' : 'answered', summary: result.isError ? 'the tool reported an error' : 'answered', call: { arguments: args, result } });
      return toolResultForModel(result, { acceptsImages: options.acceptsImages, acceptsAudio: options.acceptsAudio === true });
    }
    case 'invalid': {
      const problems = outcome.errors.map((e) => `${e.path || '(arguments)'}: ${e.message}`).join('; ');
      ports.onCallEnd?.({ tool, outcome: 'invalid', summary: problems });
      return text(`The arguments do not match the tool's input schema, so nothing was sent: ${problems}`);
    }
    case 'declined':
      ports.onCallEnd?.({ tool, outcome: 'denied', summary: 'declined' });
      return text(DENIED_TEXT);
    case 'failed':
    case 'unavailable': {
      const summary = summarizeFailure(outcome.failure);
      ports.onCallEnd?.({ tool, outcome: 'failed', summary });
      return text(`The call failed: ${summary}`);
    }
    default: {
      const never: never = outcome;
      return text(`unexpected outcome ${JSON.stringify(never)}`);
    }
  }
}

/** `find_tools`: ranks the usable tools, loads the best and returns their definitions. */
function findTools(input: object, catalog: ToolCatalog, loaded: Set<string>, ports: ChatLoopPorts): ModelResultPart[] {
  const { query, limit } = input as { query?: unknown; limit?: unknown };
  if (typeof query !== 'string' || query.trim() === '') return text('find_tools needs a "query": what the tool should do, in a few words.');
  const k = typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? Math.min(limit, 20) : 5;
  const matches = new ToolSearchIndex(catalog.usable).search(query, k);
  if (matches.length === 0) return text(`No enabled tool matches "${query}". Try other words.`);
  for (const m of matches) loaded.add(m.item.modelName);
  ports.onToolsFound?.(query, matches.map((m) => m.item));
  const listed = matches.map((m) => ({ ...modelDefinition(m.item), score: m.score }));
  return text(`Loaded ${matches.length} tool(s); you can call them now:\n${JSON.stringify(listed, null, 1)}`);
}

/** The approval text shown in chat: server, tool, arguments, reason, and the diff when it changed. */
export function describeApproval(request: ApprovalRequest): string {
  const lines = [`**${revealInvisible(request.tool.serverName)}** wants to run **${revealInvisible(request.tool.tool.name)}**. ${request.reason}`, '', '```json', revealInvisible(JSON.stringify(request.shownArguments, null, 2)), '```'];
  if (request.changes?.length) lines.push('', 'Changed since you approved it:', '```diff', formatChanges(request.changes), '```');
  return lines.join('\n');
}
