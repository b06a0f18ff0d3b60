// The webview part of the `vscode` double (double.ts): a WebviewPanel as VS Code hands one to an
// extension. What the extension posts is kept (`posted`), the test plays the page with
// `fromPage()`, and disposing fires `onDidDispose` once, as VS Code does (also when the user
// closes the tab: `close()`).
import { EventEmitter } from './eventDouble';

/** The Uri shape the double's webview needs (double.ts's Uri). */
interface UriLike {
  readonly scheme: string;
  readonly path: string;
  with(change: { scheme?: string; authority?: string }): UriLike;
}

export class WebviewDouble {
  html = '';
  options: Record<string, unknown> = {};
  /** As VS Code's: the source the page's CSP names for its own resources. */
  readonly cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
  /** Every message the extension posted to the page, in order. */
  readonly posted: unknown[] = [];
  private readonly received = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.received.event;
  constructor(private readonly isDisposed: () => boolean) {}
  /** As VS Code's: false (nothing delivered) once the panel is disposed. */
  async postMessage(message: unknown): Promise<boolean> {
    if (this.isDisposed()) return false;
    this.posted.push(structuredClone(message));
    return true;
  }
  asWebviewUri(uri: UriLike): UriLike {
    return uri.with({ scheme: 'https', authority: 'file+.vscode-resource.vscode-cdn.net' });
  }
  /** For tests: the page's script posts `message` (what `acquireVsCodeApi().postMessage` sends). */
  fromPage(message: unknown): void {
    this.received.fire(message);
  }
}

export class WebviewPanelDouble {
  readonly webview: WebviewDouble;
  active = true;
  visible = true;
  private disposed = false;
  private readonly disposeEmitter = new EventEmitter<void>();
  private readonly viewStateEmitter = new EventEmitter<{ webviewPanel: WebviewPanelDouble }>();
  readonly onDidDispose = this.disposeEmitter.event;
  readonly onDidChangeViewState = this.viewStateEmitter.event;
  /** How often the extension asked to show it again. */
  reveals = 0;
  constructor(
    readonly viewType: string,
    public title: string,
    public viewColumn: number | undefined,
    options: Record<string, unknown>,
  ) {
    this.webview = new WebviewDouble(() => this.disposed);
    this.webview.options = options;
  }
  get isDisposed(): boolean {
    return this.disposed;
  }
  reveal(): void {
    this.reveals++;
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
  /** For tests: the messages of one `type` the extension posted. */
  postedOfType<T = Record<string, unknown>>(type: string): T[] {
    return this.webview.posted.filter((m) => (m as { type?: unknown }).type === type) as T[];
  }
}
