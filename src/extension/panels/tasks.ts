// Tasks in the editor: the commands of the tree's Tasks group (Cancel, Open, Refresh) and the
// listing of what each server holds (`tasks/list`) when it starts, so tasks that outlived a
// restart or the panel that started them show again. The store is the use cases' (TaskStore);
// the tool panel shows a task's status and result (toolPanel.ts).
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import { offersTasksExtension, serverOffersTasks } from '../../client/modernTasks';
import { errorMessage } from '../../protocol/errors';
import { ListedTaskWatcher, refreshListedTasks } from '../../usecases/listedTasks';
import type { UseCaseContext } from './useCaseContext';
import { loadToolPanel } from './lazyPanels';
import type { OpenResource } from './rawResults';

/** The origin the tool panel gives its calls (callTool's `origin`). */
export const TOOL_PANEL_ORIGIN = 'the tool panel';

export const TaskCommands = {
  cancel: 'mcpHost.task.cancel',
  open: 'mcpHost.task.open',
  refresh: 'mcpHost.tasks.refresh',
} as const;

/** Why a task was cancelled from the tree, as the log and the result say it. */
const CANCELLED_IN_VIEW = 'you pressed Cancel in the MCP Host view';

/** A task from a command argument: the tree's task row, or `{ serverId, taskId }`. */
function taskTarget(arg: unknown): { serverId: string; taskId: string } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const o = arg as { serverId?: unknown; taskId?: unknown; task?: { taskId?: unknown } };
  const taskId = typeof o.taskId === 'string' ? o.taskId : typeof o.task?.taskId === 'string' ? o.task.taskId : undefined;
  return typeof o.serverId === 'string' && taskId !== undefined ? { serverId: o.serverId, taskId } : undefined;
}

/**
 * Lists each server's tasks once per connection (when it is ready and says it lists tasks), and
 * follows the listed ones still running; a stopped server's listed tasks go.
 */
class ServerTaskListing implements vscode.Disposable {
  private readonly listedFor = new Map<string, McpClient>();
  private readonly watchers = new Map<string, ListedTaskWatcher>();

  constructor(private readonly ctx: UseCaseContext) {}

  /** Servers changed: list the new connections' tasks. */
  sync(): void {
    for (const server of this.ctx.deps.servers.list()) {
      const client = this.ctx.runningClient(server.id);
      const ready = client?.state.kind === 'ready' ? client : undefined;
      const listed = this.listedFor.get(server.id);
      if (ready === listed) continue;
      if (listed) {
        this.watchers.get(server.id)?.dispose();
        this.watchers.delete(server.id);
        this.listedFor.delete(server.id);
        this.ctx.tasks.serverStopped(server.id);
      }
      if (ready) {
        this.listedFor.set(server.id, ready);
        void this.refresh(server.id, ready, false);
      }
    }
  }

  /** tasks/list now; `said`: tell the user what came of it (the Refresh command). */
  async refresh(serverId: string, client: McpClient, said: boolean): Promise<void> {
    try {
      const lists = await refreshListedTasks(this.ctx.tasks, serverId, client);
      if (!lists) {
        if (said) void vscode.window.showInformationMessage(`MCP Host: ${this.ctx.serverName(serverId)} does not list its tasks (${offersTasksExtension(client) ? 'the 2026-07-28 tasks extension has no tasks/list' : 'no tasks.list capability'}).`);
        return;
      }
      const unlisted = this.ctx.tasks.unlisted(serverId);
      if (unlisted) {
        this.ctx.deps.log(serverId, 'warn', `tasks/list ${unlisted}`);
        if (said) void vscode.window.showWarningMessage(`MCP Host: ${this.ctx.serverName(serverId)}: tasks/list ${unlisted}.`);
      }
      if (!this.watchers.has(serverId) || said) {
        this.watchers.get(serverId)?.dispose();
        this.watchers.set(serverId, new ListedTaskWatcher(this.ctx.tasks, serverId, client));
      }
    } catch (error) {
      this.ctx.deps.log(serverId, 'warn', `tasks/list failed: ${errorMessage(error)}`);
      if (said) void vscode.window.showWarningMessage(`MCP Host: listing the tasks of ${this.ctx.serverName(serverId)} failed: ${errorMessage(error)}`);
    }
  }

  dispose(): void {
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
  }
}

/**
 * A task started from a tool panel ended while no panel shows it (the panel was closed): a
 * notification says so, with Open Result (`mcpHost.tasks.notifyOnCompletion` turns it off).
 */
