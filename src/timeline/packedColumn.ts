// One column of numbers, sent in the fewest bytes that keep every value exactly: a value every
// row shares is sent once, ids that count up by one as their first, small integers in 1, 2 or 4
// bytes, and only what needs it as Float64. A flood of notifications differs mostly in its times:
// its rows then cost 8 bytes instead of 8 per field.

/** An integer array type, tried narrowest first. */
const INTEGER_ARRAYS = [
  [Uint8Array, 0, 0xff],
  [Int8Array, -0x80, 0x7f],
  [Uint16Array, 0, 0xffff],
  [Int16Array, -0x8000, 0x7fff],
  [Uint32Array, 0, 0xffff_ffff],
  [Int32Array, -0x8000_0000, 0x7fff_ffff],
] as const;

export type PackedArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/**
 * A column as sent: the one value of every row (`null` for NaN, which JSON cannot carry), the
 * first of ids counting up by one (`{ from }`), or the values in a typed array.
 */
export type PackedColumn = number | null | { readonly from: number } | PackedArray;

/** `values` in the fewest bytes that give every one of them back exactly (NaN included). */
export function packColumn(values: Float64Array): PackedColumn {
  const n = values.length;
  if (n === 0) return null;
  const first = values[0];
  let same = true;
  let counting = Number.isInteger(first);
  let integers = true;
  let min = Infinity;
  let max = -Infinity;
  let single = true;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (same && !Object.is(v, first)) same = false;
    if (counting && v !== first + i) counting = false;
    if (integers) {
      if (Number.isInteger(v) && !Object.is(v, -0)) {
        if (v < min) min = v;
        if (v > max) max = v;
      } else integers = false;
    }
    if (single && !Object.is(Math.fround(v), v)) single = false;
  }
  if (same) return Number.isNaN(first) ? null : first;
  if (counting) return { from: first };
  if (integers) {
    for (const [Type, lo, hi] of INTEGER_ARRAYS) if (min >= lo && max <= hi) return Type.from(values);
  }
  return single ? Float32Array.from(values) : Float64Array.from(values);
}

/** A packed column of `n` rows back as numbers (the reader's side; the timeline page has its own). */
export function unpackColumn(column: PackedColumn, n: number): Float64Array {
  if (column === null || typeof column === 'number') return new Float64Array(n).fill(column ?? NaN);
  if (ArrayBuffer.isView(column)) {
    if (column.length !== n) throw new Error(`a column of ${column.length} values for ${n} rows`);
    return Float64Array.from(column);
  }
  return Float64Array.from({ length: n }, (_, i) => column.from + i);
}

/** About how many bytes packed columns take to send: a typed array's bytes, 8 for a value or a first id. */
export function packedByteLength(columns: Iterable<PackedColumn>): number {
  let n = 0;
  for (const c of columns) n += ArrayBuffer.isView(c) ? c.byteLength : 8;
  return n;
}
