// The user side of sampling and elicitation in VS Code: each dialog is a DialogPanel; the model
// picker is a QuickPick; messages outside a dialog are notifications with a "Show Log" button.
// A dialog closes when the server cancels its request (the request's signal aborts).
import * as vscode from 'vscode';
import type { FormState } from '../../forms/model';
import { type DialogQueue, abortReason, closedByClient } from '../../serverRequests/dialogQueue';
import type { ContentCheck, ElicitFormView, ElicitUrlView, ElicitationPrompter, FormAnswer, UrlAnswer } from '../../serverRequests/elicitation';
import { ModelInfo, describeModel } from '../../serverRequests/modelSelection';
import type { SamplingAnswerView, SamplingDialog, SamplingPrompter, SamplingRequestDecision, SamplingRequestView, SamplingResponseDecision } from '../../serverRequests/sampling';
import type { ServerIdentity } from '../../serverRequests/types';
import { modelsTakeImages } from './languageModels';
import { DialogPanel } from './dialogPanel';
import type { LogSeverity } from '../../protocol/logging';

export interface PrompterDeps {
  readonly extensionUri: vscode.Uri;
  readonly queue: DialogQueue;
  log(serverId: string, level: LogSeverity, text: string): void;
  /** Reveals a server's output channel. */
  showLog?(serverId: string): void;
}

export class WebviewPrompter implements SamplingPrompter, ElicitationPrompter {
  constructor(private readonly deps: PrompterDeps) {}