function notifyWhenUnwatched(ctx: UseCaseContext, openResource: OpenResource): vscode.Disposable {
  const sub = ctx.tasks.onDidEnd((entry) => {
    if (entry.watched || entry.origin !== TOOL_PANEL_ORIGIN || !ctx.setting('tasks.notifyOnCompletion', true)) return;
    // The id keeps two notices of the same tool apart (VS Code shows a repeated message only once).
    const what = `Task ${entry.toolName ?? 'of'} (${entry.taskId.slice(0, 8)}) on ${ctx.serverName(entry.serverId)}`;
    const action = entry.status === 'completed' ? 'Open Result' : 'Show';
    const text = entry.status === 'completed' ? `${what} completed.` : `${what} ${entry.status}${entry.statusMessage ? `: ${entry.statusMessage}` : ''}.`;
    // A notice fades unread within seconds: the task's row (and the view's badge) keep the news.
    ctx.tasks.markUnseen(entry.serverId, entry.taskId);
    const shown = entry.status === 'completed' ? vscode.window.showInformationMessage(`MCP Host: ${text}`, action) : vscode.window.showWarningMessage(`MCP Host: ${text}`, action);
    void shown.then(async (picked) => {
      if (picked !== action) return;
      const latest = ctx.tasks.get(entry.serverId, entry.taskId) ?? entry;
      (await loadToolPanel()).showTask(ctx, latest, openResource);
    });
  });
  return new vscode.Disposable(() => sub.dispose());
}

/** The Tasks commands and the listing; dispose on deactivation. */
export function registerTaskFeatures(ctx: UseCaseContext, openResource: OpenResource): vscode.Disposable {
  const listing = new ServerTaskListing(ctx);
  listing.sync();
  const run = (id: string, fn: (arg: unknown) => Promise<void>) =>
    vscode.commands.registerCommand(id, async (arg: unknown) => {
      try {
        await fn(arg);
      } catch (error) {
        void vscode.window.showErrorMessage(`MCP Host: ${errorMessage(error)}`);
      }
    });
  return vscode.Disposable.from(
    listing,
    notifyWhenUnwatched(ctx, openResource),
    ...(ctx.deps.onDidChangeServers ? [ctx.deps.onDidChangeServers(() => listing.sync())] : []),
    run(TaskCommands.cancel, async (arg) => {
      const t = taskTarget(arg);
      if (!t) return;
      if (!(await ctx.tasks.cancel(t.serverId, t.taskId, CANCELLED_IN_VIEW))) {
        const entry = ctx.tasks.get(t.serverId, t.taskId);
        void vscode.window.showInformationMessage(entry && (entry.status === 'working' || entry.status === 'input_required') ? `MCP Host: ${ctx.serverName(t.serverId)} does not let its tasks be cancelled (no tasks.cancel capability).` : 'MCP Host: the task is not running.');
      }
    }),
    run(TaskCommands.open, async (arg) => {
      const t = taskTarget(arg);
      const entry = t && ctx.tasks.get(t.serverId, t.taskId);
      if (entry) (await loadToolPanel()).showTask(ctx, entry, openResource);
    }),
    run(TaskCommands.refresh, async (arg) => {
      // From the row its server; from the palette the running server that runs tasks (a pick when there are several).
      const serverId = typeof arg === 'object' && arg !== null && typeof (arg as { serverId?: unknown }).serverId === 'string' ? (arg as { serverId: string }).serverId : await pickTaskServer(ctx);
      const client = serverId ? ctx.runningClient(serverId) : undefined;
      if (serverId && client) await listing.refresh(serverId, client, true);
    }),
  );
}

/** The running server whose tasks Refresh Tasks lists when the palette gives none: the only one, or the user's pick. */
async function pickTaskServer(ctx: UseCaseContext): Promise<string | undefined> {
  const ids = ctx.deps.servers.list().map((s) => s.id).filter((id) => {
    const client = ctx.runningClient(id);
    return client !== undefined && serverOffersTasks(client);
  });
  if (ids.length <= 1) {
    if (!ids.length) void vscode.window.showInformationMessage('MCP Host: no running server runs tasks.');
    return ids[0];
  }
  const picked = await vscode.window.showQuickPick(ids.map((id) => ({ label: ctx.serverName(id), id })), { placeHolder: 'Refresh the tasks of which server?' });
  return picked?.id;
}
