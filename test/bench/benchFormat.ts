// The median and the number formats of the benchmark's tables (test/bench/bench.ts).
import { MiB } from './benchScenarios';

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
export const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
export const ratio = (x: number) => `${x.toFixed(2)}x`;
