// A small stand-in for the `vscode` module, so node --test can load the editor layer's adapters
// (tree providers, panels, dialogs) without an editor: the classes they construct (EventEmitter,
// Uri, TreeItem, ThemeIcon, MarkdownString, Disposable) behave as VS Code's do for what the
// extension reads back, and `window`/`workspace` record what the code asked of the editor. Only
// what the unit suites use is here.
//
// Load it with `installVscodeDouble()` (vscodeModule.ts) before importing a module that imports
// `vscode`.
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

export { Disposable, EventEmitter, type Listener } from './eventDouble';
import { Disposable, EventEmitter } from './eventDouble';
import { WebviewPanelDouble } from './webviewDouble';
import { createDiagnosticCollection, createFileSystemWatcher, workspaceDoubles } from './workspaceDouble';

export { Diagnostic, DiagnosticSeverity, Position, Range, RelativePattern, workspaceDoubles } from './workspaceDouble';

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static parse(value: string): Uri {
    const u = new URL(value);
    return new Uri(u.protocol.slice(0, -1), u.host, decodeURIComponent(u.pathname), u.search.slice(1), u.hash.slice(1));
  }
  static file(path: string): Uri {
    return Uri.parse(pathToFileURL(path).href);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, base.authority, [base.path.replace(/\/$/, ''), ...parts].join('/'), '', '');
  }
  /** As VS Code's: the path of a file URI, the path part of any other. */
  get fsPath(): string {
    return this.scheme === 'file' ? fileURLToPath(this.toString()) : this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${encodeURI(this.path)}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
  /** As VS Code's: a Uri from its parts (missing ones empty). */
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '', parts.fragment ?? '');
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  supportHtml = false;
  isTrusted: boolean | { enabledCommands: string[] } = false;
  supportThemeIcons = false;
  constructor(
    public value = '',
    supportThemeIcons = false,
  ) {
    this.supportThemeIcons = supportThemeIcons;
  }
  appendMarkdown(text: string): this {
    this.value += text;
    return this;
  }
  appendText(text: string): this {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
    return this;
  }
}

export class TreeItem {
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon | Uri | { light: Uri; dark: Uri };
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string; role?: string };
  resourceUri?: Uri;
  constructor(
    public label: string | { label: string },
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

/** What the code under test asked of the editor, in order. */
export interface EditorCall {
  readonly api: string;
  readonly args: readonly unknown[];
}

/** An item of a quick pick, as the code under test built it. */
export type PickItem = { readonly label: string } & Record<string, unknown>;

/** Everything the double was asked, and the answers it gives (tests set them). */
export const recorder = {
  calls: [] as EditorCall[],
  /** The answer of the next showInformationMessage/showWarningMessage/showErrorMessage (a button's title, or undefined). */
  answers: [] as (string | undefined)[],
  /** The answer of the next showQuickPick: picks from the items shown (undefined: the user pressed Escape). */
  picks: [] as ((items: readonly PickItem[]) => PickItem | PickItem[] | undefined)[],
  /** The answer of the next showInputBox (undefined: the user pressed Escape). */
  inputs: [] as (string | undefined)[],
  /** `mcpHost.*` settings, by key without the prefix. */
  settings: new Map<string, unknown>(),
  /** What `inspect(key)` answers, by the full key (`mcpHost.servers`): the value of each scope. */
  inspected: new Map<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }>(),
  /** Every webview panel the code under test created, in order. */
  webviewPanels: [] as WebviewPanelDouble[],
  reset(): void {
    this.calls.length = 0;
    this.answers.length = 0;
    this.picks.length = 0;
    this.inputs.length = 0;
    this.settings.clear();
    this.inspected.clear();
    this.webviewPanels.length = 0;
  },
  /** For tests: the calls of one API (`window.showWarningMessage`), their arguments. */
  callsOf(api: string): (readonly unknown[])[] {
    return this.calls.filter((c) => c.api === api).map((c) => c.args);
  },
};

function record(api: string, args: readonly unknown[]): void {
  recorder.calls.push({ api, args });
}

async function message(api: string, args: unknown[]): Promise<string | undefined> {
  record(api, args);
  return recorder.answers.shift();
}

