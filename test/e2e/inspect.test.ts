// End-to-end: using a server from the editor in a real VS Code (code-server). Calls `echo`
// through the generated form (result, history entry, opened in an editor), runs and cancels
// `trigger-long-running-operation` with progress in the panel and a notification (and checks in the
// trace that the server was told), opens a demo:// resource (subscribed while its tab is open),
// reads a resource template's expansion with the server's completions, re-reads an open resource
// when the server says it changed (`toggle-subscriber-updates`), subscribes from a resource row,
// follows a resource_link, and opens panels as preview tabs that come back after a reload.
// "MCP: everything" is set to Trace at the start, so the frames are read from its log file (without
// showing the Output panel, but for one screenshot of the trace). Screenshots land in
// test-results/screenshots/inspect-*.png.
// One path per feature; what moved out (issue 35), each assert with it:
// - the panel page's details (validation before and after Run, JSON mode, images, the
//   outputSchema verdict, a resource link's icon, how Cancelled looks): the page harness with
//   server-everything's answers, test/webview/toolPanelEverything.test.ts; that a cancelled call is
//   never answered: test/client/everything.test.ts;
// - the history's show and re-run, the per-call timeout of 2 s (note, "Timed out", the history
//   entry, notifications/cancelled with reason timeout), Server Details rendered, args-prompt,
//   completable-prompt (suggestions, Enter, context on the wire), Run's reason across a restart,
//   Copy result as JSON (clipboard and status bar message), and that a panel typed in stays when
//   the next opens: test/webview/inspectPanels.test.ts (the real ToolPanel, PromptPanel and
//   DetailsPanel on the vscode double joined to their pages in headless Chromium).
// The tests share one launch and need no order (each opens what it reads).
// A destructive tool and a server that floods notifications: toolPanelGuards.test.ts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { clickReached, defaultVsixPath, launch, repoRoot, step as runStep, traceFrames, type TraceFrame, type Workbench, waitUntil } from './harness';
import { allowServers, clickRowAction, treeRow } from './treeRows';
import { retrying } from './retries';

const WORKSPACE = join(repoRoot, 'test', 'e2e', 'workspaces', 'basic');
const CHANNEL = 'MCP: everything';
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;


const poll = waitUntil;


