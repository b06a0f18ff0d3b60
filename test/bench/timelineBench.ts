// `node dist/bench.js --only timeline`: the protocol timeline's model at 100,000 frames, on the
// extension host's code path (no VS Code): filing frames as they arrive, the ring's memory, the
// first batch a page gets, a filter's mask, and one frame's details when its payload is 50 MiB.
// The page's own figures (first paint, frame time while panning and zooming) come from
// code-server: test/bench/timelineRender.ts.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Frame } from '../../src/protocol/connection';
import { Timeline } from '../../src/timeline/timelineModel';
import { itemDetails } from '../../src/timeline/timelineSelection';
import { TimelineView } from '../../src/timeline/timelineView';
import { packedByteLength } from '../../src/timeline/packedColumn';

/** 100,000 frames of one server, as a busy session has them: calls with answers, progress, log lines. */
export function benchFrames(count = 100_000, t0 = 1_700_000_000_000): Frame[] {
  const frames: Frame[] = [];
  let id = 1;
  let t = t0;
  while (frames.length < count) {
    t += 0.7;
    const n = frames.length;
    if (n % 10 < 4) {
      const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: `tool-${id % 50}`, arguments: { q: `query ${id}` }, _meta: { progressToken: id } } };
      frames.push({ direction: 'send', message: call, bytes: 120, time: t });
      if (id % 7 === 0) frames.push({ direction: 'receive', message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1, total: 2 } }, bytes: 90, time: t + 1 });
      const answer = id % 97 === 0 ? { jsonrpc: '2.0', id, error: { code: -32603, message: 'boom' } } : { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `answer ${id}` }] } };
      frames.push({ direction: 'receive', message: answer, bytes: 80, time: t + 2 + (id % 13) });
      id++;
    } else {
      frames.push({ direction: 'receive', message: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: `worker-${n % 8}`, data: `line ${n}` } }, bytes: 100, time: t });
    }
  }
  // Each with its text, as the stdio transport gives it (the line it read, the JSON it sent).
  return frames.slice(0, count).map((f) => {
    const text = JSON.stringify(f.message);
    return { ...f, text, bytes: Buffer.byteLength(text) + 1 };
  });
}

const gc: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The table README shows (median of 5 runs each). */
export function timelineModelTimes(): string[] {
  const frames = benchFrames();
  const limits = () => ({ maxFrames: 100_000, maxPayloadBytes: 16 * 1024 * 1024 });
  const file: number[] = [];
  const fileCpu: number[] = [];
  const snapshot: number[] = [];
  const mask: number[] = [];
  const live: number[] = [];
  const liveCpu: number[] = [];
  // The ring's memory, measured once on its own (two full collections either side).
  gc();
  gc();
  const memoryBefore = process.memoryUsage();
  const measured = new Timeline(limits);
  for (const f of frames) measured.push('s', f);
  gc();
  gc();
  const memoryAfter = process.memoryUsage();
  const heap = memoryAfter.heapUsed - memoryBefore.heapUsed;
  const buffers = memoryAfter.arrayBuffers - memoryBefore.arrayBuffers;
  const items = measured.items('s').length;
  let batchBytes = 0;
  for (let run = 0; run < 5; run++) {
    const timeline = new Timeline(limits);
    let t = performance.now();
    const cpu = process.cpuUsage();
    for (const f of frames) timeline.push('s', f);
    file.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    fileCpu.push((used.user + used.system) / 1000);
    const view = new TimelineView(timeline, () => 'bench');
    t = performance.now();
    const batch = view.snapshot();
    snapshot.push(performance.now() - t);
    batchBytes = packedByteLength(Object.values(batch.columns)) + (batch.strings ?? []).reduce((n, s) => n + s.length, 0);
    t = performance.now();
    view.setFilter({ text: 'tool-7', errors: false });
    mask.push(performance.now() - t);
    view.dispose();

    // The live path: a page open while 100,000 frames arrive, a batch taken every 2,000 frames
    // (ten batches a second at 20,000 frames a second).
    const flood = new Timeline(limits);
    const open = new TimelineView(flood, () => 'bench');
    open.snapshot();
    t = performance.now();
    const floodCpu = process.cpuUsage();
    frames.forEach((f, i) => {
      flood.push('s', f);
      if (i % 2000 === 1999) open.take();
    });
    open.take();
    live.push(performance.now() - t);
    const floodUsed = process.cpuUsage(floodCpu);
    liveCpu.push((floodUsed.user + floodUsed.system) / 1000);
    open.dispose();
  }
  // One frame of 50 MiB: its details (redacted, folded) when clicked.
  const big: Frame = { direction: 'receive', message: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(50 * 1024 * 1024) }] } }, bytes: 50 * 1024 * 1024 + 60, time: 1 };
  const one = new Timeline(() => ({ maxFrames: 1000, maxPayloadBytes: 64 * 1024 * 1024 }));
  one.push('s', { direction: 'send', message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big' } }, bytes: 60, time: 0 });
  one.push('s', big);
  const details: number[] = [];
  for (let run = 0; run < 5; run++) {
    const t = performance.now();
    itemDetails(one, 's', 1, (s) => s.replace(/sk-[\w-]+/g, '••••'));
    details.push(performance.now() - t);
  }
  return [
    '',
    'Timeline model, 100,000 frames of one server (40% calls with answers, progress, 60% log notifications); median of 5:',
    '',
    '| Measure | Figure |',
    '|---|---|',
    `| filing 100,000 frames (pairing, links, lanes, ring): wall / CPU | ${median(file).toFixed(0)} / ${median(fileCpu).toFixed(0)} ms (${((median(fileCpu) / frames.length) * 1000).toFixed(1)} µs of CPU a frame) |`,
    `| memory the ring adds (${items.toLocaleString('en-US')} items with their frames' text): heap / buffers outside it (the ticks' columns and texts) | ${mib(heap)} / ${mib(buffers)} |`,
    `| load average while measuring | ${loadavg()[0].toFixed(1)} (2 cores) |`,
    `| first batch for a page (all items) | ${median(snapshot).toFixed(1)} ms, ${mib(batchBytes)} |`,
    `| a filter's mask over every item | ${median(mask).toFixed(1)} ms |`,
    `| 100,000 frames with a page open (a batch every 2,000 frames): wall / CPU | ${median(live).toFixed(0)} / ${median(liveCpu).toFixed(0)} ms |`,
    `| details of a 50 MiB answer (redacted, folded) | ${median(details).toFixed(1)} ms |`,
  ];
}
