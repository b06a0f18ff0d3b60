// What MCP Host tells an app's view about where it is shown (`hostContext` of `ui/initialize`, and
// `ui/notifications/host-context-changed`): the theme as the specification's CSS variables, the
// display mode, the container's size, the locale. The view's frame is on an opaque origin and
// cannot read VS Code's `--vscode-*` variables, so the webview resolves the ones named here to
// their values and the host passes those on.
import type { McpUiDisplayMode, McpUiHostContext, McpUiStyleVariableKey } from '@modelcontextprotocol/ext-apps' with { 'resolution-mode': 'import' };

export type AppDisplayMode = McpUiDisplayMode;
export type AppHostContext = McpUiHostContext;

/** The display modes MCP Host offers: in the tool panel, or in an editor tab of its own. */
export const HOST_DISPLAY_MODES: readonly AppDisplayMode[] = ['inline', 'fullscreen'];

/**
 * Each standard variable of the specification and the VS Code theme variable (or variables, the
 * first one set wins) it is read from in the webview. Variables with no sensible VS Code source
 * are left out: a view falls back to its own defaults for them.
 */
export const THEME_VARIABLES: Readonly<Partial<Record<McpUiStyleVariableKey, readonly string[]>>> = {
  '--color-background-primary': ['--vscode-editor-background'],
  '--color-background-secondary': ['--vscode-sideBar-background', '--vscode-editorWidget-background'],
  '--color-background-tertiary': ['--vscode-input-background'],
  '--color-background-inverse': ['--vscode-editor-foreground'],
  '--color-background-info': ['--vscode-inputValidation-infoBackground'],
  '--color-background-danger': ['--vscode-inputValidation-errorBackground'],
  '--color-background-warning': ['--vscode-inputValidation-warningBackground'],
  '--color-background-disabled': ['--vscode-input-background'],
  '--color-text-primary': ['--vscode-editor-foreground', '--vscode-foreground'],
  '--color-text-secondary': ['--vscode-descriptionForeground'],
  '--color-text-tertiary': ['--vscode-disabledForeground'],
  '--color-text-inverse': ['--vscode-editor-background'],
  '--color-text-info': ['--vscode-textLink-foreground'],
  '--color-text-danger': ['--vscode-errorForeground'],
  '--color-text-success': ['--vscode-testing-iconPassed'],
  '--color-text-warning': ['--vscode-editorWarning-foreground'],
  '--color-text-disabled': ['--vscode-disabledForeground'],
  '--color-border-primary': ['--vscode-panel-border', '--vscode-widget-border'],
  '--color-border-secondary': ['--vscode-input-border', '--vscode-panel-border'],
  '--color-border-info': ['--vscode-inputValidation-infoBorder'],
  '--color-border-danger': ['--vscode-inputValidation-errorBorder'],
  '--color-border-warning': ['--vscode-inputValidation-warningBorder'],
  '--color-ring-primary': ['--vscode-focusBorder'],
  '--font-sans': ['--vscode-font-family'],
  '--font-mono': ['--vscode-editor-font-family'],
  '--font-text-md-size': ['--vscode-font-size'],
};

/** VS Code's theme kinds, as the webview's body class names them. */
export type ThemeKind = 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';

/** The specification's two themes; high contrast counts as its darkness. */
export function appTheme(kind: ThemeKind): 'light' | 'dark' {
  return kind === 'light' || kind === 'high-contrast-light' ? 'light' : 'dark';
}

/** What the webview reports about the view's surroundings. */
export interface ViewEnvironment {
  readonly theme: ThemeKind;
  /** Resolved values of THEME_VARIABLES' keys (the webview only sends keys of the table). */
  readonly variables: Readonly<Record<string, string>>;
  /** The container's size in CSS pixels. */
  readonly width: number;
  readonly height: number;
}

/** The theme part of the host context. */
export function themeContext(env: ViewEnvironment): Pick<AppHostContext, 'theme' | 'styles'> {
  const variables: Record<string, string> = {};
  for (const key of Object.keys(THEME_VARIABLES)) {
    const value = env.variables[key];
    if (typeof value === 'string' && value.trim() !== '') variables[key] = value.trim();
  }
  return { theme: appTheme(env.theme), styles: { variables: variables as NonNullable<AppHostContext['styles']>['variables'] } };
}

/**
 * The container's size: inline, the panel's width is fixed and the view grows in height (as it
 * reports with size-changed) up to a bound; in a tab of its own, both are fixed.
 */
export function containerDimensions(mode: AppDisplayMode, env: Pick<ViewEnvironment, 'width' | 'height'>): NonNullable<AppHostContext['containerDimensions']> {
  const width = Math.max(0, Math.round(env.width));
  return mode === 'inline' ? { width, maxHeight: INLINE_MAX_HEIGHT } : { width, height: Math.max(0, Math.round(env.height)) };
}

/** How tall an inline view may grow (CSS pixels) before it scrolls inside its frame. */
export const INLINE_MAX_HEIGHT = 1200;
