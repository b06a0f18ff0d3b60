// The use cases a user starts in MCP Host: call tools, read resources and templates, get prompts, and
// the server-level actions (ping, log level, copy entry, capabilities, details, health ping).
// The host calls `registerUseCases` once from `activate()` and pushes the result into
// `context.subscriptions`; the commands and settings are contributed in package.json.
import * as vscode from 'vscode';
import type { ServerHandle } from '../../registry/serverRegistry';
import { UseCaseContext } from './useCaseContext';
import { SavedTestsController } from './savedTestsController';
import { getPrompt } from './getPrompt';
import { ResourceFeatures } from './resources';
import { DetailsPanel, HealthMonitor, NoiseRecorder, copyServerEntry, pingServer, setLogLevel, showCapabilities, showServerDetails } from './serverActions';
import { disposeLoadedPanels, loadPromptPanel, loadToolPanel } from './lazyPanels';
import { PANEL_VIEW_TYPES, parseRestoreState } from './panelTabs';
import { registerTaskFeatures } from './tasks';

/** Which kind of kept state belongs to which panel type. */
const PANEL_KIND_OF: Record<string, string> = { [PANEL_VIEW_TYPES.tool]: 'tool', [PANEL_VIEW_TYPES.prompt]: 'prompt', [PANEL_VIEW_TYPES.details]: 'details' };
import { UseCaseDeps, CommandTarget, toTarget } from './useCaseDeps';
import { errorMessage } from '../../protocol/errors';
import type { CallHistory } from '../../usecases/history';
import { registerChatParticipant } from '../chat/chatParticipant';
import type { ChatState } from '../chat/chatState';
import { plainPickText } from '../../content/untrustedText';

export type { UseCaseDeps, CommandTarget, ServerHandles, ServerHealth } from './useCaseDeps';

/** Command ids (also in package.json's `contributes.commands`). */
export const UseCaseCommands = {
  callTool: 'mcpHost.tool.call',
  openResource: 'mcpHost.resource.open',
  readResourceUri: 'mcpHost.resource.openUri',
  toggleSubscription: 'mcpHost.resource.toggleSubscription',
  subscribe: 'mcpHost.resource.subscribe',
  unsubscribe: 'mcpHost.resource.unsubscribe',
  readTemplate: 'mcpHost.template.read',
  getPrompt: 'mcpHost.prompt.get',
  ping: 'mcpHost.server.ping',
  setLogLevel: 'mcpHost.server.setLogLevel',
  copyEntry: 'mcpHost.server.copyEntry',
  showCapabilities: 'mcpHost.server.showCapabilities',
  details: 'mcpHost.server.details',
  diagnose: 'mcpHost.server.diagnose',
  clearHistory: 'mcpHost.history.clear',
  showHistory: 'mcpHost.history.show',
} as const;

/** What the host gets back: dispose it on deactivation; show `subscriptions` in the tree. */
export interface UseCases extends vscode.Disposable {
  readonly subscriptions: ResourceFeatures['subscriptionState'];
  /** What @mcp keeps: the tree marks tools switched off for models or changed since approved. */
  readonly chat: ChatState;
  /** The call history (the timeline finds a call's entry in it). */
  readonly history: CallHistory;
  /** Running and recent tasks of every server: the tree's Tasks group. */
  readonly tasks: UseCaseContext['tasks'];
  /** The servers' own icons: the tree draws them too. */
  readonly icons: UseCaseContext['icons'];
}

/**
 * Registers the commands, the read-only documents (schemes `mcp-host-resource` for resources,
 * `mcp-host-inspect` for result parts, capabilities and details) and the health ping. Command arguments: a `mcpHost.servers` tree node, an {@link CommandTarget}, or
 * nothing (then quick picks ask).
 */
