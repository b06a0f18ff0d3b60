// The @mcp request handler: the VS Code side of the loop in src/chat/chatLoop.ts. It turns the
// loop's messages into LanguageModelChatMessages for `request.model`, asks approval with buttons
// in the response, shows progress, and records every call (through the one tool-call use case)
// in the same history and output channel as a call made by hand, marked "from chat". A call of a
// tool with an app view gets an "Open App View" button; what such a view sends comes back here
// (chat/appViews.ts): its message, once the user sends it from the chat input, as a request the
// model reads as the app's words (its calls always ask), its model context with the next request.
import { describeTaskState, taskStateOf } from '../../usecases/taskText';
import * as vscode from 'vscode';
import type { GetPromptResult } from '../../client/schemas';
import { ApprovalDecision } from '../../chat/approval';
import { appLabel, appMessageForModel } from '../../chat/appViews';
import { ChatLoopPorts, ChatMessage, ChatPart, ModelOutput, describeApproval, runChatLoop } from '../../chat/chatLoop';
import { ModelToolDefinition, ToolCatalog, ToolSets, buildToolCatalog, describeCatalog, toolSetSelection } from '../../chat/toolCatalog';
import type { ServerTool } from '../../chat/toolNames';
import { trustedServerApproval } from '../../chat/trustedServers';
import { sandboxedAutoApprove } from '../trust/sandboxSettings';
import { errorMessage } from '../../protocol/errors';
import type { ServerHandle } from '../../registry/serverRegistry';
import type { UseCaseContext } from '../panels/useCaseContext';
import { askArguments } from '../panels/argumentInput';
import { fetchPrompt } from '../panels/getPrompt';
import type { ChatState } from './chatState';
import { chatSkillPorts } from './chatSkills';
import { describeSkills } from '../../chat/skillLoading';

/** The command the approval buttons run: (approvalId, decision). */
export const ANSWER_APPROVAL_COMMAND = 'mcpHost.chat.answerApproval';
/** The command of "Open App View": (app call id). */
export const OPEN_APP_VIEW_COMMAND = 'mcpHost.chat.openAppView';

/** Approvals waiting for a button, by id. */
const pendingApprovals = new Map<string, (decision: ApprovalDecision) => void>();
let approvalCounter = 0;

/** A button was pressed: true when it answered a pending approval. */
export function answerApproval(id: unknown, decision: unknown): boolean {
  const resolve = typeof id === 'string' ? pendingApprovals.get(id) : undefined;
  if (!resolve || (decision !== 'once' && decision !== 'session' && decision !== 'deny')) return false;
  resolve(decision);
  return true;
}

/** How long a request waits for the servers it may use to start. */
const START_WAIT_MS = 30_000;

interface ChatSettings {
  readonly maxRounds: number;
  readonly budget: { maxTools: number; maxTokens: number };
  readonly toolSets: ToolSets;
  /** The user-level value of `trustedServers` only: a workspace cannot switch approval off (chat/trustedServers.ts). */
  readonly trustedServers: unknown;
}

function chatSettings(): ChatSettings {
  const c = vscode.workspace.getConfiguration('mcpHost.chat');
  const budget = c.get<{ maxTools?: unknown; maxTokens?: unknown }>('toolBudget') ?? {};
  const positive = (v: unknown, fallback: number) => (typeof v === 'number' && v > 0 ? Math.floor(v) : fallback);
  const object = <T>(v: unknown): T => (v && typeof v === 'object' && !Array.isArray(v) ? (v as T) : ({} as T));
  return {
    maxRounds: positive(c.get('maxRounds'), 10),
    budget: { maxTools: Math.min(128, positive(budget.maxTools, 64)), maxTokens: positive(budget.maxTokens, 12_000) },
    toolSets: object<ToolSets>(c.get('toolSets')),
    trustedServers: c.inspect('trustedServers')?.globalValue,
  };
}

