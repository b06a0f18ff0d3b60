// Ctrl-C while a call is in flight (issue 38, item 20): the cancellation goes out and the server
// is stopped at once; only the wait for its exit after SIGTERM remains. The bound is generous
// (well under the 3 s the grace after stdin used to take), so it holds on a busy machine.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cliProcessHooks, EVERYTHING, isAlive, runCli } from './cliProcess';

cliProcessHooks();

describe('mcp-host: Ctrl-C during a call', { timeout: 60_000 }, () => {
  test('sends notifications/cancelled for the call, stops the server and exits 130 well within 1.5 s', async () => {
    let interruptedAt = 0;
    let serverPid = 0;
    const r = await runCli(['call', 'trigger-long-running-operation', '--args', '{"duration":30,"steps":30}', '--trace', '--', ...EVERYTHING], {
      timeoutMs: 40_000,
      onStderr: (soFar, pid) => {
        if (interruptedAt || !/→ \d+ B \{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call"/.test(soFar)) return;
        serverPid = Number(/\(pid (\d+)\)/.exec(soFar)?.[1]);
        interruptedAt = Date.now();
        process.kill(pid, 'SIGINT');
      },
    });
    const stoppedInMs = Date.now() - interruptedAt;
    assert.ok(interruptedAt > 0, r.stderr);
    assert.equal(r.code, 130, r.stderr);
    const callId = /"id":(\d+),"method":"tools\/call"/.exec(r.stderr)?.[1];
    assert.match(r.stderr, new RegExp(`→ \\d+ B \\{"jsonrpc":"2\\.0","method":"notifications/cancelled","params":\\{"requestId":${callId},"reason":"interrupted by SIGINT"\\}\\}`));
    assert.match(r.stderr, /^mcp-host: interrupted by SIGINT$/m);
    assert.ok(serverPid > 0 && !isAlive(serverPid), `the server (pid ${serverPid}) outlived the CLI`);
    assert.ok(stoppedInMs < 1500, `the CLI took ${stoppedInMs} ms to stop after SIGINT:\n${r.stderr.split('\n').filter((l) => !l.includes('←')).join('\n')}`);
  });
});
