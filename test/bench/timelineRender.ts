// The timeline page at 100,000 frames in a real VS Code (code-server + Chromium, as the e2e tests
// run it): a recording of 100,000 frames opens with "Open Recording in Timeline…", then the
// benchmark zooms with the wheel and pans by dragging, as a person does, and reads what the page
// measured of itself (the time of each draw) and how often the browser drew a frame meanwhile.
// Not a test: it prints a table for README.
//
//   node scripts/package.mjs && npx tsc -p . && node out/test/bench/timelineRender.js
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame as PageFrame } from 'playwright-core';
import { RecordingWriter } from '../../src/usecases/recording';
import { answerFileDialog } from '../e2e/fileDialog';
import { defaultVsixPath, launch, waitUntil } from '../e2e/harness';
import { benchFrames } from './timelineBench';
import { timelinePerformance } from './timelinePerformance';

const FRAMES = Number(process.env.TIMELINE_BENCH_FRAMES ?? 100_000);

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

async function main(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-timeline-bench-'));
  const file = join(workspace, 'busy.jsonl');
  const lines: string[] = [];
  const frames = benchFrames(FRAMES, Date.now() - 120_000);
  const writer = new RecordingWriter((line) => lines.push(line), (text) => text, { server: 'node busy-server.js' }, frames[0].time);
  for (const f of frames) writer.frame(f);
  writeFileSync(file, lines.join('\n') + '\n');
  const wb = await launch({ workspace, vsix: defaultVsixPath, timeoutMs: 150_000, viewport: { width: 1500, height: 950 }, settings: { 'chat.mcp.access': 'none', 'chat.mcp.autostart': 'never' } });
  try {
    await wb.runCommand('MCP Host: Open Recording in Timeline…');
    const opened = await answerFileDialog(wb, file);
    const page = await waitUntil(
      async () => {
        for (const frame of wb.page.frames()) {
          const ready = await frame.evaluate(() => document.title.startsWith('Timeline — busy.jsonl') && document.getElementById('drawn-items') !== null).catch(() => false);
          if (ready) return frame;
        }
        return undefined;
      },
      180_000,
      'the timeline page',
    );
    const stats = (frame: PageFrame) => frame.evaluate(timelinePerformance);
    await waitUntil(async () => (await stats(page)).firstPaintMs > 0, 120_000, 'the first paint');
    const firstPaint = Date.now() - opened;
    const loaded = await stats(page);
    // Where the time went, on the page's clock turned into epoch ms: the page's creation (the
    // recording read and filed in the extension host first), the first batch's arrival (page load,
    // the batch encoded and carried), then the batch applied and drawn.
    const origin = await page.evaluate(() => performance.timeOrigin);
    const phases = { created: origin - opened, batch: origin + loaded.firstBatchAt - opened, painted: origin + loaded.firstPaintMs - opened };
    const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);

    // Everything in view (zoomed out): the costliest draw.
    const canvas = page.locator('#timeline-canvas');
    const box = (await canvas.boundingBox())!;
    const cx = box.x + box.width * 0.6;
    const cy = box.y + box.height * 0.4;
    const drawsBefore = (await stats(page)).draws.length;
    // Frame intervals as the browser paints them while the user works.
    await page.evaluate(() => {
      const w = window as unknown as { frameTimes: number[]; recording: boolean };
      w.frameTimes = [];
      w.recording = true;
      let last = performance.now();
      const tick = (t: number) => {
        w.frameTimes.push(t - last);
        last = t;
        if (w.recording) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await wb.page.mouse.move(cx, cy);
    for (let i = 0; i < 25; i++) {
      await wb.page.mouse.wheel(0, -120);
      await wb.page.waitForTimeout(16);
    }
    for (let i = 0; i < 3; i++) {
      await wb.page.mouse.move(cx, cy);
      await wb.page.mouse.down();
      for (let k = 1; k <= 30; k++) {
        await wb.page.mouse.move(cx - k * 12, cy + (k % 2));
        await wb.page.waitForTimeout(16);
      }
      await wb.page.mouse.up();
    }
    for (let i = 0; i < 25; i++) {
      await wb.page.mouse.wheel(0, 120);
      await wb.page.waitForTimeout(16);
    }
    const intervals = await page.evaluate(() => {
      const w = window as unknown as { frameTimes: number[]; recording: boolean };
      w.recording = false;
      return w.frameTimes.slice(1);
    });
    const draws = (await stats(page)).draws.slice(drawsBefore);
    const zoomedOut = draws.slice(-10);
    const out = [
      '',
      `Timeline page, a recording of ${FRAMES.toLocaleString('en-US')} frames (${loaded.items.toLocaleString('en-US')} items) in code-server + Chromium:`,
      '',
      '| Measure | Figure |',
      '|---|---|',
      `| "Open Recording in Timeline…" → first paint with every item | ${(firstPaint / 1000).toFixed(2)} s (page created at ${(phases.created / 1000).toFixed(1)} s, first batch in at ${(phases.batch / 1000).toFixed(1)} s, applied in ${loaded.batchMs.toFixed(0)} ms, drawn at ${(phases.painted / 1000).toFixed(1)} s) |`,
      `| load average | ${loadavg()[0].toFixed(1)} (2 cores) |`,
      `| draw, while zooming (wheel) and panning (drag): median / p95 / max | ${percentile(draws, 50).toFixed(1)} / ${percentile(draws, 95).toFixed(1)} / ${Math.max(...draws).toFixed(1)} ms (${draws.length} draws) |`,
      `| draw with all ${FRAMES.toLocaleString('en-US')} frames in view | ${percentile(zoomedOut, 50).toFixed(1)} ms |`,
      `| browser frame interval meanwhile: median / p95 | ${percentile(intervals, 50).toFixed(1)} / ${percentile(intervals, 95).toFixed(1)} ms (${intervals.length} frames) |`,
      `| JS heap of the webview's renderer (VS Code's webview host included) | ${(heap / 1024 / 1024).toFixed(1)} MiB |`,
    ];
    process.stdout.write(out.join('\n') + '\n');
  } catch (error) {
    await wb.screenshot('timeline-bench-failed').catch(() => undefined);
    throw error;
  } finally {
    await wb.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
