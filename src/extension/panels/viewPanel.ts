// A read-only panel for what a prompt returned (its messages) or what a resource read returned
// when it is not one document (several contents, embedded links): the same webview and
// rendering as tool results, without the form.
import type { GetPromptResult, ReadResourceResult } from '../../client/schemas';
import { looksLikeMarkdown, renderMarkdown } from '../../content/markdown';
import { promptDisplay, resourceDisplay } from '../../usecases/resultModel';
import type { UseCaseContext } from './useCaseContext';
import type { OpenResource, PanelMessage } from './rawResults';
import { UseCasePanel } from './useCasePanel';

export const VIEW_PANEL_VIEW_TYPE = 'mcpHost.inspectView';

export class ViewPanel extends UseCasePanel {
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

  private constructor(
    ctx: UseCaseContext,
    private title: string,
    private subtitle: string,
    serverId: string,
    openResource: OpenResource,
  ) {
    super(ctx, serverId, openResource, { viewType: VIEW_PANEL_VIEW_TYPE, title, description: 'a result panel' });
  }

  private setTitle(title: string, subtitle: string): void {
    this.title = title;
    this.subtitle = subtitle;
    this.panel.title = title;
    this.post({ type: 'initView', title, subtitle });
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

  protected handle(m: PanelMessage): void {
    if (m.type === 'ready') this.outbox.open(() => this.post({ type: 'initView', title: this.title, subtitle: this.subtitle }));
    // Form messages have no meaning here.
  }
}
