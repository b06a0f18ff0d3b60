import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cliTestHooks, EVERYTHING, expectUsageErrors, ROOT, runCliInProcess } from './cliProcess';

const EVOLVING = ['node', join(ROOT, 'test', 'fixtures', 'servers', 'evolving.mjs')];
const dir = cliTestHooks('mcp-host-replay-');

describe('mcp-host --record and replay', { timeout: 120_000 }, () => {
  test('--record writes every frame as a JSON line with direction, time and size', async () => {
    const file = join(dir, 'echo.jsonl');
    const r = await runCliInProcess(['call', 'echo', '--args', '{"message":"hello"}', '--record', file, '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines[0].mcpHostRecording, 1);
    assert.match(lines[0].server, /server-everything/);
    const frames = lines.slice(1);
    assert.ok(frames.every((f) => (f.dir === 'send' || f.dir === 'receive') && typeof f.t === 'number' && f.bytes > 0));
    const call = frames.find((f) => f.dir === 'send' && f.message.method === 'tools/call');
    assert.deepEqual(call.message.params.arguments, { message: 'hello' });
    const answer = frames.find((f) => f.dir === 'receive' && f.message.id === call.message.id);
    assert.equal(answer.message.result.content[0].text, 'Echo: hello');
    assert.equal(statSync(file).mode & 0o777, 0o600, 'a recording is readable by its owner only');
  });

  test('--record keeps secret header values out of the file', async () => {
    const file = join(dir, 'secret.jsonl');
    // A closed port: the session fails, but the recording (or its absence) must hold no secret.
    const r = await runCliInProcess(['ping', '--record', file, '--url', 'http://127.0.0.1:9/mcp', '--header', 'Authorization: Bearer sk-topsecret-123456', '--timeout', '3000']);
    assert.equal(r.code, 2);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /sk-topsecret/);
    assert.doesNotMatch(r.stderr, /sk-topsecret/);
  });

  test('replay against the same build: the same answers, exit 0', async () => {
    const file = join(dir, 'build1.jsonl');
    const rec = await runCliInProcess(['call', 'echo', '--args', '{"message":"hi"}', '--record', file, '--', ...EVOLVING, '--build', '1']);
    assert.equal(rec.code, 0, rec.stderr);
    const r = await runCliInProcess(['replay', file, '--yes', '--', ...EVOLVING, '--build', '1']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // The call, and the tools/list before it that checks the result against the outputSchema.
    assert.match(r.stdout, /^\d+ requests? replayed, 0 with different answers$/m);
  });

  test('replay finds a changed answer, says where, and --ignore leaves it out', async () => {
    const file = join(dir, 'tools.jsonl');
    const rec = await runCliInProcess(['tools', '--record', file, '--', ...EVOLVING, '--build', '1']);
    assert.equal(rec.code, 0, rec.stderr);
    const r = await runCliInProcess(['replay', file, '--', ...EVOLVING, '--build', '2']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^tools\/list \(line \d+\): result\.tools\["name=echo"\]\.inputSchema\.properties\.message\.description changed \("Text to echo" → "Text to send back"\)$/m);
    assert.match(r.stdout, /^1 request replayed, 1 with different answers$/m);
    const json = await runCliInProcess(['replay', '--json', file, '--', ...EVOLVING, '--build', '2']);
    const { requests } = JSON.parse(json.stdout) as { requests: { method: string; outcome: string; changes: { path: (string | number)[] }[] }[] };
    assert.equal(requests[0].outcome, 'different');
    assert.deepEqual(requests[0].changes[0].path, ['result', 'tools', 'name=echo', 'inputSchema', 'properties', 'message', 'description']);
    const ignored = await runCliInProcess(['replay', file, '--ignore', '/result/tools', '--', ...EVOLVING, '--build', '2']);
    assert.equal(ignored.code, 0, ignored.stdout + ignored.stderr);
  });

  test('mistakes are usage errors that name the file', async () => {
    const notRecording = join(dir, 'other.jsonl');
    writeFileSync(notRecording, '{"hello": 1}\n');
    const badLine = join(dir, 'bad.jsonl');
    writeFileSync(badLine, '{"mcpHostRecording": 1, "startedAt": 0}\n{"t": 1\n');
    await expectUsageErrors([
      [['replay', '--', 'node', 'x.js'], /replay needs a recording/],
      [['replay', join(dir, 'missing.jsonl'), '--', 'node', 'x.js'], /cannot read .*missing\.jsonl/],
      [['replay', notRecording, '--', 'node', 'x.js'], /other\.jsonl is not an MCP Host recording/],
      [['replay', badLine, '--', 'node', 'x.js'], /bad\.jsonl:2: not JSON/],
      [['tools', '--ignore', '/x', '--', 'node', 'x.js'], /--ignore only applies to replay/],
      [['replay', notRecording, '--ignore', 'result', '--', 'node', 'x.js'], /--ignore takes a JSON Pointer/],
      [['tools', '--record', join(dir, 'no', 'such', 'dir', 'r.jsonl'), '--', 'node', 'x.js'], /--record: cannot write/],
    ], runCliInProcess);
  });
});
