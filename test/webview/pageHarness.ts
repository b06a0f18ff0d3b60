// The page harness: one MCP Host webview page in headless Chromium, built as the extension builds
// it (webviewPage.ts: the same HTML, CSP and nonce, the scripts and stylesheets from media/), with
// what VS Code gives a webview in one of four themes (the `--vscode-*` variables, the body classes
// and VS Code's default stylesheet, read from code-server by captureThemes.ts) and a fake
// `acquireVsCodeApi` that records what the page posts. A test posts the messages the extension
// posts (`send`), reads what the page answered (`posted`), and runs axe-core (`axe`). Seconds per
// page, no code-server.
//
//   const browser = suiteBrowser();                  // in a describe: one Chromium for its tests
//   const page = await openPage(browser(), { feature: PANEL_ASSETS, theme: THEMES[0] });
//   await page.send({ type: 'initTool', ... });      // as the extension would, after `ready`
//   assert.deepEqual(await page.posted('run'), [...]);
//   assert.deepEqual(await page.axe(), []);          // serious and critical violations
//   await page.setTheme(THEMES[1]);                  // the same page, switched as VS Code switches a theme
import { readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { type AppPageOptions, type WebviewFeature, makeNonce, pageAssets, pageHtml } from '../../src/extension/webview/webviewPage';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/harness';
import { type ThemeInfo, loadTheme } from './themes';

/** The repository root (this file runs from out/test/webview/). */
const repoRoot = join(__dirname, '..', '..', '..');
const mediaRoot = join(repoRoot, 'media');
/** The page's origin, which is also its `cspSource` (VS Code's is https://*.vscode-cdn.net). */
export const PAGE_ORIGIN = 'https://webview.mcp-host.test';
const THEME_CSS = '/_vscode/theme.css';
const DEFAULT_CSS = '/_vscode/default.css';

let axeSource: string | undefined;

/** Headless Chromium for the pages of one test file. */
export function startBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** One headless Chromium for the suite it is called in: started before its tests, closed after them. */
export function suiteBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the suite\'s Chromium is not started (call suiteBrowser() inside a describe)');
    return browser;
  };
}

