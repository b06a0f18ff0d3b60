// `mcp-host call` on a task tool (server-everything's simulate-research-query requires a task),
// `mcp-host tasks`, and Ctrl-C cancelling a running task.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, before, describe, test } from 'node:test';
import { runCli as runInProcess } from '../../src/cli/run';
import { EVERYTHING, ROOT, ensureBuilt, expectUsageErrors, isAlive, killQuietly, runCli, waitForNoLeftovers, runCliInProcess } from './cliProcess';

before(() => ensureBuilt());

afterEach(async () => {
  const left = await waitForNoLeftovers();
  for (const pid of left) killQuietly(pid);
  assert.deepEqual(left, [], 'a server process was left running');
});

describe('mcp-host CLI: tasks (2025-11-25) with server-everything', { timeout: 120_000 }, () => {
  test('call on a tool that requires a task waits with a status line (message, elapsed) and prints the result', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runInProcess(['call', 'simulate-research-query', '--args', '{"topic":"tides"}', '--', ...EVERYTHING], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      stderrColumns: 120,
    });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /# Research Report: tides/);
    // Each redraw of the status line: the status, the server's message, the seconds since the call.
    const lines = stderr.split('\r\x1b[K').filter(Boolean);
    assert.ok(lines.length >= 3, JSON.stringify(stderr));
    for (const line of lines) assert.match(line, /^task (working|completed)(: .+)? · \d+ s$/);
    assert.ok(lines.some((l) => /^task working: Analyzing content\.\.\. · \d+ s$/.test(l)), JSON.stringify(lines));
    assert.match(lines.at(-1)!, /^task completed/);
    // The line is cleared before the result is printed.
    assert.ok(stderr.endsWith('\r\x1b[K'));
  });

  test('Ctrl-C during a task sends tasks/cancel, which the server answers "cancelled", then exits 130', async () => {
    let serverPid = 0;
    let sent = false;
    const r = await runCli(['call', 'simulate-research-query', '--args', '{"topic":"glaciers"}', '--trace', '--', ...EVERYTHING], {
      onStderr: (soFar, pid) => {
        serverPid ||= Number(/\(pid (\d+)\)/.exec(soFar)?.[1] ?? 0);
        // Mid-way: the server has reported its second stage.
        if (!sent && /← \d+ B .*Analyzing content/.test(soFar)) {
          sent = true;
          process.kill(pid, 'SIGINT');
        }
      },
    });
    assert.ok(sent, r.stderr);
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /→ \d+ B .*"method":"tasks\/cancel"/);
    assert.match(r.stderr, /← \d+ B .*"status":"cancelled"/);
    assert.match(r.stderr, /^mcp-host: interrupted by SIGINT$/m);
    assert.doesNotMatch(r.stdout, /Research Report/);
    assert.ok(serverPid > 0);
    assert.equal(isAlive(serverPid), false, 'the server outlived the CLI');
  });

  test('--task on a tool that does not allow tasks calls it directly', async () => {
    const r = await runCliInProcess(['call', 'echo', '--task', '--args', '{"message":"hi"}', '--trace', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Echo: hi/);
    assert.doesNotMatch(r.stderr, /"task":\{/);
  });

  test('--task runs a tool that allows a task (taskSupport optional) as one; without it the tool is called directly', async () => {
    const server = ['node', join(ROOT, 'test', 'fixtures', 'servers', 'optionalTask.mjs')];
    const asTask = await runCliInProcess(['call', 'brew', '--task', '--args', '{"what":"tea"}', '--trace', '--', ...server]);
    assert.equal(asTask.code, 0, asTask.stderr);
    assert.match(asTask.stdout, /brewed tea/);
    assert.match(asTask.stderr, /→ \d+ B .*"method":"tools\/call".*"task":\{/);
    assert.match(asTask.stderr, /→ \d+ B .*"method":"tasks\/result"/);
    const direct = await runCliInProcess(['call', 'brew', '--args', '{"what":"coffee"}', '--trace', '--', ...server]);
    assert.equal(direct.code, 0, direct.stderr);
    assert.match(direct.stdout, /brewed coffee/);
    assert.doesNotMatch(direct.stderr, /"task":\{|tasks\/result/);
  });

  test('tasks lists what the server holds (tasks/list), as text and --json', async () => {
    const text = await runCliInProcess(['tasks', '--trace', '--', ...EVERYTHING]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stderr, /→ \d+ B .*"method":"tasks\/list"/);
    assert.equal(text.stdout, '(no tasks)\n');
    const json = await runCliInProcess(['tasks', '--json', '--', ...EVERYTHING]);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), { tasks: [] });
  });

  test('tools says how a task tool runs', async () => {
    const r = await runCliInProcess(['tools', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Runs as a task \(execution\.taskSupport: required\): call waits for it/);
    assert.doesNotMatch(r.stdout, /does not run tasks/);
  });

  test('--task only applies to call', async () => {
    await expectUsageErrors([[['tools', '--task', '--', ...EVERYTHING], /--task only applies to call/]], runCliInProcess);
  });
});

describe('mcp-host CLI: a server whose tasks/list never ends (issue 32, F1)', { timeout: 60_000 }, () => {
  const endless = (...extra: string[]) => ['node', join(ROOT, 'test', 'fixtures', 'servers', 'endlessTasks.mjs'), ...extra];
  // A 64 MiB heap: following the pages (1,000 tasks each, for ever) ran out of it within seconds.
  const smallHeap = { env: { NODE_OPTIONS: '--max-old-space-size=64' }, timeoutMs: 30_000 };

  test('tasks stops at 1,000 tasks, prints them and says the rest were left, in a bounded heap', async () => {
    const r = await runCli(['tasks', '--', ...endless()], smallHeap);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 1000);
    assert.match(r.stdout, /^t0-0 {2}working {2}still at it/);
    assert.match(r.stderr, /^mcp-host: tasks\/list: listed the first 1,000 tasks \(1 page\); the server holds more, which were left unlisted$/m);
    const json = await runCli(['tasks', '--json', '--', ...endless('--per-page', '300')], smallHeap);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { tasks: unknown[]; stopped: string; pages: number };
    assert.equal(parsed.tasks.length, 1000);
    assert.equal(parsed.stopped, 'tasks');
    assert.equal(parsed.pages, 4);
  });

  test('pages without tasks: stops at the page bound every list has (1,000) and says so', async () => {
    const r = await runCli(['tasks', '--', ...endless('--per-page', '0')], smallHeap);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '(no tasks)\n');
    assert.match(r.stderr, /^mcp-host: tasks\/list: stopped after 1,000 pages \(0 tasks\): the server kept returning nextCursor; the rest were left unlisted$/m);
  });
});
