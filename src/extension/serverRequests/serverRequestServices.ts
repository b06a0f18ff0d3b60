// The sampling and elicitation services in VS Code (a lazy chunk: createServerRequests.ts loads it with the first
// request a server sends, or the first URL elicitation or app link): the dialog queue, the webview
// prompter, VS Code's language models, and the services built on them.
import { mcpHostSetting } from '../trust/restrictedSettings';
import * as vscode from 'vscode';
import type { LogSeverity } from '../../protocol/logging';
import { DialogQueue } from '../../serverRequests/dialogQueue';
import { ElicitationMode, ElicitationService } from '../../serverRequests/elicitation';
import type { SamplingPolicyStore } from '../../serverRequests/policy';
import { SamplingService } from '../../serverRequests/sampling';
import type { LoadedServerRequestServices } from '../../serverRequests/servicesOnDemand';
import { openExternalUrl } from '../webview/openExternalUrl';
import { VsCodeLanguageModels } from './languageModels';
import { WebviewPrompter } from './prompter';
import { DialogPanel } from './dialogPanel';

/** What the services need of the editor: the server's output channel. */
export interface ServerRequestDeps {
  /** Writes to the server's output channel. */
  log(serverId: string, level: LogSeverity, text: string): void;
  /** Reveals the server's output channel (the "Show Log" button of notifications). */
  showLog?(serverId: string): void;
}

const DEFAULT_MAX_QUEUED = 3;

/** Both services, and what to dispose with the extension (the queue, open dialogs, pending URL elicitations). */
export function createServerRequestServices(extensionUri: vscode.Uri, policies: SamplingPolicyStore, deps: ServerRequestDeps, modes: readonly ElicitationMode[]): LoadedServerRequestServices & vscode.Disposable {
  const queue = new DialogQueue(() => {
    const n = mcpHostSetting<number>('sampling.maxQueued', DEFAULT_MAX_QUEUED);
    return typeof n === 'number' && Number.isFinite(n) ? n : DEFAULT_MAX_QUEUED;
  });
  const prompter = new WebviewPrompter({ extensionUri, queue, log: deps.log, ...(deps.showLog ? { showLog: deps.showLog } : {}) });
  const models = new VsCodeLanguageModels(() => 'An MCP server asks for a completion (MCP sampling); you approve each request in MCP Host.');
  const sampling = new SamplingService({ queue, policies, prompter, models, log: deps.log });
  const elicitation = new ElicitationService({
    queue,
    prompter,
    log: deps.log,
    modes,
    // Opened by VS Code, exactly the URL the user approved; never fetched by MCP Host.
    openUrl: openExternalUrl,
  });
  return {
    sampling,
    elicitation,
    dispose: () => {
      for (const p of DialogPanel.all()) p.dispose();
      elicitation.completions.dispose();
      queue.dispose();
    },
  };
}
