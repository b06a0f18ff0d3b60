// End-to-end: MCP Host with the keyboard alone, in a real VS Code (code-server), as issue 39 asks.
// After the launch the test only presses keys (and types text); it reads the screen and the DOM
// to check where the focus is. Each step asserts where the focus landed and that it is seen: the
// focus indicator is measured on screen (focusRing.ts: the same pixels focused and not, 3:1 or
// more over a ring the size of the control), not read from CSS. What a screen reader would hear
// of an outcome is read from the page's polite live region (#announcer).
//   1. The consent dialog answered with the keyboard; "View: Show MCP Host" from the palette puts
//      the focus on the tree's first row.
//   2. The arrow keys reach `echo` in the tree, Enter opens its panel; the field filled, Tab to
//      Run, Enter: the outcome announced, the focus on the result's heading.
//   3. `trigger-long-running-operation` run and cancelled: the focus on Cancel while it runs,
//      "Cancelled" announced, the focus on the result.
//   4. `trigger-elicitation-request`: the form submitted empty takes the focus to the first field to
//      fix; answered, it closes and the focus is back in the tool's panel.
// Screenshots: test-results/screenshots/keyboard-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { defaultVsixPath, launch, repoRoot, step as runStep, type Workbench, waitUntil } from './harness';
import { measureFocusRing } from './focusRing';
import { retrying } from './retries';

const WORKSPACE = join(repoRoot, 'test', 'e2e', 'workspaces', 'basic');
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const poll = waitUntil;
/** WCAG 2.2 non-text contrast, and what issue 39 asks of every focus indicator. */
const RING = 3;

