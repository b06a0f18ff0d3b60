// The four themes the webview accessibility checks run in, and the shape of what
// captureThemes.ts read from VS Code for each (test/webview/themes/<file>.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ThemeInfo {
  /** As VS Code's theme picker names it. */
  readonly name: string;
  /** The value of `workbench.colorTheme` that selects it (code-server 4.139.1's theme-defaults). */
  readonly settingId: string;
  /** Its fixture: themes/<file>.json. */
  readonly file: string;
}

/** VS Code 1.139's default light theme, the classic light one, and both high-contrast themes. */
export const THEMES: readonly ThemeInfo[] = [
  { name: 'Light 2026', settingId: 'Light 2026', file: 'light-2026' },
  { name: 'Light+', settingId: 'Light+', file: 'light-plus' },
  { name: 'Dark High Contrast', settingId: 'Default High Contrast', file: 'hc-dark' },
  { name: 'Light High Contrast', settingId: 'Default High Contrast Light', file: 'hc-light' },
];

/** What a webview receives from VS Code in one theme. */
export interface ThemeFixture {
  readonly theme: string;
  readonly settingId: string;
  /** <body class>: vscode-light, vscode-dark, vscode-high-contrast (+ vscode-high-contrast-light). */
  readonly bodyClass: string;
  /** data-vscode-theme-kind, data-vscode-theme-id, … on <body>. */
  readonly bodyAttributes: Record<string, string>;
  /** VS Code's <style id="_defaultStyles">. */
  readonly defaultStyles: string;
  /** Every `--vscode-*` variable on <html>. */
  readonly variables: Record<string, string>;
}

/** The fixture of a theme; the files sit in test/webview/themes/ (this runs from out/test/webview/). */
export function loadTheme(theme: ThemeInfo): ThemeFixture {
  const path = join(__dirname, '..', '..', '..', 'test', 'webview', 'themes', `${theme.file}.json`);
  return JSON.parse(readFileSync(path, 'utf8')) as ThemeFixture;
}
