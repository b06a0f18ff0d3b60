// Driving @mcp in code-server's chat, for the suites that talk to it (chat.test.ts,
// chatApps.test.ts): the scripted tool-calling model (fixtures/lm-tool-provider, never shipped) is
// installed at launch (`toolModelVsix()`), and this waits for it to register, asks `@mcp …` in a new chat once the model picker shows that model, reads
// the shown chat's responses and presses their buttons.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureExtension } from './fixtureExtensions';
import { poll as pollFor, screenshotDir, type Workbench, waitUntil } from './harness';
import { publishReadmeShot } from './readmeShots';
import { reportRetry } from './retries';

/** The scripted model's VSIX, for `launch({ extensions })`. */
export const toolModelVsix = (): string => fixtureExtension('lm-tool-provider');
/** The scripted model's output channel (it logs what each request offered and the user's text). */
export const MODEL_CHANNEL = 'Test Tool Model';
const MODEL_NAME = 'MCP Host Scripted Tool Model';
const poll = waitUntil;

/** The chat of `wb()` (read when used: the suite launches it in before()). */
export function chatDriver(wb: () => Workbench) {
  /** Waits for the scripted model, installed at launch (`launch({ extensions: [toolModelVsix()] })`), to register. */
  async function waitForToolModel(): Promise<void> {
    await poll(async () => (await wb().outputChannelText(MODEL_CHANNEL, { contains: 'registered the scripted tool model', timeoutMs: 10_000, reveal: false }).catch(() => undefined)) !== undefined, 90_000, 'the scripted model to register');
  }

  /** The responses of the chat shown (VS Code keeps an earlier chat's rows in the page, hidden). */
  const responses = () => wb().page.locator('.interactive-response:visible');

  /** The chat view alone (for README's figures): test-results/screenshots/<name>.png. */
  async function chatShot(name: string): Promise<void> {
    mkdirSync(screenshotDir, { recursive: true });
    const path = join(screenshotDir, `${name}.png`);
    await wb().page.locator('.part.auxiliarybar').screenshot({ path });
    await publishReadmeShot(wb().page, name, path);
  }

  let widened = false;
  /** Once: drags the chat's edge left, so the screenshots show the approval's JSON and diff whole (best effort). */
  async function widenChat(): Promise<void> {
    if (widened) return;
    widened = true;
    const bar = await wb().page.locator('.part.auxiliarybar').boundingBox();
    if (!bar) return;
    // The vertical sash on the chat's left edge.
    const sash = await wb().page.locator('.monaco-sash.vertical').evaluateAll(
      (els, left) =>
        els
          .map((e) => e.getBoundingClientRect())
          .filter((r) => r.height > 200 && Math.abs(r.left + r.width / 2 - left) < 6)
          .map((r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 }))[0],
      bar.x,
    );
    if (!sash) return;
    await wb().page.mouse.move(sash.x, sash.y);
    await wb().page.mouse.down();
    await wb().page.mouse.move(sash.x - 130, sash.y, { steps: 4 });
    await wb().page.mouse.move(sash.x - 260, sash.y, { steps: 4 });
    await wb().page.mouse.up();
  }

  /** Sends `@mcp <text>` from the chat input, once the model picker shows the scripted model: in a new chat, unless `sameChat`. */
  async function ask(text: string, options: { sameChat?: boolean } = {}): Promise<void> {
    await wb().runCommand('Chat: Open Chat');
    const input = wb().page.locator('.interactive-input-editor').last();
    await input.waitFor({ timeout: 20_000 });
    await widenChat();
    // Each question in a conversation of its own (New Chat is Ctrl+L in the chat; the palette
    // does not offer it there): an approval left open by a failed step cannot hold the next.
    for (let attempt = 1; !options.sameChat && (await responses().count()) > 0; attempt++) {
      await input.click({ force: true });
      await wb().page.keyboard.press('Control+L');
      const emptied = await poll(async () => (await responses().count()) === 0, 15_000, 'a new, empty chat').catch((error: unknown) => {
        if (attempt >= 3) throw error;
        reportRetry('chat: New Chat (Ctrl+L) pressed again', error);
      });
      if (emptied) break;
    }
    // Without Copilot the picker selects a model only once VS Code has listed the providers'
    // models (MCP Host asks for them after activation: src/extension/chat/chatModelList.ts).
    const toolbar = wb().page.locator('.interactive-input-part .chat-input-toolbars').last();
    await poll(async () => (await toolbar.innerText().catch(() => '')).includes(MODEL_NAME), 60_000, `the model picker to show ${MODEL_NAME}`);
    // A new chat keeps the participant in the input: start from an empty one.
    await input.click({ force: true });
    await wb().page.keyboard.press('Control+A');
    await wb().page.keyboard.press('Delete');
    await wb().page.keyboard.type('@mcp');
    await wb().page.locator('.suggest-widget .monaco-list-row').filter({ hasText: 'mcp' }).first().waitFor({ timeout: 10_000 });
    await wb().page.keyboard.press('Tab');
    await wb().page.keyboard.type(` ${text}`);
    let typed = '';
    await pollFor(
      async () => (typed = (await input.locator('.view-lines').innerText().catch(() => '')).replace(/\s+/g, ' ').trim()) === `@mcp ${text}`,
      { timeoutMs: 10_000, what: `the input to read "@mcp ${text}"`, detail: () => `it reads ${JSON.stringify(typed)}` },
    );
    // A slash command leaves its suggestion open, where Enter would pick it instead of sending; the
    // suggestion can also open a moment after the check (seen in CI: "@mcp /tools" left unsent). So
    // Enter is pressed again, counted, while the input still holds the question.
    const stillTyped = async () => (await input.locator('.view-lines').innerText().catch(() => '')).replace(/\s+/g, ' ').trim() === `@mcp ${text}`;
    for (let attempt = 1; ; attempt++) {
      if ((await wb().page.locator('.suggest-widget.visible').count()) > 0) await wb().page.keyboard.press('Escape');
      await wb().page.keyboard.press('Enter');
      const sent = await poll(async () => !(await stillTyped()), 5_000, 'the question to be sent').then(() => true, () => false);
      if (sent) return;
      if (attempt >= 3) throw new Error(`the chat input still reads "@mcp ${text}" after Enter (3 tries)`);
      reportRetry(`chat: Enter pressed again for "@mcp ${text}"`, 'the input still held the question 5 s after Enter (a suggestion took it)');
    }
  }

  /** The text of the last chat response, once it matches `pattern`. */
  async function response(pattern: RegExp, timeoutMs = 60_000): Promise<string> {
    let text = '';
    await pollFor(
      async () => {
        // Code blocks are Monaco editors, which render spaces as no-break spaces.
        text = (await responses().last().innerText().catch(() => '')).replace(/\u00a0/g, ' ');
        return pattern.test(text);
      },
      { timeoutMs, what: `a chat response matching ${pattern}`, detail: () => `the last response reads ${JSON.stringify(text.slice(-400))}` },
    );
    return text;
  }

  async function clickButton(title: string): Promise<void> {
    const button = responses().last().getByRole('button', { name: title }).last();
    await button.waitFor({ timeout: 30_000 });
    await button.click();
  }

  return { waitForToolModel, responses, chatShot, ask, response, clickButton };
}
