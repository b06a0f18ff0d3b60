// The CLI's verbs as a user meets them (issue 38 #19) and the approval a file someone else wrote
// needs before it runs (security review F12), against the real built CLI and real servers.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI, ROOT, cliTestHooks, expectUsageErrors, runCli, runCliInProcess } from './cliProcess';

const WORKBENCH = ['node', join(ROOT, 'test', 'fixtures', 'servers', 'workbench.mjs')];
const EVOLVING = ['node', join(ROOT, 'test', 'fixtures', 'servers', 'evolving.mjs')];
const OPTIONAL_TASK = ['node', join(ROOT, 'test', 'fixtures', 'servers', 'optionalTask.mjs')];
const dir = cliTestHooks('mcp-host-verbs-');

/** A file to delete, and a recording of the call that deletes it (made by this user, replayed as someone else's). */
async function recordedDeletion(name: string): Promise<{ victim: string; recording: string }> {
  const victim = join(dir, `${name}.txt`);
  const recording = join(dir, `${name}.jsonl`);
  writeFileSync(victim, 'precious\n');
  const r = await runCli(['call', 'delete_path', '--args', JSON.stringify({ path: victim }), '--record', recording, '--', ...WORKBENCH]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(victim));
  writeFileSync(victim, 'precious\n');
  return { victim, recording };
}

/**
 * Runs `command` on a terminal of its own (script(1)), types `answer` once its output shows
 * `question`, and resolves with everything the terminal showed (killed after 30 s).
 */
function onTerminal(command: string, question: RegExp, answer: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    let shown = '';
    let typed = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      shown += d;
      if (typed || !question.test(shown)) return;
      typed = true;
      child.stdin.end(`${answer}\n`);
    });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(shown);
    });
  });
}

