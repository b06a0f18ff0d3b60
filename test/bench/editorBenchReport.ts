// The editor benchmark's reporting (test/bench/editorBench.ts): figures and their goals, formats, the page's profile.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { procStatFields, repoRoot, type Workbench } from '../e2e/harness';
import { MiB } from './editorBenchOptions';

// Reporting

export interface Figure {
  readonly scenario: string;
  readonly what: string;
  readonly value: string;
  readonly goal?: string;
  readonly holds?: boolean;
}
export const figures: Figure[] = [];
export const raw: Record<string, unknown> = {};

export function figure(scenario: string, what: string, value: string, goal?: { text: string; holds: boolean }): void {
  figures.push({ scenario, what, value, ...(goal ? { goal: goal.text, holds: goal.holds } : {}) });
  console.log(`  ${what}: ${value}${goal ? `  (goal ${goal.text}: ${goal.holds ? '✓' : '✗'})` : ''}`);
}

/** Chromium's threads (those of the launch's processes named chromium) and how many run at nice < 0. */
export function raisedThreads(wb: Workbench): { raised: number; all: number } {
  let raised = 0;
  let all = 0;
  for (const { pid, cmdline } of wb.leftoverProcesses()) {
    if (!/chrom/i.test(cmdline.split(' ')[0] ?? '')) continue;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone
    }
    for (const tid of tasks) {
      try {
        const nice = Number(procStatFields(`/proc/${pid}/task/${tid}/stat`)[16]);
        all++;
        if (nice < 0) raised++;
      } catch {
        // the thread ended
      }
    }
  }
  return { raised, all };
}

export const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
export const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;

/**
 * `--profile-page`: the workbench page's renderer (the workbench and its webviews) while a scenario
 * runs: a CPU profile and a Chromium trace in test-results/, and the page's own counters printed.
 */
export class PageProfile {
  private constructor(
    private readonly page: Page,
    private readonly session: CDPSession,
    private readonly before: Map<string, number>,
  ) {}

  static async start(page: Page, scenario: string): Promise<PageProfile> {
    const trace = join(repoRoot, 'test-results', `bench-editor-${scenario}-page.trace.json`);
    await page.context().browser()?.startTracing(page, { path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] });
    const session = await page.context().newCDPSession(page);
    await session.send('Profiler.enable');
    await session.send('Performance.enable');
    const { metrics } = await session.send('Performance.getMetrics');
    await session.send('Profiler.start');
    return new PageProfile(page, session, new Map(metrics.map((m) => [m.name, m.value])));
  }

  async stop(scenario: string): Promise<void> {
    const { profile } = await this.session.send('Profiler.stop');
    writeFileSync(join(repoRoot, 'test-results', `bench-editor-${scenario}-page.cpuprofile`), JSON.stringify(profile));
    const { metrics } = await this.session.send('Performance.getMetrics');
    const counted = metrics.filter((m) => /Count$|Duration$/.test(m.name));
    const delta = (m: { name: string; value: number }) => m.value - (this.before.get(m.name) ?? 0);
    console.log(`  the page's counters during the ${scenario}: ${counted.map((m) => (/Duration$/.test(m.name) ? `${m.name} ${ms(delta(m) * 1000)}` : `${m.name} ${delta(m)}`)).join(', ')}`);
    await this.session.detach();
    await this.page.context().browser()?.stopTracing();
  }
}