export function registerUseCases(context: vscode.ExtensionContext, deps: UseCaseDeps): UseCases {
  const ctx = new UseCaseContext(context, deps);
  const resources = new ResourceFeatures(ctx);
  const noise = new NoiseRecorder();
  const health = new HealthMonitor(ctx);
  const openResource = (serverId: string, uri: string) => resources.open(serverId, uri, hintFor(ctx.server(serverId), uri));
  const watchNoise = () => {
    for (const s of deps.servers.list()) {
      const client = ctx.runningClient(s.id);
      if (client) noise.watch(s.id, client);
    }
  };
  watchNoise();

  const register = (id: string, fn: (...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (error) {
        const message = errorMessage(error);
        const target = toTarget(args[0]);
        if (target) deps.log(target.serverId, 'error', `${id} failed: ${message}`);
        void vscode.window.showErrorMessage(`MCP Host: ${message}`);
        return undefined;
      }
    });

  const disposables: vscode.Disposable[] = [
    ctx,
    new SavedTestsController(ctx),
    resources,
    noise,
    health,
    ...(deps.onDidChangeServers ? [deps.onDidChangeServers(watchNoise)] : []),
    register(UseCaseCommands.callTool, async (arg) => {
      const t = await resolveTarget(ctx, arg, 'tool');
      if (t?.name) (await loadToolPanel()).show(ctx, t.serverId, t.name, openResource);
    }),
    register(UseCaseCommands.openResource, async (arg) => {
      const t = await resolveTarget(ctx, arg, 'resource');
      if (t?.uri) await resources.open(t.serverId, t.uri, hintFor(ctx.server(t.serverId), t.uri, t.name));
    }),
    register(UseCaseCommands.readResourceUri, async (arg, uriArg) => {
      const server = await resolveServer(ctx, arg, 'Read a resource of which server?');
      if (!server) return;
      const uri = typeof uriArg === 'string' ? uriArg : await vscode.window.showInputBox({ prompt: `Resource URI to read from ${server.entry.name}`, placeHolder: 'e.g. file:///path or demo://resource/static/document/architecture.md', ignoreFocusOut: true });
      if (uri) await resources.open(server.id, uri, hintFor(server, uri));
    }),
    register(UseCaseCommands.toggleSubscription, async (arg) => {
      const t = await resolveTarget(ctx, arg, 'resource');
      if (t?.uri) return resources.toggleSubscription(t.serverId, t.uri);
      return undefined;
    }),
    register(UseCaseCommands.subscribe, async (arg) => {
      const t = await resolveTarget(ctx, arg, 'resource');
      if (t?.uri) return resources.setSubscribed(t.serverId, t.uri, true);
      return undefined;
    }),
    register(UseCaseCommands.unsubscribe, async (arg) => {
      const t = await resolveTarget(ctx, arg, 'resource');
      if (t?.uri) return resources.setSubscribed(t.serverId, t.uri, false);
      return undefined;
    }),
    register(UseCaseCommands.readTemplate, async (arg) => {
      const t = await resolveTarget(ctx, arg, 'template');
      if (t?.uri) await resources.readTemplate(t.serverId, t.uri, t.name);
    }),
    register(UseCaseCommands.getPrompt, async (arg, preset) => {
      const t = await resolveTarget(ctx, arg, 'prompt');
      if (!t?.name) return undefined;
      const values = isStringRecord(preset) ? preset : undefined;
      await getPrompt(ctx, t.serverId, t.name, openResource, values);
      return undefined;
    }),
    register(UseCaseCommands.ping, async (arg) => {
      const s = await resolveServer(ctx, arg, 'Ping which MCP server?', true);
      if (s) return pingServer(ctx, s);
      return undefined;
    }),
    register(UseCaseCommands.setLogLevel, async (arg, level) => {
      const s = await resolveServer(ctx, arg, 'Set the log level of which MCP server?', true);
      if (s) await setLogLevel(ctx, s, typeof level === 'string' ? (level as never) : undefined);
    }),
    register(UseCaseCommands.copyEntry, async (arg) => {
      const s = await resolveServer(ctx, arg, 'Copy the entry of which MCP server?');
      if (s) await copyServerEntry(ctx, s);
    }),
    register(UseCaseCommands.showCapabilities, async (arg) => {
      const s = await resolveServer(ctx, arg, 'Show the capabilities of which MCP server?', true);
      if (s) await showCapabilities(ctx, s);
    }),
    register(UseCaseCommands.details, async (arg) => {
      const s = await resolveServer(ctx, arg, 'Show the details of which MCP server?');
      if (s) showServerDetails(ctx, s, noise, health);
    }),
    register(UseCaseCommands.diagnose, async (arg) => {
      const s = await resolveServer(ctx, arg, 'Diagnose which MCP server?');
      // The connection doctor (and the DNS, TCP and TLS probes under it) loads on the first diagnosis.
      if (s) await (await import('./diagnose.js')).diagnoseServer(ctx, s);
    }),
    register(UseCaseCommands.clearHistory, async (arg) => {
      const t = toTarget(arg);
      ctx.history.clear(t?.serverId);
      void vscode.window.setStatusBarMessage('MCP Host: call history cleared', 3000);
    }),
    // `{ historyId }`: the tool panel of a history entry, showing it (the timeline's "Show in History").
    register(UseCaseCommands.showHistory, async (arg) => {
      const historyId = typeof arg === 'object' && arg !== null && typeof (arg as { historyId?: unknown }).historyId === 'string' ? (arg as { historyId: string }).historyId : undefined;
      if (!historyId || !(await loadToolPanel()).showHistoryEntry(ctx, historyId, openResource)) void vscode.window.showInformationMessage('MCP Host: that call is no longer in the history.');
    }),
    { dispose: () => (disposeLoadedPanels(), DetailsPanel.disposeAll()) },
    registerTaskFeatures(ctx, openResource),
    // The panels open when the window reloaded come back (panelTabs.ts).
    ...Object.values(PANEL_VIEW_TYPES).map((viewType) =>
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: async (panel, raw) => {
          const state = parseRestoreState(raw);
          if (!state || state.kind !== PANEL_KIND_OF[viewType]) return panel.dispose();
          if (state.kind === 'tool') return (await loadToolPanel()).restore(ctx, panel, state.serverId, state.name, openResource);
          if (state.kind === 'prompt') return (await loadPromptPanel()).restore(ctx, panel, state.serverId, state.prompt, openResource);
          return DetailsPanel.restore(ctx, panel, state.serverId, noise, health);
        },
      }),
    ),
  ];
  // @mcp: a language model uses the same servers, through the same tool-call use case.
  const chat = registerChatParticipant(ctx);
  disposables.push(chat.disposable);
  const all = vscode.Disposable.from(...disposables.reverse());
  return { subscriptions: resources.subscriptionState, chat: chat.state, history: ctx.history, tasks: ctx.tasks, icons: ctx.icons, dispose: () => all.dispose() };
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

