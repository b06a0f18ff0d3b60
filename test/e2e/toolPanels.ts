// Opening a tool's panel as a user does from the palette, in a window running more than one
// server (toolPanelGuards.test.ts). taskDriver.ts has its own for a one-server window, which
// closes the editors first and retries.
import type { Frame } from 'playwright-core';
import { waitUntil as poll, type Workbench } from './harness';
import { retrying } from './retries';

/** "MCP Host: Call Tool…": the server picked ("Which MCP server?"), then the tool, Enter: the tool's panel. */
export async function openToolPanel(wb: Workbench, server: string, tool: string): Promise<Frame> {
  const input = wb.page.locator('.quick-input-widget .quick-input-box input');
  const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
  /** Waits for the pick that asks `question`, types `label`, and takes it once it is the first row. */
  const choose = async (question: string, label: string) => {
    await poll(async () => ((await input.getAttribute('placeholder')) ?? '') === question && (await input.isEditable()), 10_000, `the pick "${question}"`);
    await input.fill(label, { timeout: 5_000 });
    await poll(async () => ((await first.innerText().catch(() => '')) || '').trim() === label, 10_000, `${label} first`);
    await wb.page.keyboard.press('Enter');
  };
  // A panel that drew its result a moment ago can take the focus back from the pick, which then
  // closes under the typing (seen in CI as "element is inert" on the server pick). A person would
  // open the pick again: so does this, counted as a retry, and only while the pick is gone.
  const pickClosed = async () => !(await input.isVisible().catch(() => false)) || !(await input.isEditable().catch(() => false));
  await retrying(
    `openToolPanel ${server} › ${tool}: Call Tool… run again`,
    3,
    async () => {
      await wb.page.locator('.part.sidebar .composite.title').first().click();
      await wb.runCommand('MCP Host: Call Tool…');
      await choose('Which MCP server?', server);
      await choose(`Which tool of ${server}?`, tool);
    },
    { retryable: pickClosed, beforeRetry: () => wb.page.keyboard.press('Escape') },
  );
  return poll(
    async () => {
      for (const f of wb.page.frames()) {
        const t = await f.evaluate(() => document.querySelector('#app header h1')?.textContent ?? null).catch(() => null);
        if (t && t.includes(tool)) return f;
      }
      return undefined;
    },
    20_000,
    `the ${tool} panel`,
  );
}
