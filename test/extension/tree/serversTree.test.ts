// The Servers tree's provider (src/extension/serversTree.ts) on the vscode double: the root rows,
// the TreeItems it hands VS Code, the expansion it remembers across redraws, paging, and the
// coalesced redraw. What a click does in a real window stays with test/e2e/tree*.test.ts.
import { vscode } from '../../support/vscode/vscodeModule';
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as vscodeTypes from 'vscode';
import { ServersTreeProvider, type ServersTreeModel, type TreeNode } from '../../../src/extension/tree/serversTree';
import type { ConfigProblem } from '../../../src/config';
import type { ServerHandle } from '../../../src/registry';
import { MemoryMemento } from '../support';
import { fakeHandle } from './fakeServers';

function model(servers: ServerHandle[], extra: Partial<ServersTreeModel> = {}): ServersTreeModel & { changed: InstanceType<typeof vscode.EventEmitter<void>> } {
  const changed = new vscode.EventEmitter<void>();
  return {
    servers: () => servers,
    problems: () => [],
    displayStatus: (h) => ({ kind: h.status.kind }),
    originLabel: (source) => source.label,
    currentRoots: () => [{ uri: 'file:///work', name: 'work' }],
    redact: (text) => text.replaceAll('abc', '****'),
    isLoaded: () => true,
    onDidChange: changed.event as unknown as vscodeTypes.Event<void>,
    changed,
    ...extra,
  };
}

/** A view whose expand/collapse events the test fires. */
function fakeView() {
  const expand = new vscode.EventEmitter<{ element: TreeNode }>();
  const collapse = new vscode.EventEmitter<{ element: TreeNode }>();
  return { expand, collapse, view: { onDidExpandElement: expand.event, onDidCollapseElement: collapse.event } as unknown as vscodeTypes.TreeView<TreeNode> };
}

/** A tree over one running server that remembers expansion in a memento, with the view's events. */
function trackedTree() {
  const tree = new ServersTreeProvider();
  const h = running();
  tree.attach(model([h]));
  const memory = new MemoryMemento();
  const { view, collapse } = fakeView();
  tree.trackExpansion(view, memory);
  return { tree, h, memory, collapse };
}

const running = () => fakeHandle({ status: { kind: 'running' }, capabilities: { tools: {}, prompts: {} }, extra: { tools: Array.from({ length: 250 }, (_, i) => ({ name: `tool${i}`, inputSchema: { type: 'object' } })), prompts: [] } });

suite('servers tree provider (vscode double)', () => {
  test('before a model it says it is reading the configuration; then problems come before servers', () => {
    const tree = new ServersTreeProvider();
    assert.deepEqual(tree.getChildren(), [{ kind: 'loading' }]);
    const loading = tree.getTreeItem({ kind: 'loading' });
    assert.equal(loading.label, 'Reading configuration…');
    const problem = { source: { kind: 'settings', label: 'User settings', workspaceDefined: false }, message: 'bad', line: 0, column: 0, offset: 0, severity: 'error' } as unknown as ConfigProblem;
    tree.attach(model([fakeHandle()], { problems: () => [problem] }));
    assert.deepEqual(tree.getChildren().map((n) => n.kind), ['problem', 'server']);
    tree.dispose();
  });

  test('a server row is a TreeItem with its state in the id, its icon, its menu key and a spoken label', () => {
    const tree = new ServersTreeProvider();
    const h = running();
    tree.attach(model([h]));
    const item = tree.getTreeItem({ kind: 'server', serverId: h.id });
    assert.equal(item.label, 'echo');
    assert.equal(item.id, `server:running:${h.id}`);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    assert.ok(item.iconPath instanceof vscode.ThemeIcon && item.iconPath.id === 'pass');
    assert.equal((item.iconPath as InstanceType<typeof vscode.ThemeIcon>).color?.id, 'testing.iconPassed');
    assert.equal(item.contextValue, 'server.running');
    assert.ok(item.tooltip instanceof vscode.MarkdownString && item.tooltip.supportHtml === false && item.tooltip.isTrusted === false);
    assert.match(item.accessibilityInformation?.label ?? '', /echo/);
    assert.deepEqual(tree.getChildren({ kind: 'server', serverId: h.id }).map((n) => n.kind), ['group', 'group', 'roots']);
    tree.dispose();
  });

  test('a long group shows its first page and a Show more row; Show more draws the rest of the next page', async () => {
    const tree = new ServersTreeProvider();
    const h = running();
    tree.attach(model([h]));
    const group: TreeNode = { kind: 'group', serverId: h.id, list: 'tools' };
    const first = tree.getChildren(group);
    const more = first.at(-1)!;
    assert.equal(more.kind, 'more');
    assert.equal(tree.getTreeItem(more).description, `${(250 - first.length + 1).toLocaleString('en-US')} not shown`);
    let fired = 0;
    tree.onDidChangeTreeData(() => fired++);
    tree.showMore(more);
    assert.equal(fired, 1, 'the group is redrawn at once (a reveal that follows needs its rows)');
    assert.equal(tree.getChildren(group).filter((n) => n.kind === 'tool').length, 250);
    tree.dispose();
  });

  test('the expansion the user chose is remembered in the memento and applied to the next drawing', async () => {
    const { tree, h, memory, collapse } = trackedTree();
    const server: TreeNode = { kind: 'server', serverId: h.id };
    assert.equal(tree.getTreeItem(server).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    collapse.fire({ element: server });
    assert.deepEqual(memory.get('mcpHost.tree.expansion'), { [`server:${h.id}`]: false });
    assert.equal(tree.getTreeItem(server).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    tree.dispose();
  });

  test('a collapse VS Code reports for a row no longer on screen (a redraw replaced it) is not the user’s', () => {
    const { tree, h, memory, collapse } = trackedTree();
    const old: TreeNode = { kind: 'server', serverId: h.id };
    tree.getTreeItem(old);
    tree.getTreeItem({ kind: 'server', serverId: h.id }); // drawn anew
    collapse.fire({ element: old });
    assert.equal(memory.get('mcpHost.tree.expansion'), undefined);
    tree.dispose();
  });

  test('model changes in a burst redraw the tree once', async () => {
    const tree = new ServersTreeProvider();
    const m = model([running()]);
    tree.attach(m);
    await new Promise((r) => setTimeout(r, 60));
    let fired = 0;
    tree.onDidChangeTreeData(() => fired++);
    for (let i = 0; i < 5; i++) m.changed.fire();
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(fired, 1);
    tree.dispose();
  });

  test('a root row shows its file path; stderr lines are redacted rows under the stderr row', () => {
    const tree = new ServersTreeProvider();
    const h = fakeHandle({ status: { kind: 'error', message: 'boom', stderrTail: ['key=abc'] } });
    tree.attach(model([h]));
    const rows = tree.getChildren({ kind: 'server', serverId: h.id });
    const stderr = rows.find((r) => r.kind === 'stderr')!;
    assert.equal(tree.getTreeItem(stderr).description, 'last 1 line');
    const lines = tree.getChildren(stderr);
    assert.equal(tree.getTreeItem(lines[0]).label, 'key=****');
    assert.equal(tree.getParent(lines[0]), stderr, 'a stderr line’s parent is the stderr row last drawn');
    const root: TreeNode = { kind: 'root', serverId: h.id, root: { uri: 'file:///work/app' }, index: 0 };
    assert.equal(tree.getTreeItem(root).description, '/work/app');
    tree.dispose();
  });
});
