// The Servers tree's rows as plain data (src/extension/tree/treeItemModel.ts): what each kind of
// row says and which rows a server has in each state, without an editor.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  UNTRUSTED_REASON,
  detailRow,
  groupRow,
  hoverTooltip,
  moreRow,
  resourceRow,
  rootsRow,
  serverChildren,
  serverRow,
  stderrLines,
  taskRow,
  tasksRow,
  toolRow,
} from '../../../src/extension/tree/treeItemModel';
import type { ShownStatus } from '../../../src/extension/tree/serverRowText';
import type { TaskEntry } from '../../../src/usecases/taskStore';
import type { TreeNode } from '../../../src/extension/tree/treeNodes';
import { fakeHandle } from './fakeServers';

const redact = (text: string) => text.replaceAll('abc', '****');
const context = (shown: ShownStatus) => ({ shown, origin: 'User settings', redact });

suite('tree rows: servers', () => {
  test('a starting or waiting server keeps the id of its stopped row; a running one gets its own, and no click (it expands)', () => {
    const h = fakeHandle({ status: { kind: 'starting' } });
    const node: TreeNode = { kind: 'server', serverId: h.id };
    assert.equal(serverRow(node, h, context({ kind: 'starting' })).id, `server:stopped:${h.id}`);
    assert.equal(serverRow(node, h, context({ kind: 'waiting', waitingFor: 'consent' })).id, `server:stopped:${h.id}`);
    const running = fakeHandle({ status: { kind: 'running' }, capabilities: { tools: {} } });
    const row = serverRow(node, running, context({ kind: 'running' }));
    assert.equal(row.id, `server:running:${h.id}`);
    assert.equal(row.expansion, 'expanded');
    assert.equal(row.command, undefined);
    assert.deepEqual(row.icon, { id: 'pass', color: 'testing.iconPassed' });
  });

  test('a stopped row opens the details, a server waiting for sign-in signs in; Sign Out shows in the menu key', () => {
    const h = fakeHandle();
    const node: TreeNode = { kind: 'server', serverId: h.id };
    assert.equal(serverRow(node, h, context({ kind: 'stopped' })).command?.command, 'mcpHost.server.details');
    const signin = serverRow(node, h, { ...context({ kind: 'signin' }), canSignOut: true });
    assert.equal(signin.command?.command, 'mcpHost.server.signIn');
    assert.deepEqual(signin.command?.arguments, [node]);
    assert.equal(signin.contextValue, 'server.signin.auth');
    assert.equal(serverRow(node, h, context({ kind: 'stopped' })).contextValue, 'server.stopped');
  });

  test('marks come first in the description; an unresponsive running server shows a warning icon and says since when', () => {
    const h = fakeHandle({ status: { kind: 'running' } });
    const row = serverRow({ kind: 'server', serverId: h.id }, h, { ...context({ kind: 'running' }), recording: true, shared: true, sandbox: ['No network.'], health: { kind: 'unresponsive', since: Date.UTC(2026, 0, 1), failures: 3, error: 'timeout' } });
    assert.match(String(row.description), /^sandboxed · ● recording · unresponsive · shared with chat · /);
    assert.deepEqual(row.icon, { id: 'warning', color: 'list.warningForeground' });
    const tooltip = typeof row.tooltip === 'object' ? row.tooltip.markdown : '';
    assert.match(tooltip, /\*\*Sandboxed\*\*: No network\./);
    assert.match(tooltip, /\*\*Unresponsive\*\* since .*: 3 ping\(s\) failed/);
    // Unresponsive only counts while it runs.
    const stopped = serverRow({ kind: 'server', serverId: h.id }, fakeHandle(), { ...context({ kind: 'stopped' }), health: { kind: 'unresponsive', since: 0, failures: 1, error: 'timeout' } });
    assert.deepEqual(stopped.icon, { id: 'circle-outline' });
  });

  test('a server the registry has a newer version of says "update <version>" first, and its tooltip says how to update', () => {
    const h = fakeHandle();
    const row = serverRow({ kind: 'server', serverId: h.id }, h, { ...context({ kind: 'stopped' }), registryUpdate: { installed: '1.0.1', latest: '1.0.2' } });
    assert.match(String(row.description), /^update 1\.0\.2 · /);
    const tooltip = typeof row.tooltip === 'object' ? row.tooltip.markdown : '';
    assert.match(tooltip, /\*\*Update\*\*: the registry has 1\\\.0\\\.2 \(installed: 1\\\.0\\\.1\); run Update Servers from Registry/);
    assert.doesNotMatch(String(serverRow({ kind: 'server', serverId: h.id }, h, context({ kind: 'stopped' })).description), /update/);
  });

  test('a remote server shows its host, redacted, in the description', () => {
    const h = fakeHandle({ remoteUrl: 'https://abc.example.com:8443/mcp?key=abc' });
    const row = serverRow({ kind: 'server', serverId: h.id }, h, context({ kind: 'stopped' }));
    assert.match(String(row.description), /\*\*\*\*\.example\.com:8443/);
    assert.doesNotMatch(JSON.stringify(row), /abc/);
  });
});

