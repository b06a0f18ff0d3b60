// What the extension's end-to-end suites (extension.test.ts, configFile.test.ts) share: the VSIX, the
// workspaces, and checks that go through what is on screen or in the files VS Code writes.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultVsixPath, poll, repoRoot, step as runStep, type Workbench } from './harness';

export const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
export const WORKSPACES = join(repoRoot, 'test', 'e2e', 'workspaces');
export const TINY = join(WORKSPACES, 'servers', 'tiny.mjs');
/** Wide enough for a side bar that shows problem and error rows whole, beside the Output panel. */
export const VIEWPORT = { width: 1600, height: 1000 };
/** What the logs show instead of a secret (src/protocol/redaction.ts). */
export const REDACTED = '••••';

// ---------------------------------------------------------------------------------------------
// Helpers: everything here goes through what is on screen or in the files VS Code writes.

/** Polls `probe` until it returns something truthy; the last value goes into the error. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  let value: T | undefined | false;
  let last = '';
  await poll(
    async () => {
      try {
        value = await probe();
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
        value = undefined;
      }
      return Boolean(value);
    },
    { timeoutMs, what, detail: () => last },
  );
  return value as T;
}

/** Drags the sash so the side bar is `width` px wide: long labels (problems, errors) read whole in screenshots. */
export async function widenSideBar(wb: Workbench, width = 820): Promise<void> {
  const page = wb.page;
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width - 10) return;
  const y = box.y + box.height / 3;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
  await poll(async () => ((await page.locator('.part.sidebar').boundingBox())?.width ?? 0) >= width - 20, { timeoutMs: 5_000, what: 'the side bar to widen' });
}

/** The MCP Host entry of the status bar ("MCP 2 running, 1 error"). */
export async function statusBarText(wb: Workbench): Promise<string> {
  const item = wb.page.locator('.part.statusbar .statusbar-item', { hasText: /MCP \d+ running/ }).first();
  return (await item.innerText().catch(() => '')).trim();
}

/** "Developer: Set Log Level..." → the channel → Trace, as a person would. */
/** 1-based line and column of the first `needle` in `text`: the independent oracle for problem positions. */
export function lineColumnOf(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `${needle} is in the fixture`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** Every file under `dir` whose text contains `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && readFileSync(p, 'utf8').includes(needle)) found.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

/** Notes the MCP server processes of a launch, so the check after close() does not rely on the harness alone. */
export function noteServers(wb: Workbench, seen: Map<number, string>, pattern: RegExp): void {
  for (const p of wb.leftoverProcesses()) if (pattern.test(p.cmdline)) seen.set(p.pid, p.cmdline);
}

/** Whether a process with this pid and command line still runs (pids get reused). */
export function stillRunning(pid: number, cmdline: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() === cmdline;
  } catch {
    return false;
  }
}

/** close(), then no process of the launch and none of the servers seen during it may be left. */
export async function closeAndCheck(wb: Workbench, servers: Map<number, string>, expectAtLeast: number): Promise<void> {
  assert.ok(servers.size >= expectAtLeast, `saw ${servers.size} server process(es) while the launch ran: ${[...servers.values()].join('; ')}`);
  await wb.close(); // throws when something of the launch survives
  assert.deepEqual(wb.leftoverProcesses(), [], 'no process of the launch outlives close()');
  const left = [...servers].filter(([pid, cmdline]) => stillRunning(pid, cmdline));
  assert.deepEqual(left, [], 'every MCP server process seen during the launch is gone');
}

/** Runs a step; on failure saves a screenshot named after it. */
export function step<T>(wb: Workbench, name: string, fn: () => Promise<T>): Promise<T> {
  return runStep(wb, `e2e-failed-${name}`, fn);
}
