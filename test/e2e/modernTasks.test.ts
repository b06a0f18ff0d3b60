// End-to-end: 2026-07-28 tasks (the `io.modelcontextprotocol/tasks` extension) in a real VS Code
// (code-server), with the extension's fixture on the official SDK 2.x
// (test/fixtures/servers/modernTasks.mjs over stdio, workspace `workspaces/modern-tasks`). The
// editor treats such a server's tasks as it does 2025-11-25 ones (tasks.test.ts): the Tasks group
// is under the server before the first task; a task shows its changing status there and in the
// tool panel, then its result; Cancel in the panel and on the tree row sends `tasks/cancel` (read
// from "MCP: modern" at Trace, and from the fixture's stderr line "task <id> cancel requested"),
// and the task ends cancelled; a task that waits for input opens the form, whose answer goes back
// with `tasks/update` and completes it; the history notes the task id and final status. Frames
// the editor sent are checked against the 2026-07-28 schema and the extension's.
// Screenshots: test-results/screenshots/modern-tasks-*.png.
// Order-dependent: the tests share one launch and one session log; the last test checks every frame
// the earlier ones sent (it needs tools/call, tasks/get, tasks/update, tasks/cancel and
// subscriptions/listen from them, and says which one is missing when run alone).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { defaultVsixPath, launch, repoRoot, step as runStep, traceFrames, type TraceFrame, type Workbench, waitUntil as poll } from './harness';
import { taskDriver } from './taskDriver';
import { childrenOf, allowServers } from './treeRows';
import { loadTasksSchemas, tasksWireProblems } from '../support/tasksSchema';

const WORKSPACE = join(repoRoot, 'test', 'e2e', 'workspaces', 'modern-tasks');
const SERVER = 'modern';
const CHANNEL = `MCP: ${SERVER}`;
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The extension declared in the request's own capabilities (`_meta`). */
const declaresTasks = (m: any) => m?.params?._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS_EXTENSION] !== undefined;

