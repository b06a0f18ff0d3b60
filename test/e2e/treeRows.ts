// Reading the MCP Host tree as a person sees it: the rows under a row, and waiting for a state.
import { poll, type TreeItem, type Workbench } from './harness';

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
