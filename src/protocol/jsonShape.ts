// Bounds for walking JSON that came from a server. JSON.parse accepts any nesting, but every
// recursive walk (JSON.stringify included, at about 4,000 levels) overflows the stack on it, so
// code that recurses over server data first measures it here (without recursion) or cuts it.

/** True for a JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Size and nesting of a JSON value, measured up to a limit. */
export interface JsonShape {
  /** Values counted: objects, arrays and scalars alike (the measure stops once a limit is passed). */
  readonly values: number;
  /** Deepest nesting seen: 0 for a scalar, 1 for `{}` or `[]`. */
  readonly depth: number;
  /** Longest array seen. */
  readonly longestArray: number;
  /** Which limit was passed, if any; the other numbers are then lower bounds. */
  readonly exceeded?: 'values' | 'depth';
}

/** Measures `value` without recursion, stopping as soon as `maxValues` or `maxDepth` is passed. */
export function measureJson(value: unknown, limits: { readonly maxValues?: number; readonly maxDepth?: number } = {}): JsonShape {
  const maxValues = limits.maxValues ?? Infinity;
  const maxDepth = limits.maxDepth ?? Infinity;
  if (typeof value !== 'object' || value === null) return { values: 1, depth: 0, longestArray: 0 };
  const stack: Array<{ value: object; depth: number }> = [{ value, depth: 1 }];
  let values = 1;
  let depth = 0;
  let longestArray = 0;
  while (stack.length > 0) {
    const top = stack.pop()!;
    depth = Math.max(depth, top.depth);
    if (top.depth > maxDepth) return { values, depth, longestArray, exceeded: 'depth' };
    const children = Array.isArray(top.value) ? top.value : Object.values(top.value);
    if (Array.isArray(top.value)) longestArray = Math.max(longestArray, top.value.length);
    values += children.length;
    if (values > maxValues) return { values, depth, longestArray, exceeded: 'values' };
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: top.depth + 1 });
  }
  return { values, depth, longestArray };
}

/** What stands in for a part of a value nested deeper than shown. */
export const TOO_DEEP_MARKER = '[nested too deeply to show]';

/**
 * A copy of `value` in which every object or array nested deeper than `maxDepth` is replaced by
 * TOO_DEEP_MARKER, so JSON.stringify (and any other walk) of the copy is safe. `cut` says
 * whether anything was replaced; when nothing was, `value` itself is returned.
 */
export function cutDeepJson(value: unknown, maxDepth: number): { readonly value: unknown; readonly cut: boolean } {
  if (measureJson(value, { maxDepth }).exceeded !== 'depth') return { value, cut: false };
  // The recursion below is bounded by maxDepth.
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= maxDepth) return TOO_DEEP_MARKER;
    if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = copy(x, depth + 1);
    return out;
  };
  return { value: copy(value, 0), cut: true };
}

/** How far `foldJson` keeps a value. */
export interface FoldLimits {
  /** About how many characters of JSON the copy keeps; what comes after is folded. */
  readonly maxChars: number;
  /** Longest string kept whole; a longer one keeps its start. */
  readonly maxStringChars: number;
  /** Most items of an array (or keys of an object) kept. */
  readonly maxItems: number;
  /** Deepest nesting kept; deeper parts become TOO_DEEP_MARKER. */
  readonly maxDepth: number;
  /** Keys whose long string values are emptied rather than cut (base64 cut short is garbage). */
  readonly emptyKeys?: ReadonlySet<string>;
}

/** A value folded by `foldJson`: `value` is the original when nothing was folded. */
export interface FoldedJson {
  readonly value: unknown;
  /** Something was left out (strings cut, items or keys folded, the budget spent). */
  readonly folded: boolean;
  /** Something nested deeper than `maxDepth` was replaced by TOO_DEEP_MARKER. */
  readonly cutDeep: boolean;
}

/** The end of a string cut by `foldJson`. */
export function cutStringMarker(more: number): string {
  return `… [cut: ${more} more characters]`;
}

/** The last item of an array folded by `foldJson`. */
export function moreItemsMarker(more: number): string {
  return `… [${more.toLocaleString('en-US')} more item${more === 1 ? '' : 's'} folded]`;
}

/** The key (with `moreItemsMarker` as its value) that ends an object folded by `foldJson`. */
export const MORE_KEYS_KEY = '…';

/**
 * A copy of `value` of about `maxChars` characters of JSON at most, however large the value: long
 * strings keep their start, long arrays their first items, deep parts a marker, and once the
 * budget is spent the rest of each array or object is one marker. It visits only what it keeps,
 * so folding 50 MiB costs what the kept part costs. Throws a TypeError on what JSON cannot hold
 * (a BigInt, a cycle).
 */
export function foldJson(value: unknown, limits: FoldLimits): FoldedJson {
  let left = limits.maxChars;
  let folded = false;
  let cutDeep = false;
  const ancestors = new Set<object>();
  const fold = (v: unknown, depth: number, key: string | undefined): unknown => {
    switch (typeof v) {
      case 'string': {
        const room = Math.min(limits.maxStringChars, Math.max(0, left - 2));
        if (v.length <= room) {
          left -= v.length + 2;
          return v;
        }
        folded = true;
        if (key !== undefined && limits.emptyKeys?.has(key)) return '';
        left -= room + 40;
        return v.slice(0, room) + cutStringMarker(v.length - room);
      }
      case 'number':
      case 'boolean':
        left -= String(v).length;
        return v;
      case 'bigint':
        throw new TypeError('a BigInt is not JSON');
      case 'object':
        break;
      default:
        // undefined, functions and symbols: JSON.stringify leaves them out.
        return v;
    }
    if (v === null) {
      left -= 4;
      return v;
    }
    if (ancestors.has(v)) throw new TypeError('a cyclic value is not JSON');
    if (depth >= limits.maxDepth) {
      cutDeep = true;
      return TOO_DEEP_MARKER;
    }
    ancestors.add(v);
    left -= 2;
    try {
      if (Array.isArray(v)) {
        const out: unknown[] = [];
        for (let i = 0; i < v.length; i++) {
          if (left <= 0 || i >= limits.maxItems) {
            folded = true;
            out.push(moreItemsMarker(v.length - i));
            break;
          }
          out.push(fold(v[i], depth + 1, undefined));
          left -= 1;
        }
        return out;
      }
      const out: Record<string, unknown> = {};
      const keys = Object.keys(v);
      for (let i = 0; i < keys.length; i++) {
        if (left <= 0 || i >= limits.maxItems) {
          folded = true;
          out[MORE_KEYS_KEY] = moreItemsMarker(keys.length - i);
          break;
        }
        const k = keys[i];
        left -= k.length + 4;
        out[k] = fold((v as Record<string, unknown>)[k], depth + 1, k);
      }
      return out;
    } finally {
      ancestors.delete(v);
    }
  };
  const copy = fold(value, 0, undefined);
  return { value: folded || cutDeep ? copy : value, folded, cutDeep };
}
