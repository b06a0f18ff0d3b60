// Serving what servers ask of the host, in VS Code: sampling (`sampling/createMessage`, answered
// by a VS Code language model after the user approves, or by the user) and elicitation (`elicitation/create`,
// form and URL modes). The registry declares `capabilities` in every `initialize`; the host calls
// `configureClient` on each client the registry creates, before it connects.
//
//   const serverRequests = createServerRequests(context, { log: (id, level, text) => logs.get(id).write(level, text), showLog: (id) => logs.get(id).show() });
//   new ServerRegistry({ ..., capabilities: serverRequests.capabilities });
//   registry.onDidCreateClient(({ handle, client }) => serverRequests.configureClient(client, { id: handle.id, name: handle.entry.name }));
//
// The tool-call UI is given `serverRequests.handleUrlElicitationRequired(error, server)` (passed in, not
// found through a module variable) and calls it when a tools/call fails
// with -32042 "URL elicitation required": it offers the URLs listed in `error.data.elicitations`
// with the same consent dialog, waits until the server reports them complete (or the user says
// "retry now"), and resolves true when the tool call should be retried; false for any other
// error, a declined URL, or when the user gives up.
import { mcpHostSetting } from '../trust/restrictedSettings';
import * as vscode from 'vscode';
import type { McpClient, ServerRequestHandlers } from '../../client/client';
import { attachServerRequests, clientCapabilitiesFor, requestHandlersFor } from '../../serverRequests/attach';
import { DialogQueue } from '../../serverRequests/dialogQueue';
import { ElicitationService } from '../../serverRequests/elicitation';
import { SAMPLING_POLICIES, SamplingPolicy, SamplingPolicyStore, describePolicy } from '../../serverRequests/policy';
import { SamplingService } from '../../serverRequests/sampling';
import type { ServerIdentity } from '../../serverRequests/types';
import { openExternalUrl } from '../webview/openExternalUrl';
import { VsCodeLanguageModels } from './languageModels';
import { WebviewPrompter } from './prompter';
import { DialogPanel } from './dialogPanel';
import type { LogSeverity } from '../../protocol/logging';
import { plainPickText } from '../../content/untrustedText';

export interface ServerRequestDeps {
  /** Writes to the server's output channel. */
  log(serverId: string, level: LogSeverity, text: string): void;
  /** Reveals the server's output channel (the "Show Log" button of notifications). */
  showLog?(serverId: string): void;
}

export interface ServerRequests extends vscode.Disposable {
  /** Client capabilities to declare: `{ sampling: {}, elicitation: { form: {}, url: {} } }`. */
  readonly capabilities: Record<string, unknown>;
  /** The answers to one server's sampling and elicitation requests, for its client's constructor (both eras use them). */
  handlersFor(server: ServerIdentity): ServerRequestHandlers;
  /** Wires the rest on a client before it connects (elicitation completions); dispose when the client goes. */
  configureClient(client: McpClient, server: ServerIdentity): vscode.Disposable;
  /** See the file comment. */
  handleUrlElicitationRequired(error: unknown, server: ServerIdentity): Promise<boolean>;
  /** Opens a link an MCP App asks for, after the URL consent dialog (elicitation's). */
  openLinkWithConsent(url: string, server: ServerIdentity, message: string, signal: AbortSignal): Promise<'opened' | 'declined' | { readonly refused: string }>;
}

export const COMMAND_RESET_SAMPLING = 'mcpHost.sampling.resetPermissions';
export const COMMAND_SET_SAMPLING = 'mcpHost.sampling.setPermission';
const DEFAULT_MAX_QUEUED = 3;