describe('mcp-host verbs (issue 38 #19)', { timeout: 180_000 }, () => {
  test('--version prints the version; a missing snapshot is "file not found"', async () => {
    const r = await runCli(['--version']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^mcp-host \d+\.\d+\.\d+\n$/);
    await expectUsageErrors([[['diff', join(dir, 'nonexistent.json')], /cannot read .*nonexistent\.json: file not found/]], runCliInProcess);
  });

  test('call prints a result whose text is its structured content once', async () => {
    const r = await runCli(['call', 'stats', '--', ...WORKBENCH]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '{"count":0,"label":"notes"}\n');
  });

  test('call of a tool the server does not have: a usage error listing its tools (exit 2)', async () => {
    const [r] = await expectUsageErrors([[['call', 'nosuchtool', '--', ...WORKBENCH], /the server has no tool named "nosuchtool"; its tools: delete_path, read_count, add_note, stats/]], runCliInProcess);
    assert.equal(r.stdout, '');
  });

  test('--args are checked against the inputSchema before sending; --no-validate sends them anyway', async () => {
    await expectUsageErrors([[['call', 'add_note', '--args', '{"text":1,"priority":"high"}', '--', ...WORKBENCH], /--args do not fit the inputSchema of add_note: \/text: .*string.*; \/priority: .* \(--no-validate sends them anyway\)/]], runCliInProcess);
    const sent = await runCli(['call', 'add_note', '--args', '{"text":1}', '--no-validate', '--trace', '--', ...WORKBENCH]);
    assert.match(sent.stderr, /"method":"tools\/call","params":\{"name":"add_note","arguments":\{"text":1\}/, 'sent as given');
    assert.equal(sent.code, 1, 'the server itself refuses them (isError)');
  });

  test('test FILE --json prints JSON; the readable lines show the expected and the actual value', async () => {
    const file = join(dir, 'notes-tests.json');
    writeFileSync(file, JSON.stringify({ tests: [{ name: 'note', server: 'x', tool: 'add_note', arguments: { text: 'a' }, expect: { textContains: 'Added note 3' } }] }));
    const readable = await runCli(['test', file, '--', ...WORKBENCH]);
    assert.equal(readable.code, 1, readable.stdout + readable.stderr);
    assert.match(readable.stdout, /^ {2}the answer's text does not contain "Added note 3"\n {4}expected: "Added note 3"\n {4}actual: {3}"Added note 1"$/m);
    const json = await runCli(['test', file, '--json', '--', ...WORKBENCH]);
    assert.equal(json.code, 1);
    const parsed = JSON.parse(json.stdout) as { results: { name: string; outcome: string; failures: { expected: unknown; actual: unknown }[] }[]; summary: { failed: number } };
    assert.equal(parsed.results[0].outcome, 'failed');
    assert.deepEqual([parsed.results[0].failures[0].expected, parsed.results[0].failures[0].actual], ['Added note 3', 'Added note 1']);
    assert.equal(parsed.summary.failed, 1);
  });

  test('replay matches list items by name, not by position', async () => {
    const file = join(dir, 'tools.jsonl');
    assert.equal((await runCli(['tools', '--record', file, '--', ...EVOLVING, '--build', '1'])).code, 0);
    const r = await runCli(['replay', file, '--', ...EVOLVING, '--build', '2']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^tools\/list \(line \d+\): result\.tools\["name=retire"\] removed \(was \{4 keys\}\)$/m);
    assert.match(r.stdout, /^tools\/list \(line \d+\): result\.tools\["name=shout"\] added \(\{4 keys\}\)$/m);
    assert.match(r.stdout, /result\.tools\["name=echo"\]\.inputSchema\.properties\.message\.description changed/);
    assert.doesNotMatch(r.stdout, /name changed/, 'tools at the same index are not compared with each other');
    // The recording names build 1's command line: replaying against another says so.
    assert.match(r.stderr, /^mcp-host: warning: the recording was made with .*evolving\.mjs --build 1; it is replayed against .*evolving\.mjs --build 2$/m);
  });

  test('replaying a task call sends the task ids the server gives anew', async () => {
    const file = join(dir, 'task.jsonl');
    // A task of a few hundred milliseconds (server-everything's research task takes four seconds a run).
    const rec = await runCli(['call', 'brew', '--task', '--args', '{"what":"tea"}', '--record', file, '--', ...OPTIONAL_TASK], { timeoutMs: 60_000 });
    assert.equal(rec.code, 0, rec.stderr);
    assert.match(readFileSync(file, 'utf8'), /"method":"tasks\/result"/, 'the recording holds a task');
    const r = await runCli(['replay', file, '--json', '--yes', '--', ...OPTIONAL_TASK], { timeoutMs: 60_000 });
    const { requests } = JSON.parse(r.stdout) as { requests: { method: string; outcome: string; changes: unknown[] }[] };
    const result = requests.find((q) => q.method === 'tasks/result');
    assert.ok(result, r.stdout);
    assert.equal(result.outcome, 'same', JSON.stringify(result.changes));
    for (const get of requests.filter((q) => q.method === 'tasks/get')) assert.doesNotMatch(JSON.stringify(get.changes), /"error"|taskId/, 'the recorded id named no task');
  });
});

describe('files someone else made run only with the user\'s yes (F12)', { timeout: 120_000 }, () => {
  test('replay of a destructive call without a terminal: refused with the list, nothing run (exit 2); --yes runs it', async () => {
    const { victim, recording } = await recordedDeletion('replay');
    const r = await runCli(['replay', recording, '--', ...WORKBENCH]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /^mcp-host: this replay would:\n {2}call tools that may change things:\n {4}delete_path \{"path":".*replay\.txt"\} \(line \d+\): The server says this tool may delete/m);
    assert.match(r.stderr, /not run: .*run again with --yes/);
    assert.ok(existsSync(victim), 'the file was not deleted');
    const yes = await runCli(['replay', recording, '--yes', '--', ...WORKBENCH]);
    assert.equal(yes.code, 0, yes.stdout + yes.stderr);
    assert.ok(!existsSync(victim));
  });

  test('replay that would answer the server\'s elicitations with the recorded answers says so and asks', async () => {
    const recording = join(dir, 'elicit.jsonl');
    const lines = [
      { mcpHostRecording: 1, startedAt: 0, server: 'node server.js' },
      { t: 1, dir: 'send', bytes: 1, message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } },
      { t: 2, dir: 'receive', bytes: 1, message: { jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: { message: 'Your password?', requestedSchema: { type: 'object', properties: {} } } } },
      { t: 3, dir: 'send', bytes: 1, message: { jsonrpc: '2.0', id: 'e1', result: { action: 'accept', content: { password: 'hunter2' } } } },
    ];
    writeFileSync(recording, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await runCli(['replay', recording, '--', ...WORKBENCH]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /answer the server's elicitation\/create requests with the answers recorded in the file, not yours/);
    assert.match(r.stderr, /warning: the recording was made with node server\.js/);
  });

  test('replay asks on a terminal: "n" runs nothing, "y" runs it', { skip: spawnSync('script', ['--version']).status !== 0 && 'no script(1) for a terminal' }, async () => {
    const { victim, recording } = await recordedDeletion('tty');
    // script(1) gives the CLI a terminal; the answer is typed once the question is up.
    const command = [process.execPath, CLI, 'replay', recording, '--', ...WORKBENCH].join(' ');
    const no = await onTerminal(command, /Run it\? \[y\/N\]/, 'n');
    assert.match(no, /Run it\? \[y\/N\]/);
    assert.match(no, /not run: this replay was not approved/);
    assert.ok(existsSync(victim));
    const yes = await onTerminal(command, /Run it\? \[y\/N\]/, 'y');
    assert.match(yes, /1 request replayed|requests replayed/);
    assert.ok(!existsSync(victim));
  });

  test('test FILE with its own servers: refused without --yes, listing the servers and calls', async () => {
    const victim = join(dir, 'own.txt');
    writeFileSync(victim, 'precious\n');
    const file = join(dir, 'own-tests.json');
    writeFileSync(file, JSON.stringify({ servers: { helper: { command: WORKBENCH[0], args: [WORKBENCH[1], '--token', 'sk_live_1234567890'] } }, tests: [{ name: 'cleanup', server: 'helper', tool: 'delete_path', arguments: { path: victim } }] }));
    const r = await runCli(['test', file]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /start these servers \(the file names them\):\n {4}helper: node .*workbench\.mjs --token ••••\n/);
    assert.match(r.stderr, /delete_path \{"path":".*own\.txt"\} \(test "cleanup"\)/);
    assert.doesNotMatch(r.stderr, /sk_live/);
    assert.ok(existsSync(victim));
    const yes = await runCli(['test', file, '--yes']);
    assert.equal(yes.code, 0, yes.stdout + yes.stderr);
    assert.ok(!existsSync(victim));
  });

  test('test FILE with the user\'s servers: a destructive call asks as a hand call does; read-only tests run unasked', async () => {
    const victim = join(dir, 'config.txt');
    writeFileSync(victim, 'precious\n');
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ servers: { wb: { command: WORKBENCH[0], args: [WORKBENCH[1]] } } }));
    const destructive = join(dir, 'destructive-tests.json');
    writeFileSync(destructive, JSON.stringify({ tests: [{ name: 'count', server: 'wb', tool: 'read_count', expect: { textContains: '0' } }, { name: 'cleanup', server: 'wb', tool: 'delete_path', arguments: { path: victim } }] }));
    const r = await runCli(['test', destructive, '--config', config]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /delete_path .*\(test "cleanup"\)/);
    assert.doesNotMatch(r.stderr, /read_count/);
    assert.ok(existsSync(victim));
    const readOnly = join(dir, 'readonly-tests.json');
    writeFileSync(readOnly, JSON.stringify({ tests: [{ name: 'count', server: 'wb', tool: 'read_count', expect: { textContains: '0' } }] }));
    const ok = await runCli(['test', readOnly, '--config', config]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  });
});