/** The window's events; a test fires them as the editor would (`windowEvents.activeTextEditor.fire(...)`). */
export const windowEvents = {
  windowState: new EventEmitter<{ focused: boolean }>(),
  activeTextEditor: new EventEmitter<unknown>(),
  activeTerminal: new EventEmitter<unknown>(),
  tabs: new EventEmitter<{ opened: readonly unknown[]; closed: readonly unknown[]; changed: readonly { isActive: boolean }[] }>(),
};

export enum ColorThemeKind {
  Light = 1,
  Dark = 2,
  HighContrast = 3,
  HighContrastLight = 4,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

/** As VS Code's: cancelled once, listeners told once. */
export class CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: this.cancelled.event,
  };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.cancelled.fire();
  }
  dispose(): void {
    this.cancelled.dispose();
  }
}

/** The input of a webview's tab (instanceof checks in the code under test). */
export class TabInputWebview {
  constructor(readonly viewType: string) {}
}

/** The input of a text editor's tab. */
export class TabInputText {
  constructor(readonly uri: Uri) {}
}

/** The input of a custom editor's tab (the image preview). */
export class TabInputCustom {
  constructor(
    readonly uri: Uri,
    readonly viewType: string,
  ) {}
}

/** A notification with progress the code under test showed: what it reported, and its Cancel. */
export interface ProgressShown {
  readonly options: { readonly title?: string; readonly cancellable?: boolean };
  readonly reports: { message?: string; increment?: number }[];
  readonly cancel: () => void;
  done: boolean;
}

const colorThemeChanged = new EventEmitter<{ kind: ColorThemeKind }>();

export const window = {
  showInformationMessage: (...args: unknown[]) => message('window.showInformationMessage', args),
  showWarningMessage: (...args: unknown[]) => message('window.showWarningMessage', args),
  showErrorMessage: (...args: unknown[]) => message('window.showErrorMessage', args),
  onDidChangeWindowState: windowEvents.windowState.event,
  onDidChangeActiveTextEditor: windowEvents.activeTextEditor.event,
  onDidChangeActiveTerminal: windowEvents.activeTerminal.event,
  async showQuickPick(items: readonly PickItem[] | Promise<readonly PickItem[]>, options?: unknown): Promise<PickItem | PickItem[] | undefined> {
    const shown = await items;
    record('window.showQuickPick', [shown, options]);
    return recorder.picks.shift()?.(shown);
  },
  async showInputBox(options?: unknown): Promise<string | undefined> {
    record('window.showInputBox', [options]);
    return recorder.inputs.shift();
  },
  async showSaveDialog(options?: unknown): Promise<Uri | undefined> {
    record('window.showSaveDialog', [options]);
    return undefined;
  },
  setStatusBarMessage(text: string, timeout?: number): Disposable {
    record('window.setStatusBarMessage', [text, timeout]);
    return new Disposable(() => undefined);
  },
  /** Every progress notification shown, in order. */
  progress: [] as ProgressShown[],
  /** As VS Code's: runs `task` with a reporter and a token that the notification's Cancel cancels. */
  async withProgress<R>(options: ProgressShown['options'], task: (progress: { report(v: { message?: string; increment?: number }): void }, token: CancellationTokenSource['token']) => Promise<R>): Promise<R> {
    record('window.withProgress', [options]);
    const source = new CancellationTokenSource();
    const shown: ProgressShown = { options, reports: [], cancel: () => source.cancel(), done: false };
    window.progress.push(shown);
    try {
      return await task({ report: (v) => shown.reports.push(v) }, source.token);
    } finally {
      shown.done = true;
    }
  },
  createWebviewPanel(viewType: string, title: string, column: ViewColumn | { viewColumn: ViewColumn }, options: Record<string, unknown> = {}): WebviewPanelDouble {
    const viewColumn = typeof column === 'number' ? column : column.viewColumn;
    const panel = new WebviewPanelDouble(viewType, title, viewColumn === ViewColumn.Active ? ViewColumn.One : viewColumn, options);
    recorder.webviewPanels.push(panel);
    return panel;
  },
  /** One editor group, no tabs the extension would find pinned. */
  tabGroups: { activeTabGroup: { viewColumn: ViewColumn.One as ViewColumn | undefined }, all: [] as { tabs: { isPinned: boolean; input: unknown; label: string }[] }[], onDidChangeTabs: windowEvents.tabs.event },
  activeColorTheme: { kind: ColorThemeKind.Dark },
  onDidChangeActiveColorTheme: colorThemeChanged.event,
  async showTextDocument(document: unknown, options?: unknown): Promise<{ document: unknown }> {
    record('window.showTextDocument', [document, options]);
    return { document };
  },
};

