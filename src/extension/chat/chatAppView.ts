// "Open App View" under an @mcp answer: the view of a tool the model called opens in an editor tab
// of its own (apps/appTab.ts), told that call's input and result. Its tool calls need the approval
// a call by hand needs (apps/appView.ts); its `ui/message` is put in the chat input for the user to
// send to @mcp (never sent by itself: a view must not drive the model), and its
// `ui/update-model-context` goes with the next request of the conversation
// (chat/appViews.ts). Loaded with the first button press.
import * as vscode from 'vscode';
import { ChatAppCall, appLabel } from '../../chat/appViews';
import { errorMessage } from '../../protocol/errors';
import type { AppConversation } from '../../apps/appConversation';
import { readAppDocument } from '../apps/appDocument';
import { AppTab } from '../apps/appTab';
import type { UseCaseContext } from '../panels/useCaseContext';
import type { ChatState } from './chatState';

/** The tab of each call's view, so a second press shows it instead of opening another. */
const tabs = new Map<string, AppTab>();

/** Puts `prompt` for @mcp in the chat input, for the user to read and send (or not). */
async function putInChatInput(prompt: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@mcp ${prompt}`, isPartialQuery: true });
}

/** Opens the view of the call `id` (a button's argument). */
export async function openChatAppView(ctx: UseCaseContext, state: ChatState, id: unknown): Promise<void> {
  const call = state.apps.call(id);
  if (!call) {
    void vscode.window.showInformationMessage('MCP Host: this call is no longer remembered (it was made before the window reloaded, or long ago): ask @mcp again to see its app view.');
    return;
  }
  const open = tabs.get(call.id);
  if (open) {
    open.panel.reveal();
    return;
  }
  try {
    const document = await readAppDocument(ctx, call.serverId, call.resourceUri);
    const tab = new AppTab(ctx, { serverId: call.serverId, tool: call.tool, document, input: call.arguments, result: call.result, conversation: conversationOf(ctx, state, call) });
    tabs.set(call.id, tab);
    tab.panel.onDidDispose(() => tabs.delete(call.id));
    ctx.deps.log(call.serverId, 'info', `${appLabel(call)}: opened from @mcp with the call's input and result`);
  } catch (error) {
    ctx.deps.log(call.serverId, 'warn', `${appLabel(call)} cannot be shown: ${errorMessage(error)}`);
    void vscode.window.showWarningMessage(`MCP Host: ${appLabel(call)} cannot be shown: ${errorMessage(error)}`);
  }
}

/** The view's conversation port, with a line in the server's log for each message it takes or refuses. */
function conversationOf(ctx: UseCaseContext, state: ChatState, call: ChatAppCall): AppConversation {
  const inner = state.apps.conversation(call, putInChatInput);
  return {
    receive: async (m) => {
      try {
        await inner.receive(m);
      } catch (error) {
        ctx.deps.log(call.serverId, 'warn', `${appLabel(call)}: refused its ${m.kind === 'message' ? 'message' : 'model context'}: ${errorMessage(error)}`);
        throw error;
      }
      ctx.deps.log(call.serverId, 'info', m.kind === 'message' ? `${appLabel(call)} wrote a message to @mcp: it is in the chat input, sent only if you send it` : `${appLabel(call)} updated its model context: it goes with the next @mcp request of its conversation`);
    },
  };
}
