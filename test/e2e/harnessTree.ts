// The tree view: reading, waiting for, expanding, clicking and hovering rows of a launch (harness.ts's `Launched`): functions with the launch as `this`, set on
// the class as its methods, so a suite calls `wb.treeItems(…)` as before.
import type { Launched } from './harness';
import type { Locator } from 'playwright-core';
import type { TreeItem, TreeQuery } from './harnessTypes';
import { escapeRegExp, nextFrame, poll } from './harnessWaits';
import { reportRetry } from './retries';


export async function treeItems(this: Launched, query: TreeQuery = {}): Promise<TreeItem[]> {
  const rows = new Map<number, TreeItem>();
  await this.scanTree(query, (visible) => {
    for (const [index, item] of visible) rows.set(index, item);
    return false;
  });
  // Back to the top, where a person looking at a screenshot expects the tree to be.
  if (rows.size > 0) await this.page.keyboard.press('Home');
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item);
}

export async function waitForTreeItem(this: Launched, label: string, options: TreeQuery & { timeoutMs?: number } = {}): Promise<TreeItem> {
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

export async function expandTreeItem(this: Launched, label: string, query: TreeQuery = {}): Promise<void> {
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

export async function welcomeText(this: Launched, query: TreeQuery = {}): Promise<string> {
  const list = this.treeList(query);
  await list.waitFor({ state: 'attached', timeout: 10_000 });
  const body = this.page.locator('.part.sidebar .pane-body').filter({ has: list });
  const welcome = body.locator('.welcome-view-content');
  return (await welcome.count()) > 0 && (await welcome.first().isVisible()) ? (await welcome.first().innerText()).trim() : '';
}

export async function clickTreeItem(this: Launched, label: string, query: TreeQuery = {}): Promise<void> {
  const { row } = await this.revealTreeItem(label, query);
  await row.locator('.monaco-tl-contents').click();
}

export async function hoverTreeItem(this: Launched, label: string, query: TreeQuery = {}): Promise<Locator> {
  const { row } = await this.revealTreeItem(label, query);
  await row.hover();
  return row;
}

/** Scrolls the first row with this label into view. */
export async function revealTreeItem(this: Launched, label: string, query: TreeQuery): Promise<{ row: Locator; item: TreeItem }> {
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
export function treeList(this: Launched, query: TreeQuery): Locator {
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
export async function scanTree(this: Launched, query: TreeQuery, visit: (rows: Map<number, TreeItem>) => boolean): Promise<void> {
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