describe('inspect features in a real VS Code', () => {
  let wb: Workbench;

  /** The webview frame whose header shows `title` (tool name or view title). */
  function webview(title: string, timeoutMs = 20_000): Promise<Frame> {
    return poll(async () => (await wb.webviewFrames(title))[0], timeoutMs, `the webview of ${title}`);
  }

  /** Takes the focus out of a webview (it keeps keys) before the palette opens. */
  async function focusSideBar(): Promise<void> {
    await wb.page.locator('.part.sidebar .composite.title').first().click();
  }

  /**
   * Runs a command from the palette with the focus on the side bar first: when a webview had it,
   * VS Code may hand it back to the webview between the palette and the command's own quick
   * pick, which then closes.
   */
  async function command(title: string): Promise<void> {
    await focusSideBar();
    await wb.runCommand(title);
  }

  /**
   * Runs a command from the palette, then `then` in the quick input it opens. A webview that had
   * the focus may still take it back and close that quick input under the test: then both run
   * again (three tries at most); any other failure is the test's.
   */
  async function viaCommand(title: string, then: () => Promise<void>): Promise<void> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await retrying(`inspect "${title}": run again after its quick input closed`, 3, async () => {
      await command(title);
      await then();
    }, { retryable: async () => !(await input.isVisible().catch(() => false)) });
  }

  /** Picks from the open quick pick, typing first (long lists are virtualised). */
  async function pick(label: string): Promise<void> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    // The command palette hands over to the command's own quick pick: wait for that one.
    await poll(async () => !((await input.inputValue()) || '').startsWith('>') && (await input.isEditable()), 10_000, 'the quick pick');
    await input.fill(label, { timeout: 5_000 });
    // The filtered list's first row is the one (checked), and Enter takes it: steadier than a click.
    const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await poll(async () => ((await first.innerText().catch(() => '')) || '').trim() === label, 10_000, `"${label}" first in the quick pick`);
    await wb.page.keyboard.press('Enter');
  }

  /** Runs a step; on failure saves a screenshot, adds the notifications to the error and leaves no quick pick or panel open. */
  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `inspect-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
      if (await wb.page.locator('.part.panel').isVisible().catch(() => false)) await wb.runCommand('View: Hide Panel');
    });
  }

  /** The text lines of the editor in the active group. */
  function activeEditor() {
    return wb.page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first();
  }

  /** Its text, with the editor's non-breaking spaces as spaces. */
  async function activeEditorText(): Promise<string> {
    return ((await activeEditor().innerText().catch(() => '')) || '').replace(/\u00a0/g, ' ');
  }

  async function callTool(name: string): Promise<Frame> {
    await viaCommand('MCP Host: Call Tool…', () => pick(name));
    const frame = await webview(name);
    await frame.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
    return frame;
  }

  before(async () => {
    wb = await launch({ workspace: WORKSPACE, vsix: VSIX, timeoutMs: 150_000 });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('everything', { timeoutMs: 30_000 });
    await allowServers(wb, 1);
    await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
    // The protocol log at Trace, as a person would set it; a ping shows the frames are logged.
    await wb.setLogLevel(CHANNEL, 'Trace');
    await command('MCP Host: Ping Server');
    await wb.outputChannelText(CHANNEL, { contains: (t) => traceFrames(t).some((f) => f.direction === 'send' && f.message?.method === 'ping'), timeoutMs: 20_000, reveal: false });
  });

  after(async () => {
    if (!wb) return;
    await wb.close();
    assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
  });

  test('echo: the text typed is sent, the result shown, kept in the history and opened in an editor', { timeout: 90_000 }, async () => {
    await step('echo', async () => {
      const frame = await callTool('echo');
      const field = frame.locator('.field[data-path="/message"]');
      await field.waitFor({ timeout: 10_000 });
      await wb.screenshot('inspect-echo-fresh-form');
      await field.locator('textarea, input').first().fill('hello from the e2e test');
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await clickReached(frame.locator('#run'), 'Run');
      const text = frame.locator('.result .part-text pre.text, .result .part-text .markdown');
      await poll(async () => ((await text.first().innerText().catch(() => '')) || '').includes('Echo: hello from the e2e test'), 20_000, 'the echo result');
      assert.match(await frame.locator('.result .status').innerText(), /OK/);
      await poll(async () => (await frame.locator('.history-item').count()) >= 1, 10_000, 'a history entry');
      await wb.screenshot('inspect-echo');
      await frame.locator('.result .open-result').click();
      await wb.page.locator('.tabs-container .tab', { hasText: 'echo-result-1.txt' }).first().waitFor({ timeout: 15_000 });
      await poll(async () => /Echo: hello from the e2e test/.test(await activeEditorText()), 10_000, 'the opened text');
    });
  });

  test('trigger-long-running-operation: progress in the panel and a notification, then cancelled; the server is told (notifications/cancelled with the call\u2019s id)', { timeout: 120_000 }, async () => {
    await step('trigger-long-running-operation', async () => {
      const frame = await callTool('trigger-long-running-operation');
      await frame.locator('.field[data-path="/duration"] input').fill('20');
      await frame.locator('.field[data-path="/steps"] input').fill('20');
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await clickReached(frame.locator('#run'), 'Run');
      const progressText = frame.locator('#progress .progress-text');
      await poll(async () => /\d+ \/ 20/.test(await progressText.innerText().catch(() => '')), 20_000, 'progress in the panel');
      await poll(async () => (await wb.notifications()).some((n) => n.includes('trigger-long-running-operation')), 10_000, 'the progress notification');
      await wb.screenshot('inspect-long-running-progress');
      await frame.locator('#cancel').click();
      await poll(async () => /Cancelled/.test(await frame.locator('.result .status').innerText().catch(() => '')), 15_000, 'the cancelled result');
      await poll(async () => (await frame.locator('.history-item.cancelled').count()) >= 1, 10_000, 'a cancelled history entry');
      await poll(async () => !(await wb.notifications()).some((n) => n.includes('trigger-long-running-operation')), 10_000, 'the notification to go');
      await wb.screenshot('inspect-long-running-cancelled');

      // The server was told: notifications/cancelled with the id of that tools/call.
      const isCall = (f: TraceFrame) => f.direction === 'send' && f.message?.method === 'tools/call' && f.message.params?.name === 'trigger-long-running-operation';
      const lastCall = (frames: TraceFrame[]) => frames.filter(isCall).pop();
      const isCancel = (f: TraceFrame, id: unknown) => f.direction === 'send' && f.message?.method === 'notifications/cancelled' && f.message.params?.requestId === id;
      const frames = traceFrames(
        await wb.outputChannelText(CHANNEL, {
          contains: (t) => {
            const fr = traceFrames(t);
            const call = lastCall(fr);
            return !!call && fr.some((f) => isCancel(f, call.message.id));
          },
          timeoutMs: 15_000,
        }),
      );
      const call = lastCall(frames)!;
      assert.ok(call.message.params?._meta?.progressToken !== undefined, 'the call asked for progress');
      assert.ok(frames.findIndex((f) => isCancel(f, call.message.id)) > frames.indexOf(call), 'cancelled after the call was sent');
      assert.match(await frame.locator('.result .status').innerText(), /Cancelled/, 'the panel still says Cancelled');
      await wb.screenshot('inspect-long-running-cancel-trace');
      await wb.runCommand('View: Hide Panel');
    });
  });

  test('a demo:// resource opens as a read-only editor, subscribed while its tab is open', { timeout: 90_000 }, async () => {
    await step('a-demo', async () => {
      const uri = 'demo://resource/static/document/architecture.md';
      await viaCommand('MCP Host: Open Resource', () => pick('architecture.md'));
      const tab = wb.page.locator('.tabs-container .tab', { hasText: 'architecture.md' }).first();
      await tab.waitFor({ timeout: 20_000 });
      await poll(async () => /# Everything Server/.test(await activeEditorText()), 15_000, 'the resource text');
      await wb.screenshot('inspect-resource');
      await wb.outputChannelText(CHANNEL, { contains: `Subscribed to ${uri}`, timeoutMs: 15_000, reveal: false });
      await tab.click();
      await tab.locator('.tab-actions .action-label').first().click();
      await tab.waitFor({ state: 'detached', timeout: 10_000 });
      await wb.outputChannelText(CHANNEL, { contains: `Unsubscribed from ${uri}`, timeoutMs: 15_000, reveal: false });
    });
  });

  test('a resource template: the variable asked for, the expanded URI read', { timeout: 60_000 }, async () => {
    await step('template', async () => {
      await viaCommand('MCP Host: Read Resource from Template…', () => pick('Dynamic Text Resource'));
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await poll(async () => /resourceId \(required\)/.test((await input.getAttribute('placeholder')) ?? ''), 10_000, 'the resourceId step');
      // Before typing, the list says what to do rather than "0 Results" (the server suggests nothing for "").
      const rows = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name');
      await poll(async () => /^Type resourceId$/.test(((await rows.first().innerText().catch(() => '')) || '').trim()), 10_000, 'the "Type resourceId" row');
      assert.doesNotMatch(await wb.page.locator('.quick-input-widget').innerText(), /0 Results/);
      await wb.screenshot('inspect-template-before-typing');
      const sentBefore = traceFrames(await wb.outputChannelText(CHANNEL, { reveal: false })).length;
      await input.fill('3');
      // The list is redrawn when the server answers the (debounced) completion/complete for "3": Enter once it has.
      await completionAnswered(sentBefore, 'resourceId', '3');
      await wb.page.keyboard.press('Enter');
      await wb.page.locator('.tabs-container .tab', { hasText: '3.txt' }).first().waitFor({ timeout: 20_000 });
      await poll(async () => /Resource 3: This is a plaintext resource/.test(await activeEditorText()), 15_000, 'the resource text');
      await wb.screenshot('inspect-template');
    });
  });

  test('an open resource is read again when the server says it changed (toggle-subscriber-updates)', { timeout: 120_000 }, async () => {
    await step('resource-updated', async () => {
      const uri = 'demo://resource/dynamic/text/1';
      const stamp = /Resource 1: This is a plaintext resource created at (.+)/;
      await command('View: Close All Editors');
      await poll(async () => (await wb.page.locator('.part.editor .tabs-container .tab').count()) === 0, 10_000, 'the editors to close');
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await viaCommand('MCP Host: Read Resource by URI…', async () => {
        await poll(async () => !((await input.inputValue()) || '').startsWith('>') && (await input.isEditable()), 10_000, 'the URI input');
        await input.fill(uri, { timeout: 5_000 });
        await wb.page.keyboard.press('Enter');
      });
      // Named by server and URI (slashes as look-alike "∕", which a file name can hold).
      const tab = wb.page.locator('.part.editor .tabs-container .tab[data-resource-name="everything · resource\u2215dynamic\u2215text\u22151.txt"]').first();
      await tab.waitFor({ timeout: 20_000 });
      const first = await poll(async () => stamp.exec(await activeEditorText())?.[1], 15_000, 'the resource text');
      await wb.outputChannelText(CHANNEL, { contains: `Subscribed to ${uri}`, timeoutMs: 15_000, reveal: false });
      const seen = traceFrames(await wb.outputChannelText(CHANNEL, { reveal: false })).length;

      // The server sends notifications/resources/updated for it now and every 5 s.
      const tool = await callTool('toggle-subscriber-updates');
      await clickReached(tool.locator('#run'), 'Run');
      await poll(async () => /Started simulated resource updated notifications/.test(await tool.locator('.result').innerText().catch(() => '')), 20_000, 'the toggle-on result');
      const isUpdate = (f: TraceFrame) => f.direction === 'receive' && f.message?.method === 'notifications/resources/updated' && f.message.params?.uri === uri;
      const isRead = (f: TraceFrame) => f.direction === 'send' && f.message?.method === 'resources/read' && f.message.params?.uri === uri;
      /** An update, a read of the URI after it, and that read's answer (indexes in the frames after `seen`). */
      const reread = (frames: TraceFrame[]) => {
        const fresh = frames.slice(seen);
        const update = fresh.findIndex(isUpdate);
        if (update < 0) return undefined;
        const read = fresh.findIndex((f, i) => i > update && isRead(f));
        if (read < 0) return undefined;
        const answer = fresh.findIndex((f, i) => i > read && f.direction === 'receive' && f.message?.id === fresh[read].message.id);
        return answer < 0 ? undefined : { update, read, answer: fresh[answer] };
      };
      const log = await wb.outputChannelText(CHANNEL, { contains: (t) => !!reread(traceFrames(t)), timeoutMs: 20_000, reveal: false });
      const found = reread(traceFrames(log))!;
      assert.match(JSON.stringify(found.answer.message.result), /Resource 1: This is a plaintext resource/);

      // The editor shows what was read: the time stamp moves on (whole seconds; an update comes every 5 s).
      await tab.click();
      const now = await poll(async () => {
        const m = stamp.exec(await activeEditorText());
        return m && m[1] !== first ? m[1] : undefined;
      }, 20_000, `the editor to show a newer text than "${first}"`);
      assert.notEqual(now, first);
      await wb.screenshot('inspect-resource-updated');

      // Off again: the same tool toggles it.
      await command('View: Close All Editors');
      await poll(async () => (await wb.page.locator('.part.editor .tabs-container .tab').count()) === 0, 10_000, 'the editors to close');
      await wb.outputChannelText(CHANNEL, { contains: `Unsubscribed from ${uri}`, timeoutMs: 15_000, reveal: false });
      const again = await callTool('toggle-subscriber-updates');
      await clickReached(again.locator('#run'), 'Run');
      await poll(async () => /Stopped simulated resource updates/.test(await again.locator('.result').innerText().catch(() => '')), 20_000, 'the toggle-off result');
    });
  });

  /**
   * Waits until a `completion/complete` for `argument` = `value`, sent after the first `after`
   * frames of the server's trace, has its answer (the positive signal before a check that nothing
   * more shows, instead of a fixed wait for the debounced request).
   */
  async function completionAnswered(after: number, argument: string, value: string): Promise<void> {
    await wb.outputChannelText(CHANNEL, {
      reveal: false,
      timeoutMs: 15_000,
      contains: (text) => {
        const frames = traceFrames(text).slice(after);
        const sent = frames.find((f) => f.direction === 'send' && f.message?.method === 'completion/complete' && f.message.params?.argument?.name === argument && f.message.params.argument.value === value);
        return sent !== undefined && frames.some((f) => f.direction === 'receive' && f.message?.id === sent.message.id && 'result' in f.message);
      },
    });
  }

  /** How many lines of the server's output channel contain `text`. */
  async function logCount(text: string): Promise<number> {
    return (await wb.outputChannelText(CHANNEL, { reveal: false })).split('\n').filter((l) => l.includes(text)).length;
  }

  test('Subscribe and Unsubscribe from a resource row: the row is marked, the server is told', { timeout: 90_000 }, async () => {
    await step('tree-subscribe', async () => {
      const uri = 'demo://resource/static/document/architecture.md';
      const label = 'architecture.md';
      // No editor shows it, so the only subscription is the toggle's.
      await command('View: Close All Editors');
      await poll(async () => (await wb.page.locator('.part.editor .tabs-container .tab').count()) === 0, 10_000, 'the editors to close');
      await wb.openView('MCP Host');
      await wb.expandTreeItem('Resources');
      const description = async () => (await wb.treeItems()).find((i) => i.label === label)?.description ?? '';
      await poll(async () => (await description()).includes(uri) && !(await description()).includes('subscribed'), 15_000, 'the row without a mark');
      const subscribedBefore = await logCount(`Subscribed to ${uri}`);
      const unsubscribedBefore = await logCount(`Unsubscribed from ${uri}`);

      let shown = '';
      // A row redrawn under the pointer (the server's updates redraw the tree) can swallow the
      // click: it is clicked again (a reported retry) while the row still offers Subscribe and
      // shows no mark.
      await retrying(`inspect tree-subscribe: Subscribe on ${label} clicked again`, 5, async () => {
        if ((shown = await description()).startsWith('subscribed · ')) return;
        await clickRowAction(wb, label, 'Subscribe to Resource');
        await poll(async () => (shown = await description()).startsWith('subscribed · '), 5_000, 'the subscribed mark 5 s after the click');
      }).catch(async (e: Error) => {
        const log = (await wb.outputChannelText(CHANNEL, { reveal: false })).split('\n').filter((l) => /subscri/i.test(l)).slice(-8);
        throw new Error(`${e.message}; the row says "${shown}"; the log: ${JSON.stringify(log)}`);
      });
      await poll(async () => (await logCount(`Subscribed to ${uri}`)) > subscribedBefore, 15_000, 'the Subscribed line in the output channel');
      assert.equal(await treeRow(wb, label).locator('.actions .action-label[aria-label^="Unsubscribe from Resource"]').count(), 1, 'Unsubscribe offered');
      const frames = traceFrames(await wb.outputChannelText(CHANNEL, { reveal: false }));
      assert.ok(frames.some((f) => f.direction === 'send' && f.message?.method === 'resources/subscribe' && f.message.params?.uri === uri), 'resources/subscribe was sent');
      await wb.screenshot('inspect-tree-subscribed');

      await clickRowAction(wb, label, 'Unsubscribe from Resource');
      await poll(async () => !(await description()).includes('subscribed'), 15_000, 'the mark to go');
      await poll(async () => (await logCount(`Unsubscribed from ${uri}`)) > unsubscribedBefore, 15_000, 'the Unsubscribed line in the output channel');
      await wb.screenshot('inspect-tree-unsubscribed');
    });
  });

  test('get-resource-links: a resource_link opens its resource', { timeout: 60_000 }, async () => {
    await step('resource-link', async () => {
      const frame = await callTool('get-resource-links');
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await clickReached(frame.locator('#run'), 'Run');
      const link = frame.locator('.result .part-link a.resource-link', { hasText: 'Text Resource 2' });
      await link.waitFor({ timeout: 20_000 });
      await link.scrollIntoViewIfNeeded();
      await wb.screenshot('inspect-resource-link-icon');
      await link.click();
      await wb.page.locator('.part.editor .tabs-container .tab[data-resource-name="everything · resource\u2215dynamic\u2215text\u22152.txt"]').first().waitFor({ timeout: 20_000 });
      await poll(async () => /Resource 2: This is a plaintext resource/.test(await activeEditorText()), 15_000, 'the linked resource');
      await wb.screenshot('inspect-resource-link');
    });
  });

  test('panels open as preview tabs: the next one takes an untouched panel\u2019s place, a pinned one stays; open panels come back after a reload', { timeout: 240_000 }, async () => {
    await step('preview-tabs', async () => {
      await command('View: Close All Editors');
      const tabs = wb.page.locator('.part.editor .tabs-container .tab');
      const tabTitles = async () => (await tabs.allInnerTexts().catch(() => [] as string[])).map((t) => t.trim()).filter(Boolean);
      await poll(async () => (await tabs.count()) === 0, 10_000, 'no editors open');

      await callTool('echo');
      await callTool('get-sum');
      // echo was opened and left untouched: get-sum took its place.
      await poll(async () => JSON.stringify(await tabTitles()) === JSON.stringify(['Get Sum Tool — everything']), 10_000, `only get-sum open (tabs: ${JSON.stringify(await tabTitles())})`);
      assert.equal((await wb.webviewFrames('echo')).length, 0, 'the echo panel is gone');

      // Pinned: kept when the next panel opens (one the user typed in stays too: inspectPanels.test.ts).
      await command('View: Pin Editor');
      await callTool('echo');
      await poll(async () => (await tabTitles()).length === 2, 10_000, `two tabs (tabs: ${JSON.stringify(await tabTitles())})`);
      const titles = await tabTitles();
      for (const t of ['Get Sum Tool — everything', 'Echo Tool — everything']) assert.ok(titles.includes(t), `${t} in ${JSON.stringify(titles)}`);
      await wb.screenshot('inspect-preview-tabs');

      // After a reload the open panels are built again, their forms drawn from the tools the server lists.
      await wb.reloadWindow();
      await poll(async () => (await tabTitles()).length === 2, 60_000, `two tabs after the reload (tabs: ${JSON.stringify(await tabTitles())})`);
      await wb.page.locator('.part.editor .tabs-container .tab', { hasText: 'Get Sum Tool' }).first().click();
      const restored = await webview('get-sum', 90_000);
      await restored.locator('.field[data-path="/a"] input').waitFor({ timeout: 60_000 });
      await wb.screenshot('inspect-panels-restored');
    });
  });
});
