// The Servers view's opening focus as wired to the editor (src/extension/tree/serversViewFocus.ts)
// on the vscode double, over the real tree provider: a person who opens the view gets its first
// row, again after the consent that opening asked for; and the focus is never taken from what the
// person opened meanwhile (an editor, a tab, a terminal, another window, a row they selected) nor
// after a start slower than the moment, when an unseen Command Palette may be open.
import { vscode } from '../../support/vscode/vscodeModule';
import { afterEach, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as vscodeTypes from 'vscode';
import { ServersTreeProvider, type ServersTreeModel, type TreeNode } from '../../../src/extension/tree/serversTree';
import { focusFirstRowOnOpening } from '../../../src/extension/tree/serversViewFocus';
import { FIRST_REPORT_MS, OPENING_MOMENT_MS } from '../../../src/extension/tree/openingFocus';
import type { StatusKind } from '../../../src/extension/tree/serverRowText';
import { fakeHandle } from './fakeServers';

/** The tree provider over one server whose shown state the test sets, and a view that records reveals. */
function openingOf(start: StatusKind = 'stopped') {
  let now = 1_000_000;
  let shown: StatusKind = start;
  const changed = new vscode.EventEmitter<void>();
  const model = {
    servers: () => [fakeHandle({ id: 'ws::everything', name: 'everything', status: { kind: shown === 'running' ? 'running' : 'stopped' } })],
    problems: () => [],
    displayStatus: () => ({ kind: shown }),
    originLabel: (source: { label: string }) => source.label,
    currentRoots: () => [],
    redact: (text: string) => text,
    isLoaded: () => true,
    onDidChange: changed.event as unknown as vscodeTypes.Event<void>,
  } as unknown as ServersTreeModel;
  const tree = new ServersTreeProvider();
  tree.attach(model);
  const visibility = new vscode.EventEmitter<{ visible: boolean }>();
  const selection = new vscode.EventEmitter<{ selection: TreeNode[] }>();
  const reveals: string[] = [];
  const view = {
    onDidChangeVisibility: visibility.event,
    onDidChangeSelection: selection.event,
    reveal: async (node: TreeNode, options: { focus?: boolean }) => void reveals.push(`${tree.getTreeItem(node).id} focus=${String(options.focus)}`),
  } as unknown as vscodeTypes.TreeView<TreeNode>;
  let shownCount = 0;
  const focus = focusFirstRowOnOpening(view, tree, () => shownCount++, () => now);
  /** The tree redraws a moment after its model changed (a coalesced refresh): wait for it. */
  const settle = () => new Promise((r) => setTimeout(r, 60));
  return {
    reveals,
    selection,
    shownCount: () => shownCount,
    advance: (ms: number) => void (now += ms),
    async open() {
      now += FIRST_REPORT_MS + 1;
      visibility.fire({ visible: true });
      await settle();
    },
    async becomes(kind: StatusKind) {
      shown = kind;
      changed.fire();
      await settle();
    },
    dispose() {
      focus.disposable.dispose();
      tree.dispose();
    },
  };
}

describe('the Servers view opening focus, wired to the editor', () => {
  let current: ReturnType<typeof openingOf> | undefined;
  const make = (start?: StatusKind) => (current = openingOf(start));
  afterEach(() => current?.dispose());

  test('opened: the first row gets the focus before the servers start; after the consent it asked for, the row that replaced it', async () => {
    const o = make();
    await o.open();
    assert.deepEqual(o.reveals, ['server:stopped:ws::everything focus=true']);
    assert.equal(o.shownCount(), 1, 'the servers start after the focus was given');
    await o.becomes('waiting');
    o.advance(20_000); // the consent dialog is read
    await o.becomes('starting');
    o.advance(1_000);
    await o.becomes('running');
    assert.deepEqual(o.reveals, ['server:stopped:ws::everything focus=true', 'server:running:ws::everything focus=true']);
  });

  const elsewhere: ReadonlyArray<[string, (o: ReturnType<typeof openingOf>) => void]> = [
    ['an editor', () => vscode.windowEvents.activeTextEditor.fire({})],
    ['a tab (a panel, a preview)', () => vscode.windowEvents.tabs.fire({ opened: [{}], closed: [], changed: [] })],
    ['a terminal', () => vscode.windowEvents.activeTerminal.fire({})],
    ['another window', () => vscode.windowEvents.windowState.fire({ focused: false })],
    ['a row of its own choosing', (o) => o.selection.fire({ selection: [] })],
  ];
  for (const [what, go] of elsewhere) {
    test(`the person answered the consent, then opened ${what}: the focus is not taken from it`, async () => {
      const o = make();
      await o.open();
      await o.becomes('waiting');
      await o.becomes('starting');
      go(o);
      await o.becomes('running');
      assert.deepEqual(o.reveals, ['server:stopped:ws::everything focus=true']);
    });
  }

  test('a start slower than the moment after the answer: no focus taken (the Command Palette may be open, unseen by an extension)', async () => {
    const o = make();
    await o.open();
    await o.becomes('waiting');
    await o.becomes('starting');
    o.advance(OPENING_MOMENT_MS + 1);
    await o.becomes('running');
    assert.deepEqual(o.reveals, ['server:stopped:ws::everything focus=true']);
  });

  test('a view VS Code restores as MCP Host starts is not an opening: no focus taken', async () => {
    const o = make('running');
    // Shown at once after registration: VS Code's first report.
    o.advance(-FIRST_REPORT_MS - 1);
    await o.open();
    assert.deepEqual(o.reveals, []);
    assert.equal(o.shownCount(), 1, 'the servers the view starts still start');
  });
});
