// MCP Apps from @mcp: the calls the model made of tools that have a view (so the response can
// offer to open it with that call's input and result), and what such a view sends back into its
// conversation. `ui/message` is put in the chat input for the user to send (never sent by itself),
// and when the user sends it the model reads it as written by the app, and every call it leads to
// asks first (chat/approval.ts); `ui/update-model-context` is
// kept, the latest per view, and goes with the next @mcp request of that conversation (as the App
// protocol describes: deferred to the next user message, each update replacing the one before).
// No `vscode`: the VS Code layer sends the message into the chat and knows which conversation a
// request belongs to.
import { appResourceUriOf } from '../client/apps';
import type { CallToolResult } from '../client/schemas';
import { WireError } from '../protocol/errors';
import { AppConversation, AppConversationMessage, describeConversationMessage } from '../apps/appConversation';
import type { ServerTool } from './toolNames';

/** A call made from chat whose tool has a view: what the view is opened with. */
export interface ChatAppCall extends ServerTool {
  readonly id: string;
  /** The @mcp conversation the call was made in. */
  readonly conversationId: string;
  readonly resourceUri: string;
  readonly arguments: Record<string, unknown>;
  readonly result: CallToolResult;
}

/** How many calls are remembered (a button of an older one says the call is gone). */
const MAX_CALLS = 100;
/** The longest message or context a view may put into the conversation (characters of text). */
export const MAX_APP_TEXT = 8000;
/** A view's message that no request has picked up after this long is forgotten (ms): the user may read it a while before sending it. */
const MESSAGE_PICKUP_MS = 10 * 60_000;

/** A request's text as compared with what a view sent (the chat input may fold whitespace). */
function folded(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** How a view is named to the user and the model. */
export function appLabel(call: Pick<ChatAppCall, 'tool' | 'serverName'>): string {
  return `the app of ${call.tool.name} (${call.serverName})`;
}

export class ChatAppViews {
  private readonly calls = new Map<string, ChatAppCall>();
  /** The latest context of each view, by call id. */
  private readonly contexts = new Map<string, { readonly call: ChatAppCall; readonly text: string }>();
  /** Messages views sent that no request has picked up yet. */
  private readonly pending: { readonly call: ChatAppCall; readonly prompt: string; readonly at: number }[] = [];
  private counter = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** A fresh id for a conversation that has none yet. */
  newConversationId(): string {
    return `conversation-${this.now().toString(36)}-${++this.counter}`;
  }

  /** Remembers a call whose tool has a view; undefined when the tool has none. */
  record(conversationId: string, tool: ServerTool, args: Record<string, unknown>, result: CallToolResult): ChatAppCall | undefined {
    const resourceUri = appResourceUriOf(tool.tool);
    if (!resourceUri) return undefined;
    const call: ChatAppCall = { id: `app-call-${++this.counter}`, conversationId, serverId: tool.serverId, serverName: tool.serverName, tool: tool.tool, resourceUri, arguments: args, result };
    this.calls.set(call.id, call);
    for (const old of this.calls.keys()) {
      if (this.calls.size <= MAX_CALLS) break;
      this.calls.delete(old);
    }
    return call;
  }

  /** The call a button names, while it is remembered. */
  call(id: unknown): ChatAppCall | undefined {
    return typeof id === 'string' ? this.calls.get(id) : undefined;
  }

  /**
   * Where the view of `call` sends its messages: a message goes to `send`, which puts it in the
   * chat input for the user to send as an @mcp request (one at a time per view: the next is
   * refused until a request has picked it up); a context is kept for the next request of the
   * call's conversation.
   */
  conversation(call: ChatAppCall, send: (prompt: string) => Promise<void>): AppConversation {
    return {
      receive: async (m: AppConversationMessage) => {
        const text = describeConversationMessage(m, MAX_APP_TEXT + 1);
        if (text.length > MAX_APP_TEXT) throw new WireError(-32602, `The ${m.kind === 'message' ? 'message' : 'context'} is longer than ${MAX_APP_TEXT} characters`);
        if (m.kind === 'context') {
          this.contexts.set(call.id, { call, text });
          return;
        }
        this.dropStale();
        if (this.pending.some((p) => p.call.id === call.id)) throw new WireError(-32000, 'The previous message of this view has not reached the chat yet');
        const prompt = asPrompt(text);
        this.pending.push({ call, prompt, at: this.now() });
        try {
          await send(prompt);
        } catch (error) {
          this.pending.splice(this.pending.findIndex((p) => p.call.id === call.id), 1);
          throw error;
        }
      },
    };
  }

  private dropStale(): void {
    const limit = this.now() - MESSAGE_PICKUP_MS;
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i].at < limit) this.pending.splice(i, 1);
  }

  /** When a request's text is a message a view wrote: that view's call (the message is taken). */
  takeAppMessage(prompt: string): ChatAppCall | undefined {
    this.dropStale();
    const index = this.pending.findIndex((p) => folded(p.prompt) === folded(prompt));
    if (index < 0) return undefined;
    return this.pending.splice(index, 1)[0].call;
  }

  /**
   * The contexts views of `conversationId` (and `sender`, the view whose message this request is)
   * left for the next request, as text for the model; each is taken once. Undefined when none.
   */
  takeContext(conversationId: string, sender?: ChatAppCall): { readonly text: string; readonly from: readonly ChatAppCall[] } | undefined {
    const taken = [...this.contexts.values()].filter((c) => c.call.conversationId === conversationId || c.call.id === sender?.id);
    if (taken.length === 0) return undefined;
    for (const c of taken) this.contexts.delete(c.call.id);
    const lines = taken.map((c) => `[${appLabel(c.call)}] ${c.text}`);
    return { text: `Context from app views the user has open (written by the views, not by the user):\n${lines.join('\n')}`, from: taken.map((c) => c.call) };
  }
}

/** A view's message as the model reads it: marked as the app's words, which the user only passed on. */
export function appMessageForModel(sender: Pick<ChatAppCall, 'tool' | 'serverName'>, prompt: string): string {
  return `Message written by ${appLabel(sender)}, not by the user (the user passed it on from the app view):\n${prompt}`;
}

/**
 * A view's message as the text of a chat request: it must not start a command, name another
 * participant or reference a chat variable at its start, so such a first character is quoted.
 */
function asPrompt(text: string): string {
  const trimmed = text.trim();
  return /^[/@#]/.test(trimmed) ? `“${trimmed}”` : trimmed;
}