suite('tree rows: under a server', () => {
  test('a running server lists the groups its capabilities declare, then Tasks and Skills when asked, then Roots', () => {
    const h = fakeHandle({ status: { kind: 'running' }, capabilities: { tools: {}, prompts: {} } });
    const kinds = (tasks: boolean, skills: boolean) => serverChildren(h, { shown: { kind: 'running' }, redact, tasks, skills }).map((n) => (n.kind === 'group' ? `group:${n.list}` : n.kind));
    assert.deepEqual(kinds(false, false), ['group:tools', 'group:prompts', 'roots']);
    assert.deepEqual(kinds(true, true), ['group:tools', 'group:prompts', 'tasks', 'skills', 'roots']);
    const withResources = fakeHandle({ status: { kind: 'running' }, capabilities: { resources: {} } });
    assert.deepEqual(
      serverChildren(withResources, { shown: { kind: 'running' }, redact, tasks: false, skills: false }).map((n) => (n.kind === 'group' ? n.list : n.kind)),
      ['resources', 'templates', 'roots'],
    );
  });

  test('a failed server: the error (redacted, a click diagnoses), the pending restart, the last 20 stderr lines', () => {
    const stderr = Array.from({ length: 25 }, (_, i) => `line ${i} abc`);
    const h = fakeHandle({ status: { kind: 'error', message: 'spawn failed: token abc', stderrTail: stderr, restart: { attempt: 2, maxRestarts: 5, delayMs: 1000, at: Date.now() }, reconnecting: true } });
    const rows = serverChildren(h, { shown: { kind: 'error' }, redact, tasks: false, skills: false });
    assert.deepEqual(rows.map((r) => r.kind), ['detail', 'detail', 'stderr']);
    const [error, restart, lines] = rows;
    assert.ok(error.kind === 'detail' && restart.kind === 'detail' && lines.kind === 'stderr');
    assert.equal(error.label, 'spawn failed: token ****');
    assert.equal(error.command?.command, 'mcpHost.server.diagnose');
    assert.equal(restart.label, 'Reconnecting (2 of 5)');
    assert.equal(lines.lines.length, 20);
    assert.equal(lines.lines[0], 'line 5 abc');
    const shown = stderrLines(h.id, lines.lines, redact);
    assert.ok(shown[0].kind === 'detail' && shown[0].label === 'line 5 ****' && shown[0].key === 'stderr:0');
  });

  test('blocked: an untrusted workspace links to Manage Workspace Trust, a refused consent to Allow Server', () => {
    const h = fakeHandle({ workspace: true });
    const untrusted = serverChildren(h, { shown: { kind: 'blocked', reason: UNTRUSTED_REASON }, redact, tasks: false, skills: false })[0];
    assert.ok(untrusted.kind === 'detail');
    assert.equal(untrusted.command?.command, 'workbench.trust.manage');
    assert.deepEqual(untrusted.icon, { id: 'workspace-untrusted' });
    const denied = serverChildren(h, { shown: { kind: 'blocked', reason: 'Consent denied' }, redact, tasks: false, skills: false })[0];
    assert.ok(denied.kind === 'detail');
    assert.deepEqual(denied.command, { command: 'mcpHost.server.allow', title: 'Allow Server…', arguments: [h.id] });
    assert.deepEqual(detailRow(denied).icon, { id: 'circle-slash' });
    for (const kind of ['stopped', 'starting', 'stopping', 'waiting', 'signin'] as const) assert.deepEqual(serverChildren(h, { shown: { kind }, redact, tasks: true, skills: true }), []);
  });
});