/** The request's scope from `/servers a,b question`, `/use set question` and `#set` references. */
function requestScope(request: vscode.ChatRequest, settings: ChatSettings): { prompt: string; servers?: string[]; sets: string[] } {
  let prompt = request.prompt.trim();
  let servers: string[] | undefined;
  const sets: string[] = [];
  if (request.command === 'servers' || request.command === 'use') {
    const [first = '', ...rest] = prompt.split(/\s+/);
    const names = first.split(',').filter(Boolean);
    prompt = rest.join(' ');
    if (request.command === 'servers') servers = names;
    else sets.push(...names);
  }
  for (const m of prompt.matchAll(/(?:^|\s)#([\w.-]+)/g)) if (settings.toolSets[m[1]]) sets.push(m[1]);
  return { prompt, ...(servers ? { servers } : {}), sets };
}

function runningServers(ctx: UseCaseContext): ServerHandle[] {
  return ctx.deps.servers.list().filter((h) => h.status.kind === 'running' && h.client);
}

/** Starts the servers as the start policy would, and waits (bounded) for those starting. */
async function serversReady(ctx: UseCaseContext, token: vscode.CancellationToken): Promise<ServerHandle[]> {
  ctx.deps.startServers?.('a chat request to @mcp');
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  const timer = setTimeout(() => abort.abort(), START_WAIT_MS);
  try {
    await Promise.allSettled(ctx.deps.servers.list().map((h) => h.whenReady({ signal: abort.signal })));
  } finally {
    clearTimeout(timer);
    sub.dispose();
  }
  return runningServers(ctx);
}

function catalogFor(ctx: UseCaseContext, state: ChatState, servers: readonly ServerHandle[], settings: ChatSettings, scope: ReturnType<typeof requestScope>, loaded: ReadonlySet<string>): ToolCatalog {
  const tools: ServerTool[] = servers.flatMap((h) => (h.tools ?? []).map((tool) => ({ serverId: h.id, serverName: h.entry.name, tool })));
  const bySet = toolSetSelection(settings.toolSets, scope.sets);
  const selected = scope.servers || bySet ? (t: ServerTool) => (!scope.servers || scope.servers.includes(t.serverName)) && (!bySet || bySet(t)) : undefined;
  return buildToolCatalog({ tools, isServerEnabled: (id) => state.isServerEnabled(id), isToolEnabled: (id, t) => state.isToolEnabled(id, t), ...(selected ? { selected } : {}), budget: settings.budget, loaded });
}

/** The loop's messages as the language model API takes them. */
function toModelMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((m) => {
    const parts = m.parts.map((p: ChatPart) => {
      switch (p.kind) {
        case 'text':
          return new vscode.LanguageModelTextPart(p.text);
        case 'call':
          return new vscode.LanguageModelToolCallPart(p.callId, p.name, p.input);
        case 'result':
          return new vscode.LanguageModelToolResultPart(p.callId, p.parts.map((q) => (q.kind === 'text' ? new vscode.LanguageModelTextPart(q.text) : new vscode.LanguageModelDataPart(q.bytes, q.mimeType))));
      }
    });
    return m.role === 'user' ? vscode.LanguageModelChatMessage.User(parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[]) : vscode.LanguageModelChatMessage.Assistant(parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[]);
  });
}

/**
 * What the model says it can do. `LanguageModelChat.capabilities` is proposed API, not in the
 * stable typings, so it is read as the extension host hands it out (VS Code 1.139 does); absent
 * means unknown: images are then described, and tools offered anyway.
 */
function modelCapabilities(model: vscode.LanguageModelChat): { images: boolean; tools: boolean | undefined } {
  const capabilities = (model as { readonly capabilities?: { readonly supportsImageToText?: unknown; readonly supportsToolCalling?: unknown } }).capabilities;
  const tools = capabilities?.supportsToolCalling;
  return { images: capabilities?.supportsImageToText === true, tools: typeof tools === 'boolean' ? tools : undefined };
}

/** The earlier turns of this conversation with @mcp, as text. */
function historyMessages(context: vscode.ChatContext): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) out.push({ role: 'user', parts: [{ kind: 'text', text: turn.prompt }] });
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map((r) => (r instanceof vscode.ChatResponseMarkdownPart ? r.value.value : '')).join('');
      if (text) out.push({ role: 'assistant', parts: [{ kind: 'text', text }] });
    }
  }
  return out;
}

