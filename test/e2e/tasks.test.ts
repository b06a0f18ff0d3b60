// End-to-end: 2025-11-25 tasks in a real VS Code (code-server) with server-everything's
// `simulate-research-query` (it requires a task and walks through four stages, one a second).
// The Tasks group under the server shows a running task's status as it changes; the tool panel
// shows the task's status; Cancel from the panel and from the tree sends tasks/cancel (read from
// "MCP: everything" at Trace); a panel closed while its task runs does not lose it, and the
// completion notice opens the result; the history notes the task id and final status; the
// `ambiguous` mode waits for input and its form is answered. Screenshots: test-results/screenshots/tasks-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { defaultVsixPath, launch, repoRoot, step as runStep, traceFrames, type TraceFrame, type Workbench, waitUntil as poll } from './harness';
import { allowServers } from './treeRows';
import { taskDriver } from './taskDriver';

const WORKSPACE = join(repoRoot, 'test', 'e2e', 'workspaces', 'basic');
const CHANNEL = 'MCP: everything';
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const TOOL = 'simulate-research-query';
const STAGES = /Gathering sources|Analyzing content|Synthesizing findings|Generating report/;

describe('tasks in a real VS Code', () => {
  let wb: Workbench;

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `tasks-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  const { command, webview, openToolPanel, run, taskStatus, resultText, cancelledInPanel, taskRows, taskRowsNow, cancelOnRow } = taskDriver(() => wb);

  /** Opens the task tool's panel (a fresh one), fills the topic (and ambiguous), runs it. */
  async function runResearch(topic: string, ambiguous = false): Promise<Frame> {
    const panel = await openToolPanel(TOOL);
    await panel.locator('.field[data-path="/topic"] input, .field[data-path="/topic"] textarea').first().fill(topic);
    // `ambiguous` is an optional boolean (it has a default): the form offers unset, true and false.
    if (ambiguous) await panel.locator('.field[data-path="/ambiguous"] select').first().selectOption('true', { timeout: 10_000 });
    await run(panel);
    return panel;
  }

  /** The frames of "MCP: everything" once `check` holds for them. */
  async function framesWhen(check: (frames: TraceFrame[]) => boolean, timeoutMs = 20_000): Promise<TraceFrame[]> {
    return traceFrames(await wb.outputChannelText(CHANNEL, { contains: (t) => check(traceFrames(t)), timeoutMs }));
  }

  const cancelSentFor = (taskId: string) => (frames: TraceFrame[]) => frames.some((f) => f.direction === 'send' && f.message?.method === 'tasks/cancel' && f.message.params?.taskId === taskId);

  before(async () => {
    wb = await launch({ workspace: WORKSPACE, vsix: VSIX, timeoutMs: 150_000 });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('everything', { timeoutMs: 30_000 });
    await allowServers(wb, 1);
    await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
    await wb.setLogLevel(CHANNEL, 'Trace');
    await command('MCP Host: Ping Server');
    await wb.outputChannelText(CHANNEL, { contains: (t) => traceFrames(t).some((f) => f.direction === 'send' && f.message?.method === 'ping'), timeoutMs: 20_000 });
    await command('View: Hide Panel');
  });

  after(async () => {
    if (!wb) return;
    await wb.close();
    assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
  });

  /** Runs the ambiguous query: the task waits for input with the server's form open; returns the panel, the form and the task id. */
  async function waitingTask(topic: string): Promise<{ panel: Frame; form: Frame; id: string }> {
    const panel = await runResearch(topic, true);
    const form = await webview('asks you for information', 90_000);
    // The form opened in the panel's editor group: bring the panel back to the front.
    await wb.page.locator('.tabs-container .tab', { hasText: 'Simulate Research Query' }).first().click();
    const { id } = await taskStatus(panel, /^waiting for input$/, 60_000);
    return { panel, form, id };
  }

  test('the Tasks group is there for a server that runs tasks; a task shows its changing status there and in the panel, then its result; the history notes it', { timeout: 240_000 }, async () => {
    await step('run', async () => {
      const items = await wb.treeItems();
      assert.ok(items.some((i) => i.label === 'Tasks' && /none/.test(i.description)), `an empty Tasks group: ${JSON.stringify(items.map((i) => [i.label, i.description]))}`);
      const panel = await runResearch('tides');
      // The run takes four seconds, a stage a second: the tree's row is read as it changes.
      const seen: string[] = [];
      let shot = false;
      await poll(
        async () => {
          for (const row of await taskRowsNow(TOOL)) if (!seen.includes(row.description)) seen.push(row.description);
          if (!shot && seen.some((d) => /^working · /.test(d))) {
            shot = true;
            await wb.screenshot('tasks-tree-running');
          }
          return seen.some((d) => /^completed · /.test(d));
        },
        40_000,
        'the task row to reach completed',
      );
      const working = seen.filter((d) => /^working · /.test(d));
      assert.ok(working.some((d) => STAGES.test(d)), `a stage in the row: ${JSON.stringify(seen)}`);
      assert.ok(seen.findIndex((d) => /^completed · /.test(d)) > seen.findIndex((d) => /^working · /.test(d)), `working, then completed: ${JSON.stringify(seen)}`);
      const text = await resultText(panel, /Research Report: tides/);
      const id = /From task (\S+) \(completed\)/.exec(text)?.[1];
      assert.ok(id, `the result names its task: ${text.slice(0, 300)}`);
      await poll(async () => /task .* · completed/.test(((await panel.locator('.history-item .history-task').first().innerText().catch(() => '')) || '')), 10_000, 'the history entry with the task');
      assert.equal(await panel.locator('.history-item .history-task').first().getAttribute('title'), `Ran as task ${id}`);
      await taskRows((rows) => rows.some((r) => r.label === TOOL && /^completed · /.test(r.description)), 'the completed task in the tree');
      await wb.screenshot('tasks-completed');
    });
  });

  test('Cancel in the panel sends tasks/cancel; the task is cancelled in the panel, the tree and the history; its form closes', { timeout: 240_000 }, async () => {
    await step('cancel-panel', async () => {
      const { panel, id } = await waitingTask('glaciers');
      assert.match(await panel.locator('#progress .task-status .task-input').innerText(), /The server waits for your input/);
      await wb.screenshot('tasks-panel-waiting');
      await panel.locator('#cancel').click();
      await cancelledInPanel(panel);
      await framesWhen(cancelSentFor(id));
      await poll(async () => (await wb.webviewFrames('asks you for information')).length === 0, 15_000, 'the form to close');
      await taskRows((rows) => rows.some((r) => r.label === TOOL && /^cancelled · /.test(r.description)), 'the cancelled task in the tree');
      await poll(async () => /· cancelled/.test(((await panel.locator('.history-item .history-task').first().innerText().catch(() => '')) || '')), 10_000, 'the cancelled history entry');
    });
  });

  test('Cancel on the task row in the tree sends tasks/cancel; the panel shows it cancelled', { timeout: 240_000 }, async () => {
    await step('cancel-tree', async () => {
      const { panel, id } = await waitingTask('python');
      await taskRows((rows) => rows.some((r) => r.label === TOOL && /^waiting for input/.test(r.description)), 'the waiting task in the tree');
      await cancelOnRow(TOOL, /^waiting for input/, () => framesWhen(cancelSentFor(id), 5_000).then(() => true, () => false));
      await cancelledInPanel(panel);
      assert.match(await panel.locator('.result').innerText(), new RegExp(`cancelled task ${id} \\(tasks/cancel sent; the server says cancelled\\)`));
      await taskRows((rows) => rows.some((r) => r.label === TOOL && /^cancelled · /.test(r.description)), 'the cancelled task in the tree');
      await wb.screenshot('tasks-tree-cancelled');
    });
  });

  test('a panel closed while its task runs does not lose it: the completion notice opens the result', { timeout: 240_000 }, async () => {
    await step('closed-panel', async () => {
      const { form, id } = await waitingTask('python');
      // Close the tool panel's tab only: the form stays.
      const tab = wb.page.locator('.tabs-container .tab', { hasText: 'Simulate Research Query' }).first();
      await tab.hover();
      await tab.locator('.tab-actions .action-label').first().click();
      await tab.waitFor({ state: 'detached', timeout: 10_000 });
      await form.locator('.field[data-path="/interpretation"] select').first().selectOption({ label: 'Python programming language' });
      await form.locator('#accept').click();
      const message = `Task ${TOOL} (${id.slice(0, 8)}) on everything completed`;
      await poll(async () => (await wb.notifications()).find((n) => n.includes(message)), 40_000, 'the completion notice');
      // The notice fades unread: the row keeps the news, and the view's badge counts it.
      await taskRows((rows) => rows.some((r) => r.label === TOOL && /^● not opened · completed/.test(r.description)), 'the task row marked as not opened');
      const badge = wb.page.locator('.part.activitybar .action-item:has(.action-label[aria-label*="MCP Host"]) .badge-content');
      await poll(async () => (await badge.first().innerText().catch(() => '')).trim() === '1', 10_000, 'the view\'s badge counting the task');
      await wb.screenshot('tasks-completion-notice');
      assert.equal(cancelSentFor(id)(traceFrames(await wb.outputChannelText(CHANNEL))), false, 'closing the panel did not cancel the task');
      await wb.answerNotification(message, 'Open Result');
      const reopened = await webview(TOOL);
      const text = await resultText(reopened, /Research Report: python/);
      assert.match(text, new RegExp(`From task ${id} \\(completed\\)`));
      assert.equal(await reopened.locator('.field[data-path="/topic"] input, .field[data-path="/topic"] textarea').first().inputValue(), 'python', 'the form shows the call\'s arguments');
      await taskRows((rows) => rows.some((r) => r.label === TOOL && /^completed/.test(r.description)), 'the mark gone once opened');
      await wb.screenshot('tasks-result-from-notice');
    });
  });

  test('ambiguous: the task waits for input, the panel says so, the form opens and its answer reaches the result', { timeout: 240_000 }, async () => {
    await step('ambiguous', async () => {
      const panel = await runResearch('python', true);
      await taskStatus(panel, /^waiting for input$/, 30_000);
      assert.match(await panel.locator('#progress .task-status .task-input').innerText(), /The server waits for your input/);
      await taskRows((rows) => rows.some((r) => r.label === TOOL && /^waiting for input · Found multiple interpretations/.test(r.description)), 'the task waiting for input in the tree');
      const form = await webview('asks you for information', 90_000);
      await wb.screenshot('tasks-input-required');
      const field = form.locator('.field[data-path="/interpretation"]');
      await field.locator('select').first().selectOption({ label: 'Python programming language' });
      await form.locator('#accept').click();
      const text = await resultText(panel, /Clarification:?\s*programming/);
      assert.match(text, /Research Report: python/);
      await wb.screenshot('tasks-ambiguous-answered');
    });
  });
});
