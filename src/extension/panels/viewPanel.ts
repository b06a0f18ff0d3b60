// A read-only panel for what a prompt returned (its messages) or what a resource read returned
// when it is not one document (several contents, embedded links): the same webview and
// rendering as tool results, without the form.
import * as vscode from 'vscode';
import type { GetPromptResult, ReadResourceResult } from '../../client/schemas';
import { looksLikeMarkdown, renderMarkdown } from '../../content/markdown';
import { promptDisplay, resourceDisplay } from '../../usecases/resultModel';
import { OutboundMessage } from '../../usecases/panelMessages';
import type { UseCaseContext } from './useCaseContext';
import { OpenResource, ResultStore, receivePanelMessage } from './rawResults';
import { WebviewOutbox, webviewHtml, webviewOptions } from '../webview/webviewPanel';
import { PANEL_ASSETS } from '../webview/webviewPage';

export const VIEW_PANEL_VIEW_TYPE = 'mcpHost.inspectView';

export class ViewPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, ViewPanel>();

  static show(ctx: UseCaseContext, key: string, title: string, subtitle: string, serverId: string, openResource: OpenResource): ViewPanel {
    const existing = ViewPanel.panels.get(key);
    if (existing) {
      existing.panel.reveal();
      existing.setTitle(title, subtitle);
      return existing;
    }
    const view = new ViewPanel(ctx, title, subtitle, serverId, openResource);
    ViewPanel.panels.set(key, view);
    view.panel.onDidDispose(() => ViewPanel.panels.delete(key));
    return view;
  }

  static disposeAll(): void {
    for (const p of [...ViewPanel.panels.values()]) p.dispose();
  }

  readonly panel: vscode.WebviewPanel;
  private readonly results = new ResultStore();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly outbox: WebviewOutbox<OutboundMessage>;

  private constructor(
    private readonly ctx: UseCaseContext,
    private title: string,
    private subtitle: string,
    private readonly serverId: string,
    private readonly openResource: OpenResource,
  ) {
    this.panel = vscode.window.createWebviewPanel(VIEW_PANEL_VIEW_TYPE, title, vscode.ViewColumn.Active, webviewOptions(ctx.extensionUri));
    this.panel.webview.html = webviewHtml(this.panel.webview, ctx.extensionUri, title, PANEL_ASSETS);
    this.outbox = new WebviewOutbox(this.panel.webview);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  private setTitle(title: string, subtitle: string): void {
    this.title = title;
    this.subtitle = subtitle;
    this.panel.title = title;
    this.post({ type: 'initView', title, subtitle });
  }

  private post(message: OutboundMessage): void {
    this.outbox.post(message);
  }

  showPrompt(name: string, result: GetPromptResult): void {
    const callId = this.results.add({ kind: 'prompt', serverId: this.serverId, name, result });
    const description = result.description;
    this.post({
      type: 'promptResult',
      callId,
      display: promptDisplay(result),
      ...(description && looksLikeMarkdown(description) ? { descriptionHtml: renderMarkdown(description) } : {}),
    });
  }

  showResource(uri: string, result: ReadResourceResult): void {
    const callId = this.results.add({ kind: 'resource', serverId: this.serverId, uri, result });
    this.post({ type: 'resourceResult', callId, uri, parts: resourceDisplay(result) });
  }

  private receive(raw: unknown): Promise<void> {
    const panel = { ctx: this.ctx, results: this.results, serverId: this.serverId, openResource: this.openResource, description: 'a result panel', post: (m: OutboundMessage) => this.post(m) };
    return receivePanelMessage(panel, raw, (m) => {
      if (m.type === 'ready') this.outbox.open(() => this.post({ type: 'initView', title: this.title, subtitle: this.subtitle }));
      // Form messages have no meaning here.
    });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
