// Reading the MCP Host tree as a person sees it: the rows under a row, and waiting for a state.
import { poll, type TreeItem, waitUntil, type Workbench } from './harness';
import { reportRetry } from './retries';

/** The tree rows under the row `label` (its descendants, up to the next row at its level or above). */
export function childrenOf(items: readonly TreeItem[], label: string): TreeItem[] {
  const at = items.findIndex((i) => i.label === label);
  if (at < 0) return [];
  const out: TreeItem[] = [];
  for (const item of items.slice(at + 1)) {
    if (item.level <= items[at].level) break;
    out.push(item);
  }
  return out;
}

/** Waits until the tree satisfies `check`, returning the rows; on timeout the error lists them. */
export async function waitForTree(wb: Workbench, what: string, check: (items: TreeItem[]) => boolean, timeoutMs = 30_000): Promise<TreeItem[]> {
  let items: TreeItem[] = [];
  await poll(
    async () => {
      items = await wb.treeItems();
      return check(items);
    },
    { timeoutMs, what, detail: () => `rows:\n${items.map((i) => `${'  '.repeat(i.level - 1)}${i.label} | ${i.description}`).join('\n')}` },
  );
  return items;
}

/** A consent dialog as the harness reads it. */
export interface ConsentDialog {
  readonly message: string;
  readonly detail: string;
  readonly buttons: string[];
}

/**
 * Allows `count` workspace servers, however the consent comes: one dialog for several servers
 * that start together ("Start 2 MCP servers …", Allow All) or one dialog a server (Allow).
 * Returns the dialogs seen, for checks of what they showed.
 */
export async function allowServers(wb: Workbench, count: number): Promise<ConsentDialog[]> {
  const seen: ConsentDialog[] = [];
  let allowed = 0;
  while (allowed < count) {
    const dialog = await wb.dialog({ timeoutMs: 30_000 });
    if (!dialog) throw new Error(`no consent dialog after ${allowed} of ${count} servers were allowed`);
    seen.push(dialog);
    if (dialog.buttons.includes('Allow All')) {
      await wb.answerDialog('Allow All');
      allowed += Number(/Start (\d+) MCP servers/.exec(dialog.message)?.[1] ?? 1);
    } else {
      await wb.answerDialog('Allow');
      allowed += 1;
    }
  }
  return seen;
}

/** The rendered tree row with this label (the first), for its inline actions. */
export function treeRow(wb: Workbench, label: string) {
  return wb.page
    .locator('.part.sidebar .monaco-list[role="tree"] .monaco-list-row')
    .filter({ has: wb.page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) })
    .first();
}

/** Clicks an inline action of a tree row (shown on hover), finding the row again each try: the tree redraws. */
export async function clickRowAction(wb: Workbench, label: string, action: string): Promise<void> {
  let tries = 0;
  let missed = '';
  await waitUntil(
    async () => {
      tries++;
      // Hovered, not clicked: a click runs the row's default action (a resource row opens it).
      await wb.hoverTreeItem(label).catch(() => undefined);
      const row = treeRow(wb, label);
      await row.hover({ timeout: 2_000 }).catch(() => undefined);
      const clicked = await row
        .locator(`.actions .action-label[aria-label^="${action}"]`)
        .click({ timeout: 2_000 })
        .then(() => true, (error: Error) => ((missed = error.message), false));
      // A click that needed more than one hover says so (the row redrawn under the pointer, say).
      if (clicked && tries > 1) reportRetry(`clickRowAction "${label}" › "${action}": hovered and clicked ${tries} times`, missed);
      return clicked;
    },
    15_000,
    `the "${action}" action of "${label}"`,
  );
}
