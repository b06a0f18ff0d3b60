// "Get Prompt" for a prompt with arguments: the same webview form as a tool's (one field per
// argument, required ones marked), with the server's `completion/complete` suggestions under
// each field as you type (the arguments filled in so far go along as context), and the
// messages shown below once the prompt is fetched.
import * as vscode from 'vscode';
import type { Prompt } from '../../client/schemas';
import { FieldModel, buildFormModel } from '../../forms/model';
import { checkForm } from '../../forms/fieldChecks';
import { initialState } from '../../forms/state';
import { looksLikeMarkdown, renderMarkdown } from '../../content/markdown';
import { describeFailure, promptDisplay } from '../../usecases/resultModel';
import { describeTimeoutSource } from '../../usecases/timeouts';
import { Input, OutboundMessage } from '../../usecases/panelMessages';
import type { UseCaseContext } from './useCaseContext';
import { fetchPrompt } from './getPrompt';
import { OpenResource, PanelMessage, ResultStore, receivePanelMessage } from './rawResults';
import { WebviewOutbox, webviewHtml, webviewOptions } from '../webview/webviewPanel';
import { PANEL_ASSETS } from '../webview/webviewPage';
import { errorMessage } from '../../protocol/errors';
import { PANEL_VIEW_TYPES, PreviewTab, openAsPreview, rememberForRestore } from './panelTabs';

export const PROMPT_PANEL_VIEW_TYPE = PANEL_VIEW_TYPES.prompt;

/** A prompt's arguments as the JSON Schema of an object of strings, for the form model. */
export function promptArgumentsSchema(prompt: Pick<Prompt, 'arguments'>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const a of prompt.arguments ?? []) {
    properties[a.name] = { type: 'string', ...(a.title !== undefined ? { title: a.title } : {}), ...(a.description !== undefined ? { description: a.description } : {}) };
  }
  return { type: 'object', properties, required: (prompt.arguments ?? []).filter((a) => a.required === true).map((a) => a.name) };
}

