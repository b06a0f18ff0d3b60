// Sign-ins that stay alive across CLI runs sharing one --token-cache: real `mcp-host` processes
// against the fixture authorization server (test/fixtures/servers/http/authServer.mjs), whose
// refresh tokens rotate (each is spent by its first use; a second use is refused with
// invalid_grant) and which counts every refresh request it sees. The first run of each test
// signs in through the test browser ($BROWSER); the runs measured afterwards open none.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { authFixtureStats, HttpPeer, startFixture } from '../transport/httpPeers';
import { CliRun, ROOT, cliTestHooks, killQuietly, runCli } from './cliProcess';

const TOKEN_FILE = 'mcp-host-tokens.json';
const LOCK_FILE = `${TOKEN_FILE}.lock`;

describe('mcp-host --url --token-cache: refresh across runs', { timeout: 240_000 }, () => {
  const work = cliTestHooks('mcp-host-cli-alive-');
  const peers: HttpPeer[] = [];
  const runs: CliRun[] = [];
  let dirs = 0;
  afterEach(async () => {
    await Promise.all(peers.splice(0).map((p) => p.close()));
  });

  /** Runs the CLI with the test browser as $BROWSER; `visits` is how many authorization pages it opened. */
  async function run(args: string[], options: { onStderr?: (soFar: string, pid: number) => void } = {}) {
    const log = join(work, `browser-${++dirs}.jsonl`);
    const r = await runCli(args, { timeoutMs: 90_000, env: { BROWSER: `${process.execPath} ${join(ROOT, 'test/fixtures/browser/browser.mjs')}`, MCP_HOST_TEST_BROWSER_LOG: log }, ...(options.onStderr ? { onStderr: options.onStderr } : {}) });
    runs.push(r);
    return { r, visits: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0 };
  }

  /** A fixture and a cache holding one signed-in grant (the first run's). */
  async function signedIn(fixtureArgs: string[]) {
    const peer = await startFixture('authServer.mjs', fixtureArgs);
    peers.push(peer);
    const cache = join(work, `cache-${++dirs}`);
    const first = await run(['ping', '--url', peer.url, '--token-cache', cache]);
    assert.equal(first.r.code, 0, first.r.stderr);
    assert.equal(first.visits, 1);
    const control = (path: string) => fetch(new URL(path, peer.url), { method: 'POST' }).then((r) => assert.equal(r.status, 204));
    return { peer, cache, stats: () => authFixtureStats(peer), control };
  }

  /** Every secret the fixture issued and every one in the cache: none may appear in any run's output. */
  async function assertNothingSecretPrinted(peer: HttpPeer): Promise<void> {
    const { tokens } = (await (await fetch(new URL('/control/secrets', peer.url))).json()) as { tokens: string[] };
    assert.ok(tokens.length > 0);
    for (const r of runs) for (const secret of tokens) assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), `a token was printed:\n${r.stderr}`);
  }

  test('two runs refreshing one grant at the same moment: both succeed, the authorization server sees one refresh', async () => {
    // A slow token endpoint: without the lock both runs would be at it with the same refresh token.
    const t = await signedIn(['--refresh-delay', '1000']);
    // The server no longer accepts the access token both runs will read from the cache.
    await t.control('/control/expire');
    const before = await t.stats();
    const args = (word: string) => ['call', 'echo', '--args', JSON.stringify({ text: word }), '--url', t.peer.url, '--token-cache', t.cache];
    const [a, b] = await Promise.all([run(args('first')), run(args('second'))]);
    assert.equal(a.r.code, 0, a.r.stderr);
    assert.equal(b.r.code, 0, b.r.stderr);
    assert.match(a.r.stdout, /first/);
    assert.match(b.r.stdout, /second/);
    assert.equal(a.visits + b.visits, 0, 'no browser');
    const after = await t.stats();
    assert.equal(after.refreshRequests - before.refreshRequests, 1, 'one refresh request in all');
    assert.equal(after.refreshes - before.refreshes, 1);
    assert.equal(after.authorizations.length, 1, 'nobody signed in again');
    assert.equal(existsSync(join(t.cache, LOCK_FILE)), false, 'the lock is gone');
    // The rotated refresh token was stored: the next refresh spends it and succeeds.
    await t.control('/control/expire');
    const third = await run(['ping', '--url', t.peer.url, '--token-cache', t.cache]);
    assert.equal(third.r.code, 0, third.r.stderr);
    assert.equal((await t.stats()).refreshes - before.refreshes, 2);
    await assertNothingSecretPrinted(t.peer);
  });

  test('a run killed while it holds the lock does not block the next one', async () => {
    const t = await signedIn(['--refresh-delay', '60000']);
    await t.control('/control/expire');
    const lock = join(t.cache, LOCK_FILE);
    let killed = false;
    // --trace: the run writes to stderr early, which hands this test its process id.
    const victim = await run(['ping', '--url', t.peer.url, '--token-cache', t.cache, '--trace'], {
      onStderr: (_soFar, pid) => {
        if (killed) return;
        killed = true;
        void (async () => {
          // Killed once it holds the lock and its refresh request waits at the server.
          for (let i = 0; i < 600 && !(existsSync(lock) && (await t.stats()).refreshRequests > 0); i++) await new Promise((resolve) => setTimeout(resolve, 50));
          killQuietly(pid);
        })();
      },
    });
    assert.equal(victim.r.signal, 'SIGKILL', victim.r.stderr);
    assert.ok(existsSync(lock), 'the killed run left its lock behind');
    await t.control('/control/refresh-delay?ms=0');
    const next = await run(['ping', '--url', t.peer.url, '--token-cache', t.cache]);
    assert.equal(next.r.code, 0, next.r.stderr);
    assert.equal(next.visits, 0, 'the grant was refreshed, not signed in again');
    // Well inside the stale-lock timeout (60 s): the dead owner was seen at once.
    assert.ok(next.r.ms < 30_000, `took ${next.r.ms} ms`);
    assert.match(next.r.stderr, /its owner, process \d+, has ended: lock .* broken/);
    assert.equal(existsSync(lock), false);
    assert.equal((await t.stats()).refreshes, 1);
    await assertNothingSecretPrinted(t.peer);
  });

  test('a refused refresh (revoked): one line saying the sign-in expired or was revoked, exit 2, no browser; the next run signs in', async () => {
    const t = await signedIn([]);
    await t.control('/control/revoke');
    const refused = await run(['tools', '--url', t.peer.url, '--token-cache', t.cache]);
    assert.equal(refused.r.code, 2);
    assert.equal(refused.r.stdout, '');
    assert.equal(refused.visits, 0, 'no browser opened after the refusal');
    const lines = refused.r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, refused.r.stderr);
    assert.match(lines[0], /^mcp-host: the sign-in expired or was revoked: the token endpoint http:\/\/127\.0\.0\.1:\d+\/token answered HTTP 400 with error "invalid_grant".*; run the command again to sign in$/);
    assert.equal((await t.stats()).refreshRequests, 1, 'one refresh tried, not a loop');
    const again = await run(['tools', '--url', t.peer.url, '--token-cache', t.cache]);
    assert.equal(again.r.code, 0, again.r.stderr);
    assert.equal(again.visits, 1, 'one sign-in');
    assert.equal((await t.stats()).authorizations.length, 2);
    await assertNothingSecretPrinted(t.peer);
  });
});