/**
 * The conversation a request belongs to: the id @mcp's last answer in it carried (its result's
 * metadata; the history holds only this participant's turns), or a new one for a new conversation.
 */
function conversationOf(context: vscode.ChatContext, state: ChatState): string {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    const id = turn instanceof vscode.ChatResponseTurn ? (turn.result.metadata as { conversation?: unknown } | undefined)?.conversation : undefined;
    if (typeof id === 'string') return id;
  }
  return state.apps.newConversationId();
}

/** Handles one @mcp request. */
export async function handleChatRequest(ctx: UseCaseContext, state: ChatState, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const settings = chatSettings();
  const scope = requestScope(request, settings);
  const conversation = conversationOf(context, state);
  stream.progress('Connecting to the MCP servers…');
  const servers = await serversReady(ctx, token);
  if (request.command === 'tools') {
    const catalog = catalogFor(ctx, state, servers, settings, scope, state.loaded);
    const skills = await chatSkillPorts(ctx, state, servers, scope.servers, async () => 'deny', () => {});
    stream.markdown((servers.length ? describeCatalog(catalog) : 'No MCP server is running.') + (skills ? `\n\n${describeSkills(skills.offered)}` : ''));
    return { metadata: { conversation } };
  }
  const messages: ChatMessage[] = historyMessages(context);
  let writtenByApp: string | undefined;
  if (request.command === 'prompt') {
    const prompt = await promptMessages(ctx, servers, scope.prompt, stream);
    if (!prompt) return { metadata: { conversation } };
    messages.push(...prompt);
  } else {
    const attached = state.attachments.splice(0);
    const sender = state.apps.takeAppMessage(request.prompt);
    if (sender) stream.markdown(`_Written by ${appLabel(sender)}: every tool call it leads to asks first._\n\n`);
    const appContext = state.apps.takeContext(conversation, sender);
    if (appContext) {
      stream.markdown(`_With the model context of ${appContext.from.map(appLabel).join(', ')}._\n\n`);
      for (const from of appContext.from) ctx.deps.log(from.serverId, 'info', `${appLabel(from)}: its model context went with an @mcp request`);
    }
    const context = (appContext ? `${appContext.text}\n\n` : '') + attached.map((a) => `Attached resource ${a.uri} (from ${ctx.serverName(a.serverId)}):\n${a.text}\n\n`).join('');
    messages.push({ role: 'user', parts: [{ kind: 'text', text: context + (sender ? appMessageForModel(sender, scope.prompt) : scope.prompt) }] });
    writtenByApp = sender && appLabel(sender);
  }
  if (servers.length === 0) stream.markdown('_No MCP server is running: the model answers without tools._\n\n');
  const capabilities = modelCapabilities(request.model);
  if (servers.length > 0 && capabilities.tools === false) stream.markdown(`_${request.model.name} does not call tools, so it cannot use your servers: pick a model that does (Agent mode lists them)._\n\n`);

  const abort = new AbortController();
  const cancel = token.onCancellationRequested(() => abort.abort());
  const model = request.model;
  const ports: ChatLoopPorts = {
    send: (msgs, defs) => sendToModel(model, msgs, defs, token),
    catalog: (loaded) => catalogFor(ctx, state, servers, settings, scope, loaded),
    approve: (req) => askApproval(describeApproval(req), stream, token),
    approvalSettings: (serverId) => {
      const h = ctx.server(serverId);
      const trust = trustedServerApproval(settings.trustedServers, { name: h?.entry.name ?? ctx.serverName(serverId), workspaceDefined: h?.entry.source.workspaceDefined !== false });
      return { ...trust, sandboxedAutoApprove: sandboxedAutoApprove(h?.entry) };
    },
    pinChanges: (tool) => {
      const h = ctx.server(tool.serverId);
      return h && state.pinChanges(h, tool.tool, (text) => ctx.deps.log(tool.serverId, 'warn', text));
    },
    pinApproved: (tool) => {
      const h = ctx.server(tool.serverId);
      if (h) void state.pin(h, tool.tool);
    },
    callPorts: (tool) => ({
      client: () => ctx.client(tool.serverId),
      validator: ctx.validator,
      redact: (text) => ctx.redact(text),
      onProgress: (p) => stream.progress(`${tool.serverName} · ${tool.tool.name}: ${p.message ?? `${p.progress}${p.total ? ` of ${p.total}` : ''}`}`),
      // A task tool: its status in the response while it runs (the chat's Stop cancels it: tasks/cancel); the tree shows it too.
      onTaskStatus: (u) => stream.progress(`${tool.serverName} · ${tool.tool.name}: task ${describeTaskState(taskStateOf(u))}`),
      tasks: ctx.tasks,
      record: (entry) => ctx.history.add({ ...entry, summary: `from chat: ${entry.summary}` }),
      log: (level, text) => ctx.deps.log(tool.serverId, level, text),
      ...(ctx.deps.resolveUrlElicitation ? { resolveUrlElicitation: (error) => ctx.deps.resolveUrlElicitation!(error, tool.serverId) } : {}),
    }),
    onText: (text) => stream.markdown(text),
    onCallStart: (tool) => stream.progress(`Running ${tool.tool.name} on ${tool.serverName}…`),
    // Marks every font has (an emoji shows as a box where there is no emoji font).
    onCallEnd: (report) => {
      stream.markdown(`\n\n> ${report.outcome === 'denied' ? '✗' : report.outcome === 'answered' ? '✓' : '⚠'} \`${report.tool.serverName}\` · \`${report.tool.tool.name}\`: ${report.summary}\n\n`);
      const appCall = report.call && state.apps.record(conversation, report.tool, report.call.arguments, report.call.result);
      if (appCall) stream.button({ command: OPEN_APP_VIEW_COMMAND, title: `Open App View: ${appCall.tool.title ?? appCall.tool.name}`, arguments: [appCall.id] });
    },
    onToolsFound: (query, found) => stream.markdown(`\n\n> find_tools "${query}": loaded ${found.map((t) => `\`${t.modelName}\``).join(', ')}\n\n`),
    skills: await chatSkillPorts(ctx, state, servers, scope.servers, (text) => askApproval(text, stream, token), (text) => stream.markdown(text)),
  };
  try {
    // Audio stays described: VS Code's API has no way for a model to say it takes audio.
    const end = await runChatLoop(messages, ports, { maxRounds: settings.maxRounds, acceptsImages: capabilities.images, acceptsAudio: false, grants: state.grants, signal: abort.signal, loaded: state.loaded, ...(writtenByApp ? { writtenByApp } : {}) });
    if (end.kind === 'round-limit') stream.markdown(`\n\n_Stopped after ${end.rounds} rounds of tool calls (\`mcpHost.chat.maxRounds\`)._`);
    return { metadata: { rounds: end.rounds, calls: end.calls, end: end.kind, conversation } };
  } catch (error) {
    if (token.isCancellationRequested) return { metadata: { conversation } };
    if (error instanceof vscode.LanguageModelError) return { errorDetails: { message: ctx.redact(`The language model refused the request: ${error.message}`) }, metadata: { conversation } };
    return { errorDetails: { message: ctx.redact(errorMessage(error)) }, metadata: { conversation } };
  } finally {
    cancel.dispose();
  }
}

