// What the harness offers a suite: the launch options, tree rows and queries, the Workbench
// interface, log levels and process records.
import type { Frame, Locator, Page } from 'playwright-core';

/** Paths of an installed code-server and the Node that runs it. */
export interface CodeServerInstall {
  /** The cache folder outside the clone (MCP_HOST_CACHE, default ~/.cache/mcp-host). */
  readonly cacheDir: string;
  /** Node 24, which code-server 4.139 needs. */
  readonly node: string;
  /** code-server's `out/node/entry.js`; run it with `node`. */
  readonly entry: string;
  readonly version: string;
}

export interface LaunchOptions {
  /** A folder, or several folders opened as a multi-root workspace (a .code-workspace file). */
  workspace: string | { folders: string[] };
  /** The VSIX to install (default dist/mcp-host.vsix). */
  vsix?: string;
  /** More VSIX files installed beside it (test-only extensions, e.g. fixtures/host-probe). */
  extensions?: string[];
  /** Trust the workspace (default true). `false` opens it in Restricted Mode, without the prompt. */
  trust?: boolean;
  /** User settings, merged over the harness's quiet defaults. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and so for the extension host. */
  env?: Record<string, string>;
  /** Bound for the whole launch (default 120 s). */
  timeoutMs?: number;
  viewport?: { width: number; height: number };
  /**
   * Chromium at the priority a user's editor gets (the editor benchmark). Run as root, Chromium
   * puts its display threads (browser and GPU main threads, compositors, IO) at nice -8, five times
   * the extension host's weight, which no user's editor process can do without root. With this, it
   * starts without CAP_SYS_NICE (setpriv), so every thread keeps the nice value it was given.
   */
  userPriority?: boolean;
}

/** A tree row as the workbench shows it. */
export interface TreeItem {
  readonly label: string;
  readonly description: string;
  /** 1 for top-level rows. */
  readonly level: number;
  /** undefined for leaves. */
  readonly expanded: boolean | undefined;
}

export interface TreeQuery {
  /** The view's name (its section header) when the container shows several views. */
  view?: string;
}

export interface Workbench {
  readonly page: Page;
  /** The workbench URL; open it in another browser to watch a test. */
  readonly url: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /**
   * The .code-workspace file of a multi-root launch (undefined for a single folder). VS Code
   * watches it: writing a new `folders` list adds or removes workspace folders, as a person
   * editing the file would.
   */
  readonly workspaceFile: string | undefined;
  /** Shows a view container (activity bar entry) by title, e.g. "MCP Host". */
  openView(viewContainerTitle: string): Promise<void>;
  /** Runs a command through the command palette by its full title, e.g. "MCP Host: Refresh". */
  runCommand(title: string): Promise<void>;
  /** "Developer: Reload Window", returning once the new page has loaded and shows its activity bar. */
  reloadWindow(): Promise<void>;
  /**
   * Picks an item (exact label) in the quick pick that is open, e.g. after a command. Throws
   * `QuickPickClosed` when the pick closes before the item is picked.
   */
  pickQuickItem(label: string): Promise<void>;
  /**
   * Runs a command from the palette and picks `label` in the quick pick it opens. A pick that
   * closes before the item is picked (a view or webview that was still being revealed took the
   * focus back) answered the command with a cancel, as Escape would: the command runs again, up
   * to 3 times.
   */
  runCommandAndPick(title: string, label: string): Promise<void>;
  /** Every row of the tree in the side bar (all rows, scrolling through virtualised lists). */
  treeItems(query?: TreeQuery): Promise<TreeItem[]>;
  /** Polls until a row with this label is there; returns it. */
  waitForTreeItem(label: string, options?: TreeQuery & { timeoutMs?: number }): Promise<TreeItem>;
  /** Clicks the first row with this label (selects it and runs its command, if any). */
  clickTreeItem(label: string, query?: TreeQuery): Promise<void>;
  /** Scrolls the first row with this label into view and hovers it (its inline actions show), without running its default action. */
  hoverTreeItem(label: string, query?: TreeQuery): Promise<Locator>;
  /** The welcome content a view shows while its tree is empty ('' when the tree shows). */
  welcomeText(query?: TreeQuery): Promise<string>;
  /**
   * Expands the first row with this label (no-op when already expanded). A row drawn without
   * children yet (a group whose list is still loading) is waited for until it can expand.
   */
  expandTreeItem(label: string, query?: TreeQuery): Promise<void>;
  /** The webview frames (our panels) whose page header, `#app header h1`, contains `title`. */
  webviewFrames(title: string): Promise<Frame[]>;
  /**
   * Shows an output channel in the Output panel and returns its whole text, read from the log
   * file VS Code keeps for every channel. With `contains` (a substring, a pattern or a test
   * of the whole text), polls until the text matches. `reveal: false` only reads the file,
   * leaving the screen alone (a quick pick that is open stays open).
   */
  outputChannelText(channelName: string, options?: { contains?: string | RegExp | ((text: string) => boolean); timeoutMs?: number; reveal?: boolean }): Promise<string>;
  /** Selects a channel in the Output panel, opening the panel. */
  showOutputChannel(channelName: string): Promise<void>;
  /** "Developer: Set Log Level..." → the channel → the level, as a person would. */
  setLogLevel(channelName: string, level: LogLevelName): Promise<void>;
  /** Texts of the notification toasts on screen. */
  notifications(): Promise<string[]>;
  /** The open modal dialog (message, then detail), or undefined; waits up to `timeoutMs` (default 0) for one. */
  dialog(options?: { timeoutMs?: number }): Promise<{ message: string; detail: string; buttons: string[] } | undefined>;
  /** Clicks a button of the open modal dialog by its label and waits for that dialog to close (another may follow). */
  answerDialog(button: string): Promise<void>;
  /** Clicks a button on the notification toast whose message contains `message`. */
  answerNotification(message: string, button: string): Promise<void>;
  /**
   * Extensions that failed to activate, as "<extension id>: <error>", read from the extension
   * host's log — a bundling mistake shows up here rather than as an empty view.
   */
  activationErrors(): string[];
  /**
   * `[error]` entries of the extension host log that MCP Host caused (see
   * test/support/extensionHostLog.ts). `close()` fails when there are any.
   */
  extensionHostErrors(): string[];
  /** Saves test-results/screenshots/<name>.png; returns the path. */
  screenshot(name: string): Promise<string>;
  /** Processes this launch started that are still alive (empty after `close()`). */
  leftoverProcesses(): ProcessInfo[];
  /** Closes the browser, kills every process of the launch and removes the temp folders. Idempotent. */
  close(): Promise<void>;
}

/** The levels "Developer: Set Log Level..." offers. */
export type LogLevelName = 'Trace' | 'Debug' | 'Info' | 'Warning' | 'Error' | 'Off';

export interface ProcessInfo {
  readonly pid: number;
  readonly cmdline: string;
}
