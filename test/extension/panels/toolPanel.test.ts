// The Call Tool panel (src/extension/panels/toolPanel.ts) on the vscode double, against real
// servers (server-everything and the workbench fixture over stdio): the test plays the page's
// script (the messages it posts) and reads what the extension posts back. What the page draws
// is the page harness's (test/webview/); a click in a real window stays with test/e2e/.
import '../../support/vscode/vscodeModule';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ToolPanel } from '../../../src/extension/panels/toolPanel';
import { EVERYTHING, NODE, entries, node, sharedFixture } from '../../registry/support';
import { lastPanel, panelHost, posted, waitUntil, postedTypes, vscode } from './panelSupport';

type Host = Awaited<ReturnType<typeof panelHost>>;
const noResource = async () => undefined;

suite('tool panel (vscode double, real servers)', () => {
  let host: Host;
  before(async () => {
    host = await panelHost(entries({ everything: { command: NODE, args: EVERYTHING }, workbench: node(sharedFixture('workbench.mjs')) }));
  });
  afterEach(() => {
    ToolPanel.disposeAll();
    vscode.recorder.reset();
  });
  after(() => host.close());

  const open = (server: string, tool: string) => {
    ToolPanel.show(host.ctx, host.idOf(server), tool, noResource);
    return lastPanel();
  };

  test('nothing reaches the page before its script says ready; then the form, the history and the server state, in that order', async () => {
    const panel = open('everything', 'echo');
    assert.equal(panel.title, 'Echo Tool — everything');
    assert.match(panel.webview.html, /Content-Security-Policy/);
    assert.deepEqual(panel.webview.options.localResourceRoots, [vscode.Uri.joinPath(host.ctx.extensionUri, 'media')]);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(panel.webview.posted, [], 'held in the outbox until ready');
    panel.webview.fromPage({ type: 'ready' });
    const init = await posted<{ header: Record<string, unknown>; history: unknown[]; timeoutSeconds: number }>(panel, 'initTool');
    assert.equal(init.header.serverName, 'everything');
    assert.equal(init.header.name, 'echo');
    assert.equal(init.header.title, 'Echo Tool');
    assert.deepEqual(init.history, []);
    assert.equal(init.timeoutSeconds, 60);
    const state = await posted<{ running: boolean }>(panel, 'serverState');
    assert.equal(state.running, true);
    assert.deepEqual(await posted(panel, 'remember'), { type: 'remember', state: { kind: 'tool', serverId: host.idOf('everything'), name: 'echo' } });
    // The same tool again: the open panel is shown, no second one.
    ToolPanel.show(host.ctx, host.idOf('everything'), 'echo', noResource);
    assert.equal(vscode.recorder.webviewPanels.length, 1);
    assert.equal(panel.reveals, 1);
  });

  test('validate: field errors for what does not fit the schema, the arguments as JSON for what does', async () => {
    const panel = open('everything', 'get-sum');
    panel.webview.fromPage({ type: 'ready' });
    panel.webview.fromPage({ type: 'validate', input: { mode: 'json', text: '{ "a": 1, "b": "two" }' } });
    const bad = await posted<{ errors: { path: string; message: string }[]; preview?: string }>(panel, 'validation');
    assert.deepEqual(bad.errors.map((e) => [e.path, e.message]), [['/b', 'expected a number, got a string']]);
    assert.equal(bad.preview, undefined);
    panel.webview.fromPage({ type: 'validate', input: { mode: 'json', text: '{ "a": 1, "b": 2 }' } });
    const good = await posted<{ errors: unknown[]; preview?: string }>(panel, 'validation', 2);
    assert.deepEqual(good.errors, []);
    assert.deepEqual(JSON.parse(good.preview!), { a: 1, b: 2 });
  });

  test('run: running, then the result, kept in the history (which the page is sent again) and logged', async () => {
    const panel = open('everything', 'echo');
    panel.webview.fromPage({ type: 'ready' });
    panel.webview.fromPage({ type: 'run', input: { mode: 'form', state: { message: 'hi there' } } });
    const running = await posted<{ callId: string; arguments: string }>(panel, 'running');
    assert.deepEqual(JSON.parse(running.arguments), { message: 'hi there' });
    const result = await posted<{ callId: string; display: unknown }>(panel, 'toolResult');
    assert.equal(result.callId, running.callId);
    assert.match(JSON.stringify(result.display), /Echo: hi there/);
    const history = await posted<{ entries: { id: string; outcome: string }[] }>(panel, 'history');
    assert.equal(history.entries.length, 1);
    assert.equal(history.entries[0].outcome, 'ok');
    assert.ok(host.logs.some((l) => l.serverId === host.idOf('everything') && /echo/.test(l.text)), 'the call is in the server\'s log');
    // Copy result as JSON: what the server sent, not what the page shows.
    panel.webview.fromPage({ type: 'copyResult', callId: result.callId });
    await waitUntil(() => vscode.env.clipboard.text !== '');
    assert.deepEqual(JSON.parse(vscode.env.clipboard.text).content, [{ type: 'text', text: 'Echo: hi there' }]);
    // Re-run from the history: the form gets the arguments back and the call runs again.
    panel.webview.fromPage({ type: 'rerun', historyId: history.entries[0].id });
    await posted(panel, 'setInput');
    await posted(panel, 'toolResult', 2);
    assert.equal(host.ctx.history.list(host.idOf('everything'), { kind: 'tool', name: 'echo' }).length, 2);
    panel.webview.fromPage({ type: 'clearHistory' });
    await waitUntil(() => host.ctx.history.list(host.idOf('everything'), { kind: 'tool', name: 'echo' }).length === 0);
  });

  test('a tool that may delete things asks first: Escape sends nothing, Run sends it, Always stops asking', async () => {
    const target = join(host.ctx.extension.globalStorageUri.fsPath, 'victim.txt');
    writeFileSync(target, 'x');
    const panel = open('workbench', 'delete_path');
    panel.webview.fromPage({ type: 'ready' });
    const run = () => panel.webview.fromPage({ type: 'run', input: { mode: 'form', state: { path: target } } });
    vscode.recorder.answers.push(undefined);
    run();
    await waitUntil(() => vscode.recorder.callsOf('window.showWarningMessage').length === 1);
    const [message, options, ...buttons] = vscode.recorder.callsOf('window.showWarningMessage')[0] as [string, { modal: boolean; detail: string }, ...string[]];
    assert.match(message, /delete_path/);
    assert.equal(options.modal, true);
    assert.match(options.detail, /victim\.txt/, 'the arguments are shown');
    assert.equal(buttons.length, 2);
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(!postedTypes(panel).includes('running'), 'declined: nothing sent');
    assert.ok(existsSync(target));
    vscode.recorder.answers.push(buttons[1]);
    run();
    const result = await posted(panel, 'toolResult');
    assert.match(JSON.stringify(result), /deleted/);
    assert.ok(!existsSync(target));
    run();
    await posted(panel, 'toolResult', 2);
    assert.equal(vscode.recorder.callsOf('window.showWarningMessage').length, 2, '"always" was chosen: not asked again');
  });

  test('Cancel ends a running call with the reason, and progress reaches the page on the way', async () => {
    const panel = open('everything', 'trigger-long-running-operation');
    panel.webview.fromPage({ type: 'ready' });
    panel.webview.fromPage({ type: 'run', input: { mode: 'json', text: '{ "duration": 30, "steps": 30 }' } });
    await posted(panel, 'progress');
    panel.webview.fromPage({ type: 'cancel' });
    const failure = await posted<{ failure: { message?: string; summary?: string } }>(panel, 'failure');
    assert.match(JSON.stringify(failure.failure), /you pressed Cancel in the panel/);
    const entry = host.ctx.history.list(host.idOf('everything'), { kind: 'tool', name: 'trigger-long-running-operation' })[0];
    assert.equal(entry.outcome, 'cancelled');
  });

  test('closing the panel while a call runs cancels the call; nothing is posted to the closed page', async () => {
    const calls = () => host.ctx.history.list(host.idOf('everything'), { kind: 'tool', name: 'trigger-long-running-operation' });
    const earlier = calls().length;
    const panel = open('everything', 'trigger-long-running-operation');
    panel.webview.fromPage({ type: 'ready' });
    panel.webview.fromPage({ type: 'run', input: { mode: 'json', text: '{ "duration": 30, "steps": 30 }' } });
    await posted(panel, 'running');
    const before = panel.webview.posted.length;
    panel.dispose();
    await waitUntil(() => calls().length === earlier + 1);
    const entry = calls()[0];
    assert.equal(entry.outcome, 'cancelled');
    assert.match(JSON.stringify(entry), /the panel was closed/);
    assert.equal(panel.webview.posted.length, before);
    assert.equal(ToolPanel.all().length, 0);
  });

  test('a malformed message is logged and dropped; switching to JSON carries the form over', async () => {
    const panel = open('everything', 'echo');
    panel.webview.fromPage({ type: 'ready' });
    await posted(panel, 'initTool');
    panel.webview.fromPage({ type: 'run', input: { mode: 'telepathy' } });
    await waitUntil(() => host.logs.some((l) => l.text.startsWith('Ignored a malformed message from the tool panel')));
    assert.ok(!postedTypes(panel).includes('running'));
    panel.webview.fromPage({ type: 'switchMode', input: { mode: 'form', state: { message: 'carried' } } });
    const set = await posted<{ input: { mode: string; text: string } }>(panel, 'setInput');
    assert.equal(set.input.mode, 'json');
    assert.deepEqual(JSON.parse(set.input.text), { message: 'carried' });
    panel.webview.fromPage({ type: 'switchMode', input: { mode: 'json', text: '{ "message": ' } });
    const notice = await posted<{ level: string; text: string }>(panel, 'notice');
    assert.equal(notice.level, 'warning');
  });

  test('a new panel takes the place of an untouched preview; one the user typed in stays', async () => {
    const first = open('everything', 'echo');
    const second = open('everything', 'get-sum');
    assert.equal(first.isDisposed, true, 'the untouched preview was replaced');
    second.webview.fromPage({ type: 'ready' });
    second.webview.fromPage({ type: 'edited' });
    await waitUntil(() => second.webview.posted.length > 0);
    const third = open('everything', 'echo');
    assert.equal(second.isDisposed, false, 'typed in: kept');
    assert.equal(third.isDisposed, false);
  });

  test('the server stops: the page is told Run cannot work now, and why', async () => {
    const panel = open('workbench', 'read_count');
    panel.webview.fromPage({ type: 'ready' });
    await posted(panel, 'serverState');
    await host.registry.stop(host.idOf('workbench'));
    host.serversChanged.fire(undefined);
    const state = await posted<{ running: boolean; text?: string }>(panel, 'serverState', 2);
    assert.equal(state.running, false);
    assert.match(state.text ?? '', /workbench is not running/);
    await host.registry.start(host.idOf('workbench'));
  });
});
