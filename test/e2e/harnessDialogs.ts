// Dialogs, notifications and webview frames of a launch (harness.ts's `Launched`): functions with the launch as `this`, set on
// the class as its methods, so a suite calls `wb.answerDialog(…)` as before.
import type { Launched } from './harness';
import type { Frame } from 'playwright-core';
import { escapeRegExp } from './harnessWaits';


export async function dialog(this: Launched, options: { timeoutMs?: number } = {}): Promise<{ message: string; detail: string; buttons: string[] } | undefined> {
  const box = this.page.locator('.monaco-dialog-box').first();
  // No wait: whether one is on screen now (a waitFor with a 1 ms bound would miss it).
  const shown = options.timeoutMs
    ? await box
        .waitFor({ state: 'visible', timeout: options.timeoutMs })
        .then(() => true)
        .catch(() => false)
    : await box.isVisible().catch(() => false);
  if (!shown) return undefined;
  return {
    message: (await box.locator('.dialog-message-text').innerText()).trim(),
    detail: (await box.locator('.dialog-message-detail').innerText().catch(() => '')).trim(),
    buttons: (await box.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((t) => t.trim()),
  };
}

export async function answerDialog(this: Launched, button: string): Promise<void> {
  const box = this.page.locator('.monaco-dialog-box').first();
  // Wait for this very dialog to go: the next one (say, a second consent) may open at once,
  // so "no dialog on screen" might never be true.
  const answered = await box.elementHandle({ timeout: 10_000 });
  await box.locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^\\s*${escapeRegExp(button)}\\s*$`) }).click({ timeout: 10_000 });
  await answered.waitForElementState('hidden', { timeout: 10_000 });
  await answered.dispose();
}

export async function answerNotification(this: Launched, message: string, button: string): Promise<void> {
  const toast = this.page.locator('.notifications-toasts .notification-toast').filter({
    has: this.page.locator('.notification-list-item-message', { hasText: message }),
  });
  await toast
    .first()
    .locator('.notification-list-item-buttons-container .monaco-button', { hasText: new RegExp(`^\\s*${escapeRegExp(button)}\\s*$`) })
    .click({ timeout: 10_000 });
}

export async function webviewFrames(this: Launched, title: string): Promise<Frame[]> {
  const found: Frame[] = [];
  for (const frame of this.page.frames()) {
    const text = await frame
      .evaluate(() => {
        const h = document.querySelector('#app header h1');
        return h ? h.textContent : null;
      })
      .catch(() => null);
    if (text && text.includes(title)) found.push(frame);
  }
  return found;
}

export async function notifications(this: Launched): Promise<string[]> {
  const messages = this.page.locator('.notifications-toasts .notification-toast .notification-list-item-message');
  return (await messages.allInnerTexts()).map((t) => t.trim());
}