describe('2026-07-28 tasks (the tasks extension) in a real VS Code', () => {
  let wb: Workbench;

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `modern-tasks-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  const { command, webview, openToolPanel, run, taskStatus, taskMessage, resultText, cancelledInPanel, taskRows, taskRowsNow, cancelOnRow } = taskDriver(() => wb);

  /** Opens a fresh panel of `tool`, fills its number fields, runs it. */
  async function runTool(tool: string, numbers: Record<string, number> = {}): Promise<Frame> {
    const panel = await openToolPanel(tool);
    for (const [name, value] of Object.entries(numbers)) await panel.locator(`.field[data-path="/${name}"] input`).first().fill(String(value));
    await run(panel);
    return panel;
  }

  /** The text of "MCP: modern" once `check` holds for it. */
  async function logWhen(check: (text: string) => boolean, timeoutMs = 20_000): Promise<string> {
    return wb.outputChannelText(CHANNEL, { contains: check, timeoutMs });
  }

  async function framesWhen(check: (frames: TraceFrame[]) => boolean, timeoutMs = 20_000): Promise<TraceFrame[]> {
    return traceFrames(await logWhen((t) => check(traceFrames(t)), timeoutMs));
  }

  const sent = (frames: TraceFrame[], method: string) => frames.filter((f) => f.direction === 'send' && f.message?.method === method).map((f) => f.message);
  const cancelSentFor = (taskId: string) => (frames: TraceFrame[]) => sent(frames, 'tasks/cancel').some((m) => m.params?.taskId === taskId && declaresTasks(m));
  /** The fixture writes each task change to stderr, which the channel logs as "stderr: …". */
  const serverSaid = (line: string) => (text: string) => text.includes(`stderr: ${line}`);

  async function historyTask(panel: Frame, status: string): Promise<string> {
    const entry = panel.locator('.history-item .history-task').first();
    await poll(async () => new RegExp(`task .* · ${status}$`).test(((await entry.innerText().catch(() => '')) || '').trim()), 10_000, `the history entry with the ${status} task`);
    return (await entry.getAttribute('title')) ?? '';
  }

  before(async () => {
    await loadTasksSchemas();
    wb = await launch({ workspace: WORKSPACE, vsix: VSIX, timeoutMs: 150_000 });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem(SERVER, { timeoutMs: 30_000 });
    await allowServers(wb, 1);
    await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
    await wb.setLogLevel(CHANNEL, 'Trace');
    // A modern server has no ping: the frames kept from before Trace are replayed once it applies.
    await framesWhen((frames) => sent(frames, 'server/discover').length > 0);
    await command('View: Hide Panel');
  });

  after(async () => {
    if (!wb) return;
    await wb.close();
    assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
  });

  test('the server speaks 2026-07-28 and has a Tasks group; `long` runs as a task: its status changes in the tree and the panel, then its result; the history notes it', { timeout: 240_000 }, async () => {
    await step('run', async () => {
      const items = await wb.treeItems();
      assert.match(items.find((i) => i.label === SERVER)?.description ?? '', /^modern-tasks 1\.0\.0 · \.vscode\/mcp\.json · MCP 2026-07-28 \(modern\)$/);
      assert.ok(
        childrenOf(items, SERVER).some((i) => i.label === 'Tasks' && i.description === 'none'),
        `an empty Tasks group under the server before any task: ${JSON.stringify(items.map((i) => [i.label, i.description]))}`,
      );
      const panel = await runTool('long', { steps: 6, stepMs: 800 });
      const running = await taskStatus(panel, /^working$/);
      assert.match(running.id, /^[0-9a-f-]{36}$/);
      // Each step is "step i of 6" for 0.8 s: the tree's row is read as it changes, and the panel's message with it.
      const seen: string[] = [];
      const messages: string[] = [];
      let shot = false;
      await poll(
        async () => {
          for (const row of await taskRowsNow('long')) if (!seen.includes(row.description)) seen.push(row.description);
          const message = await taskMessage(panel);
          if (message && !messages.includes(message)) messages.push(message);
          if (!shot && seen.some((d) => /^working · step [2-5] of 6/.test(d))) {
            shot = true;
            await wb.screenshot('modern-tasks-running');
          }
          return seen.some((d) => /^completed · /.test(d));
        },
        40_000,
        'the task row to reach completed',
      );
      const steps = new Set(seen.map((d) => /^working · (step \d of 6)/.exec(d)?.[1]).filter(Boolean));
      assert.ok(steps.size >= 2, `the row followed the steps: ${JSON.stringify(seen)}`);
      assert.ok(seen.findIndex((d) => /^completed · /.test(d)) > seen.findIndex((d) => /^working · step/.test(d)), `working, then completed: ${JSON.stringify(seen)}`);
      assert.ok(messages.filter((m) => /^step \d of 6$/.test(m)).length >= 2, `the panel followed the steps: ${JSON.stringify(messages)}`);
      const text = await resultText(panel, /long done after 6 steps/);
      assert.match(text, new RegExp(`From task ${running.id} \\(completed\\)`));
      assert.equal(await historyTask(panel, 'completed'), `Ran as task ${running.id}`);
      await taskRows((rows) => rows.some((r) => r.label === 'long' && /^completed · done/.test(r.description)), 'the completed task in the tree');
      // On the wire: tools/call declared the extension and was answered with the task; status came as notifications/tasks.
      const frames = await framesWhen((f) => f.some((x) => x.direction === 'receive' && x.message?.method === 'notifications/tasks' && x.message.params?.taskId === running.id && x.message.params.status === 'completed'));
      const call = sent(frames, 'tools/call').find((m) => m.params?.name === 'long');
      assert.ok(call && declaresTasks(call), 'tools/call declares the tasks extension');
      assert.ok(
        frames.some((f) => f.direction === 'receive' && f.message?.id === call.id && f.message.result?.resultType === 'task' && f.message.result.taskId === running.id),
        'the server answered tools/call with the task',
      );
      assert.ok(sent(frames, 'subscriptions/listen').some((m) => m.params?.notifications?.taskIds?.includes(running.id)), 'the status was asked for on subscriptions/listen');
      await wb.screenshot('modern-tasks-completed');
    });
  });

  test('Cancel in the panel sends tasks/cancel; the server cancels the task; the panel, the tree and the history say cancelled', { timeout: 240_000 }, async () => {
    await step('cancel-panel', async () => {
      const panel = await runTool('long', { steps: 200, stepMs: 500 });
      const { id } = await taskStatus(panel, /^working$/);
      await taskRows((rows) => rows.some((r) => r.label === 'long' && /^working · step/.test(r.description)), 'the running task in the tree');
      await wb.screenshot('modern-tasks-panel-running');
      await panel.locator('#cancel').click();
      await cancelledInPanel(panel);
      assert.match(await panel.locator('.result').innerText(), new RegExp(`cancelled task ${id} \\(tasks/cancel sent; the server says cancelled\\)`));
      await framesWhen(cancelSentFor(id));
      await logWhen(serverSaid(`task ${id} cancel requested`));
      await logWhen(serverSaid(`task ${id} cancelled cancelled on request`));
      await taskRows((rows) => rows.some((r) => r.label === 'long' && /^cancelled · cancelled on request/.test(r.description)), 'the cancelled task in the tree');
      assert.equal(await historyTask(panel, 'cancelled'), `Ran as task ${id}`);
      // Cancelled means stopped: the server's steps end (a later step would be logged as "task <id> working step …").
      const before = (await wb.outputChannelText(CHANNEL)).split(`task ${id} working`).length;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal((await wb.outputChannelText(CHANNEL)).split(`task ${id} working`).length, before, 'no step after the cancel');
      await wb.screenshot('modern-tasks-panel-cancelled');
    });
  });

  test('a task that asks for input: the panel and the tree say it waits, the form opens, its answer goes back with tasks/update and completes the task', { timeout: 240_000 }, async () => {
    await step('input', async () => {
      const panel = await runTool('ask-name');
      const form = await webview('asks you for information', 60_000);
      // The form opened in the panel's editor group: bring the panel back to the front.
      await wb.page.locator('.tabs-container .tab', { hasText: 'ask-name' }).first().click();
      const { id, message } = await taskStatus(panel, /^waiting for input$/, 30_000);
      assert.equal(message, 'waiting for a name');
      assert.match(await panel.locator('#progress .task-status .task-input').innerText(), /The server waits for your input/);
      await taskRows((rows) => rows.some((r) => r.label === 'ask-name' && /^waiting for input · waiting for a name/.test(r.description)), 'the task waiting for input in the tree');
      assert.match(await panel.locator('#progress .waiting-for-input').innerText(), /Waiting for input the server asked for \(elicitation\/create\) — the answers go to the task \(tasks\/update\)/);
      await wb.screenshot('modern-tasks-input-required');
      // The form's tab to the front again (a hidden webview's page may be replaced): then answer it.
      await wb.page.locator('.tabs-container .tab', { hasText: 'asks for information' }).first().click();
      const shown = (await wb.webviewFrames('asks you for information')).find((f) => f === form) ?? (await webview('asks you for information'));
      await shown.locator('.field[data-path="/name"] input, .field[data-path="/name"] textarea').first().fill('Grace');
      await wb.screenshot('modern-tasks-input-form');
      await shown.locator('#accept').click();
      const text = await resultText(panel, /hello Grace/);
      assert.match(text, new RegExp(`From task ${id} \\(completed\\)`));
      const frames = await framesWhen((f) => sent(f, 'tasks/update').some((m) => m.params?.taskId === id));
      const update = sent(frames, 'tasks/update').find((m) => m.params?.taskId === id);
      assert.ok(declaresTasks(update), 'tasks/update declares the extension');
      assert.deepEqual(update.params.inputResponses, { name: { action: 'accept', content: { name: 'Grace' } } });
      assert.equal(await historyTask(panel, 'completed'), `Ran as task ${id}`);
      await taskRows((rows) => rows.some((r) => r.label === 'ask-name' && /^completed · /.test(r.description)), 'the completed task in the tree');
      await wb.screenshot('modern-tasks-input-answered');
    });
  });

  test('Cancel on the task row in the tree sends tasks/cancel for a task waiting for input; its form closes; the panel shows it cancelled', { timeout: 240_000 }, async () => {
    await step('cancel-tree', async () => {
      const panel = await runTool('ask-name');
      await webview('asks you for information', 60_000);
      await wb.page.locator('.tabs-container .tab', { hasText: 'ask-name' }).first().click();
      const { id } = await taskStatus(panel, /^waiting for input$/, 30_000);
      await taskRows((rows) => rows.some((r) => r.label === 'ask-name' && /^waiting for input/.test(r.description)), 'the waiting task in the tree');
      await cancelOnRow('ask-name', /^waiting for input/, () => framesWhen(cancelSentFor(id), 5_000).then(() => true, () => false));
      await logWhen(serverSaid(`task ${id} cancel requested`));
      await cancelledInPanel(panel);
      assert.match(await panel.locator('.result').innerText(), new RegExp(`cancelled task ${id} \\(tasks/cancel sent; the server says cancelled\\)`));
      await poll(async () => (await wb.webviewFrames('asks you for information')).length === 0, 15_000, 'the form to close');
      await taskRows((rows) => rows.some((r) => r.label === 'ask-name' && /^cancelled · cancelled while waiting for input/.test(r.description)), 'the cancelled task in the tree');
      assert.equal(await historyTask(panel, 'cancelled'), `Ran as task ${id}`);
      // The form was never answered: no tasks/update went for this task.
      assert.equal(sent(traceFrames(await wb.outputChannelText(CHANNEL)), 'tasks/update').filter((m) => m.params?.taskId === id).length, 0);
      await wb.screenshot('modern-tasks-tree-cancelled');
    });
  });

  test('every frame of the session, both ways, is valid 2026-07-28 or valid for the tasks extension', async () => {
    const frames = traceFrames(await wb.outputChannelText(CHANNEL));
    // Frames cut at the log's payload limit have no message and are left out.
    const whole = frames.filter((f) => f.message !== undefined).map((f) => ({ direction: f.direction, message: f.message, bytes: f.json.length, time: 0 }));
    for (const method of ['tools/call', 'tasks/get', 'tasks/update', 'tasks/cancel', 'subscriptions/listen']) assert.ok(sent(frames, method).length > 0, `the session sent ${method}`);
    assert.deepEqual(tasksWireProblems(whole), []);
  });
});