export function createServerRequests(context: vscode.ExtensionContext, deps: ServerRequestDeps): ServerRequests {
  const disposables: vscode.Disposable[] = [];
  const queue = new DialogQueue(() => {
    const n = mcpHostSetting<number>('sampling.maxQueued', DEFAULT_MAX_QUEUED);
    return typeof n === 'number' && Number.isFinite(n) ? n : DEFAULT_MAX_QUEUED;
  });
  disposables.push(queue);
  const policies = new SamplingPolicyStore(context.globalState);
  const prompter = new WebviewPrompter({ extensionUri: context.extensionUri, queue, log: deps.log, ...(deps.showLog ? { showLog: deps.showLog } : {}) });
  const models = new VsCodeLanguageModels(() => 'An MCP server asks for a completion (MCP sampling); you approve each request in MCP Host.');
  const sampling = new SamplingService({ queue, policies, prompter, models, log: deps.log });
  const elicitation = new ElicitationService({
    queue,
    prompter,
    log: deps.log,
    modes: ['form', 'url'],
    // Opened by VS Code, exactly the URL the user approved; never fetched by MCP Host.
    openUrl: openExternalUrl,
  });
  disposables.push(elicitation.completions);
  const services = { sampling, elicitation };
  /** Servers seen since activation, for the permission commands. */
  const known = new Map<string, string>();

  disposables.push(
    vscode.commands.registerCommand(COMMAND_RESET_SAMPLING, async (arg?: unknown) => {
      const serverId = serverIdOf(arg);
      const entries = policies.entries();
      if (serverId) {
        await policies.reset([serverId]);
        void vscode.window.showInformationMessage(`Sampling requests from ${known.get(serverId) ?? serverId} will ask you again.`);
        return;
      }
      if (entries.length === 0) {
        void vscode.window.showInformationMessage('No server has a remembered sampling permission: every request asks you.');
        return;
      }
      const all = { label: '$(clear-all) All servers', ids: undefined as string[] | undefined };
      const picked = await vscode.window.showQuickPick([all, ...entries.map((e) => ({ label: plainPickText(e.name), description: describePolicy(e.policy), detail: plainPickText(e.serverId), ids: [e.serverId] }))], {
        title: 'Reset sampling permissions: the server will ask again',
      });
      if (!picked) return;
      await policies.reset(picked.ids);
      void vscode.window.showInformationMessage(picked.ids ? `Sampling requests from ${picked.label} will ask you again.` : 'Sampling requests from every server will ask you again.');
    }),
    vscode.commands.registerCommand(COMMAND_SET_SAMPLING, async (arg?: unknown) => {
      let serverId = serverIdOf(arg);
      let name = serverId ? known.get(serverId) ?? serverId : undefined;
      if (!serverId) {
        const servers = new Map(known);
        for (const e of policies.entries()) if (!servers.has(e.serverId)) servers.set(e.serverId, e.name);
        if (servers.size === 0) {
          void vscode.window.showInformationMessage('No MCP server has connected yet.');
          return;
        }
        const picked = await vscode.window.showQuickPick([...servers].map(([id, n]) => ({ label: plainPickText(n), description: describePolicy(policies.get(id)), detail: plainPickText(id), id, name: n })), { title: 'Sampling permission for which server?' });
        if (!picked) return;
        serverId = picked.id;
        name = picked.name;
      }
      const current = policies.get(serverId);
      const labels: Record<SamplingPolicy, string> = { ask: 'Ask every time', allowSession: 'Allow until VS Code restarts', allowAlways: 'Always allow', never: 'Never allow' };
      const choice = await vscode.window.showQuickPick(
        SAMPLING_POLICIES.map((p) => ({ label: labels[p], description: p === current ? '(current)' : undefined, policy: p })),
        { title: `Sampling requests from ${name}` },
      );
      if (!choice) return;
      await policies.set(serverId, name ?? serverId, choice.policy);
    }),
  );

  const features: ServerRequests = {
    capabilities: clientCapabilitiesFor(services),
    handlersFor(server: ServerIdentity): ServerRequestHandlers {
      known.set(server.id, server.name);
      return requestHandlersFor(server, services);
    },
    configureClient(client: McpClient, server: ServerIdentity): vscode.Disposable {
      known.set(server.id, server.name);
      const attached = attachServerRequests(client, server, services, { log: deps.log });
      return new vscode.Disposable(() => attached.dispose());
    },
    handleUrlElicitationRequired(error: unknown, server: ServerIdentity): Promise<boolean> {
      return elicitation.handleUrlElicitationRequired(server, error);
    },
    openLinkWithConsent(url, server, message, signal) {
      return elicitation.openLinkWithConsent(server, url, message, signal);
    },
    dispose() {
      for (const p of DialogPanel.all()) p.dispose();
      for (const d of disposables.splice(0)) d.dispose();
    },
  };
  context.subscriptions.push(features);
  return features;
}

/** A server id from a command argument: a string, or a tree item / handle with `id`. */
function serverIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null) {
    const o = arg as { id?: unknown; serverId?: unknown };
    if (typeof o.serverId === 'string') return o.serverId;
    if (typeof o.id === 'string') return o.id;
  }
  return undefined;
}
