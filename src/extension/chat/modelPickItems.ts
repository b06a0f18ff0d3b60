// The rows of @mcp's picker ("Switch a server or tool on or off for language models"): servers
// first (a server of hundreds of tools must not push the next server out of sight), then each
// tool, each saying whether models are offered it. A row carries the server's or the tool's own
// icon (a tool without icons shows its server's): only for a running server, under src/icons'
// rules, and only what is judged within a short budget, so the picker opens at once.
import type * as vscode from 'vscode';
import type { Icon } from '../../icons/iconChoice';
import { iconsOf } from '../../icons/iconChoice';
import { plainPickText } from '../../content/untrustedText';
import type { IconServerHandle, ServerIcons } from '../tree/serverIcons';
import { serverOwnIcons } from '../tree/serverIcons';

/** How long the picker waits for icons not judged yet (they are kept for next time). */
export const PICK_ICON_BUDGET_MS = 300;

/** A server as the picker needs it. */
export type PickServer = IconServerHandle & {
  readonly id: string;
  readonly entry: { readonly name: string };
  readonly tools?: readonly ({ readonly name: string } & Record<string, unknown>)[] | undefined;
};

/** Whether models are offered a server or a tool (ChatState). */
export interface ModelSwitches {
  isServerEnabled(serverId: string): boolean;
  isToolEnabled(serverId: string, tool: string): boolean;
}

export type ModelPickTarget = { serverId: string; kind: 'server' | 'tool'; name?: string };
export type ModelPickItem = vscode.QuickPickItem & { target: ModelPickTarget };

function offered(on: boolean): string {
  return on ? 'offered to models' : 'off for models';
}

/** The picker's rows, with the icons judged within `budgetMs`. */
export async function modelPickItems(servers: readonly PickServer[], switches: ModelSwitches, icons: ServerIcons, budgetMs = PICK_ICON_BUDGET_MS): Promise<ModelPickItem[]> {
  const withIcon = async (server: PickServer, declared: readonly Icon[], item: ModelPickItem): Promise<ModelPickItem> => {
    const iconPath = await icons.pickIcon(server, declared, budgetMs);
    return iconPath ? { ...item, iconPath } : item;
  };
  const rows = [
    ...servers.map((h) => withIcon(h, serverOwnIcons(h), { label: plainPickText(h.entry.name), description: offered(switches.isServerEnabled(h.id)), target: { serverId: h.id, kind: 'server' } })),
    ...servers.flatMap((h) =>
      (h.tools ?? []).map((t) => {
        const own = iconsOf(t.icons);
        return withIcon(h, own.length ? own : serverOwnIcons(h), { label: plainPickText(`${h.entry.name}/${t.name}`), description: offered(switches.isToolEnabled(h.id, t.name)), target: { serverId: h.id, kind: 'tool', name: t.name } });
      }),
    ),
  ];
  return Promise.all(rows);
}
