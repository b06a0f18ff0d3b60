// The Call Tool panel's decisions (src/extension/panels/toolPanelModel.ts), without a webview.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildFormModel } from '../../../src/forms/model';
import { initialState } from '../../../src/forms/state';
import { confirmQuestion, followedEnd, historyShown, inputFor, serverStateMessage, switchedInput, taskStatusMessage } from '../../../src/extension/panels/toolPanelModel';
import type { HistoryEntry } from '../../../src/usecases/history';
import type { TaskEntry } from '../../../src/usecases/taskStore';

const model = buildFormModel({ type: 'object', properties: { message: { type: 'string' } } });

suite('tool panel decisions', () => {
  test('the status line: Run works only while the server runs and lists the tool, and says why not', () => {
    const base = { serverName: 'echo', toolName: 'say', timeoutSeconds: 60, timeoutNote: 'default' };
    assert.deepEqual(serverStateMessage({ ...base, running: true, listed: true }), { type: 'serverState', running: true, timeoutSeconds: 60, timeoutNote: 'default' });
    assert.deepEqual(serverStateMessage({ ...base, running: true, listed: false }), { type: 'serverState', running: false, timeoutSeconds: 60, timeoutNote: 'default', text: 'The server no longer lists the tool say.' });
    assert.equal((serverStateMessage({ ...base, running: false, listed: true }) as { text?: string }).text, 'echo is not running — start it to call this tool.');
  });

  test('form → JSON always; JSON → form only when it parses and fits', () => {
    const toJson = switchedInput(model, { mode: 'form', state: initialState(model) });
    assert.ok('input' in toJson && toJson.input.mode === 'json');
    const back = switchedInput(model, { mode: 'json', text: '{"message":"hi"}' });
    assert.ok('input' in back && back.input.mode === 'form');
    const empty = switchedInput(model, { mode: 'json', text: '  ' });
    assert.ok('input' in empty && empty.input.mode === 'form');
    const broken = switchedInput(model, { mode: 'json', text: '{"message":' });
    assert.ok('warning' in broken && broken.warning.startsWith('Fix the JSON first: '));
    const unfit = switchedInput(model, { mode: 'json', text: '{"other":1}' });
    assert.ok('warning' in unfit && /cannot show/.test(unfit.warning));
  });

  test('arguments that do not fit the form go in as JSON, with a note', () => {
    assert.equal(inputFor(model, { message: 'x' }).input.mode, 'form');
    const unfit = inputFor(model, { message: 3 });
    assert.equal(unfit.input.mode, 'json');
    assert.match(unfit.note ?? '', /do not fit the form/);
  });

  test('a history entry: its kept result, its failure, or why nothing was kept; another tool’s entry is not shown', () => {
    const entry = (extra: Partial<HistoryEntry>): HistoryEntry => ({ id: 'h1', serverId: 's', kind: 'tool', name: 'say', outcome: 'ok', summary: '', durationMs: 12, time: 1, arguments: { message: 'x' }, ...extra }) as HistoryEntry;
    const result = historyShown(entry({ result: { content: [] }, resultCut: true }), 's', 'say');
    assert.ok(result?.kind === 'result' && result.durationMs === 12 && result.fromHistory.cut === true);
    assert.match(result.fromHistory.arguments ?? '', /"message": "x"/);
    assert.equal(historyShown(entry({ failure: { kind: 'other', message: 'no' } }), 's', 'say')?.kind, 'failure');
    assert.deepEqual(historyShown(entry({ resultOmitted: true }), 's', 'say'), { kind: 'notice', text: 'The result of that call was too large to keep in the history.' });
    assert.equal(historyShown(entry({}), 's', 'other'), undefined);
    assert.equal(historyShown(entry({}), 'other-server', 'say'), undefined);
  });

  test('a task: Cancel while it runs and this window may cancel it; a followed task’s end by what was seen', () => {
    const task = (extra: Partial<TaskEntry>): TaskEntry => ({ taskId: 't1', status: 'working', createdAt: 0, origin: 'Call Tool', followed: false, ...extra }) as TaskEntry;
    const status = (entry: TaskEntry, own: boolean) => (taskStatusMessage(entry, 'c1', own) as { task: { canCancel: boolean; followed: boolean } }).task;
    assert.deepEqual(status(task({}), true), { taskId: 't1', status: 'working', canCancel: true, followed: false });
    assert.equal(status(task({}), false).canCancel, false);
    assert.equal(status(task({ origin: 'tasks/list' }), false).canCancel, true);
    assert.equal(status(task({ status: 'completed' }), true).canCancel, false);
    assert.deepEqual(followedEnd(task({ status: 'completed' })), { kind: 'fetchResult' });
    assert.deepEqual(followedEnd(task({ status: 'cancelled', statusMessage: 'by user' })), { kind: 'failure', failure: { kind: 'other', message: 'The task was cancelled: by user.' } });
    assert.deepEqual(followedEnd(task({ status: 'completed', outcome: { kind: 'answered', result: { content: [] } } } as Partial<TaskEntry>)), { kind: 'result', result: { content: [] } });
  });

  test('the confirmation names the tool and server and shows the arguments, cut', () => {
    const q = confirmQuestion('delete', 'files', 'It may delete files.', { path: 'x'.repeat(2000) });
    assert.equal(q.message, 'Run delete on files?');
    assert.ok(q.detail.startsWith('It may delete files.\n\nArguments:\n'));
    assert.ok(q.detail.length < 1000);
  });
});
