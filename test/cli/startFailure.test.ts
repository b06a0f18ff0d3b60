// A server that fails at start, and one that dies mid-call, as the CLI reports them (issue 38,
// items 13-15): the lines that say why (a missing variable or token named early, before a stack
// trace), once; the era probe named only for what it did; one start, not two; an exit after the
// handshake said as an exit during the call. Fixtures: crashAtStart.mjs (Sentry's and Stripe's
// start-up failures), probeEras.mjs, server-everything.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cliProcessHooks, EVERYTHING, freshCacheDir, isAlive, ROOT, runCli } from './cliProcess';

const CRASH = (mode: string) => ['node', join(ROOT, 'test/fixtures/servers/crashAtStart.mjs'), '--mode', mode];
const sentMethods = (stderr: string) => [...stderr.matchAll(/→ \d+(?:\.\d+)? [KMG]?i?B \{"jsonrpc":"2\.0","id":\d+,"method":"([^"]+)"/g)].map((m) => m[1]);
const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;

cliProcessHooks();

describe('mcp-host doctor: a server that crashes at start', { timeout: 60_000 }, () => {
  test('names the missing token (printed before a long stack trace), shows stderr once, and does not blame the era probe', async () => {
    const r = await runCli(['doctor', '--', ...CRASH('missing-token')]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout, /^✗ handshake: the server exited with code 1 at start, before answering anything; its stderr:$/m);
    assert.equal(count(r.stdout, /^ +Error: No access token was provided\. Pass one with `--access-token` or via `SENTRY_ACCESS_TOKEN`\.$/), 1, r.stdout);
    // Once: the first lines and the last line are not repeated in a digest.
    assert.equal(count(r.stdout, /sentry-mcp-server starting/), 1, r.stdout);
    assert.equal(count(r.stdout, /Node\.js v\d+/), 1, r.stdout);
    assert.match(r.stdout, /^- era probe: server\/discover was sent, but the server exited before answering anything .*the failure is the start, not the probe$/m);
    assert.doesNotMatch(r.stdout, /next start uses initialize|as servers that allow nothing before initialize/);
    assert.match(r.stdout, /→ its stderr names what is missing: give it to the server/);
    assert.match(r.stdout, /^broken at: handshake$/m);
  });

  test('a server that exits on the probe itself: said as such, tried again with initialize, healthy', async () => {
    const r = await runCli(['doctor', '--', 'node', join(ROOT, 'test/fixtures/servers/probeEras.mjs'), '--mode', 'exit-unknown']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^! era probe: the server exited when asked server\/discover, as servers that allow nothing before initialize do; started again with initialize$/m);
    assert.match(r.stdout, /^ +unknown method server\/discover$/m);
    assert.match(r.stdout, /^✓ handshake: probe-exit-unknown .* \(legacy\)/m);
  });
});

describe('mcp-host: a start failure is started once', { timeout: 60_000 }, () => {
  test('a missing key: one start, no probe restart, no "spoke before", the reason on stderr; nothing remembered for the next run', async () => {
    const cache = { XDG_CACHE_HOME: freshCacheDir() };
    const r = await runCli(['tools', '--trace', '--', ...CRASH('missing-key')], { env: cache });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(count(r.stderr, /\[lifecycle\] started /), 1, r.stderr);
    assert.doesNotMatch(r.stderr, /starting it once more|as this server spoke before|during the server\/discover probe/);
    assert.match(r.stderr, /^mcp-host: the command exited with code 1 at start, before answering anything$/m);
    assert.match(r.stderr, /^ {2}Error: Please set the STRIPE_SECRET_KEY environment variable/m);
    assert.equal(count(r.stderr, /^ {2}Error: Please set the STRIPE_SECRET_KEY/), 1, r.stderr);
    // The usage text after the reason is cut, its last lines kept.
    assert.match(r.stderr, /^ {2}… \d+ more lines$/m);
    assert.match(r.stderr, /^ {4}--tool-19 {4}enables tool 19$/m);

    const again = await runCli(['tools', '--trace', '--', ...CRASH('missing-key')], { env: cache });
    assert.equal(again.code, 2, again.stderr);
    assert.deepEqual(sentMethods(again.stderr), ['server/discover'], again.stderr);
  });

  test('a silent exit: one start, and the question whether it is an MCP server at all', async () => {
    const r = await runCli(['tools', '--trace', '--', ...CRASH('silent')]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(count(r.stderr, /\[lifecycle\] started /), 1, r.stderr);
    assert.match(r.stderr, /^mcp-host: the command exited with code 4 at start, before answering anything: is it an MCP server speaking JSON-RPC on stdio\?$/m);
  });
});

describe('mcp-host: a server killed mid-call', { timeout: 60_000 }, () => {
  test('is said to have exited on its signal during the call, with its last stderr lines, not taken for a non-MCP command', async () => {
    let killed = 0;
    const r = await runCli(['call', 'trigger-long-running-operation', '--args', '{"duration":20,"steps":20}', '--trace', '--', ...EVERYTHING], {
      timeoutMs: 30_000,
      onStderr: (soFar) => {
        if (killed || !/"method":"tools\/call"/.test(soFar)) return;
        killed = Number(/\(pid (\d+)\)/.exec(soFar)?.[1]);
        process.kill(killed, 'SIGKILL');
      },
    });
    assert.ok(killed > 0, r.stderr);
    assert.equal(isAlive(killed), false);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^mcp-host: the server exited on signal SIGKILL during tools\/call$/m);
    assert.match(r.stderr, /^mcp-host: last lines of the server's stderr:\n {2}Starting default \(STDIO\) server\.\.\.$/m);
    assert.doesNotMatch(r.stderr, /is it an MCP server|printed nothing on stdout|before answering/);
  });
});
