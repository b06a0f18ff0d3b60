// mcp-host --url against a server that needs authorization: the real CLI process and the fixture
// authorization server (test/fixtures/servers/http/authServer.mjs, the official SDK's auth router;
// it approves without a login page). The browser is test/fixtures/browser/browser.mjs given as
// $BROWSER, or, with --no-browser, this test following the printed URL with fetch. Every run's
// stdout and stderr (with --trace) is searched for each code, token and client secret the flow
// handled.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { authFixtureStats, HttpPeer, startFixture } from '../transport/httpPeers';
import { CliRun, ROOT, ensureBuilt, expectUsageErrors, runCli, runCliInProcess } from './cliProcess';

interface BrowserVisit {
  url: string;
  status: number;
  code: string | null;
}

const CLIENT_SECRET = 'cli-client-secret-4711-abcdef';
const TOKEN_FILE = 'mcp-host-tokens.json';

describe('mcp-host --url: sign-in', { timeout: 180_000 }, () => {
  let work: string;
  const peers: HttpPeer[] = [];
  const runs: CliRun[] = [];

  before(() => {
    ensureBuilt();
    work = mkdtempSync(join(tmpdir(), 'mcp-host-cli-signin-'));
  });
  afterEach(async () => {
    await Promise.all(peers.splice(0).map((p) => p.close()));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  let dirs = 0;
  /** A fresh directory under the test's temporary one (not created). */
  const freshDir = (name: string) => join(work, `${name}-${++dirs}`);

  async function fixture(args: string[] = []) {
    const peer = await startFixture('authServer.mjs', args);
    peers.push(peer);
    const stats = () => authFixtureStats(peer);
    return { peer, stats };
  }

  /** Runs the CLI with the test browser as $BROWSER; returns the run and the visits the browser made. */
  async function run(args: string[], options: { env?: Record<string, string> } = {}) {
    const log = join(work, `browser-${++dirs}.jsonl`);
    const r = await runCli(args, { timeoutMs: 60_000, env: { BROWSER: `${process.execPath} ${join(ROOT, 'test/fixtures/browser/browser.mjs')}`, MCP_HOST_TEST_BROWSER_LOG: log, ...options.env } });
    runs.push(r);
    const visits = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as BrowserVisit) : [];
    return { r, visits };
  }

  /** Every secret in the token cache of `dir`: tokens and client secrets. */
  function cachedSecrets(dir: string): string[] {
    const grants = JSON.parse(readFileSync(join(dir, TOKEN_FILE), 'utf8')) as Record<string, { accessToken?: string; refreshToken?: string; client: { clientSecret?: string } }>;
    return Object.values(grants).flatMap((g) => [g.accessToken, g.refreshToken, g.client.clientSecret]).filter((s): s is string => !!s);
  }

  /** Moves the expiry of every grant in the token cache of `dir` to a second ago, as time passing would. */
  function expireCachedGrants(dir: string): void {
    const file = join(dir, TOKEN_FILE);
    const grants = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { expiresAt?: number }>;
    assert.ok(Object.values(grants).every((g) => typeof g.expiresAt === 'number'), 'each cached grant has an expiry');
    for (const g of Object.values(grants)) g.expiresAt = Date.now() - 1000;
    writeFileSync(file, JSON.stringify(grants, null, 2));
  }

  function assertNotPrinted(secrets: readonly (string | null | undefined)[]): void {
    const shown = secrets.filter((s): s is string => !!s);
    assert.ok(shown.length > 0);
    for (const r of runs) for (const secret of shown) assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), `a secret was printed:\n${r.stderr}`);
  }

  test('a 401 starts the flow: the URL on stderr, the browser opened, the redirect taken on 127.0.0.1; nothing stored by default', async () => {
    const { peer, stats } = await fixture();
    const { r, visits } = await run(['tools', '--url', peer.url, '--trace']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^echo\n/m);
    assert.equal(visits.length, 1, 'the browser was opened once');
    const printed = /^mcp-host: sign in at 127\.0\.0\.1:\d+ \(opening the browser\); the authorization page:\n {2}(\S+)$/m.exec(r.stderr);
    assert.ok(printed, r.stderr);
    assert.equal(printed[1], visits[0].url, 'the browser got the printed URL');
    const asked = new URL(printed[1]).searchParams;
    assert.match(asked.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.equal(asked.get('resource'), peer.url);
    assert.match(r.stderr, /\[auth\] token obtained from http:\/\/127\.0\.0\.1:\d+\/ \(scopes: mcp/);
    const s = await stats();
    assert.equal(s.registrations, 1);
    assert.equal(s.authorizations.length, 1);
    // The one-time listener is gone once the run ended.
    await assert.rejects(fetch(asked.get('redirect_uri')!));
    // Nothing was kept: the next run signs in again, with a new registration.
    const again = await run(['ping', '--url', peer.url]);
    assert.equal(again.r.code, 0, again.r.stderr);
    assert.equal(again.visits.length, 1);
    assert.equal((await stats()).registrations, 2);
    assertNotPrinted([visits[0].code, again.visits[0].code]);
  });

  test('--token-cache: a 0600 file, reused by the next run without a browser', async () => {
    const { peer, stats } = await fixture();
    const cache = freshDir('cache');
    const first = await run(['tools', '--url', peer.url, '--token-cache', cache, '--trace']);
    assert.equal(first.r.code, 0, first.r.stderr);
    assert.equal(first.visits.length, 1);
    assert.equal(statSync(join(cache, TOKEN_FILE)).mode & 0o777, 0o600);
    assert.equal(statSync(cache).mode & 0o777, 0o700);
    const second = await run(['call', 'echo', '--args', '{"text":"again"}', '--url', peer.url, '--token-cache', cache, '--trace']);
    assert.equal(second.r.code, 0, second.r.stderr);
    assert.match(second.r.stdout, /again/);
    assert.equal(second.visits.length, 0, 'no browser the second time');
    assert.doesNotMatch(second.r.stderr, /sign in at/);
    assert.match(second.r.stderr, /\[auth\] using the stored token/);
    assert.equal((await stats()).authorizations.length, 1);
    assertNotPrinted([...cachedSecrets(cache), first.visits[0].code]);
  });

  test('--token-cache: an expired token is refreshed, not signed in again', async () => {
    const { peer, stats } = await fixture();
    const cache = freshDir('cache');
    const first = await run(['ping', '--url', peer.url, '--token-cache', cache]);
    assert.equal(first.r.code, 0, first.r.stderr);
    const refreshesBefore = (await stats()).refreshes;
    // The token's lifetime passes, on both sides, without waiting it out: the server's tokens
    // expire, and the cached grant says its token expired a second ago.
    assert.equal((await fetch(new URL('/control/expire', peer.url), { method: 'POST' })).ok, true);
    expireCachedGrants(cache);
    const second = await run(['tools', '--url', peer.url, '--token-cache', cache, '--trace']);
    assert.equal(second.r.code, 0, second.r.stderr);
    assert.equal(second.visits.length, 0);
    assert.match(second.r.stderr, /\[auth\] token refreshed by/);
    const s = await stats();
    assert.ok(s.refreshes > refreshesBefore, JSON.stringify(s));
    assert.equal(s.authorizations.length, 1);
    assertNotPrinted(cachedSecrets(cache));
  });

  test('--no-browser: only the URL is printed; following it finishes the sign-in, however long past --timeout the user takes', async () => {
    const { peer } = await fixture();
    let followed: Promise<void> | undefined;
    let code: string | null = null;
    const log = join(work, `browser-${++dirs}.jsonl`);
    const r = await runCli(['tools', '--url', peer.url, '--no-browser', '--timeout', '1000'], {
      timeoutMs: 60_000,
      env: { BROWSER: `${process.execPath} ${join(ROOT, 'test/fixtures/browser/browser.mjs')}`, MCP_HOST_TEST_BROWSER_LOG: log },
      onStderr: (soFar) => {
        const url = /^ {2}(http:\S+)$/m.exec(soFar)?.[1];
        if (!url || followed) return;
        followed = (async () => {
          // The user takes longer than the request's --timeout: it must not run meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 1500));
          const approval = await fetch(url, { redirect: 'manual' });
          const location = approval.headers.get('location')!;
          code = new URL(location).searchParams.get('code');
          await (await fetch(location)).text();
        })();
      },
    });
    runs.push(r);
    await followed;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^mcp-host: sign in at 127\.0\.0\.1:\d+; the authorization page:$/m);
    assert.doesNotMatch(r.stderr, /opening the browser/);
    assert.equal(existsSync(log), false, 'the browser was not started');
    assert.match(r.stdout, /^echo\n/m);
    assertNotPrinted([code]);
  });

  test('a pre-registered client: --client-id and --client-secret-env, --scope; the secret never printed', async () => {
    const { peer, stats } = await fixture(['--client', `cli-client:${CLIENT_SECRET}:http://127.0.0.1:1/callback`]);
    const { r, visits } = await run(['tools', '--url', peer.url, '--client-id', 'cli-client', '--client-secret-env', 'MCP_TEST_CLIENT_SECRET', '--scope', 'mcp,admin', '--trace'], { env: { MCP_TEST_CLIENT_SECRET: CLIENT_SECRET } });
    assert.equal(r.code, 0, r.stderr);
    const asked = new URL(visits[0].url).searchParams;
    assert.equal(asked.get('client_id'), 'cli-client');
    assert.equal(asked.get('scope'), 'mcp admin');
    const s = await stats();
    assert.equal(s.registrations, 0, 'no dynamic registration');
    assert.equal(s.lastTokenAuth, 'body', 'client_secret_post, as the server lists');
    assertNotPrinted([CLIENT_SECRET, visits[0].code]);
  });

  for (const [flag, message, browsed] of [
    ['--no-s256', /does not support PKCE S256/, false],
    ['--bad-issuer', /the authorization server metadata at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server claims issuer "http:\/\/evil\.example\/"/, false],
    ['--iss-mismatch', /names issuer "http:\/\/evil\.example\/", not http:\/\/127\.0\.0\.1:\d+\/ \(RFC 9207\); refused/, true],
    ['--html-token', /no token: the token endpoint http:\/\/127\.0\.0\.1:\d+\/token did not answer with JSON/, true],
  ] as const) {
    test(`a failing flow (${flag}): exit 2, one line saying why, nothing stored`, async () => {
      const { peer } = await fixture([flag]);
      const cache = freshDir('cache');
      const { r, visits } = await run(['inspect', '--url', peer.url, '--token-cache', cache]);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trimEnd().split('\n');
      // The URL (two lines) when the browser was sent, then the one line of the failure.
      assert.equal(lines.length, browsed ? 3 : 1, r.stderr);
      assert.equal(visits.length, browsed ? 1 : 0);
      assert.match(lines[lines.length - 1], /^mcp-host: sign-in failed: /);
      assert.match(lines[lines.length - 1], message);
      assert.equal(existsSync(join(cache, TOKEN_FILE)), false, 'nothing stored');
      if (browsed) assertNotPrinted([visits[0].code]);
    });
  }

  test('sign-in flags: usage errors', async () => {
    await expectUsageErrors([
      [['tools', '--no-browser', '--', 'node', 'server.js'], /--no-browser only applies with --url/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--client-secret-env', 'X'], /--client-secret-env needs --client-id/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--client-id', 'c', '--client-secret-env', 'not a name'], /--client-secret-env needs the name of an environment variable/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--header', 'Authorization: Bearer x-token-value', '--token-cache', '/tmp/x'], /--token-cache does not apply with an Authorization header/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--scope', ' , '], /--scope needs at least one scope/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--client-id', 'c', '--client-secret-env', 'MCP_HOST_TEST_UNSET_VARIABLE'], /the environment variable MCP_HOST_TEST_UNSET_VARIABLE is not set/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--client-metadata-url', 'http://example.com/client.json'], /--client-metadata-url must be an https URL/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--client-metadata-url', 'https://example.com'], /--client-metadata-url must have a path/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--client-metadata-url', 'https://example.com/a/../client.json'], /--client-metadata-url must not contain "\." or "\.\." path segments/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--client-metadata-url', 'https://example.com/client.json#x'], /--client-metadata-url must not have a fragment/],
      [['tools', '--url', 'http://127.0.0.1:1/mcp', '--client-metadata-url', 'https://example.com/client.json', '--client-id', 'c'], /--client-metadata-url and --client-id name two different clients/],
    ], runCliInProcess);
  });

  test('--client-metadata-url: where the authorization server supports metadata documents, that URL is the client id (no registration)', async () => {
    const { peer, stats } = await fixture(['--cimd']);
    const document = new URL('/client-metadata/1', peer.url).href;
    let authorizationUrl: URL | undefined;
    const r = await runCli(['tools', '--url', peer.url, '--no-browser', '--client-metadata-url', document], {
      timeoutMs: 60_000,
      // The authorization URL is printed; that is as far as this test follows the flow (the
      // document's redirect URI names a fixed port, the CLI listens on a free one), then Ctrl-C.
      onStderr: (soFar, pid) => {
        const printed = /^\s+(http:\/\/127\.0\.0\.1:\d+\/authorize\S+)$/m.exec(soFar)?.[1];
        if (printed && !authorizationUrl) {
          authorizationUrl = new URL(printed);
          process.kill(pid, 'SIGINT');
        }
      },
    });
    runs.push(r);
    assert.ok(authorizationUrl, r.stderr);
    assert.equal(authorizationUrl.searchParams.get('client_id'), document);
    assert.equal((await stats()).registrations, 0, 'no dynamic registration');
    assert.equal(r.code, 130, r.stderr);
  });
});
