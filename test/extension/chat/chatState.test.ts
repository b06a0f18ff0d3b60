// What @mcp keeps between requests (src/extension/chat/chatState.ts) on the vscode double, over
// memory mementos as VS Code's workspace and global state: servers and tools switched off for
// models, the pins of approved tools (a changed definition asks again, and is logged once), and
// the marks the tree shows.
import '../../support/vscode/vscodeModule';
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as vscodeTypes from 'vscode';
import { ChatState } from '../../../src/extension/chat/chatState';
import type { Tool } from '../../../src/client/schemas';
import type { ServerHandle } from '../../../src/registry';
import { MemoryMemento } from '../support';

function state() {
  const workspaceState = new MemoryMemento();
  const globalState = new MemoryMemento();
  const s = new ChatState({ workspaceState, globalState } as unknown as vscodeTypes.ExtensionContext);
  let changes = 0;
  s.onDidChange(() => void changes++);
  return { s, workspaceState, globalState, changes: () => changes };
}

const server = (id: string, args = ['server.js']) => ({ id, entry: { name: id }, resolved: { type: 'stdio', command: 'node', args, env: {}, cwd: '/' } }) as unknown as ServerHandle;
const tool = (description: string): Tool => ({ name: 'delete', description, inputSchema: { type: 'object' } });

suite('chat state (vscode double)', () => {
  test('a server or one tool switched off for models, kept in workspace state, and on again', async () => {
    const { s, workspaceState, changes } = state();
    assert.equal(s.isServerEnabled('a'), true);
    assert.equal(await s.toggle('a'), false, 'was off: no; now off');
    assert.equal(s.isServerEnabled('a'), false);
    assert.equal(await s.toggle('b', 'delete'), false);
    assert.equal(s.isToolEnabled('b', 'delete'), false);
    assert.equal(s.isToolEnabled('b', 'read'), true);
    assert.equal(s.isToolEnabled('a', 'delete'), true, 'a tool is switched off on its own server only');
    assert.deepEqual(workspaceState.get('mcpHost.chat.disabled'), { servers: ['a'], tools: [JSON.stringify(['b', 'delete'])] });
    assert.equal(await s.toggle('a'), true, 'back on');
    assert.equal(s.isServerEnabled('a'), true);
    assert.equal(changes(), 3);
    // A broken stored value counts as nothing switched off.
    await workspaceState.update('mcpHost.chat.disabled', { servers: 'a', tools: 7 });
    assert.equal(s.isServerEnabled('a'), true);
  });

  test('a pinned tool whose definition changed is marked, its change named and logged once; pinning again clears it', async () => {
    const { s, changes } = state();
    const h = server('a');
    await s.pin(h, tool('Deletes a file'));
    assert.equal(changes(), 0, 'a first pin shows nothing new');
    assert.equal(s.pinChanges(h, tool('Deletes a file')), undefined);
    const logged: string[] = [];
    const changed = s.pinChanges(h, tool('Deletes every file'), (t) => logged.push(t));
    assert.deepEqual(changed?.map((c) => c.field), ['description']);
    s.pinChanges(h, tool('Deletes every file'), (t) => logged.push(t));
    assert.equal(logged.length, 1, 'logged once');
    assert.match(logged[0], /Tool delete changed since you approved it \(description\)/);
    assert.deepEqual(s.mark(h, tool('Deletes every file')), { disabled: false, changed: true });
    await s.pin(h, tool('Deletes every file'), { onlyIfNew: true });
    assert.deepEqual(s.mark(h, tool('Deletes every file')), { disabled: false, changed: true }, 'a call by hand is not a review of a change');
    await s.pin(h, tool('Deletes every file'));
    assert.deepEqual(s.mark(h, tool('Deletes every file')), { disabled: false, changed: false });
    assert.equal(changes(), 1, 'the tree redraws for a pin that replaced a drifted one');
  });

  test('pins follow the server (its command line), not its name; Clear Pins forgets them', async () => {
    const { s } = state();
    await s.pin(server('a'), tool('Deletes a file'));
    assert.ok(s.pinChanges(server('renamed'), tool('Deletes every file')), 'same command line: same pins');
    assert.equal(s.pinChanges(server('a', ['other.js']), tool('Deletes every file')), undefined, 'another server: no pin');
    assert.equal(s.pinChanges({ ...server('a'), resolved: undefined } as unknown as ServerHandle, tool('x')), undefined, 'not started: nothing known');
    await s.clearPins();
    assert.equal(s.pinChanges(server('a'), tool('Deletes every file')), undefined);
    await s.toggle('a');
    assert.deepEqual(s.mark(server('a'), tool('Deletes a file')), { disabled: true, changed: false });
    s.dispose();
  });
});
