// The MCP App view of a tool panel: before each call of a tool that names a `ui://` view, the view
// is read and shown in the panel (the page rebuilt first when its policy must admit this app's
// code, appCsp.ts), then told the call's input and its result or cancellation. "Fullscreen" moves
// it to a tab of its own (appTab.ts). A view that cannot be read leaves the text result alone.
import * as vscode from 'vscode';
import { appResourceUriOf } from '../../client/apps';
import type { CallToolResult, Tool } from '../../client/schemas';
import { errorMessage } from '../../protocol/errors';
import type { PageCspAdditions } from '../../apps/appCsp';
import type { AppDocument } from '../../apps/appResource';
import type { AppDisplayMode } from '../../apps/hostContext';
import { isViewMessage, parseViewMessage, ViewOutbound } from '../../apps/viewMessages';
import type { UseCaseContext } from '../panels/useCaseContext';
import { readAppDocument } from './appDocument';
import { AppTab } from './appTab';
import { AppView } from './appView';

/** What the tool panel gives its app view. */
export interface ToolPanelAppPage {
  post(message: ViewOutbound): void;
  /** The policy additions the page was built with (undefined: none, no frame script). */
  currentCsp(): PageCspAdditions | undefined;
  /** Builds the page again with these additions; resolves once it is ready. */
  rebuild(csp: PageCspAdditions): Promise<void>;
  /** A notice in the panel. */
  notice(level: 'info' | 'warning', text: string): void;
}

export class ToolPanelApp implements vscode.Disposable {
  private view: AppView | undefined;
  private document: AppDocument | undefined;
  private tool: Tool | undefined;
  private tab: AppTab | undefined;
  /** Views told to finish whose answer is awaited: the page's messages still reach them. */
  private readonly closing = new Set<AppView>();

  constructor(
    private readonly ctx: UseCaseContext,
    private readonly serverId: string,
    private readonly page: ToolPanelAppPage,
  ) {}

  /** Whether a webview message is the app's (handled here, not by the panel's own schema). */
  static accepts(raw: unknown): boolean {
    return isViewMessage(raw);
  }

  receive(raw: unknown): void {
    const parsed = parseViewMessage(raw);
    if (!parsed.ok) {
      this.ctx.deps.log(this.serverId, 'warn', `Ignored a malformed message from the tool panel's app frame: ${parsed.reason}`);
      return;
    }
    if (parsed.message.type === 'appReady') return;
    // A view being closed is no longer `view`, but its answer to the teardown comes this way.
    for (const view of [this.view, ...this.closing]) view?.receive(parsed.message);
  }

  /**
   * Before a call of `tool`: closes the view of the previous call, reads this tool's view and shows
   * it. Undefined when the tool has none or it cannot be shown (a notice and the log say why).
   */
  async prepare(tool: Tool): Promise<AppView | undefined> {
    const uri = appResourceUriOf(tool);
    if (!uri) return undefined;
    await this.closeView('a new call of the tool replaces it');
    let document: AppDocument;
    try {
      document = await readAppDocument(this.ctx, this.serverId, uri);
    } catch (error) {
      this.ctx.deps.log(this.serverId, 'warn', `The app of ${tool.name} cannot be shown: ${errorMessage(error)}`);
      this.page.notice('warning', `The tool’s app view (${uri}) cannot be shown: ${errorMessage(error)}. Its result is shown as text.`);
      return undefined;
    }
    if (JSON.stringify(this.page.currentCsp()) !== JSON.stringify(document.pageCsp)) await this.page.rebuild(document.pageCsp);
    this.document = document;
    this.tool = tool;
    return this.show('inline');
  }

  private show(mode: 'inline', input?: Record<string, unknown>, result?: CallToolResult): AppView {
    const view: AppView = new AppView(this.ctx, {
      serverId: this.serverId,
      tool: this.tool!,
      document: this.document!,
      mode,
      page: this.page,
      onDisplayMode: (m): Promise<AppDisplayMode> => this.displayMode(view, m),
      onClose: () => void this.closeView('the user closed it', 'The app view was closed.'),
    });
    this.view = view;
    if (input) view.toolInput(input);
    if (result) view.toolResult(result);
    return view;
  }

  /** Inline → its own tab: answered first, then the inline view finishes and the tab opens with the same call. */
  private async displayMode(view: AppView, mode: AppDisplayMode): Promise<AppDisplayMode> {
    if (mode !== 'fullscreen' || view !== this.view || !this.document || !this.tool) return 'inline';
    const document = this.document;
    const tool = this.tool;
    setTimeout(() => {
      void this.closeView('it moves to its own tab', 'The app is shown in its own tab.').then(() => {
        this.tab?.dispose();
        this.tab = new AppTab(this.ctx, {
          serverId: this.serverId,
          tool,
          document,
          ...(view.lastInput ? { input: view.lastInput } : {}),
          ...(view.lastResult ? { result: view.lastResult } : {}),
          backInline: (input, result) => {
            this.tab = undefined;
            this.show('inline', input, result);
          },
        });
      });
    }, 0);
    return 'fullscreen';
  }

  private async closeView(reason: string, text?: string): Promise<void> {
    const view = this.view;
    if (!view) return;
    this.view = undefined;
    this.closing.add(view);
    try {
      await view.close(reason, text);
    } finally {
      this.closing.delete(view);
      view.dispose();
    }
  }

  dispose(): void {
    const view = this.view;
    this.view = undefined;
    // The panel is going: the view is told to finish; its answer cannot be waited for.
    if (view) void view.close('the tool panel was closed').finally(() => view.dispose());
  }
}