describe('MCP Host with the keyboard alone (code-server)', () => {
  let wb: Workbench;

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `keyboard-failed-${name}`, async () => {
      try {
        await fn();
      } catch (error) {
        if (error instanceof Error) error.message += await pageLogs();
        throw error;
      }
    });
  }

  /** The pages followed by `follow`, by name: their logs go into a failure's message. */
  const followed = new Map<string, Frame>();

  /**
   * Keeps a log in `frame`'s page of what moves the focus there: focus and blur, the keys it
   * gets, the messages from the extension, and when a button is turned off (disabled, aria-disabled).
   */
  async function follow(name: string, frame: Frame): Promise<Frame> {
    followed.set(name, frame);
    await frame.evaluate(() => {
      const w = window as unknown as { __keyboardLog?: string[] };
      if (w.__keyboardLog) return;
      const log: string[] = (w.__keyboardLog = []);
      const start = performance.now();
      const say = (text: string) => {
        if (log.push(`${Math.round(performance.now() - start)} ms ${text}`) > 200) log.shift();
      };
      const named = (t: EventTarget | null) => (t instanceof Element ? (t.id ? `#${t.id}` : t.tagName.toLowerCase()) : 'window');
      document.addEventListener('focusin', (e) => say(`focus ${named(e.target)}`), true);
      document.addEventListener('keydown', (e) => say(`key ${e.shiftKey ? 'Shift+' : ''}${e.ctrlKey ? 'Control+' : ''}${e.key} on ${named(e.target)}`), true);
      window.addEventListener('message', (e) => say(`message ${String((e.data as { type?: unknown } | null)?.type)}`));
      window.addEventListener('blur', () => say('page blur'));
      window.addEventListener('focus', () => say('page focus'));
      const watch = new MutationObserver((changes) => {
        for (const c of changes) if (c.target instanceof HTMLButtonElement) say(`${named(c.target)} disabled=${c.target.disabled} aria-disabled=${c.target.getAttribute('aria-disabled')}`);
      });
      watch.observe(document.body, { attributes: true, attributeFilter: ['disabled', 'aria-disabled'], subtree: true });
    });
    return frame;
  }

  /** The last lines of each followed page's log. */
  async function pageLogs(): Promise<string> {
    let text = '';
    for (const [name, frame] of followed) {
      const log = await frame.evaluate(() => (window as unknown as { __keyboardLog?: string[] }).__keyboardLog ?? []).catch(() => ['(the page is gone)']);
      text += `\n${name}'s page: ${log.slice(-40).join(' | ')}`;
    }
    return text;
  }

  const press = (key: string) => wb.page.keyboard.press(key);

  /** Runs a command from the palette: F1, its title typed, Enter once it is the focused row. */
  async function palette(title: string): Promise<void> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await wb.page.keyboard.type(title);
    await pickFocused(title);
  }

  /** Waits until the quick input's focused row is `label`, then Enter. */
  async function pickFocused(label: string): Promise<void> {
    const focused = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await poll(async () => ((await focused.innerText().catch(() => '')) || '').trim() === label, 10_000, `"${label}" focused in the quick input`);
    await press('Enter');
  }

  /** The focused row of the Servers tree, when the tree has the keyboard focus. */
  function treeFocus(): Promise<{ label: string; index: number; expanded: string | null } | undefined> {
    return wb.page.evaluate(() => {
      const list = document.activeElement;
      if (!list || !list.matches('.part.sidebar .monaco-list[role="tree"]')) return undefined;
      const pane = list.closest('.pane');
      if (!/servers/i.test(pane?.querySelector('.pane-header h3.title')?.textContent ?? '')) return undefined;
      const row = list.querySelector<HTMLElement>('.monaco-list-row.focused:not(.monaco-tree-sticky-row)');
      if (!row) return { label: '', index: -1, expanded: null };
      return { label: row.querySelector('.label-name')?.textContent?.trim() ?? '', index: Number(row.dataset.index), expanded: row.getAttribute('aria-expanded') };
    });
  }

  /**
   * Whether the quick input has the keyboard and keeps it for `ms`. When the palette closes, VS
   * Code gives the focus back to the webview it was opened from, deferred (WebviewElement.focus: a
   * 50-ms delayer whose guard passes while the workbench's focus is on <body>, then two postMessage
   * hops to the page's frame); a pick the command shows in between loses the keyboard when that
   * focus lands, and closes. A person sees it vanish; the test sees it before typing.
   */
  async function pickKeepsKeyboard(ms = 600): Promise<boolean> {
    const held = () => wb.page.evaluate(() => !!document.activeElement?.closest('.quick-input-widget')).catch(() => false);
    for (const end = Date.now() + ms; Date.now() < end; await wb.page.waitForTimeout(50)) if (!(await held())) return false;
    return held();
  }

  /** MCP Host: Call Tool… from the palette, the tool typed and taken with Enter; its panel, with the keyboard. */
  async function callTool(name: string): Promise<Frame> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    const lost = 'the pick of a tool lost the keyboard to the webview the palette was opened from';
    await retrying(`Call Tool's pick of ${name}: opened again`, 3, async () => {
      await palette('MCP Host: Call Tool…');
      // The tools' pick replaces the palette a moment later: what is typed before it opens goes nowhere.
      await poll(async () => /^Which tool of /.test((await input.getAttribute('placeholder').catch(() => '')) ?? ''), 10_000, 'the pick of a tool');
      if (!(await pickKeepsKeyboard())) throw new Error(`${lost} (VS Code's deferred webview focus)`);
      await wb.page.keyboard.type(name);
      await pickFocused(name);
    }, { retryable: (error) => error instanceof Error && error.message.startsWith(lost), beforeRetry: async () => (await input.isVisible()) && press('Escape') });
    const panel = await follow(name, await webview(name));
    await panel.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
    // The same deferred focus, later: once the pick closes, VS Code gives the focus back to the
    // panel the palette was opened from, and on a busy machine that can land after the new panel
    // took it (seen in CI: the old page focused 3.5 s after the new one opened). A person presses
    // Ctrl+1 (the editor group's active tab: the new panel); the test does too, counted as a retry.
    const keyboardLost = 'the new panel did not get the keyboard: VS Code gave it back to the panel the palette was opened from';
    await retrying(`${name}'s panel: focused with Ctrl+1`, 2, async () => {
      await poll(async () => (await pageFocus(panel)).hasFocus, 10_000, 'the panel to have the keyboard').catch(async (error: Error) => {
        const active = await wb.page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
        const other = await otherPageFocused(panel);
        throw new Error(`${other ? `${keyboardLost} (${other})` : error.message}; the workbench's focused element: ${active}; the page's: ${JSON.stringify(await pageFocus(panel))}`);
      });
    }, { retryable: (error) => error instanceof Error && error.message.startsWith(keyboardLost), beforeRetry: () => press('Control+1') });
    return panel;
  }

  /** The title of another tool panel whose page has the keyboard instead of `panel`'s, if one does. */
  async function otherPageFocused(panel: Frame): Promise<string | undefined> {
    for (const frame of wb.page.frames()) {
      if (frame === panel) continue;
      const focused = await frame.evaluate(() => (document.hasFocus() && document.getElementById('run') ? document.querySelector('h1')?.textContent?.trim() ?? '(untitled)' : undefined)).catch(() => undefined);
      if (focused) return focused;
    }
    return undefined;
  }

  /** The webview frame whose header says `title`. */
  function webview(title: string, timeoutMs = 20_000): Promise<Frame> {
    return poll(async () => (await wb.webviewFrames(title))[0], timeoutMs, `the webview of ${title}`);
  }

  /** What has the focus inside a webview page (a selector-like name), and whether the page has it. */
  function pageFocus(frame: Frame): Promise<{ id: string; tag: string; text: string; hasFocus: boolean }> {
    return frame.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { id: el?.id ?? '', tag: el?.tagName.toLowerCase() ?? '', text: (el?.textContent ?? '').trim().slice(0, 80), hasFocus: document.hasFocus() };
    });
  }

  /** Waits until `check` holds of the page's focus (and the page has the keyboard); the error says where the focus was last. */
  async function focusIn(frame: Frame, what: string, check: (f: Awaited<ReturnType<typeof pageFocus>>) => boolean, timeoutMs = 15_000): Promise<void> {
    let last: Awaited<ReturnType<typeof pageFocus>> | undefined;
    await poll(async () => check((last = await pageFocus(frame))) && last.hasFocus, timeoutMs, what).catch((error: Error) => {
      throw new Error(`${error.message}; the focus was last on ${JSON.stringify(last)}`);
    });
  }

  /** Presses Tab until the page's focus is on `id`, with the page holding the keyboard (at most `max` presses). */
  async function tabTo(frame: Frame, id: string, max = 12): Promise<void> {
    for (let i = 0; i < max; i++) {
      const f = await pageFocus(frame);
      if (f.id === id && f.hasFocus) return;
      await press('Tab');
    }
    assert.deepEqual(await pageFocus(frame).then((f) => ({ id: f.id, hasFocus: f.hasFocus })), { id, hasFocus: true }, `Tab reaches #${id} within ${max} presses`);
  }

  /** The text the page last said through its polite live region. */
  async function announced(frame: Frame, pattern: RegExp): Promise<string> {
    let text = '';
    await poll(async () => pattern.test((text = (await frame.locator('#announcer').textContent().catch(() => '')) ?? '')), 20_000, `the live region to say ${pattern} (it said ${JSON.stringify(text)})`);
    assert.equal(await frame.locator('#announcer').getAttribute('aria-live'), 'polite');
    return text;
  }

  /** The focus ring of a control in a page, measured: `away` moves the focus off it, `back` returns it. */
  async function ringSeen(what: string, target: ReturnType<Frame['locator']>, keys: { away: string; back?: string }): Promise<void> {
    const ring = await measureFocusRing(wb.page, target, keys);
    assert.ok(ring.ratio >= RING, `${what}: the focus indicator is ${ring.ratio.toFixed(2)}:1 against what it covers (${ring.changed} pixels changed, a ring needs ${ring.needed})`);
  }

  before(async () => {
    wb = await launch({ workspace: WORKSPACE, vsix: VSIX, timeoutMs: 150_000 });
  });

  after(async () => {
    if (!wb) return;
    await wb.close();
    assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
  });

  // The server's row is replaced by its running self once the consent is answered: the focus
  // follows it (tree/openingFocus.ts).
  test('the consent answered with Enter; View: Show MCP Host puts the focus on the first row, and it is seen', { timeout: 120_000 }, async () => {
    await step('show-view', async () => {
      // MCP Host is active (its status bar entry is there: the workspace has a .vscode/mcp.json).
      await wb.page.locator('.part.statusbar .statusbar-item', { hasText: /MCP/ }).first().waitFor({ timeout: 60_000 });
      await palette('View: Show MCP Host');
      // The workspace's server asks for consent as the view opens: Tab to Allow, Enter.
      const dialog = await wb.dialog({ timeoutMs: 60_000 });
      assert.ok(dialog, 'a consent dialog');
      const focusedButton = () => wb.page.evaluate(() => (document.activeElement?.closest('.monaco-dialog-box .monaco-button') as HTMLElement | null)?.textContent?.trim() ?? '');
      await poll(async () => (await focusedButton()) !== '', 10_000, 'a button of the dialog to have the focus');
      for (let i = 0; i < dialog.buttons.length && (await focusedButton()) !== 'Allow'; i++) await press('Tab');
      assert.equal(await focusedButton(), 'Allow', `Tab reaches Allow (buttons: ${dialog.buttons.join(', ')})`);
      await press('Enter');
      await wb.page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 10_000 });
      await wb.page.locator('.part.statusbar .statusbar-item', { hasText: /MCP 1 running/ }).first().waitFor({ timeout: 60_000 });
      // The tree has the keyboard. Its first row has the focus when the server started within the
      // moment after the answer (tree/openingFocus.ts); a slower start leaves it on no row (a
      // server's row is a new row once it runs, and a later focus could close a Command Palette
      // opened meanwhile: docs/accessibility.md, Known gaps), and Home reaches the row.
      let at: Awaited<ReturnType<typeof treeFocus>>;
      await poll(async () => (at = await treeFocus()) !== undefined, 15_000, 'the Servers tree to have the keyboard').catch(async (error: Error) => {
        const active = await wb.page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
        throw new Error(`${error.message}; the focused element: ${active}`);
      });
      if (at!.index !== 0) await press('Home');
      await poll(async () => (at = await treeFocus())?.index === 0, 10_000, 'the focus on the first row of the Servers tree');
      assert.equal(at!.label, 'everything');
      await wb.screenshot('keyboard-view-shown');
      // The row's ring: focused, then Down moves it to the next row, Up brings it back.
      const row = wb.page.locator('.part.sidebar .monaco-list[role="tree"] .monaco-list-row.focused:not(.monaco-tree-sticky-row)').first();
      await ringSeen('the first row', row, { away: 'ArrowDown', back: 'ArrowUp' });
      assert.equal((await treeFocus())?.index, 0, 'Up brought the focus back to the first row');
    });
  });

  test('the arrow keys reach echo, Enter opens it; filled, run with Enter: the outcome announced, the focus on the result', { timeout: 120_000 }, async () => {
    await step('echo', async () => {
      // The tree has the keyboard (View: Show MCP Host again if the step before did not leave it
      // there), and Home puts its focus on the first row: this test does not rely on the one before.
      if (!(await treeFocus())) await palette('View: Show MCP Host');
      await poll(async () => (await treeFocus()) !== undefined, 15_000, 'the Servers tree to have the keyboard');
      await press('Home');
      await poll(async () => (await treeFocus())?.index === 0, 10_000, 'Home to focus the first row');
      // everything › Tools › echo: Right opens a row, Down moves on, until the focused row is the next one.
      for (const label of ['everything', 'Tools', 'echo']) {
        // An opened row's children come from the extension host a moment later: walk once they are drawn.
        await wb.page.locator('.part.sidebar .monaco-list[role="tree"] .monaco-list-row .label-name', { hasText: new RegExp(`^${label}$`) }).first().waitFor({ state: 'attached', timeout: 30_000 });
        for (let i = 0; i < 40 && (await treeFocus())?.label !== label; i++) await press('ArrowDown');
        assert.equal((await treeFocus())?.label, label, `the arrow keys reach "${label}"`);
        if (label === 'echo') break;
        if ((await treeFocus())?.expanded === 'false') await press('ArrowRight');
        await poll(async () => (await treeFocus())?.expanded === 'true', 10_000, `"${label}" to open`);
      }
      await press('Enter');
      const panel = await follow('echo', await webview('echo'));
      await panel.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
      // The panel has the keyboard; Tab goes to the one field.
      const field = panel.locator('.field[data-path="/message"] textarea, .field[data-path="/message"] input').first();
      const fieldId = await field.getAttribute('id');
      await poll(async () => (await pageFocus(panel)).hasFocus, 10_000, 'the panel to have the keyboard');
      await tabTo(panel, fieldId ?? '', 6);
      await wb.page.keyboard.type('typed on the keyboard');
      await press('Tab');
      await focusIn(panel, 'the focus on Run, the next Tab stop after the field', (f) => f.id === 'run', 5_000);
      await ringSeen('Run', panel.locator('#run'), { away: 'Shift+Tab', back: 'Tab' });
      await wb.screenshot('keyboard-echo-run-focused');
      await press('Enter');
      await announced(panel, /^OK, /);
      await focusIn(panel, 'the focus on the result heading', (f) => f.tag === 'h2' && /result/i.test(f.text));
      assert.match(await panel.locator('.result').innerText(), /Echo: typed on the keyboard/);
      await wb.screenshot('keyboard-echo-result');
      await ringSeen('the result heading', panel.locator('#result h2'), { away: 'Tab' });
    });
  });

  test('a long call cancelled with the keyboard: the focus on Cancel while it runs, then on the result; "Cancelled" announced', { timeout: 150_000 }, async () => {
    await step('cancel', async () => {
      const panel = await callTool('trigger-long-running-operation');
      // Two minutes, a step a second: it runs through every check below (a call that ended would
      // hide Cancel before its ring is measured), and Cancel ends it.
      for (const name of ['duration', 'steps']) {
        const input = panel.locator(`.field[data-path="/${name}"] input`);
        await tabTo(panel, (await input.getAttribute('id')) ?? '', 8);
        // The old value selected with End, Shift+Home: not Ctrl+A, which VS Code's webview host also
        // answers with a select-all of its own, sent back to the page a round trip later — under
        // load after the first digit was typed, which it then selected and replaced ('20').
        await press('End');
        await press('Shift+Home');
        await wb.page.keyboard.type('120');
        assert.equal(await input.inputValue(), '120', `${name} typed`);
      }
      await tabTo(panel, 'run', 6);
      await press('Enter');
      await focusIn(panel, 'the focus on Cancel while the call runs', (f) => f.id === 'cancel');
      await announced(panel, /^Running\. Cancel stops it\.$/);
      await wb.screenshot('keyboard-long-running');
      assert.ok(await panel.locator('#cancel').isVisible(), 'the call still runs');
      await ringSeen('Cancel', panel.locator('#cancel'), { away: 'Shift+Tab', back: 'Tab' });
      await focusIn(panel, 'the focus back on Cancel', (f) => f.id === 'cancel', 5_000);
      await press('Enter');
      await announced(panel, /Cancelled/);
      await focusIn(panel, 'the focus on the result heading after Cancel', (f) => f.tag === 'h2');
      assert.match(await panel.locator('.result .status').innerText(), /Cancelled/);
      await wb.screenshot('keyboard-long-running-cancelled');
    });
  });

  test('an elicitation submitted empty takes the focus to the field to fix; answered, the focus is back in the panel', { timeout: 150_000 }, async () => {
    await step('elicitation', async () => {
      const panel = await callTool('trigger-elicitation-request');
      await tabTo(panel, 'run', 8);
      await press('Enter');
      const form = await follow('the form', await webview('asks you for information'));
      const name = form.locator('.field[data-path="/name"] input, .field[data-path="/name"] textarea').first();
      const nameId = (await name.getAttribute('id')) ?? '';
      await focusIn(form, 'the form opening with the focus in its first field', (f) => f.id === nameId);
      // Tab on to the next field, then submit (Ctrl+Enter) with the required name empty: the focus
      // goes back to it, the error beside it. The check is the extension's: a round trip away.
      await press('Tab');
      await focusIn(form, 'the focus on the next field', (f) => f.id !== nameId && f.tag !== 'body');
      await press('Control+Enter');
      await poll(async () => (await name.getAttribute('aria-invalid')) === 'true', 10_000, 'the name field marked invalid');
      await focusIn(form, 'the focus on the first field to fix', (f) => f.id === nameId);
      assert.match((await form.locator('#form-summary').textContent()) ?? '', /need|fix|required/i);
      assert.match(await form.locator('.field[data-path="/name"] .field-error').innerText(), /required/);
      await wb.screenshot('keyboard-elicitation-error');
      await ringSeen('the field to fix', name, { away: 'Tab', back: 'Shift+Tab' });
      await focusIn(form, 'the focus back on the name field', (f) => f.id === nameId, 5_000);
      await wb.page.keyboard.type('Ada Lovelace');
      await poll(async () => (await name.getAttribute('aria-invalid')) !== 'true', 10_000, 'the name error to clear');
      await press('Control+Enter');
      await poll(async () => (await wb.webviewFrames('asks you for information')).length === 0, 15_000, 'the form to close');
      // VS Code shows the tool's panel again; its page puts the focus on the result.
      await announced(panel, /^OK, /);
      await focusIn(panel, 'the focus back in the panel, on the result heading', (f) => f.tag === 'h2');
      assert.match(await panel.locator('.result').innerText(), /Ada Lovelace/);
      await wb.screenshot('keyboard-elicitation-answered');
    });
  });
});
