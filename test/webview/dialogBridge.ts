// A webview's two halves joined without VS Code: the extension's side is the real panel class (the
// dialogs' WebviewPrompter and DialogPanel, or a tool, prompt or details panel) on the `vscode`
// double (test/support/vscode), whose WebviewPanelDouble records what the extension posts; the
// page's side is the panel's script from media/ in the page harness. The bridge opens a page for
// each panel of its view type the extension creates and carries the messages both ways (every
// 20 ms), as VS Code carries them between an extension and its webview; a panel the extension
// disposes closes its page, and a test closes a panel as a user closes its tab with
// `panel.dispose()` (the double fires onDidDispose, as VS Code does).
import type { Browser } from 'playwright-core';
import { vscode } from '../support/vscode/vscodeModule';
import type { WebviewPanelDouble } from '../support/vscode/webviewDouble';
import { DIALOG_PANEL_VIEW_TYPE } from '../../src/extension/serverRequests/dialogPanel';
import { DIALOG_ASSETS, type WebviewFeature } from '../../src/extension/webview/webviewPage';
import { waitFor } from '../client/support';
import { openPage, type WebviewPage } from './pageHarness';
import { THEMES } from './themes';

/** Which panels a bridge shows: their view type, and the page's scripts and styles. */
export interface BridgedKind {
  readonly viewType: string;
  readonly feature: WebviewFeature;
}

/** One panel (a dialog, say): the panel the extension created and the page that shows it. */
export interface BridgedDialog {
  readonly panel: WebviewPanelDouble;
  readonly page: WebviewPage;
  /** Resolves once the panel is disposed and its page closed. */
  readonly closed: Promise<void>;
}

interface Link {
  readonly panel: WebviewPanelDouble;
  page?: WebviewPage;
  toPage: number;
  toExtension: number;
  done: boolean;
  closed: Promise<void>;
  close: () => void;
}

export class PanelBridge {
  private readonly links: Link[] = [];
  private readonly timer: NodeJS.Timeout;
  private pumping = false;
  /** Problems of closed pages (errors, CSP violations), for the test to assert there are none. */
  readonly problems: string[] = [];

  constructor(
    private readonly browser: () => Browser,
    private readonly kind: BridgedKind,
  ) {
    this.timer = setInterval(() => void this.pump(), 20);
  }

  /** The `n`th panel (0-based) since the bridge started, once its page is open. */
  async dialog(n: number, timeoutMs = 20_000): Promise<BridgedDialog> {
    const link = await waitFor(() => this.links[n]?.page && this.links[n], timeoutMs, `${this.kind.viewType} panel #${n + 1}`);
    return { panel: link.panel, page: link.page!, closed: link.closed };
  }

  /** How many panels of its kind the extension created so far. */
  get count(): number {
    return vscode.recorder.webviewPanels.filter((p) => p.viewType === this.kind.viewType).length;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.pumping) await new Promise((r) => setTimeout(r, 10));
    for (const link of this.links) await this.finish(link);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      const panels = vscode.recorder.webviewPanels.filter((p) => p.viewType === this.kind.viewType);
      for (const panel of panels.slice(this.links.length)) {
        let close!: () => void;
        const closed = new Promise<void>((r) => (close = r));
        const link: Link = { panel, toPage: 0, toExtension: 0, done: false, closed, close };
        this.links.push(link);
        link.page = await openPage(this.browser(), { feature: this.kind.feature, theme: THEMES[0]!, title: panel.title });
      }
      for (const link of this.links) await this.carry(link);
    } catch {
      // A page closed while a message was carried: its panel is gone too.
    } finally {
      this.pumping = false;
    }
  }

  /** Carries what each side posted since the last pump to the other; closes a disposed panel's page. */
  private async carry(link: Link): Promise<void> {
    if (link.done || !link.page) return;
    const fromPage = await link.page.posted();
    for (const m of fromPage.slice(link.toExtension)) {
      link.toExtension++;
      link.panel.webview.fromPage(m);
    }
    const fromExtension = link.panel.webview.posted;
    while (link.toPage < fromExtension.length) await link.page.send(fromExtension[link.toPage++]);
    if (link.panel.isDisposed) await this.finish(link);
  }

  private async finish(link: Link): Promise<void> {
    if (link.done) return;
    link.done = true;
    if (link.page) {
      this.problems.push(...link.page.problems);
      await link.page.close().catch(() => undefined);
    }
    link.close();
  }
}

/** The sampling and elicitation dialogs the WebviewPrompter opens, each on its page. */
export class DialogBridge extends PanelBridge {
  constructor(browser: () => Browser) {
    super(browser, { viewType: DIALOG_PANEL_VIEW_TYPE, feature: DIALOG_ASSETS });
  }
}
