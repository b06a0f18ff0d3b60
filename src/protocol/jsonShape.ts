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
