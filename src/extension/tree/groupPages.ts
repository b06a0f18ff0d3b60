// How many rows each list group of the Servers tree shows. VS Code converts and draws every
// child a provider returns: a Tools group of 5,000 took about a second to open, most of it in
// VS Code's own conversion of the tree items. So a long group shows its first page and a row that
// loads the next one; the rest stays findable through Find Tool…. No `vscode` here: the tree
// reads it, the unit tests drive it.
import type { ListKind } from '../../registry';

/** Rows a long group shows at first, and how many more each "Show more" loads (measured: see README, "At scale, in the editor"). */
export const GROUP_PAGE_SIZE = 200;

/** What a group shows now. */
export interface GroupPage {
  /** How many of its children are drawn (the first ones, in the server's order). */
  readonly shown: number;
  /** How many it has. */
  readonly total: number;
  /** How many are not drawn (0: no "Show more" row). */
  readonly hidden: number;
  /** How many the "Show more" row loads. */
  readonly next: number;
}

interface GroupState {
  /** Pages shown, or every row. */
  pages: number | 'all';
  /** The connection the pages were opened in: a restart starts from the first page again. */
  session: object | undefined;
}

/** The pages each group of each server shows; a list change keeps them, a new connection resets them. */
export class GroupPages {
  private readonly groups = new Map<string, GroupState>();

  constructor(readonly pageSize = GROUP_PAGE_SIZE) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`page size must be a positive integer, not ${pageSize}`);
  }

  /** The page of a group of `total` children, drawn for the connection `session` (the server's client). */
  page(serverId: string, list: ListKind, total: number, session: object | undefined): GroupPage {
    const state = this.state(serverId, list, session);
    const shown = state.pages === 'all' ? total : Math.min(total, state.pages * this.pageSize);
    const hidden = total - shown;
    return { shown, total, hidden, next: Math.min(hidden, this.pageSize) };
  }

  /** One page more. */
  showMore(serverId: string, list: ListKind, session: object | undefined): void {
    const state = this.state(serverId, list, session);
    if (state.pages !== 'all') state.pages++;
  }

  /** Every row. */
  showAll(serverId: string, list: ListKind, session: object | undefined): void {
    this.state(serverId, list, session).pages = 'all';
  }

  /** Enough pages that the child at `index` is drawn; false when it already was. */
  showThrough(serverId: string, list: ListKind, index: number, session: object | undefined): boolean {
    const state = this.state(serverId, list, session);
    if (state.pages === 'all' || index < state.pages * this.pageSize) return false;
    state.pages = Math.floor(index / this.pageSize) + 1;
    return true;
  }

  /** Forgets the groups of servers no longer configured (and the connections they hold). */
  keepOnly(serverIds: ReadonlySet<string>): void {
    for (const key of [...this.groups.keys()]) if (!serverIds.has(key.slice(0, key.indexOf('\n')))) this.groups.delete(key);
  }

  private state(serverId: string, list: ListKind, session: object | undefined): GroupState {
    const key = `${serverId}\n${list}`;
    let state = this.groups.get(key);
    if (!state || state.session !== session) {
      state = { pages: 1, session };
      this.groups.set(key, state);
    }
    return state;
  }
}

/**
 * The first `shown` of `items`, each with its occurrence: 0 for the first item of its key (a
 * tool's name, a resource's URI), 1 for the second… Rows are identified by key and occurrence,
 * never by position, and an occurrence depends only on the items before it: a row keeps its id
 * whether one page is drawn or ten, and when the list changes after it.
 */
export function pagedRows<T>(items: readonly T[], keyOf: (item: T) => string, shown: number): { readonly item: T; readonly occurrence: number }[] {
  const occurrence = occurrences();
  return items.slice(0, shown).map((item) => ({ item, occurrence: occurrence(keyOf(item)) }));
}

/** Counts how often each key came before: 0 for the first, 1 for the second… */
export function occurrences(): (key: string) => number {
  const seen = new Map<string, number>();
  return (key) => {
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n;
  };
}
