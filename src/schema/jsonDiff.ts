// A structural diff of two JSON values: what was added, removed or changed, and where.
// Used to say what a server changed between two lists and what a replayed answer changed.
import { isRecord } from '../protocol/jsonShape';
import { jsonEqual } from './json';
import { escapePointer } from './jsonPointer';

/** One difference between two JSON values. `path` is the list of keys and indexes that lead to it. */
export interface JsonChange {
  readonly kind: 'added' | 'removed' | 'changed';
  readonly path: readonly (string | number)[];
  readonly before?: unknown;
  readonly after?: unknown;
}

export interface JsonDiffOptions {
  /** Paths left out of the comparison (their whole subtree), as JSON Pointers ("/id", "/result/_meta"). */
  readonly ignore?: readonly string[];
  /** Stop after this many changes: a diff of two unrelated 50 MiB documents must not flood anyone. */
  readonly maxChanges?: number;
  /**
   * Arrays whose items are all objects with a unique string under one of these keys (`name` of
   * tools, `uri` of resources) are matched item by item on it, not by index: one tool added at the
   * top is one addition, not a change of every item. Such an item's path part is `name=echo`.
   */
  readonly matchItemsBy?: readonly string[];
}

/** The default cap on changes reported by one diff. */
export const DEFAULT_MAX_CHANGES = 1000;

/**
 * The differences between `before` and `after`, in document order. Objects are compared key by
 * key; arrays of objects index by index; arrays of plain values (`required`, `enum`) as one
 * value, since a reordering there reads better as one change than as a cascade of index shifts.
 */
export function jsonDiff(before: unknown, after: unknown, options: JsonDiffOptions = {}): JsonChange[] {
  const ignored = new Set(options.ignore ?? []);
  const max = options.maxChanges ?? DEFAULT_MAX_CHANGES;
  const changes: JsonChange[] = [];
  const walk = (a: unknown, b: unknown, path: (string | number)[], pointer: string): void => {
    if (changes.length >= max || ignored.has(pointer)) return;
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(a)) {
        const child = `${pointer}/${escapePointer(key)}`;
        if (ignored.has(child)) continue;
        if (!Object.prototype.hasOwnProperty.call(b, key)) {
          if (changes.length < max) changes.push({ kind: 'removed', path: [...path, key], before: a[key] });
        } else walk(a[key], b[key], [...path, key], child);
      }
      for (const key of Object.keys(b)) {
        if (Object.prototype.hasOwnProperty.call(a, key) || ignored.has(`${pointer}/${escapePointer(key)}`)) continue;
        if (changes.length < max) changes.push({ kind: 'added', path: [...path, key], after: b[key] });
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && (a.some(isContainer) || b.some(isContainer))) {
      const key = options.matchItemsBy?.find((k) => uniquelyKeyed(a, k) && uniquelyKeyed(b, k));
      if (key !== undefined) {
        const part = (item: unknown) => `${key}=${(item as Record<string, string>)[key]}`;
        const after = new Map(b.map((item) => [part(item), item]));
        for (const item of a) {
          const id = part(item);
          if (!after.has(id)) {
            if (changes.length < max) changes.push({ kind: 'removed', path: [...path, id], before: item });
          } else walk(item, after.get(id), [...path, id], `${pointer}/${escapePointer(id)}`);
        }
        const before = new Set(a.map(part));
        for (const item of b) if (!before.has(part(item)) && changes.length < max) changes.push({ kind: 'added', path: [...path, part(item)], after: item });
        return;
      }
      const shared = Math.min(a.length, b.length);
      for (let i = 0; i < shared; i++) walk(a[i], b[i], [...path, i], `${pointer}/${i}`);
      for (let i = shared; i < a.length && changes.length < max; i++) changes.push({ kind: 'removed', path: [...path, i], before: a[i] });
      for (let i = shared; i < b.length && changes.length < max; i++) changes.push({ kind: 'added', path: [...path, i], after: b[i] });
      return;
    }
    if (!jsonEqual(a, b)) changes.push({ kind: 'changed', path, before: a, after: b });
  };
  walk(before, after, [], '');
  return changes;
}

/** A path as a reader writes it: `inputSchema.properties.message.description`, `content[0].text`, `["odd key"]`. */
export function formatJsonPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/** One line for a change: `content[0].text changed ("a" → "b")`; long text clipped around where it differs. */
export function describeJsonChange(change: Pick<JsonChange, 'kind' | 'path' | 'before' | 'after'>): string {
  const where = change.path.length ? `${formatJsonPath(change.path)} ` : '';
  return `${where}${change.kind}${valueNote(change)}`;
}

/** How much of a value a note shows, in characters. */
const NOTE_CHARS = 40;

/**
 * A short "(a → b)" for every change: small values whole, long text clipped around the first place
 * it differs (`"…to echo back…" → "…to send back…"`), structures by their size (`{3 keys}`).
 */
export function valueNote(change: Pick<JsonChange, 'kind' | 'before' | 'after'>): string {
  let a = noteValue(change.before);
  let b = noteValue(change.after);
  if (typeof change.before === 'string' && typeof change.after === 'string' && (change.before.length > NOTE_CHARS || change.after.length > NOTE_CHARS)) {
    [a, b] = clippedPair(change.before, change.after).map((t) => JSON.stringify(t));
  }
  if (change.kind === 'changed' && a !== undefined && b !== undefined) return ` (${a} → ${b})`;
  if (change.kind === 'added' && b !== undefined) return ` (${b})`;
  if (change.kind === 'removed' && a !== undefined) return ` (was ${a})`;
  return '';
}

/** Every item is an object with a string under `key`, and no two share it. */
function uniquelyKeyed(items: readonly unknown[], key: string): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const id = isRecord(item) ? item[key] : undefined;
    if (typeof id !== 'string' || seen.has(id)) return false;
    seen.add(id);
  }
  return items.length > 0;
}

function noteValue(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[${v.length} item${v.length === 1 ? '' : 's'}]`;
  if (isContainer(v)) {
    const n = Object.keys(v as object).length;
    return n === 0 ? '{}' : `{${n} key${n === 1 ? '' : 's'}}`;
  }
  if (typeof v === 'string') return JSON.stringify(v.length > NOTE_CHARS ? `${v.slice(0, NOTE_CHARS - 1)}…` : v);
  return JSON.stringify(v);
}

/** Two texts cut to what differs, with a little of what they share before it. */
function clippedPair(a: string, b: string): [string, string] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const from = Math.max(0, start - 12);
  const clip = (t: string) => {
    const differs = t.slice(from, t.length - end);
    const shown = differs.length > NOTE_CHARS ? `${differs.slice(0, NOTE_CHARS - 1)}…` : differs + t.slice(t.length - end, t.length - end + Math.max(0, NOTE_CHARS - differs.length));
    const tail = from + shown.length < t.length && !shown.endsWith('…') ? '…' : '';
    return `${from > 0 ? '…' : ''}${shown}${tail}`;
  };
  return [clip(a), clip(b)];
}

function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
