// Registers @mcp and its commands at activation; the handler (and the chat core under it) loads
// on the first request, so activation stays cheap.
import * as vscode from 'vscode';
import type { UseCaseContext } from '../panels/useCaseContext';
import { toTarget } from '../panels/useCaseDeps';
import { keepChatModelsListed } from './chatModelList';
import { ChatState } from './chatState';
import type * as ChatAppViewModule from './chatAppView';
import type * as ChatHandlerModule from './chatHandler';
import { type ModelPickTarget, modelPickItems } from './modelPickItems';
import { ChatCommands } from '../lazyCommands';

/** Command ids (also in package.json): registered by id at activation (lazyCommands.ts). */
export { ChatCommands };

let handlerModule: Promise<typeof ChatHandlerModule> | undefined;
const loadHandler = () => (handlerModule ??= import('./chatHandler.js'));
let appViewModule: Promise<typeof ChatAppViewModule> | undefined;
const loadAppView = () => (appViewModule ??= import('./chatAppView.js'));

/** From the command palette: which server or tool to switch (each item says its state). */
async function pickForModels(ctx: UseCaseContext, state: ChatState): Promise<ModelPickTarget | undefined> {
  const items = modelPickItems(ctx.deps.servers.list(), state, ctx.icons);
  return (await vscode.window.showQuickPick(items, { title: 'Switch a server or tool on or off for language models (@mcp)' }))?.target;
}

/**
 * The participant's handler, its commands, and the state the tree shows (enablement, changed
 * tools). `participant` was created at activation (lazyFeatures.ts: VS Code asks for it then); it
 * answers with this handler from now on.
 */
export function registerChatParticipant(ctx: UseCaseContext, participant: vscode.ChatParticipant): { state: ChatState; disposable: vscode.Disposable } {
  const state = new ChatState(ctx.extension);
  participant.requestHandler = async (request, context, stream, token) => (await loadHandler()).handleChatRequest(ctx, state, request, context, stream, token);
  // A tools/list that changes a pinned tool is logged when it arrives, not only at the next call.
  const logChangedTools = () => {
    for (const h of ctx.deps.servers.list()) for (const tool of h.tools ?? []) state.pinChanges(h, tool, (text) => ctx.deps.log(h.id, 'warn', text));
  };
  const disposable = vscode.Disposable.from(
    state,
    keepChatModelsListed((text) => ctx.deps.hostLog?.(text)),
    ...(ctx.deps.onDidChangeServers ? [ctx.deps.onDidChangeServers(logChangedTools)] : []),
    ctx.onDidApproveTool(({ serverId, tool }) => {
      const h = ctx.server(serverId);
      if (h) void state.pin(h, tool, { onlyIfNew: true });
    }),
    vscode.commands.registerCommand(ChatCommands.answerApproval, async (id: unknown, decision: unknown) => {
      if (!(await loadHandler()).answerApproval(id, decision)) void vscode.window.showInformationMessage('MCP Host: this approval was already answered or its request has ended.');
    }),
    vscode.commands.registerCommand(ChatCommands.openAppView, async (id: unknown) => (await loadAppView()).openChatAppView(ctx, state, id)),
    vscode.commands.registerCommand(ChatCommands.toggleForModels, async (arg: unknown) => {
      const target = toTarget(arg) ?? (await pickForModels(ctx, state));
      if (!target) return;
      const tool = target.kind === 'tool' ? target.name : undefined;
      const nowOn = await state.toggle(target.serverId, tool);
      void vscode.window.setStatusBarMessage(`MCP Host: ${tool ?? ctx.serverName(target.serverId)} ${nowOn ? 'offered to' : 'switched off for'} language models`, 3000);
    }),
    vscode.commands.registerCommand(ChatCommands.clearPins, async () => {
      await state.clearPins();
      void vscode.window.showInformationMessage('MCP Host: forgot every approved tool definition and skill file list (pins).');
    }),
    vscode.commands.registerCommand(ChatCommands.addToChat, async (arg: unknown) => {
      const target = toTarget(arg);
      if (target?.kind !== 'resource' || !target.uri) return;
      const client = await ctx.client(target.serverId);
      const result = await client.readResource(target.uri, { timeoutMs: ctx.timeoutMs(target.serverId) });
      const text = result.contents.map((c) => ('text' in c ? c.text : `[${c.mimeType ?? 'binary'} data, not attached]`)).join('\n');
      state.attachments.push({ serverId: target.serverId, uri: target.uri, text });
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp ', isPartialQuery: true });
    }),
  );
  return { state, disposable };
}
