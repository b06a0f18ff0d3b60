// `mcp-host call` and `mcp-host tasks` against a 2026-07-28 server with the tasks extension
// (test/fixtures/servers/modernTasks.mjs, SDK 2.x): the status line, Ctrl-C → tasks/cancel,
// input during a task, and the commands the extension has no method for.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, before, describe, test } from 'node:test';
import { runCli as runInProcess } from '../../src/cli/run';
import { ROOT, ensureBuilt, isAlive, killQuietly, runCli, waitForNoLeftovers } from './cliProcess';

const SERVER = ['node', join(ROOT, 'test', 'fixtures', 'servers', 'modernTasks.mjs')];

before(() => ensureBuilt());

afterEach(async () => {
  const left = await waitForNoLeftovers();
  for (const pid of left) killQuietly(pid);
  assert.deepEqual(left, [], 'a server process was left running');
});

describe('mcp-host CLI: the 2026-07-28 tasks extension', { timeout: 120_000 }, () => {
  test('call on a tool the server runs as a task: a status line per step (message, elapsed), then the result', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runInProcess(['call', 'long', '--args', '{"steps":4,"stepMs":300}', '--', ...SERVER], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      stderrColumns: 120,
    });
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'long done after 4 steps\n');
    const lines = stderr.split('\r\x1b[K').filter(Boolean);
    for (const line of lines) assert.match(line, /^task (working|completed)(: .+)? · \d+ s$/);
    for (const step of [2, 3, 4]) assert.ok(lines.some((l) => l.startsWith(`task working: step ${step} of 4 · `)), JSON.stringify(lines));
    assert.match(lines.at(-1)!, /^task completed: done · \d+ s$/);
    assert.ok(stderr.endsWith('\r\x1b[K'), 'the line is cleared before the result is printed');
  });

  test('Ctrl-C during a task sends tasks/cancel (never notifications/cancelled for it), reads the task once more, exits 130', async () => {
    let serverPid = 0;
    let sent = false;
    const r = await runCli(['call', 'long', '--args', '{"steps":100,"stepMs":200}', '--trace', '--', ...SERVER], {
      timeoutMs: 30_000,
      onStderr: (soFar, pid) => {
        serverPid ||= Number(/\(pid (\d+)\)/.exec(soFar)?.[1] ?? 0);
        if (!sent && /← \d+ B .*"statusMessage":"step 3 of 100"/.test(soFar)) {
          sent = true;
          process.kill(pid, 'SIGINT');
        }
      },
    });
    assert.ok(sent, r.stderr);
    assert.equal(r.code, 130, r.stderr);
    const cancel = /→ \d+ B (\{.*"method":"tasks\/cancel".*\})$/m.exec(r.stderr);
    assert.ok(cancel, r.stderr);
    const request = JSON.parse(cancel[1]!);
    assert.equal(request.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions['io.modelcontextprotocol/tasks'] !== undefined, true);
    assert.doesNotMatch(r.stderr, new RegExp(`"method":"notifications/cancelled","params":\\{"requestId":${request.id}\\b`));
    // The task's state after the acknowledgement, as the server says it.
    assert.match(r.stderr, /← \d+ B .*"status":"cancelled"/);
    assert.match(r.stderr, /^mcp-host: interrupted by SIGINT$/m);
    assert.doesNotMatch(r.stdout, /long done/);
    assert.ok(serverPid > 0);
    assert.equal(isAlive(serverPid), false, 'the server outlived the CLI');
  });

  test('a failed task is the server\'s JSON-RPC error: exit 2 (a failure, as for a direct call) with its code and message', async () => {
    const r = await runCli(['call', 'fail', '--', ...SERVER]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^mcp-host: task [0-9a-f-]+ of fail: server error -32603: the fixture failed on purpose$/m);
  });

  test('--task says it does not apply: the server decides', async () => {
    const r = await runCli(['call', 'quick', '--task', '--args', '{"text":"hi"}', '--', ...SERVER]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'quick hi\n');
    assert.match(r.stderr, /--task does not apply to a 2026-07-28 server: with the tasks extension the server decides which calls run as tasks/);
  });

  test('tasks: the extension has no tasks/list, and nothing is sent for it', async () => {
    const r = await runCli(['tasks', '--trace', '--', ...SERVER]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /tasks\/list: modern-tasks speaks protocol 2026-07-28, whose tasks extension \(io\.modelcontextprotocol\/tasks\) has no tasks\/list/);
    assert.doesNotMatch(r.stderr, /→ \d+ B .*"method":"tasks\/list"/);
  });
});