  private panel(server: ServerIdentity, title: string, signal: AbortSignal, what: string): DialogPanel {
    const panel = new DialogPanel(this.deps.extensionUri, title, (reason) => this.deps.log(server.id, 'warn', `the dialog sent an invalid message (ignored): ${reason}`));
    const onAbort = () => {
      if (panel.isDisposed) return;
      panel.dispose();
      // Say why the dialog went away: the server withdrew it, or the call it belonged to ended.
      const why = closedByClient(signal) ? `MCP Host closed the ${what} from ${server.name}: ${abortReason(signal)}.` : `${server.name} cancelled its ${what}.`;
      void vscode.window.showInformationMessage(why);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    // "2 more requests waiting" while this dialog is open.
    const lane = this.deps.queue.onDidChange((state) => {
      if (state.key === server.id) panel.post({ type: 'queue', waiting: state.waiting });
    });
    panel.onClose(() => {
      signal.removeEventListener('abort', onAbort);
      lane.dispose();
    });
    const waiting = this.deps.queue.state(server.id).waiting;
    if (waiting > 0) panel.post({ type: 'queue', waiting });
    return panel;
  }

  // ---- sampling ----

  open(server: ServerIdentity, request: SamplingRequestView, signal: AbortSignal): SamplingDialog {
    const panel = this.panel(server, `Sampling request — ${server.name}`, signal, 'sampling request');
    panel.post({ type: 'sampling', server: { id: server.id, name: server.name }, request, imagesToModel: modelsTakeImages() });
    const closed = new AbortController();
    panel.onClose(() => closed.abort('the dialog was closed'));
    return {
      closed: closed.signal,
      decide: () =>
        new Promise<SamplingRequestDecision>((resolve) => {
          panel.onClose(() => resolve({ kind: 'reject' }));
          panel.handle((m) => {
            if (m.type === 'samplingApprove') resolve({ kind: 'approve', edits: m.edits, ...(m.remember !== 'once' ? { remember: m.remember } : {}) });
            else if (m.type === 'samplingReject') resolve({ kind: 'reject', ...(m.remember === 'never' ? { remember: 'never' as const } : {}) });
            else if (m.type === 'samplingAnswerSelf') resolve({ kind: 'answer', text: m.text, model: m.model });
          });
        }),
      generating: (model: ModelInfo) => {
        panel.handle(undefined);
        panel.post({ type: 'samplingGenerating', model: describeModel(model) });
      },
      review: (answer: SamplingAnswerView) =>
        new Promise<SamplingResponseDecision>((resolve) => {
          panel.onClose(() => resolve({ kind: 'reject' }));
          panel.handle((m) => {
            if (m.type === 'answerSend') resolve({ kind: 'send', text: m.text });
            else if (m.type === 'answerReject') resolve({ kind: 'reject' });
          });
          panel.post({ type: 'samplingAnswer', answer });
        }),
      failed: (text: string) => {
        panel.post({ type: 'failed', text });
        void this.message(server, 'error', `${server.name}: ${text}`);
      },
      offerSelfAnswer: (reason: string) => panel.post({ type: 'sampling', server: { id: server.id, name: server.name }, request: { ...request, modelsAvailable: false, noModelReason: reason }, imagesToModel: modelsTakeImages() }),
      close: () => panel.dispose(),
    };
  }

  async pickModel(server: ServerIdentity, models: readonly ModelInfo[], signal: AbortSignal): Promise<ModelInfo | undefined> {
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const items = models.map((m) => ({ label: m.name, description: [m.vendor, m.family].join(' · '), detail: m.id, model: m }));
      const picked = await vscode.window.showQuickPick(items, {
        title: `Which language model should answer ${server.name}'s sampling request?`,
        placeHolder: 'The server named no model available here. MCP Host remembers your choice for this server until VS Code restarts.',
        ignoreFocusOut: true,
        matchOnDescription: true,
        matchOnDetail: true,
      }, cts.token);
      return picked?.model;
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }

  notify(server: ServerIdentity, level: 'info' | 'warning' | 'error', text: string): void {
    void this.message(server, level, text);
  }

  ranUnattended(server: ServerIdentity, model: ModelInfo): void {
    // Allowed by the user's setting: no dialog, but not invisible either.
    vscode.window.setStatusBarMessage(`$(sparkle) ${server.name} sampled ${model.name} (allowed by your setting)`, 8000);
  }

  refusedUnattended(server: ServerIdentity): void {
    vscode.window.setStatusBarMessage(`$(circle-slash) Refused a sampling request from ${server.name} (your setting: never allow)`, 8000);
  }

  private async message(server: ServerIdentity, level: 'info' | 'warning' | 'error', text: string): Promise<void> {
    const actions = this.deps.showLog ? ['Show Log'] : [];
    const show = level === 'error' ? vscode.window.showErrorMessage : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(text, ...actions);
    if (choice === 'Show Log') this.deps.showLog?.(server.id);
  }

  // ---- elicitation ----

  form(server: ServerIdentity, view: ElicitFormView, check: (state: FormState | undefined) => ContentCheck, signal: AbortSignal): Promise<FormAnswer> {
    const panel = this.panel(server, `${server.name} asks for information`, signal, 'request for information');
    panel.post({ type: 'form', server: { id: server.id, name: server.name }, view });
    return new Promise<FormAnswer>((resolve) => {
      panel.onClose(() => resolve({ action: 'cancel' }));
      panel.handle((m) => {
        switch (m.type) {
          case 'formValidate': {
            const r = check(m.state);
            panel.post({ type: 'formErrors', errors: r.ok ? [] : r.errors });
            break;
          }
          case 'formAccept': {
            const r = check(m.state);
            if (r.ok) resolve({ action: 'accept', content: r.content });
            else panel.post({ type: 'formErrors', errors: r.errors });
            break;
          }
          case 'formDecline':
            resolve({ action: 'decline' });
            break;
          case 'formCancel':
            resolve({ action: 'cancel' });
            break;
          default:
            break;
        }
      });
    }).finally(() => panel.dispose());
  }

  url(server: ServerIdentity, view: ElicitUrlView, signal: AbortSignal): Promise<UrlAnswer> {
    const panel = this.panel(server, `${server.name} asks you to open a link`, signal, 'request to open a link');
    panel.post({ type: 'url', server: { id: server.id, name: server.name }, view });
    return new Promise<UrlAnswer>((resolve) => {
      panel.onClose(() => resolve('cancel'));
      panel.handle((m) => {
        if (m.type === 'urlOpen') resolve('open');
        else if (m.type === 'urlDecline') resolve('decline');
        else if (m.type === 'urlCancel') resolve('cancel');
      });
    }).finally(() => panel.dispose());
  }

  awaitCompletion(server: ServerIdentity, views: readonly ElicitUrlView[], completed: Promise<void>, signal: AbortSignal): Promise<boolean> {
    const panel = this.panel(server, `Waiting for ${server.name}`, signal, 'request');
    const domains = [...new Set(views.map((v) => v.url.domain))];
    panel.post({ type: 'waiting', server: { id: server.id, name: server.name }, domains });
    return new Promise<boolean>((resolve) => {
      panel.onClose(() => resolve(false));
      completed.then(
        () => resolve(true),
        () => {},
      );
      panel.handle((m) => {
        if (m.type === 'retryNow') resolve(true);
        else if (m.type === 'giveUp') resolve(false);
      });
    }).finally(() => panel.dispose());
  }
}
