// The registry entries' own `icons` on the gallery's quick pick rows. The rows show at once; each
// entry's icons are judged in the background by the same code as servers' icons (src/icons/: data:
// and https: only, no loopback or private address, no redirect, a byte, pixel and time cap, SVG
// refused, the disk cache) and the rows are given them as they arrive. An entry's https icon may
// come from the origin the entry names for it (the registry vouches for its entries, and nothing
// runs); http:, file:, credentials in a URL and anything this machine or a private network serves
// are refused as for a server. The row's icon is a pair of files (light and dark: VS Code draws
// the one of the current theme).
import * as vscode from 'vscode';
import { type Icon, iconsOf } from '../../icons/iconChoice';
import { IconDiskCache } from '../../icons/iconDiskCache';
import type { IconFetchOptions } from '../../icons/iconFetch';
import { IconResolver } from '../../icons/iconResolver';
import type { IconOrigins } from '../../icons/iconSource';
import { type ThemedIconFiles, peekThemedIcon, resolveThemedIcon, themedIconJudged } from '../../icons/themedIcons';
import type { ServerDetail } from '../../gallery/serverJson';
import { themedIconPath } from '../tree/serverIcons';

/** The icons a registry entry (a server.json) declares. */
export function registryIcons(server: ServerDetail): Icon[] {
  return iconsOf((server as { icons?: unknown }).icons);
}

/** The origin of a web URL (`scheme://host[:port]`), or undefined for data: and anything else. */
function webOrigin(src: string): string | undefined {
  try {
    const url = new URL(src);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where an entry's icons may come from: the origin of each URL it lists (data: needs none). The
 * scheme and the address are still judged by src/icons (iconSource.ts): http: is refused there.
 */
export function registryIconOrigins(icons: readonly Icon[]): IconOrigins {
  return { allowed: [...new Set(icons.map((icon) => webOrigin(icon.src)).filter((o): o is string => o !== undefined))] };
}

/** A gallery row: the registry name it stands for (rows that only say something have none). */
type RowItem = vscode.QuickPickItem & { readonly row?: { readonly serverName?: string } };

/** What of a quick pick this needs: its rows, and the row the user is on (kept when rows are redrawn). */
export interface IconRows<T extends RowItem> {
  items: readonly T[];
  activeItems: readonly T[];
}

export class GalleryIcons {
  private readonly resolver: IconResolver;
  /** The icons of each entry seen, by registry name. */
  private readonly declared = new Map<string, Icon[]>();

  /** `fetch` is for tests only (a fixture on 127.0.0.1); the product passes none. */
  constructor(folder: string, log: (text: string) => void, fetch?: IconFetchOptions) {
    this.resolver = new IconResolver({
      disk: new IconDiskCache(folder),
      ...(fetch ? { fetch } : {}),
      onRefused: (src, reason) => log(`Registry icon not shown (${reason}): ${src.length > 120 ? `${src.slice(0, 120)}…` : src}`),
    });
  }

  /** The icon files known for the entry `name` (undefined: none, refused, or not judged yet). */
  filesOf(name: string): ThemedIconFiles | undefined {
    const icons = this.declared.get(name);
    return icons ? peekThemedIcon(this.resolver, icons) : undefined;
  }

  /** `item` with the icon of its entry when one is known. */
  withIcon<T extends RowItem>(item: T): T {
    const files = item.row?.serverName ? this.filesOf(item.row.serverName) : undefined;
    return files ? { ...item, iconPath: themedIconPath(files) } : item;
  }

  /**
   * Judges the icons of `entries` not judged yet; each time some arrive the rows of `pick` (what
   * it shows then, perhaps another search's) are redrawn with them. Resolves when all are judged.
   */
  async load<T extends RowItem>(entries: readonly ServerDetail[], pick: IconRows<T>): Promise<void> {
    const waiting = entries
      .map((server) => {
        const icons = registryIcons(server);
        if (icons.length) this.declared.set(server.name, icons);
        return icons;
      })
      .filter((icons) => !themedIconJudged(this.resolver, icons))
      .map((icons) => resolveThemedIcon(this.resolver, icons, registryIconOrigins(icons)).then((files) => files && this.redraw(pick)));
    await Promise.all(waiting);
  }

  private redraw<T extends RowItem>(pick: IconRows<T>): void {
    const active = pick.activeItems[0]?.row?.serverName;
    const items = pick.items.map((item) => this.withIcon(item));
    pick.items = items;
    const again = active ? items.find((item) => item.row?.serverName === active) : undefined;
    if (again) pick.activeItems = [again];
  }
}
