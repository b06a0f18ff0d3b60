// What a screen reader says for each row of the Servers tree: the text the row shows, in words,
// with its state named (a running server's grey text shows its version, not "running"). Driven with
// the tree's own text functions, so a change of what a row shows is heard too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rootsDescription } from '../../../src/extension/tree/rowTime';
import { rowStatusWord, serverDescription, type StatusKind } from '../../../src/extension/tree/serverRowText';
import { taskDescription, tasksDescription } from '../../../src/extension/tree/treeNodes';
import { rowAccessibilityLabel, spokenUnits } from '../../../src/extension/tree/treeRowSpeech';
import type { TaskEntry } from '../../../src/usecases/taskStore';

const T0 = Date.UTC(2026, 10, 29, 6, 0, 0);
const STATES: StatusKind[] = ['stopped', 'starting', 'waiting', 'running', 'stopping', 'error', 'blocked', 'signin'];

function serverRow(status: StatusKind, extra: { reconnecting?: boolean; waitingFor?: 'consent' | 'an input' } = {}): string {
  const description = serverDescription({ status, origin: '.vscode/mcp.json', ...extra, ...(status === 'running' ? { protocolVersion: '2025-06-18', serverInfo: { name: 'everything', version: '1.0.0' } } : {}) });
  return rowAccessibilityLabel({ kind: 'server', label: 'everything', description, state: rowStatusWord({ status, ...extra }) });
}

describe('tree row speech', () => {
  test('Roots and Tasks say their grey text in words, not their tooltip', () => {
    assert.equal(rowAccessibilityLabel({ kind: 'roots', label: 'Roots', description: rootsDescription(1, T0 - 7_000, T0) }), 'Roots, 1 root, asked 7 seconds ago');
    assert.equal(rowAccessibilityLabel({ kind: 'roots', label: 'Roots', description: rootsDescription(2, T0 - 61_000, T0) }), 'Roots, 2 roots, asked 1 minute ago');
    assert.equal(rowAccessibilityLabel({ kind: 'roots', label: 'Roots', description: rootsDescription(0, undefined, T0) }), 'Roots, 0 roots, not asked yet');
    assert.equal(rowAccessibilityLabel({ kind: 'tasks', label: 'Tasks', description: tasksDescription([]) }), 'Tasks, none');
  });

  test('a running server says "running"; each state says its own word, once', () => {
    assert.equal(serverRow('running'), 'everything, running, everything 1.0.0, .vscode/mcp.json, MCP 2025-06-18');
    assert.equal(serverRow('stopped'), 'everything, stopped, .vscode/mcp.json');
    assert.equal(serverRow('waiting', { waitingFor: 'consent' }), 'everything, waiting for consent, .vscode/mcp.json');
    assert.equal(serverRow('error', { reconnecting: true }), 'everything, reconnecting…, .vscode/mcp.json');
    const labels = STATES.map((s) => serverRow(s));
    assert.equal(new Set(labels).size, STATES.length, JSON.stringify(labels));
    for (const [i, s] of STATES.entries()) {
      const word = rowStatusWord({ status: s });
      assert.equal(labels[i].split(word).length - 1, 1, `"${word}" once in ${labels[i]}`);
    }
  });

  test('a task row says its state, time and progress in words', () => {
    const t: TaskEntry = { serverId: 's', taskId: 't1', toolName: 'simulate-research-query', status: 'working', statusMessage: 'Gathering sources', createdAt: T0 - 185_000, updatedAt: T0, origin: 'the tool panel', followed: true, watched: false, progress: { progress: 2, total: 4 } };
    assert.equal(rowAccessibilityLabel({ kind: 'task', label: 'simulate-research-query', description: taskDescription(t, T0) }), 'simulate-research-query, working, Gathering sources, 3 minutes, 2 of 4');
    const done = { ...t, status: 'completed' as const, endedAt: T0 - 60_000 };
    assert.equal(rowAccessibilityLabel({ kind: 'task', label: 'simulate-research-query', description: taskDescription(done, T0) }), 'simulate-research-query, completed, Gathering sources, 2 minutes 5 seconds, 2 of 4');
  });

  test("a server's own text is read as it is: only our own rows' units are spelled out", () => {
    assert.equal(rowAccessibilityLabel({ kind: 'tool', label: 'sleep', description: 'Waits 5s · then answers' }), 'sleep, Waits 5s, then answers');
    assert.equal(spokenUnits('850 ms'), '850 milliseconds');
    assert.equal(spokenUnits('2 h 1 min'), '2 hours 1 minute');
    assert.equal(spokenUnits('k8s 1.2.3'), 'k8s 1.2.3');
  });
});