async function* sendToModel(model: vscode.LanguageModelChat, messages: readonly ChatMessage[], defs: readonly ModelToolDefinition[], token: vscode.CancellationToken): AsyncIterable<ModelOutput> {
  const tools: vscode.LanguageModelChatTool[] = defs.map((d) => ({ name: d.name, description: d.description, inputSchema: d.inputSchema }));
  const response = await model.sendRequest(toModelMessages(messages), { tools, justification: 'MCP Host lets the model use your MCP servers\' tools, with your approval.' }, token);
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) yield { kind: 'text', text: part.value };
    else if (part instanceof vscode.LanguageModelToolCallPart) yield { kind: 'call', callId: part.callId, name: part.name, input: part.input };
  }
}

/** Shows the approval (its Markdown) in the response with three buttons; resolves when one is pressed (deny when cancelled). */
function askApproval(markdown: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<ApprovalDecision> {
  const id = `approval-${++approvalCounter}`;
  stream.markdown(`\n\n${markdown}\n\n`);
  stream.button({ command: ANSWER_APPROVAL_COMMAND, title: 'Allow once', arguments: [id, 'once'] });
  stream.button({ command: ANSWER_APPROVAL_COMMAND, title: 'Allow for this session', arguments: [id, 'session'] });
  stream.button({ command: ANSWER_APPROVAL_COMMAND, title: 'Deny', arguments: [id, 'deny'] });
  stream.progress('Waiting for your approval…');
  return new Promise((resolve) => {
    const sub = token.onCancellationRequested(() => done('deny'));
    function done(decision: ApprovalDecision) {
      pendingApprovals.delete(id);
      sub.dispose();
      resolve(decision);
    }
    pendingApprovals.set(id, done);
  });
}

/** `/prompt server/name`: asks the prompt's arguments, fetches it, and returns its messages for the model. */
async function promptMessages(ctx: UseCaseContext, servers: readonly ServerHandle[], text: string, stream: vscode.ChatResponseStream): Promise<ChatMessage[] | undefined> {
  const [ref = '', ...rest] = text.split(/\s+/);
  const slash = ref.indexOf('/');
  const server = servers.find((h) => h.entry.name === ref.slice(0, slash));
  const prompt = server?.prompts?.find((p) => p.name === ref.slice(slash + 1));
  if (slash <= 0 || !server || !prompt) {
    const known = servers.flatMap((h) => (h.prompts ?? []).map((p) => `\`${h.entry.name}/${p.name}\``));
    stream.markdown(`Name a prompt as \`/prompt server/name\`. ${known.length ? `Prompts: ${known.join(', ')}` : 'No running server offers prompts.'}`);
    return undefined;
  }
  const values = await askArguments({ title: `${server.entry.name}: ${prompt.title ?? prompt.name}`, args: (prompt.arguments ?? []).map((a) => ({ name: a.name, description: a.description, required: a.required === true })), client: server.client, ref: { type: 'ref/prompt', name: prompt.name } });
  if (!values) {
    stream.markdown('Cancelled.');
    return undefined;
  }
  let result: GetPromptResult;
  try {
    result = await fetchPrompt(ctx, server.id, prompt.name, values, ctx.timeoutMs(server.id));
  } catch (error) {
    stream.markdown(`The prompt failed: ${ctx.redact(errorMessage(error))}`);
    return undefined;
  }
  stream.markdown(`Prompt \`${server.entry.name}/${prompt.name}\` (${result.messages.length} message(s)).\n\n`);
  const messages: ChatMessage[] = result.messages.map((m) => ({ role: m.role, parts: [{ kind: 'text', text: m.content.type === 'text' ? m.content.text : `[${m.content.type} content]` }] }));
  if (rest.length) messages.push({ role: 'user', parts: [{ kind: 'text', text: rest.join(' ') }] });
  // A conversation must end with the user's turn.
  if (messages.at(-1)?.role !== 'user') messages.push({ role: 'user', parts: [{ kind: 'text', text: 'Continue.' }] });
  return messages;
}

