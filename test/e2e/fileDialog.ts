// The workbench's simple file dialog (code-server has no native one), as a person answers it:
// type the path, accept. Used by the timeline suite and the timeline page benchmark.
import type { Workbench } from './harness';
import { reportRetry } from './retries';
import { waitUntil } from './harness';

/** Types `path` into the open file dialog and accepts it; resolves with the time of the Enter that did. */
export async function answerFileDialog(wb: Workbench, path: string): Promise<number> {
  const input = wb.page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await waitUntil(async () => (await input.isEditable()) && !(await input.inputValue()).startsWith('>'), 10_000, 'the file dialog');
  // The dialog fills in its own starting path once it has read the folder, possibly after our
  // typing, and completes paths as one types: type again until it holds exactly ours. An Enter
  // that only took a completion leaves the dialog open with our path: press it again.
  await waitUntil(
    async () => {
      if ((await input.inputValue()) === path) return true;
      await input.fill(path);
      await new Promise((r) => setTimeout(r, 300));
      return (await input.inputValue()) === path;
    },
    15_000,
    'the typed path',
  );
  for (let attempt = 1; ; attempt++) {
    const pressed = Date.now();
    await wb.page.keyboard.press('Enter');
    const closed = await input.waitFor({ state: 'hidden', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (closed) return pressed;
    if (attempt >= 3) throw new Error(`the file dialog stayed open with ${await input.inputValue()}`);
    reportRetry('file dialog: Enter pressed again', `the dialog stayed open with ${await input.inputValue()}`);
    if ((await input.inputValue()) !== path) await input.fill(path);
  }
}
