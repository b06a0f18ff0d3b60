// The servers' own icons in the editor: on tree rows (a file in globalStorage: a row's icon is a
// Uri), on quick pick rows (@mcp's picker: a light and a dark file) and in the tool and prompt
// panels' headers (a data: URI; the pages allow `img-src data:`).
// The variant follows the colour theme and is chosen again when it changes. Only a running
// server's icons are looked at (serverIconOrigins); the checks and the fetching are src/icons/.
import * as vscode from 'vscode';
import { type Icon, type ThemeKind, iconsOf } from '../../icons/iconChoice';
import { IconDiskCache } from '../../icons/iconDiskCache';
import { IconResolver } from '../../icons/iconResolver';
import { type IconServer, serverIconOrigins } from '../../icons/serverIconOrigins';
import { type ThemedIconFiles, peekThemedIcon, resolveThemedIcon, themedIconJudged } from '../../icons/themedIcons';
import { mcpHostSetting } from '../trust/restrictedSettings';
import type { TreeNode } from './treeNodes';

/** The codicon each kind of row shows by default: a server's icon replaces only that, never a state symbol. */
const DEFAULT_SYMBOLS: Partial<Record<TreeNode['kind'], string>> = { server: 'pass', tool: 'tools', resource: 'file', resourceTemplate: 'file-code', prompt: 'comment-discussion' };

function themeKindOf(kind: vscode.ColorThemeKind): ThemeKind {
  return kind === vscode.ColorThemeKind.Light || kind === vscode.ColorThemeKind.HighContrastLight ? 'light' : 'dark';
}

/** A server as icons need it: whether it runs, its origin, and its serverInfo. */
export type IconServerHandle = IconServer & { readonly client?: { readonly serverInfo?: unknown } };

/** A quick pick row's iconPath from its files (VS Code draws the one of the current theme). */
export function themedIconPath(files: ThemedIconFiles): { light: vscode.Uri; dark: vscode.Uri } {
  return { light: vscode.Uri.file(files.light), dark: vscode.Uri.file(files.dark) };
}

/** The `icons` of a server's own serverInfo. */
export function serverOwnIcons(server: IconServerHandle): Icon[] {
  return iconsOf((server.client?.serverInfo as { icons?: unknown } | undefined)?.icons);
}

/** The `icons` of what a row shows (the server's serverInfo for a server row). */
function rowIcons(node: TreeNode, server: IconServerHandle): Icon[] {
  switch (node.kind) {
    case 'server':
      return serverOwnIcons(server);
    case 'tool':
      return iconsOf((node.tool as { icons?: unknown }).icons);
    case 'resource':
      return iconsOf((node.resource as { icons?: unknown }).icons);
    case 'resourceTemplate':
      return iconsOf((node.template as { icons?: unknown }).icons);
    case 'prompt':
      return iconsOf((node.prompt as { icons?: unknown }).icons);
    default:
      return [];
  }
}

export class ServerIcons implements vscode.Disposable {
  private readonly resolver: IconResolver;
  private theme = themeKindOf(vscode.window.activeColorTheme.kind);
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** An icon became known, or the theme changed: rows should be drawn again. */
  readonly onDidChange = this._onDidChange.event;
  private readonly disposables: vscode.Disposable[] = [this._onDidChange];
  private redraw: NodeJS.Timeout | undefined;

  constructor(globalStorage: vscode.Uri, log: (text: string) => void) {
    this.resolver = new IconResolver({ disk: new IconDiskCache(vscode.Uri.joinPath(globalStorage, 'icons').fsPath), onRefused: (src, reason) => log(`Icon not shown (${reason}): ${src.length > 120 ? `${src.slice(0, 120)}…` : src}`) });
    this.disposables.push(
      vscode.window.onDidChangeActiveColorTheme((theme) => {
        const next = themeKindOf(theme.kind);
        if (next === this.theme) return;
        this.theme = next;
        this._onDidChange.fire();
      }),
    );
  }

  /** Gives `item` the icon of what it shows, when its server runs and the icon passed every check; starts judging one not yet known. */
  decorate(item: vscode.TreeItem, node: TreeNode, server: IconServerHandle | undefined): void {
    const symbol = DEFAULT_SYMBOLS[node.kind];
    if (!server || !symbol || !(item.iconPath instanceof vscode.ThemeIcon) || item.iconPath.id !== symbol) return;
    const origins = serverIconOrigins(server, this.declaredOrigins());
    if (!origins) return; // not running: its icons are not looked at
    const icons = rowIcons(node, server);
    if (icons.length === 0) return;
    const known = this.resolver.peek(icons, this.theme);
    if (known?.file) item.iconPath = vscode.Uri.file(known.file);
    if (known === undefined) void this.resolver.resolve(icons, this.theme, origins).then((shown) => shown && this.redrawSoon());
  }

  /** The data: URI of an item's icon for a panel's header, or undefined (not running, none, or refused). */
  async pageIcon(server: IconServer | undefined, item: { readonly [key: string]: unknown }): Promise<string | undefined> {
    const origins = server && serverIconOrigins(server, this.declaredOrigins());
    if (!origins) return undefined;
    return (await this.resolver.resolve(iconsOf(item.icons), this.theme, origins))?.dataUri;
  }

  /**
   * A quick pick row's icon for `icons` (a light and a dark file): at once when already judged,
   * else what arrives within `budgetMs` (a slow icon server does not hold the picker). Nothing
   * for a server that is not running: its icons are not looked at.
   */
  async pickIcon(server: IconServer | undefined, icons: readonly Icon[], budgetMs: number): Promise<{ light: vscode.Uri; dark: vscode.Uri } | undefined> {
    const origins = server && serverIconOrigins(server, this.declaredOrigins());
    if (!origins || icons.length === 0) return undefined;
    if (themedIconJudged(this.resolver, icons)) {
      const known = peekThemedIcon(this.resolver, icons);
      return known && themedIconPath(known);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), budgetMs)));
    try {
      const files = await Promise.race([resolveThemedIcon(this.resolver, icons, origins), late]);
      return files && themedIconPath(files);
    } finally {
      clearTimeout(timer);
    }
  }

  private declaredOrigins(): string[] {
    const value = mcpHostSetting<unknown>('icons.allowedOrigins', []);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }

  /** One redraw for icons that become known together (a list of tools, each with its own). */
  private redrawSoon(): void {
    this.redraw ??= setTimeout(() => {
      this.redraw = undefined;
      this._onDidChange.fire();
    }, 50);
  }

  dispose(): void {
    if (this.redraw) clearTimeout(this.redraw);
    for (const d of this.disposables) d.dispose();
  }
}
