// Bounds for walking JSON that came from a server. JSON.parse accepts any nesting, but every
// recursive walk (JSON.stringify included, at about 4,000 levels) overflows the stack on it, so
// code that recurses over server data first measures it here (without recursion) or cuts it.

/** Size and nesting of a JSON value, measured up to a limit. */
export interface JsonShape {
  /** Objects and arrays counted (the measure stops once a limit is passed). */
  readonly nodes: number;
  /** Deepest nesting seen: 0 for a scalar, 1 for `{}` or `[]`. */
  readonly depth: number;
  /** Longest array seen. */
  readonly longestArray: number;
  /** Which limit was passed, if any; the other numbers are then lower bounds. */
  readonly exceeded?: 'nodes' | 'depth';
}

/** Measures `value` without recursion, stopping as soon as `maxNodes` or `maxDepth` is passed. */
export function measureJson(value: unknown, limits: { readonly maxNodes?: number; readonly maxDepth?: number } = {}): JsonShape {
  const maxNodes = limits.maxNodes ?? Infinity;
  const maxDepth = limits.maxDepth ?? Infinity;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let nodes = 0;
  let depth = 0;
  let longestArray = 0;
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (typeof top.value !== 'object' || top.value === null) continue;
    nodes++;
    depth = Math.max(depth, top.depth);
    if (nodes > maxNodes) return { nodes, depth, longestArray, exceeded: 'nodes' };
    if (top.depth > maxDepth) return { nodes, depth, longestArray, exceeded: 'depth' };
    const children = Array.isArray(top.value) ? top.value : Object.values(top.value);
    if (Array.isArray(top.value)) longestArray = Math.max(longestArray, top.value.length);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: top.depth + 1 });
  }
  return { nodes, depth, longestArray };
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
