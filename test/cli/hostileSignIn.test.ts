// mcp-host --url against hostile or broken authorization (test/fixtures/servers/http/hostileAuth.mjs
// and the SDK fixture authServer.mjs), through the real CLI process and the test browser
// (test/fixtures/browser/browser.mjs as $BROWSER): a sign-in page on another host than the issuer,
// tokens refused after one use, step-ups across alternating metadata, a remote server whose 401
// names a local address, a local intruder at the redirect listener, a token cache directory with
// planted files, and a server that wants an API key, not a sign-in.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { HttpPeer, startFixture } from '../transport/httpPeers';
import { ROOT, ensureBuilt, runCli } from './cliProcess';

interface BrowserVisit {
  url: string;
  status: number;
  code: string | null;
  intruderStatus?: number;
}

interface HostileStats {
  registrations: number;
  authorizations: Array<{ scope: string | null; issuer: string }>;
  tokens: number;
  refused: number;
  adminHits: number;
  metadataFetches: number;
}

const TOKEN_FILE = 'mcp-host-tokens.json';
/** Preloaded into the CLI: answers MCP_HOST_TEST_HOSTS names itself (see the file). */
const RESOLVER = join(ROOT, 'test/fixtures/preload/resolveHosts.cjs');

describe('mcp-host --url: hostile authorization', { timeout: 240_000 }, () => {
  let work: string;
  const peers: HttpPeer[] = [];

  before(() => {
    ensureBuilt();
    work = mkdtempSync(join(tmpdir(), 'mcp-host-cli-hostile-auth-'));
  });
  afterEach(async () => {
    await Promise.all(peers.splice(0).map((p) => p.close()));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  let runs = 0;
  async function fixture(name: string, args: string[] = []) {
    const peer = await startFixture(name, args);
    peers.push(peer);
    return { peer, stats: async () => (await (await fetch(new URL('/control/stats', peer.url))).json()) as HostileStats };
  }

  async function run(args: string[], env: Record<string, string> = {}) {
    const log = join(work, `browser-${++runs}.jsonl`);
    const r = await runCli(args, { timeoutMs: 90_000, env: { BROWSER: `${process.execPath} ${join(ROOT, 'test/fixtures/browser/browser.mjs')}`, MCP_HOST_TEST_BROWSER_LOG: log, ...env } });
    const visits = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as BrowserVisit) : [];
    return { r, visits };
  }

  test('a sign-in page on another host:port than the issuer: the line names the host the browser opens, with a warning', async () => {
    const { peer } = await fixture('hostileAuth.mjs', ['--page-elsewhere']);
    const { r, visits } = await run(['tools', '--url', peer.url]);
    const port = new URL(peer.url).port;
    const line = /^mcp-host: sign in at (\S+) \(opening the browser\); the authorization page:$/m.exec(r.stderr);
    assert.ok(line, r.stderr);
    assert.match(line[1], /^localhost:\d+$/);
    assert.notEqual(line[1], `localhost:${port}`);
    assert.equal(new URL(visits[0].url).host, line[1], 'the host named is the one the browser got');
    assert.match(r.stderr, new RegExp(`^mcp-host: warning: The sign-in page is on http://${line[1]}, not on the authorization server http://127\\.0\\.0\\.1:${port} nor on the MCP server http://127\\.0\\.0\\.1:${port}\\.`, 'm'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^echo$/m);
  });

  test('tokens refused after one use: two sign-ins more at most, then one line naming the refusal', async () => {
    const { peer, stats } = await fixture('hostileAuth.mjs', ['--one-use-tokens']);
    const { r, visits } = await run(['call', 'echo', '--args', '{"text":"hi"}', '--url', peer.url]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(visits.length, 3, 'the first sign-in and two more, no loop');
    assert.equal((await stats()).authorizations.length, 3);
    const last = r.stderr.trimEnd().split('\n').at(-1) ?? '';
    assert.match(last, /^mcp-host: sign-in failed: the server refused the token again \(HTTP 401, invalid_token "token already used"\) after 3 sign-ins in this session; stopped/);
  });

  test('403s whose resource metadata alternates between two authorization servers: one step-up per request, then a clear stop', async () => {
    const { peer, stats } = await fixture('hostileAuth.mjs', ['--alternate-metadata']);
    const { r } = await run(['inspect', '--url', peer.url]);
    assert.equal(r.code, 2, r.stderr);
    const s = await stats();
    // The first sign-in, then one step-up (at the other authorization server); the retry's 403 ends the run.
    assert.deepEqual(s.authorizations.map((a) => [a.scope, a.issuer.replace(/^.*\//, '')]), [['mcp', 'as-a'], ['mcp s1', 'as-b']]);
    assert.match(r.stderr.trimEnd().split('\n').at(-1) ?? '', /the server requires authorization \(HTTP 403 at http:\/\/127\.0\.0\.1:\d+\/mcp\)/);
  });

  test('a remote server whose 401 names a loopback metadata URL: refused before anything is fetched; the same on loopback is allowed', async () => {
    const admin = await fixture('hostileAuth.mjs', []);
    const adminUrl = new URL('/admin/metadata', admin.peer.url).href;
    const { peer, stats } = await fixture('hostileAuth.mjs', ['--metadata-at', adminUrl]);
    // mcp.remote.test is this fixture, by the resolver preloaded into the CLI: a name that is not loopback by its spelling.
    const remoteUrl = peer.url.replace('127.0.0.1', 'mcp.remote.test');
    const env = { NODE_OPTIONS: `--require ${RESOLVER}`, MCP_HOST_TEST_HOSTS: 'mcp.remote.test=127.0.0.1' };
    const { r, visits } = await run(['tools', '--url', remoteUrl], env);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(visits.length, 0);
    assert.match(r.stderr, new RegExp(`the resource_metadata of the challenge ${adminUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is on this machine or a private network, but the MCP server http://mcp\\.remote\\.test:\\d+ is not; refused before anything was sent`));
    assert.equal((await admin.stats()).adminHits, 0, 'the local service was never reached');
    assert.equal((await stats()).refused, 1, 'the server itself was reached (the resolver worked)');
    // The user's explicit allowance: the same remote server's local metadata is fetched.
    const allowed = await run(['tools', '--url', remoteUrl, '--allow-local-auth'], env);
    assert.equal(allowed.r.code, 2, allowed.r.stderr);
    assert.equal((await admin.stats()).adminHits, 1, 'fetched once allowed');
    // The same server reached as 127.0.0.1 is local itself: its metadata on this machine is fetched
    // (and then refused by the resource check, as it describes the other fixture).
    const local = await run(['tools', '--url', peer.url]);
    assert.equal(local.r.code, 2, local.r.stderr);
    assert.match(local.r.stderr, /the protected resource metadata at http:\/\/127\.0\.0\.1:\d+\/admin\/metadata is for http:\/\/127\.0\.0\.1:\d+\/mcp, not for/);
    assert.equal((await admin.stats()).adminHits, 2);
  });

  test('a local intruder at the redirect listener gets 400; the sign-in goes on and finishes', async () => {
    const { peer } = await fixture('authServer.mjs');
    const { r, visits } = await run(['tools', '--url', peer.url], { MCP_HOST_TEST_INTRUDER: '1' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(visits.length, 1);
    assert.equal(visits[0].intruderStatus, 400);
    assert.match(r.stdout, /^echo$/m);
  });

  test('--token-cache: a lax directory of ours is tightened, a planted 0666 file ends 0600, a planted symlink is refused', { skip: process.platform === 'win32' }, async () => {
    const { peer } = await fixture('authServer.mjs');
    const lax = join(work, 'lax');
    mkdirSync(lax, { mode: 0o755 });
    chmodSync(lax, 0o755);
    writeFileSync(join(lax, TOKEN_FILE), '{}', { mode: 0o666 });
    chmodSync(join(lax, TOKEN_FILE), 0o666);
    const first = await run(['tools', '--url', peer.url, '--token-cache', lax]);
    assert.equal(first.r.code, 0, first.r.stderr);
    assert.match(first.r.stderr, new RegExp(`^mcp-host: the token cache directory ${lax.replace(/[/.]/g, '\\$&')} was mode 0755: tightened to 0700$`, 'm'));
    assert.equal(statSync(lax).mode & 0o777, 0o700);
    assert.equal(statSync(join(lax, TOKEN_FILE)).mode & 0o777, 0o600);

    const linked = join(work, 'linked');
    mkdirSync(linked, { mode: 0o700 });
    const target = join(work, 'target.txt');
    writeFileSync(target, 'not tokens');
    symlinkSync(target, join(linked, TOKEN_FILE));
    const second = await run(['tools', '--url', peer.url, '--token-cache', linked]);
    assert.equal(second.r.code, 2);
    assert.match(second.r.stderr, /mcp-host-tokens\.json is not a regular file \(a symbolic link or another kind of file\); refused as a token cache/);
    assert.equal(readFileSync(target, 'utf8'), 'not tokens', 'the link target is untouched');
    assert.ok(lstatSync(join(linked, TOKEN_FILE)).isSymbolicLink());
  });

  test('--token-cache: a directory of another user is refused, naming it', { skip: process.getuid?.() !== 0 }, async () => {
    const { peer } = await fixture('authServer.mjs');
    const theirs = join(work, 'theirs');
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, 65534, 65534);
    const { r, visits } = await run(['tools', '--url', peer.url, '--token-cache', theirs]);
    assert.equal(r.code, 2);
    assert.equal(visits.length, 0);
    assert.match(r.stderr, new RegExp(`--token-cache ${theirs.replace(/[/.]/g, '\\$&')} belongs to another user \\(uid 65534\\); refused`));
    assert.equal(existsSync(join(theirs, TOKEN_FILE)), false);
  });

  test('an API-key server (401, no OAuth metadata): no sign-in; its header and body quoted, --header suggested; the header then works', async () => {
    const { peer, stats } = await fixture('hostileAuth.mjs', ['--api-key', 'key-4711-abcdef']);
    const { r, visits } = await run(['tools', '--url', peer.url]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(visits.length, 0, 'no browser');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /^mcp-host: http:\/\/127\.0\.0\.1:\d+\/mcp publishes no OAuth metadata and has no registration endpoint \(http:\/\/127\.0\.0\.1:\d+\/register answered HTTP 404\): it requires a credential it does not offer to obtain by sign-in\. It answered HTTP 401, WWW-Authenticate: "Bearer realm=\\"api\\"", body: "\{\\"error\\":\\"Missing bearer token\\",/);
    // The redactor shows every Authorization value as ••••, the placeholder "…" included.
    assert.match(lines[0], /Give the credential as a header: --header "Authorization: Bearer (…|••••)" \(or the header the server's documentation names\)$/);
    assert.doesNotMatch(r.stderr, /dynamic client registration failed/);
    assert.equal((await stats()).registrations, 0);
    const withKey = await run(['tools', '--url', peer.url, '--header', 'Authorization: Bearer key-4711-abcdef']);
    assert.equal(withKey.r.code, 0, withKey.r.stderr);
    assert.match(withKey.r.stdout, /^echo$/m);
  });
});
