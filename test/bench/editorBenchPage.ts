// The editor benchmark's page helpers (test/bench/editorBench.ts): when a row is drawn, the input clock, the timeline and tool panels.
import type { Frame, Page } from 'playwright-core';
import { poll, waitUntil, type Workbench } from '../e2e/harness';
import { timelinePerformance } from './timelinePerformance';

// Page helpers

/**
 * Resolves with the page's clock when a tree row matching `label` (and `description`, a pattern
 * source) is in the DOM; watched with a MutationObserver so the moment is not a poll late.
 */
export function rowDrawn(page: Page, label: string, description?: string): Promise<number> {
  return page.evaluate(
    ({ label, description }) =>
      new Promise<number>((resolve) => {
        const re = description ? new RegExp(description) : undefined;
        const found = () =>
          Array.from(document.querySelectorAll('.part.sidebar .monaco-list-row')).some(
            (row) => row.querySelector('.label-name')?.textContent?.trim() === label && (!re || re.test(row.querySelector('.label-description')?.textContent ?? '')),
          );
        if (found()) return resolve(Date.now());
        const observer = new MutationObserver(() => {
          if (!found()) return;
          observer.disconnect();
          resolve(Date.now());
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    { label, description },
  );
}

/** The page's clock at the next mouse-down or key-down in `target` (the moment a person acts). */
export async function armInputClock(target: Page | Frame): Promise<void> {
  await target.evaluate(() => {
    const w = window as unknown as { inputAt?: number };
    w.inputAt = undefined;
    const mark = () => (w.inputAt ??= Date.now());
    document.addEventListener('mousedown', mark, { capture: true, once: true });
    document.addEventListener('keydown', mark, { capture: true, once: true });
  });
}

export async function inputClock(target: Page | Frame): Promise<number> {
  return waitUntil(() => target.evaluate(() => (window as unknown as { inputAt?: number }).inputAt), 10_000, 'the input to be seen');
}

/** `promise`, or an error naming `what` after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** `2026-11-23 09:07:37.466 [info] <text>`: the epoch ms of the first line of a log that contains `text`. */
export function lineTime(log: string, text: string): number | undefined {
  const line = log.split('\n').find((l) => l.includes(text));
  const m = line && /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) /.exec(line);
  return m ? new Date(`${m[1]}T${m[2]}`).getTime() : undefined;
}

/** The name scale.mjs gives its last generated tool (`<verb>_<subject>_<n>`). */
export function lastGeneratedTool(tools: number): string {
  const verbs = ['list', 'get', 'create', 'update', 'delete', 'archive', 'restore', 'export', 'import', 'search'];
  const subjects = ['invoice', 'customer', 'ticket', 'deployment', 'repository', 'metric', 'alert', 'backup', 'container', 'webhook'];
  const i = tools - 1;
  return `${verbs[i % verbs.length]}_${subjects[Math.floor(i / verbs.length) % subjects.length]}_${String(i).padStart(4, '0')}`;
}

/** "MCP Host: Call Tool…", the tool typed into the pick, Enter: the tool's panel. */
/** The timeline's page (its own document inside the webview, with its list of drawn items). */
export function timelinePage(wb: Workbench): Promise<Frame> {
  return waitUntil(
    async () => {
      for (const frame of wb.page.frames()) {
        if (await frame.evaluate(() => document.title.startsWith('Timeline') && document.getElementById('drawn-items') !== null).catch(() => false)) return frame;
      }
      return undefined;
    },
    30_000,
    'the timeline page',
  );
}

export function timelineStats(frame: Frame): Promise<{ items: number; draws: number[] }> {
  return frame.evaluate(timelinePerformance);
}

export async function openToolPanel(wb: Workbench, tool: string): Promise<Frame> {
  await wb.runCommand('View: Close All Editors');
  await wb.runCommand('MCP Host: Call Tool…');
  const input = wb.page.locator('.quick-input-widget .quick-input-box input');
  await poll(async () => !((await input.inputValue()) || '').startsWith('>') && (await input.isEditable()), { timeoutMs: 20_000, what: 'the tool pick' });
  await input.fill(tool);
  const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
  await poll(async () => ((await first.innerText().catch(() => '')) || '').trim() === tool, { timeoutMs: 20_000, what: `${tool} first in the pick` });
  await wb.page.keyboard.press('Enter');
  const frame = await waitUntil(async () => (await wb.webviewFrames(tool))[0], 30_000, `the ${tool} panel`);
  await frame.locator('#run').waitFor({ state: 'visible', timeout: 20_000 });
  return frame;
}
