// The four lists (tools, resources, resource templates, prompts), page after page. Each item is
// checked on its own: a malformed one is skipped and reported through `onSkipped`, so one sloppy
// tool never hides the others. The cache hint of a list is the shortest of its pages'.
import type { RequestOptions } from '../protocol/connection';
import { McpLocalError } from '../protocol/errors';
import { measureJson } from '../protocol/jsonShape';
import { formatZodIssues } from '../protocol/messages';
import type * as z from '../protocol/zod';
import { isRetriedResult } from './eras/inputRounds';
import { CacheHint, ListItem, ListKey, MAX_LIST_ITEM_DEPTH, SkippedListItem, listItemSchemas, listPageSchema } from './schemas';

/** Options of the list requests. */
export interface ListOptions extends RequestOptions {
  /** Called once per list with the items left out as malformed (only when there are any). */
  onSkipped?: (skipped: readonly SkippedListItem[]) => void;
  /** Called once per complete list with how long it may be reused (the shortest of its pages; `{}` when the server said nothing, which means stale). */
  onCacheHint?: (hint: CacheHint) => void;
}

/** One page of a list: the request the client sends (gated on the server's capability). */
export type FetchPage = <T>(params: Record<string, unknown>, schema: z.ZodMiniType<T>, options: RequestOptions) => Promise<T>;

/** `problemOf` may reject an item the schema accepted (a tool's header declarations); it is skipped like a malformed one. */
export async function listAll<K extends ListKey>(fetchPage: FetchPage, method: string, key: K, maxPages: number, options: ListOptions = {}, problemOf?: (item: ListItem[K]) => string | undefined): Promise<ListItem[K][]> {
  const { onSkipped, onCacheHint, ...request } = options;
  let hint: CacheHint | undefined;
  const itemSchema = listItemSchemas()[key] as unknown as z.ZodMiniType<ListItem[K]>;
  const items: ListItem[K][] = [];
  const skipped: SkippedListItem[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      throw new McpLocalError('invalid-result', `${method}: stopped after ${maxPages} pages; the server keeps returning nextCursor`, { items: items.length });
    }
    const result = await fetchPage(cursor === undefined ? {} : { cursor }, listPageSchema(key), request);
    hint = page === 0 ? cacheHintOf(result) : shorterHint(hint, cacheHintOf(result));
    for (const raw of result[key]) {
      const index = items.length + skipped.length;
      const checked = checkListItem(itemSchema, raw, `${key}[${index}]`);
      if ('problem' in checked) {
        skipped.push({ index, ...nameOf(raw), problem: checked.problem });
        continue;
      }
      const problem = problemOf?.(checked.item);
      if (problem !== undefined) skipped.push({ index, ...nameOf(raw), problem: `${key}[${index}]: ${problem}` });
      else items.push(checked.item);
    }
    cursor = result.nextCursor;
    if (cursor === undefined) {
      if (skipped.length > 0) onSkipped?.(skipped);
      onCacheHint?.(isRetriedResult(result) ? { ttlMs: 0, cacheScope: 'private' } : (hint ?? {}));
      return items;
    }
    if (seen.has(cursor)) {
      throw new McpLocalError('invalid-result', `${method}: the server returned nextCursor ${JSON.stringify(cursor)} twice; stopped to avoid a loop`, { items: items.length });
    }
    seen.add(cursor);
  }
}

/** The `ttlMs` and `cacheScope` a result carries (modern results do); `{}` when it carries none, which means stale. */
export function cacheHintOf(result: unknown): CacheHint {
  if (typeof result !== 'object' || result === null || isRetriedResult(result)) return {};
  const r = result as Record<string, unknown>;
  const hint: { ttlMs?: number; cacheScope?: 'public' | 'private' } = {};
  if (typeof r.ttlMs === 'number' && Number.isFinite(r.ttlMs) && r.ttlMs >= 0) hint.ttlMs = r.ttlMs;
  if (r.cacheScope === 'public' || r.cacheScope === 'private') hint.cacheScope = r.cacheScope;
  return hint;
}

/** The hint of two pages of one list: the shorter time, private if either is. */
export function shorterHint(a: CacheHint | undefined, b: CacheHint): CacheHint {
  if (!a || a.ttlMs === undefined || b.ttlMs === undefined) return {};
  const scope = a.cacheScope === 'private' || b.cacheScope === 'private' ? 'private' : (a.cacheScope ?? b.cacheScope);
  return { ttlMs: Math.min(a.ttlMs, b.ttlMs), ...(scope ? { cacheScope: scope } : {}) };
}

function checkListItem<T>(schema: z.ZodMiniType<T>, raw: unknown, path: string): { item: T } | { problem: string } {
  if (measureJson(raw, { maxDepth: MAX_LIST_ITEM_DEPTH }).exceeded) return { problem: `${path} is nested more than ${MAX_LIST_ITEM_DEPTH} levels deep` };
  const parsed = schema.safeParse(raw);
  return parsed.success ? { item: parsed.data } : { problem: formatZodIssues(parsed.error, path, raw) };
}

function nameOf(raw: unknown): { name?: string } {
  if (typeof raw !== 'object' || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const name = typeof r.name === 'string' ? r.name : typeof r.uri === 'string' ? r.uri : typeof r.uriTemplate === 'string' ? r.uriTemplate : undefined;
  return name === undefined ? {} : { name: name.length > 100 ? `${name.slice(0, 100)}…` : name };
}