export class PromptPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, PromptPanel>();

  /** Opens (or reveals) the form of a prompt; a new one opens as a preview tab (panelTabs.ts). */
  static show(ctx: UseCaseContext, serverId: string, prompt: Prompt, openResource: OpenResource): PromptPanel {
    const existing = PromptPanel.panels.get(PromptPanel.key(serverId, prompt.name));
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = PromptPanel.track(new PromptPanel(ctx, serverId, prompt, openResource));
    panel.tab = openAsPreview(panel.panel, PROMPT_PANEL_VIEW_TYPE);
    return panel;
  }

  /** Builds the form of a prompt again in a panel VS Code restored after a reload. */
  static restore(ctx: UseCaseContext, restored: vscode.WebviewPanel, serverId: string, prompt: Prompt, openResource: OpenResource): void {
    if (PromptPanel.panels.has(PromptPanel.key(serverId, prompt.name))) restored.dispose();
    else PromptPanel.track(new PromptPanel(ctx, serverId, prompt, openResource, restored));
  }

  private static key(serverId: string, name: string): string {
    return `${serverId}\n${name}`;
  }

  private static track(panel: PromptPanel): PromptPanel {
    const key = PromptPanel.key(panel.serverId, panel.prompt.name);
    PromptPanel.panels.set(key, panel);
    panel.panel.onDidDispose(() => PromptPanel.panels.delete(key));
    return panel;
  }

  static disposeAll(): void {
    for (const p of [...PromptPanel.panels.values()]) p.dispose();
  }

  readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly results = new ResultStore();
  private readonly model: FieldModel;
  private readonly outbox: WebviewOutbox<OutboundMessage>;
  private input: Input;
  private running = false;
  private completing: AbortController | undefined;
  /** Its place as a preview tab (none when restored after a reload: kept). */
  private tab: PreviewTab | undefined;

  private constructor(
    private readonly ctx: UseCaseContext,
    private readonly serverId: string,
    private readonly prompt: Prompt,
    private readonly openResource: OpenResource,
    restored?: vscode.WebviewPanel,
  ) {
    this.model = buildFormModel(promptArgumentsSchema(prompt));
    this.input = { mode: 'form', state: initialState(this.model) };
    const title = `Prompt ${prompt.name} — ${ctx.serverName(serverId)}`;
    this.panel = restored ?? vscode.window.createWebviewPanel(PROMPT_PANEL_VIEW_TYPE, title, vscode.ViewColumn.Active, webviewOptions(ctx.extensionUri));
    if (restored) {
      restored.title = title;
      restored.webview.options = webviewOptions(ctx.extensionUri);
    }
    this.panel.webview.html = webviewHtml(this.panel.webview, ctx.extensionUri, title, PANEL_ASSETS);
    this.outbox = new WebviewOutbox(this.panel.webview);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      this.panel.onDidDispose(() => this.dispose()),
      ctx.icons.onDidChange(() => this.showIcon()),
    );
  }

  private post(message: OutboundMessage): void {
    this.outbox.post(message);
  }

  private init(): void {
    const p = this.prompt;
    const t = this.ctx.timeout(this.serverId);
    this.post({
      type: 'initTool',
      header: {
        kind: 'prompt',
        serverName: this.ctx.serverName(this.serverId),
        name: p.name,
        ...(p.title !== undefined ? { title: p.title } : {}),
        ...(p.description !== undefined ? { description: p.description, ...(looksLikeMarkdown(p.description) ? { descriptionHtml: renderMarkdown(p.description) } : {}) } : {}),
        hasOutputSchema: false,
        fallbacks: [],
        completions: this.ctx.runningClient(this.serverId)?.serverCapabilities?.completions !== undefined,
      },
      model: this.model,
      input: this.input,
      timeoutSeconds: t.seconds,
      timeoutNote: describeTimeoutSource(t.source),
      history: [],
    });
    this.showIcon();
  }

  /** The prompt's own icon in the header, for the current theme. */
  private showIcon(): void {
    void this.ctx.icons.pageIcon(this.ctx.server(this.serverId), this.prompt).then((src) => src && this.post({ type: 'headerIcon', src }));
  }

  private receive(raw: unknown): Promise<void> {
    const panel = { ctx: this.ctx, results: this.results, serverId: this.serverId, openResource: this.openResource, description: 'the prompt panel', post: (m: OutboundMessage) => this.post(m) };
    return receivePanelMessage(panel, raw, (m) => this.handle(m));
  }

  /** The panel's own messages (results and malformed ones are handled by `receivePanelMessage`). */
  private async handle(m: PanelMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.outbox.open(() => this.init());
        rememberForRestore(this.panel, { kind: 'prompt', serverId: this.serverId, prompt: this.prompt });
        return;
      case 'edited':
        this.tab?.keep();
        return;
      case 'validate': {
        this.input = m.input;
        this.post({ type: 'validation', errors: this.check(m.input).errors });
        return;
      }
      case 'run':
        this.input = m.input;
        this.tab?.keep();
        await this.run(m.input, m.timeoutSeconds);
        return;
      case 'complete':
        await this.complete(m.name, m.value, m.context);
        return;
      default:
        // JSON mode, history and cancel have no meaning for a prompt.
        return;
    }
  }

  private check(input: Input): { value: Record<string, string>; errors: ReturnType<typeof checkForm>['errors'] } {
    if (input.mode !== 'form') return { value: {}, errors: [{ path: '', keyword: 'type', message: 'prompt arguments are filled in the form' }] };
    const { value, errors } = checkForm(this.model, input.state);
    const args: Record<string, string> = {};
    for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) if (typeof v === 'string') args[k] = v;
    return { value: args, errors };
  }

  /** The server's suggestions for one argument; the newest request wins, older ones are aborted. */
  private async complete(name: string, value: string, context: Record<string, string>): Promise<void> {
    const client = this.ctx.runningClient(this.serverId);
    if (!client?.serverCapabilities?.completions) return;
    this.completing?.abort();
    const abort = new AbortController();
    this.completing = abort;
    const others = Object.fromEntries(Object.entries(context).filter(([k, v]) => k !== name && v !== ''));
    try {
      const r = await client.complete({ type: 'ref/prompt', name: this.prompt.name }, { name, value }, Object.keys(others).length ? { arguments: others } : undefined, { signal: abort.signal, timeoutMs: 10_000 });
      if (abort.signal.aborted) return;
      this.post({ type: 'completions', name, value, values: r.completion.values.slice(0, 100).map(String) });
    } catch (error) {
      if (!abort.signal.aborted) this.ctx.deps.log(this.serverId, 'debug', `completion/complete for ${name} failed: ${errorMessage(error)}`);
    }
  }

  private async run(input: Input, timeoutSeconds: number | undefined): Promise<void> {
    if (this.running) return;
    const { value, errors } = this.check(input);
    if (errors.length > 0) {
      this.post({ type: 'validation', errors });
      return;
    }
    this.running = true;
    const callId = this.results.add({ kind: 'prompt', serverId: this.serverId, name: this.prompt.name, result: { messages: [] } });
    const started = performance.now();
    this.post({ type: 'running', callId, startedAt: Date.now(), arguments: JSON.stringify(value, null, 2) });
    try {
      const result = await fetchPrompt(this.ctx, this.serverId, this.prompt.name, value, this.ctx.timeout(this.serverId, timeoutSeconds).seconds * 1000);
      this.results.replace(callId, { kind: 'prompt', serverId: this.serverId, name: this.prompt.name, result });
      const description = result.description;
      this.post({ type: 'promptResult', callId, display: promptDisplay(result), ...(description && looksLikeMarkdown(description) ? { descriptionHtml: renderMarkdown(description) } : {}) });
    } catch (error) {
      this.post({ type: 'failure', callId, failure: describeFailure(error), durationMs: performance.now() - started });
    } finally {
      this.running = false;
    }
  }

  dispose(): void {
    this.completing?.abort();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
