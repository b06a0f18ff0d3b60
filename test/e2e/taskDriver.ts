// Driving tool calls that run as tasks in code-server, for the suites of both eras (tasks.test.ts,
// modernTasks.test.ts): a fresh tool panel from "Call Tool…", its task status area and result, the
// task rows under the server's Tasks group, and the inline Cancel Task of a row.
import type { Frame } from 'playwright-core';
import { clickReached, type Workbench, waitUntil as poll } from './harness';
import { retrying } from './retries';
import { childrenOf, waitForTree } from './treeRows';

/** A task row as drawn. */
export interface TaskRow {
  readonly label: string;
  readonly description: string;
}

/** The task driver of `wb()` (read when used: the suite launches it in before()). */
export function taskDriver(wb: () => Workbench) {
  /** Runs a command from the palette with the focus on the side bar first (a webview may hold it). */
  async function command(title: string): Promise<void> {
    await wb().page.locator('.part.sidebar .composite.title').first().click({ timeout: 5_000 }).catch(() => undefined);
    await wb().runCommand(title);
  }

  async function webview(title: string, timeoutMs = 20_000): Promise<Frame> {
    return poll(async () => (await wb().webviewFrames(title))[0], timeoutMs, `the webview of ${title}`);
  }

  /** Closes every editor, then opens a fresh panel of `tool` from "MCP Host: Call Tool…". */
  async function openToolPanel(tool: string): Promise<Frame> {
    const page = wb().page;
    await command('View: Close All Editors');
    await poll(async () => (await page.locator('.tabs-container .tab').count()) === 0, 10_000, 'the editors to close');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    const first = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await retrying(`openToolPanel ${tool}: Call Tool… run again`, 3, async () => {
      await command('MCP Host: Call Tool…');
      await poll(async () => (await input.isVisible()) && ((await input.getAttribute('placeholder')) ?? '').startsWith('Which tool'), 10_000, 'the tool pick');
      await input.fill(tool, { timeout: 5_000 });
      await poll(async () => ((await first.innerText().catch(() => '')) || '').trim() === tool, 10_000, `"${tool}" first in the quick pick`);
      await page.keyboard.press('Enter');
    }, { beforeRetry: () => page.keyboard.press('Escape') });
    return webview(tool);
  }

  /** Presses Run once the panel allows it. */
  async function run(panel: Frame): Promise<void> {
    await poll(async () => !(await panel.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
    await clickReached(panel.locator('#run'), 'Run');
  }

  /** The panel's task status area, once its badge matches `status`. */
  async function taskStatus(panel: Frame, status: RegExp, timeoutMs = 20_000): Promise<{ badge: string; id: string; message: string }> {
    return poll(
      async () => {
        const badge = ((await panel.locator('#progress .task-status .task-badge').innerText().catch(() => '')) || '').trim();
        if (!status.test(badge)) return undefined;
        const id = ((await panel.locator('#progress .task-status .task-id').getAttribute('title').catch(() => '')) || '').trim();
        const message = await taskMessage(panel);
        return { badge, id, message };
      },
      timeoutMs,
      `the panel's task status ${status}`,
    );
  }

  /** The status message in the panel's task status area now ('' when none). */
  async function taskMessage(panel: Frame): Promise<string> {
    return ((await panel.locator('#progress .task-status .task-message').innerText().catch(() => '')) || '').trim();
  }

  /** The panel's result once its text matches `pattern`. */
  async function resultText(panel: Frame, pattern: RegExp, timeoutMs = 40_000): Promise<string> {
    let text = '';
    await poll(
      async () => {
        text = ((await panel.locator('.result').innerText().catch(() => '')) || '').trim();
        return pattern.test(text);
      },
      timeoutMs,
      `a result matching ${pattern}`,
    );
    return text;
  }

  /** Waits until the panel's result says the call was cancelled. */
  async function cancelledInPanel(panel: Frame, timeoutMs = 20_000): Promise<void> {
    await poll(async () => /Cancelled/.test(await panel.locator('.result .status').innerText().catch(() => '')), timeoutMs, 'the panel to show the task cancelled');
  }

  /** The task rows under the server's Tasks group, once `check` holds for them. */
  async function taskRows(check: (rows: TaskRow[]) => boolean, what: string, timeoutMs = 60_000): Promise<TaskRow[]> {
    const items = await waitForTree(wb(), what, (all) => check(childrenOf(all, 'Tasks')), timeoutMs);
    return childrenOf(items, 'Tasks');
  }

  /** The rows labelled `tool` as drawn now (a direct read, fast enough to catch a state that lasts a second). */
  async function taskRowsNow(tool: string): Promise<TaskRow[]> {
    return wb()
      .page.locator('.part.sidebar .monaco-list[role="tree"] .monaco-list-row')
      .evaluateAll((rows) =>
        rows.map((row) => ({ label: row.querySelector('.label-name')?.textContent?.trim() ?? '', description: row.querySelector('.label-description')?.textContent?.trim() ?? '' })),
      )
      .then((rows) => rows.filter((r) => r.label === tool));
  }

  /**
   * Presses the inline Cancel Task of the row of `tool` whose description matches `description`,
   * once, and asserts that this one click sent tasks/cancel (`cancelSent()`): while the task runs
   * only its row is redrawn, in place, so the button under the pointer stays where it is.
   */
  async function cancelOnRow(tool: string, description: RegExp, cancelSent: () => Promise<boolean>): Promise<void> {
    const page = wb().page;
    const row = page
      .locator('.part.sidebar .monaco-list[role="tree"] .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${tool}$`) }) })
      .filter({ has: page.locator('.label-description', { hasText: description }) })
      .first();
    // A focused row shows its inline actions without a hover; the click itself opens the task's panel, already open.
    await row.locator('.label-name').click({ timeout: 10_000 });
    await row.hover({ timeout: 5_000 });
    await row.locator('.actions .action-label[aria-label^="Cancel Task"]').click({ timeout: 10_000 });
    await poll(cancelSent, 10_000, `tasks/cancel after one click on Cancel Task of the row of ${tool}`);
  }

  return { command, webview, openToolPanel, run, taskStatus, taskMessage, resultText, cancelledInPanel, taskRows, taskRowsNow, cancelOnRow };
}