/** A read-only document as `openTextDocument` of a registered content provider's URI gives it. */
export interface TextDocumentDouble {
  readonly uri: Uri;
  readonly languageId: string;
  getText(): string;
}

const contentProviders = new Map<string, { provideTextDocumentContent(uri: Uri): string | Promise<string> }>();
const trustGranted = new EventEmitter<void>();

const configurationChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();

export const workspace = {
  isTrusted: true,
  workspaceFolders: undefined as readonly { uri: Uri; name: string; index: number }[] | undefined,
  getConfiguration(section?: string) {
    const prefix = section ? `${section}.` : '';
    return {
      get<T>(key: string, fallback?: T): T | undefined {
        const full = `${prefix}${key}`.replace(/^mcpHost\./, '');
        return recorder.settings.has(full) ? (recorder.settings.get(full) as T) : fallback;
      },
      inspect: (key: string) => recorder.inspected.get(`${prefix}${key}`),
    };
  },
  workspaceFile: undefined as Uri | undefined,
  onDidChangeWorkspaceFolders: workspaceDoubles.workspaceFolders.event,
  onDidCloseTextDocument: workspaceDoubles.textDocumentClosed.event,
  /** Documents open in the editor (none unless a test puts some). */
  textDocuments: [] as TextDocumentDouble[],
  createFileSystemWatcher,
  asRelativePath(uri: Uri, includeFolder?: boolean): string {
    const folder = workspace.workspaceFolders?.find((f) => uri.path.startsWith(`${f.uri.path}/`));
    return folder ? `${includeFolder ? `${folder.name}/` : ''}${uri.path.slice(folder.uri.path.length + 1)}` : uri.fsPath;
  },
  onDidChangeConfiguration: configurationChanged.event,
  onDidGrantWorkspaceTrust: trustGranted.event,
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: Uri): string | Promise<string> }): Disposable {
    contentProviders.set(scheme, provider);
    return new Disposable(() => contentProviders.get(scheme) === provider && contentProviders.delete(scheme));
  },
  /** As VS Code's for a scheme with a content provider: the provider's text (fails for any other scheme). */
  async openTextDocument(uri: Uri): Promise<TextDocumentDouble> {
    record('workspace.openTextDocument', [uri]);
    const provider = contentProviders.get(uri.scheme);
    if (!provider) throw new Error(`the double opens only documents of a registered content provider, not ${uri.toString()}`);
    const text = await provider.provideTextDocumentContent(uri);
    const extension = /\.(\w+)$/.exec(uri.path)?.[1];
    return { uri, languageId: extension === 'json' ? 'json' : extension === 'md' ? 'markdown' : 'plaintext', getText: () => text };
  },
  /** The file system, over node:fs for file URIs. */
  fs: {
    async readFile(uri: Uri): Promise<Uint8Array> {
      const { readFile } = await import('node:fs/promises');
      return readFile(uri.fsPath);
    },
    async writeFile(uri: Uri, bytes: Uint8Array): Promise<void> {
      const { mkdir, writeFile } = await import('node:fs/promises');
      const { dirname } = await import('node:path');
      await mkdir(dirname(uri.fsPath), { recursive: true });
      await writeFile(uri.fsPath, bytes);
    },
    async delete(uri: Uri, options?: { recursive?: boolean }): Promise<void> {
      const { rm } = await import('node:fs/promises');
      await rm(uri.fsPath, { recursive: options?.recursive === true });
    },
  },
  /** For tests: tells listeners that `keys` (full setting ids) changed. */
  changeConfiguration(keys: readonly string[]): void {
    configurationChanged.fire({ affectsConfiguration: (s: string) => keys.some((k) => k === s || k.startsWith(`${s}.`)) });
  },
};

export const commands = {
  executeCommand: async (...args: unknown[]) => {
    record('commands.executeCommand', args);
    return undefined;
  },
};

export const languages = {
  createDiagnosticCollection,
  async setTextDocumentLanguage(document: TextDocumentDouble, languageId: string): Promise<TextDocumentDouble> {
    return { ...document, languageId };
  },
};

export const env = {
  language: 'en',
  clipboard: {
    text: '',
    async writeText(value: string): Promise<void> {
      env.clipboard.text = value;
    },
  },
  async openExternal(target: unknown): Promise<boolean> {
    record('env.openExternal', [target]);
    return true;
  },
};