suite('tree rows: groups and leaves', () => {
  test('a group: loading, then its count (and what was skipped); an empty or failed one does not expand and has its own id', () => {
    const h = fakeHandle({ status: { kind: 'running' } });
    assert.equal(groupRow(h, 'tools').description, 'loading…');
    assert.equal(groupRow(h, 'tools').id, `${h.id}/tools:empty`);
    const filled = fakeHandle({ status: { kind: 'running' }, extra: { tools: [{ name: 'a', inputSchema: { type: 'object' } }], skippedItems: { tools: [{ index: 1, name: 'bad', problem: 'no inputSchema' }] } } });
    const row = groupRow(filled, 'tools');
    assert.equal(row.id, `${h.id}/tools`);
    assert.equal(row.expansion, 'collapsed');
    assert.equal(row.description, '1 · 1 skipped');
    assert.deepEqual(row.icon, { id: 'warning' });
    assert.match(String(row.tooltip), /^1 skipped as malformed:/);
    const failed = groupRow(fakeHandle({ status: { kind: 'running' }, extra: { listErrors: { prompts: 'timed out' } } }), 'prompts');
    assert.equal(failed.description, 'failed: timed out');
    assert.equal(failed.expansion, 'none');
  });

  test('a tool row says when chat switched it off or it changed since approved; its click calls it', () => {
    const node = { kind: 'tool', serverId: 's', tool: { name: 'echo', description: 'Echoes', inputSchema: { type: 'object' } }, index: 1 } as const;
    const row = toolRow(node, { changed: true, disabled: true });
    assert.equal(row.id, 's/tool/echo#1');
    assert.equal(row.description, 'off for models · ⚠ changed since you approved it · Echoes');
    assert.equal(row.command?.command, 'mcpHost.tool.call');
  });

  test('a resource row carries its subscription mark; the hover tooltip adds its note', () => {
    const node = { kind: 'resource', serverId: 's', resource: { uri: 'file:///a.txt', name: 'a' }, index: 0 } as const;
    const mark = { contextValue: 'resource.subscribed', icon: 'bell-dot', badge: 'subscribed', note: 'Subscribed: it tells.' } as const;
    const row = resourceRow(node, mark);
    assert.equal(row.contextValue, 'resource.subscribed');
    assert.equal(row.description, 'subscribed · file:///a.txt');
    assert.match(hoverTooltip(node, () => mark) ?? '', /Subscribed\\: it tells\\\.$/);
    assert.equal(hoverTooltip({ kind: 'roots', serverId: 's' }, () => mark), undefined);
  });

  test('the Show more row counts what is hidden; only the tools one points at Find Tool', () => {
    const page = { shown: 200, total: 5003, hidden: 4803, next: 200 };
    const tools = moreRow({ kind: 'more', serverId: 's', list: 'tools', page });
    assert.equal(tools.label, 'Show 200 more');
    assert.equal(tools.description, '4,803 not shown');
    assert.match(String(tools.tooltip), /Find Tool/);
    assert.doesNotMatch(String(moreRow({ kind: 'more', serverId: 's', list: 'prompts', page }).tooltip), /Find Tool/);
  });

  test('Roots says whether the server asked for them', () => {
    assert.match(String(rootsRow('s', [], undefined, Date.now()).tooltip), /has not asked/);
    const asked = rootsRow('s', [{ uri: 'file:///w' }], Date.now() - 60_000, Date.now());
    assert.equal(asked.expansion, 'collapsed');
    assert.match(String(asked.tooltip), /last asked for roots at .*\(1m ago\)/);
  });
});

suite('tree rows: tasks', () => {
  const task = (status: TaskEntry['status'], extra: Partial<TaskEntry> = {}): TaskEntry => ({ taskId: 'task-1234567890', status, createdAt: Date.now() - 90_000, origin: 'Call Tool', toolName: 'slow', ...extra }) as TaskEntry;

  test('the group opens once it has tasks; running rows offer Cancel, a waiting one rings in the warning color', () => {
    assert.equal(tasksRow('s', [], undefined).expansion, 'none');
    assert.equal(tasksRow('s', [task('working')], undefined).expansion, 'expanded');
    const running = taskRow('s', task('working'), Date.now());
    assert.equal(running.contextValue, 'task.running');
    assert.match(typeof running.tooltip === 'object' ? running.tooltip.markdown : '', /Cancel sends tasks\/cancel/);
    assert.deepEqual(taskRow('s', task('input_required'), Date.now()).icon, { id: 'bell-dot', color: 'list.warningForeground' });
    const done = taskRow('s', task('completed', { endedAt: Date.now() }), Date.now());
    assert.equal(done.contextValue, 'task.ended');
    assert.match(typeof done.tooltip === 'object' ? done.tooltip.markdown : '', /Click to open its result\./);
    assert.equal(taskRow('s', task('failed', { toolName: undefined }), Date.now()).label, 'task task-123');
  });
});
