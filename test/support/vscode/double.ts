// A small stand-in for the `vscode` module, so node --test can load the editor layer's adapters
// (tree providers, panels, dialogs) without an editor: the classes they construct (EventEmitter,
// Uri, TreeItem, ThemeIcon, MarkdownString, Disposable) behave as VS Code's do for what the
// extension reads back, and `window`/`workspace` record what the code asked of the editor. Only
// what the unit suites use is here.
//
// Load it with `installVscodeDouble()` (vscodeModule.ts) before importing a module that imports
// `vscode`.
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

export class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  private done = false;
  constructor(private readonly onDispose: () => unknown) {}
  dispose(): void {
    if (this.done) return;
    this.done = true;
    this.onDispose();
  }
}

export type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(data: T): void {
    for (const l of [...this.listeners]) l(data);
  }
  dispose(): void {
    this.listeners.clear();
  }
  /** For tests: how many listen now. */
  get listenerCount(): number {
    return this.listeners.size;
  }
}

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

/** Everything the double was asked, and the answers it gives (tests set them). */
export const recorder = {
  calls: [] as EditorCall[],
  /** The answer of the next showInformationMessage/showWarningMessage/showErrorMessage (a button's title, or undefined). */
  answers: [] as (string | undefined)[],
  /** `mcpHost.*` settings, by key without the prefix. */
  settings: new Map<string, unknown>(),
  reset(): void {
    this.calls.length = 0;
    this.answers.length = 0;
    this.settings.clear();
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

export const window = {
  showInformationMessage: (...args: unknown[]) => message('window.showInformationMessage', args),
  showWarningMessage: (...args: unknown[]) => message('window.showWarningMessage', args),
  showErrorMessage: (...args: unknown[]) => message('window.showErrorMessage', args),
  onDidChangeWindowState: windowEvents.windowState.event,
  onDidChangeActiveTextEditor: windowEvents.activeTextEditor.event,
  onDidChangeActiveTerminal: windowEvents.activeTerminal.event,
  tabGroups: { onDidChangeTabs: windowEvents.tabs.event },
};

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
      inspect: () => undefined,
    };
  },
  onDidChangeConfiguration: configurationChanged.event,
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

export const env = { language: 'en' };