export interface PageOptions {
  readonly feature: WebviewFeature;
  readonly theme: ThemeInfo;
  readonly title?: string;
  /** An MCP App's frame and its CSP additions, as a tool panel with a view has. */
  readonly app?: AppPageOptions;
  /** CSS pixels; default 800 × 700. A narrow one checks reflow. */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** The message the page posts once it listens (default `ready`; an app tab's is `appReady`). */
  readonly readyType?: string;
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  /** The offending elements (selectors) with axe's summary of each. */
  readonly nodes: readonly string[];
}

export interface WebviewPage {
  readonly page: Page;
  /** Posts a message to the page as the extension's `webview.postMessage` would. */
  send(message: unknown): Promise<void>;
  /** What the page posted so far (every message, or those of one `type`). */
  posted(type?: string): Promise<Array<Record<string, unknown>>>;
  /** Waits until the page has posted a message of `type`; returns the last one. */
  waitForPosted(type: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** axe-core over the page: its serious and critical violations (with `all`, every impact; with `rules`, only those rules). */
  axe(options?: { all?: boolean; rules?: readonly string[] }): Promise<AxeViolation[]>;
  /** The theme the page is drawn in now. */
  readonly theme: ThemeInfo;
  /**
   * Switches the page to `theme` as VS Code switches a live webview's theme (new `--vscode-*`
   * values, body classes and data-vscode-* attributes; the page's observers see the change), and
   * resolves once the page has drawn a frame in it. themeSwitch.test.ts holds this to a page opened
   * in that theme, pixel for pixel.
   */
  setTheme(theme: ThemeInfo): Promise<void>;
  /** Errors the page threw and CSP violations it reported (a clean page has none). */
  readonly problems: string[];
  close(): Promise<void>;
}

/** The theme as VS Code applies it: variables on :root, body classes and attributes, default styles. */
function themeParts(theme: ThemeInfo): { css: string; defaults: string; bodyAttributes: string } {
  const fixture = loadTheme(theme);
  const vars = Object.entries(fixture.variables)
    .map(([k, v]) => `  ${k}: ${v};`)
    .join('\n');
  // The webview's body is transparent: VS Code shows the editor's background behind the frame.
  const css = `:root {\n${vars}\n}\nhtml { background-color: var(--vscode-editor-background); }\n`;
  const attrs = Object.entries(fixture.bodyAttributes).map(([k, v]) => ` ${k}="${v.replace(/"/g, '&quot;')}"`);
  return { css, defaults: fixture.defaultStyles, bodyAttributes: ` class="${fixture.bodyClass}"${attrs.join('')}` };
}

/** The HTML of a page as webviewHtml() builds it, with the theme's two stylesheets first in <head>. */
export function harnessHtml(options: PageOptions, nonce: string): string {
  const assets = pageAssets(options.feature, options.app);
  const html = pageHtml({
    cspSource: PAGE_ORIGIN,
    nonce,
    title: options.title ?? 'MCP Host page',
    styles: assets.styles.map((p) => `${PAGE_ORIGIN}/media/${p}`),
    scripts: assets.scripts.map((p) => `${PAGE_ORIGIN}/media/${p}`),
    ...(options.app ? { cspAdditions: options.app.csp } : {}),
  });
  const { bodyAttributes } = themeParts(options.theme);
  return html
    .replace('<head>', `<head>\n<link rel="stylesheet" href="${PAGE_ORIGIN}${DEFAULT_CSS}">\n<link rel="stylesheet" href="${PAGE_ORIGIN}${THEME_CSS}">`)
    .replace('<body>', `<body${bodyAttributes}>`);
}

/** What setTheme() puts on a live page: the two stylesheets' text, the body's classes and attributes. */
interface ThemeSwitch {
  readonly sheets: ReadonlyArray<readonly [path: string, css: string]>;
  readonly bodyClasses: readonly string[];
  readonly bodyAttributes: Record<string, string>;
}

function themeSwitch(theme: ThemeInfo): ThemeSwitch {
  const parts = themeParts(theme);
  const fixture = loadTheme(theme);
  return { sheets: [[THEME_CSS, parts.css], [DEFAULT_CSS, parts.defaults]], bodyClasses: fixture.bodyClass.split(/\s+/).filter(Boolean), bodyAttributes: fixture.bodyAttributes };
}

/**
 * In the page: the harness's two theme stylesheets get the new theme's rules (through the CSSOM,
 * which the page's CSP does not govern, so the page ends as it would have loaded in that theme),
 * and the body's theme classes and data-vscode-* attributes are replaced the way VS Code's webview
 * host does it (classList.remove, then add), so a MutationObserver on them fires as in VS Code.
 * Then two animation frames: the observers' redraw requests have drawn.
 */
async function applyThemeSwitch(change: ThemeSwitch): Promise<void> {
  for (const [path, css] of change.sheets) {
    const sheet = Array.from(document.styleSheets).find((s) => s.href !== null && new URL(s.href).pathname === path);
    if (!sheet) throw new Error(`the page has no ${path} stylesheet`);
    const parsed = new CSSStyleSheet();
    parsed.replaceSync(css);
    while (sheet.cssRules.length > 0) sheet.deleteRule(0);
    Array.from(parsed.cssRules).forEach((rule, i) => sheet.insertRule(rule.cssText, i));
  }
  const body = document.body;
  body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light');
  body.classList.add(...change.bodyClasses);
  for (const a of Array.from(body.attributes)) if (a.name.startsWith('data-vscode-')) body.removeAttribute(a.name);
  for (const [name, value] of Object.entries(change.bodyAttributes)) body.setAttribute(name, value);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}

/** The fake VS Code API, before any script of the page runs (an init script: the page's CSP does not apply). */
function fakeVsCodeApi(): void {
  const w = window as unknown as { __posted: unknown[]; __state: unknown; acquireVsCodeApi?: () => unknown };
  w.__posted = [];
  w.__state = undefined;
  let acquired = false;
  w.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return {
      postMessage: (m: unknown) => void w.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => w.__state,
      setState: (s: unknown) => (w.__state = s),
    };
  };
}

/** Opens one page; it has said it is ready when this resolves. */
export async function openPage(browser: Browser, options: PageOptions): Promise<WebviewPage> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 800, height: 700 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  const theme = themeParts(options.theme);
  const html = harnessHtml(options, makeNonce());
  await page.route(`${PAGE_ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/index.html') return route.fulfill({ contentType: 'text/html', body: html });
    if (path === THEME_CSS) return route.fulfill({ contentType: 'text/css', body: theme.css });
    if (path === DEFAULT_CSS) return route.fulfill({ contentType: 'text/css', body: theme.defaults });
    const file = normalize(join(repoRoot, decodeURIComponent(path)));
    if (!file.startsWith(mediaRoot + sep)) return route.fulfill({ status: 404 });
    const type = file.endsWith('.css') ? 'text/css' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.ttf') ? 'font/ttf' : 'application/octet-stream';
    try {
      return await route.fulfill({ contentType: type, body: readFileSync(file) });
    } catch {
      return route.fulfill({ status: 404 });
    }
  });
  await page.addInitScript(fakeVsCodeApi);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP: ${e.violatedDirective} blocked ${e.blockedURI}`));
  });
  await page.goto(`${PAGE_ORIGIN}/index.html`);

  const posted = async (type?: string) => {
    const all = (await page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted)) as Array<Record<string, unknown>>;
    return type === undefined ? all : all.filter((m) => m.type === type);
  };
  const waitForPosted = async (type: string, timeoutMs = 20_000) => {
    await page.waitForFunction((t) => (window as unknown as { __posted: Array<{ type?: unknown }> }).__posted.some((m) => m.type === t), type, { timeout: timeoutMs });
    const found = await posted(type);
    return found[found.length - 1]!;
  };
  await waitForPosted(options.readyType ?? 'ready');
  let current = options.theme;
  return {
    page,
    problems,
    posted,
    waitForPosted,
    get theme() {
      return current;
    },
    async setTheme(theme) {
      await page.evaluate(applyThemeSwitch, themeSwitch(theme));
      current = theme;
    },
    async send(message) {
      // Resolves once the page has handled it: a listener added after the page's own runs after it
      // for the same event (an animation frame alone can come before the message's task on a
      // loaded machine); then a frame, so the page has laid out before the test reads the DOM.
      await page.evaluate(
        (m) =>
          new Promise((handled) => {
            window.addEventListener('message', () => requestAnimationFrame(() => handled(undefined)), { once: true });
            window.postMessage(m, window.origin);
          }),
        message as object,
      );
    },
    async axe(axeOptions = {}) {
      axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
      // Evaluated through the DevTools protocol, so the page's CSP (scripts by nonce only) lets it in.
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
      const result = await page.evaluate(async (rules) => {
        const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
        const r = await axe.run(document, { resultTypes: ['violations'], ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}) });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'unknown', help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`) }));
      }, axeOptions.rules as string[] | undefined);
      return axeOptions.all ? result : result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    },
    async close() {
      await context.close();
    },
  };
}
