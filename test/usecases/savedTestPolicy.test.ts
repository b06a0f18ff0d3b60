// F8: a workspace's saved tests reach the workspace's servers only (unless the user allows their
// own), and their calls of tools that may change things ask as a hand call asks, once a run.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { McpClient } from '../../src/client';
import type { PlannedCall } from '../../src/usecases/runApproval';
import { RunConfirmation, serverForSavedTest } from '../../src/usecases/savedTestPolicy';
import type { SavedTest } from '../../src/usecases/savedTests';
import { assertionKinds, runSavedTest, testFromHistory } from '../../src/usecases/savedTestRunner';
import { parseSavedTests } from '../../src/usecases/savedTests';
import { CallHistory } from '../../src/usecases/history';
import { connectStdio, fixture } from '../client/support';

const server = (name: string, workspaceDefined: boolean, folder?: string) => ({ id: `${name}-${folder ?? 'user'}`, entry: { name, source: { workspaceDefined, ...(folder ? { folder: { fsPath: folder } } : {}) } } });

describe('saved tests: which server a workspace test reaches', () => {
  const user = server('files', false);
  const repoA = server('files', true, '/w/a');
  const repoB = server('files', true, '/w/b');

  test("a repository's test naming a user-level server does not reach it", () => {
    const choice = serverForSavedTest('files', '/w/a', [user], false);
    assert.equal(choice.server, undefined);
    assert.match(choice.problem!, /one of your own \(user settings\), not this workspace's.*mcpHost\.tests\.allowUserServers/);
    assert.match(serverForSavedTest('other', '/w/a', [user], false).problem!, /no server named "other" is configured in this workspace/);
  });

  test("the test file's folder first, then another workspace folder's; the user's own only when allowed", () => {
    assert.equal(serverForSavedTest('files', '/w/b', [user, repoA, repoB], false).server, repoB);
    assert.equal(serverForSavedTest('files', '/w/c', [user, repoA], false).server, repoA);
    assert.equal(serverForSavedTest('files', '/w/a', [user], true).server, user);
  });
});

describe('saved tests ask as a hand call asks', { timeout: 60_000 }, () => {
  let client: McpClient;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-saved-policy-'));
  before(async () => {
    ({ client } = await connectStdio('node', [fixture('workbench.mjs')]));
  });
  after(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const tool = (name: string, tool: string, args: Record<string, unknown> = {}): SavedTest => ({ name, server: 'wb', action: { kind: 'tool', tool, arguments: args }, expect: {} });

  test('declined: delete_path is not run; the run asks once, listing only the calls that may change things', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const tests = [tool('count', 'read_count'), tool('note', 'add_note', { text: 'a' }), tool('cleanup', 'delete_path', { path: victim }), tool('cleanup again', 'delete_path', { path: victim })];
    const tools = await client.listTools();
    const asked: (readonly PlannedCall[])[] = [];
    const confirmation = new RunConfirmation(
      () => tests.map((test) => ({ test, tools })),
      async (calls) => {
        asked.push(calls);
        return false;
      },
    );
    const results = [];
    for (const t of tests) results.push(await runSavedTest(t, { client: async () => client, origin: 'a test', confirm: () => confirmation.confirm() }));
    assert.equal(asked.length, 1, 'asked once for the run');
    assert.deepEqual(asked[0].map((c) => [c.tool, c.from]), [['delete_path', 'test "cleanup"'], ['delete_path', 'test "cleanup again"']]);
    assert.ok(existsSync(victim), 'the file is still there');
    assert.deepEqual(results.map((r) => r.outcome), ['passed', 'passed', 'error', 'error']);
    assert.match(results[2].error!, /not confirmed/);
  });

  test('Save Call as Test on a call whose answer changes: the kinds offered survive the next run, the exact text does not', async () => {
    const history = new CallHistory();
    const note = tool('note', 'add_note', { text: 'remember' });
    const first = await runSavedTest(note, { client: async () => client, origin: 'a test', record: (e) => history.add(e) });
    assert.equal(first.outcome, 'passed');
    const entry = history.list('wb')[0];
    assert.match(JSON.stringify(entry.result), /Added note \d+/);
    const kinds = assertionKinds(entry, false);
    assert.deepEqual(kinds.map((k) => [k.kind, k.survives]), [['isError', true], ['pattern', true], ['text', false]]);
    const saved = parseSavedTests(JSON.stringify({ tests: [testFromHistory(entry, 'wb', false)] }), 'saved.json').tests[0];
    assert.deepEqual(saved.expect, { isError: false, json: [{ pointer: '/content/0/text', pattern: '^Added note \\d+' }] });
    assert.equal((await runSavedTest(saved, { client: async () => client, origin: 'a test' })).outcome, 'passed', 'the next run (another note number) passes');
    const exact = parseSavedTests(JSON.stringify({ tests: [testFromHistory(entry, 'wb', false, ['text'])] }), 'saved.json').tests[0];
    assert.equal((await runSavedTest(exact, { client: async () => client, origin: 'a test' })).outcome, 'failed', 'the exact text fails the next run');
    // Structured content: its fields keep their types.
    const stats = await runSavedTest(tool('stats', 'stats'), { client: async () => client, origin: 'a test', record: (e) => history.add(e) });
    assert.equal(stats.outcome, 'passed');
    const typed = testFromHistory(history.list('wb')[0], 'wb', true) as { expect: { outputSchema: boolean; json: unknown[] } };
    assert.equal(typed.expect.outputSchema, true);
    assert.deepEqual(typed.expect.json.slice(0, 2), [{ pointer: '/structuredContent/count', type: 'number' }, { pointer: '/structuredContent/label', type: 'string' }]);
  });

  test('approved: it runs; a tool the server does not list yet counts as one that may change things', async () => {
    const victim = join(dir, 'approved.txt');
    writeFileSync(victim, 'x');
    const cleanup = tool('cleanup', 'delete_path', { path: victim });
    const confirmation = new RunConfirmation(() => [{ test: cleanup, tools: undefined }], async () => true);
    assert.match(confirmation.calls()[0].reason, /does not list this tool/);
    const result = await runSavedTest(cleanup, { client: async () => client, origin: 'a test', confirm: () => confirmation.confirm() });
    assert.equal(result.outcome, 'passed', JSON.stringify(result));
    assert.ok(!existsSync(victim));
  });
});
