// What the timeline page measured of itself, read in the page (pass the function to a frame's
// `evaluate`): its User Timing entries (the time of each draw, the first batch and paint, the
// largest batch) and the item count its summary shows. The page keeps no object for benchmarks.

export interface TimelinePerformance {
  /** Items kept, from the summary ("1 server · 100,000 items · …"). */
  readonly items: number;
  /** Page-clock ms; 0 until it happened. */
  readonly firstPaintMs: number;
  readonly firstBatchAt: number;
  /** How long the largest batch took to apply. */
  readonly batchMs: number;
  /** Each draw's duration (ms), oldest first. */
  readonly draws: number[];
}

/** Runs in the page: no closure over anything outside it. */
export function timelinePerformance(): TimelinePerformance {
  const first = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? 0;
  const summary = document.getElementById('summary')?.textContent ?? '';
  const items = /([\d,]+) items/.exec(summary);
  const batch = performance.getEntriesByName('mcp-timeline largest batch')[0];
  return {
    items: items ? Number(items[1].replace(/,/g, '')) : 0,
    firstPaintMs: first('mcp-timeline first paint'),
    firstBatchAt: first('mcp-timeline first batch'),
    batchMs: batch?.duration ?? 0,
    draws: performance.getEntriesByName('mcp-timeline draw').map((e) => e.duration),
  };
}