function hintFor(server: ServerHandle | undefined, uri: string, name?: string): { name?: string; mimeType?: string } {
  const r = server?.resources?.find((x) => x.uri === uri);
  return { name: name ?? r?.name, mimeType: r?.mimeType };
}

function running(ctx: UseCaseContext, s: ServerHandle): boolean {
  return ctx.runningClient(s.id)?.state.kind === 'ready';
}

/** The server of a command: from its argument, or picked (only running ones when `needsRunning`). */
async function resolveServer(ctx: UseCaseContext, arg: unknown, placeHolder: string, needsRunning = false): Promise<ServerHandle | undefined> {
  const t = toTarget(arg);
  if (t) return ctx.server(t.serverId);
  if (typeof arg === 'string') return ctx.server(arg) ?? ctx.deps.servers.list().find((s) => s.entry.name === arg);
  const servers = ctx.deps.servers.list().filter((s) => !needsRunning || running(ctx, s));
  if (servers.length === 0) {
    void vscode.window.showInformationMessage(needsRunning ? 'MCP Host: no server is running.' : 'MCP Host: no server is configured.');
    return undefined;
  }
  if (servers.length === 1) return servers[0];
  const picked = await vscode.window.showQuickPick(
    servers.map((s) => ({ label: plainPickText(s.entry.name), description: `${s.status.kind} — ${s.entry.source.label}`, server: s })),
    { placeHolder },
  );
  return picked?.server;
}

/** The item of a command: from its argument, or picked (server first, then the item). */
async function resolveTarget(ctx: UseCaseContext, arg: unknown, kind: 'tool' | 'resource' | 'template' | 'prompt'): Promise<CommandTarget | undefined> {
  const given = toTarget(arg);
  if (given && given.kind === kind) return given;
  const server = given ? ctx.server(given.serverId) : await resolveServer(ctx, undefined, `Which MCP server?`, true);
  if (!server) return undefined;
  type Item = vscode.QuickPickItem & { target: CommandTarget };
  let items: Item[];
  switch (kind) {
    case 'tool':
      items = (server.tools ?? []).map((t) => ({ label: plainPickText(t.name), description: plainPickText(t.title ?? t.annotations?.title), detail: plainPickText(t.description?.slice(0, 200)), target: { serverId: server.id, kind, name: t.name } }));
      break;
    case 'resource':
      items = (server.resources ?? []).map((r) => ({ label: plainPickText(r.name), description: plainPickText(r.uri), detail: plainPickText(r.description?.slice(0, 200)), target: { serverId: server.id, kind, uri: r.uri, name: r.name } }));
      break;
    case 'template':
      items = (server.templates ?? []).map((t) => ({ label: plainPickText(t.name), description: plainPickText(t.uriTemplate), detail: plainPickText(t.description?.slice(0, 200)), target: { serverId: server.id, kind, uri: t.uriTemplate, name: t.name } }));
      break;
    case 'prompt':
      items = (server.prompts ?? []).map((p) => ({ label: plainPickText(p.name), description: plainPickText(p.title), detail: plainPickText(p.description?.slice(0, 200)), target: { serverId: server.id, kind, name: p.name } }));
      break;
    default: {
      const never: never = kind;
      return never;
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`MCP Host: ${server.entry.name} lists no ${kind === 'template' ? 'resource templates' : `${kind}s`}.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: `Which ${kind === 'template' ? 'resource template' : kind} of ${server.entry.name}?`, matchOnDescription: true });
  return picked?.target;
}
