// mcp-host --url: the real CLI process against remote servers started here on free ports of
// 127.0.0.1 — server-everything in streamableHttp and sse modes, and the SDK fixture (which
// records the requests it saw). Same exit codes as for stdio; every HTTP failure is one line on
// stderr naming the status and the URL; a secret header value never shows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HttpPeer, freePort, startEverything, startFixture } from '../transport/httpPeers';
import { ensureBuilt, expectUsageErrors, runCli, runCliInProcess } from './cliProcess';

const SECRET = 'sekrit-cli-token-77';

function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(stderr, /^\s+at .+:\d+/m, 'no stack trace');
}

describe('mcp-host --url against remote servers', { timeout: 180_000 }, () => {
  let everything: HttpPeer;
  let legacy: HttpPeer;
  let fixture: HttpPeer;

  before(async () => {
    ensureBuilt();
    [everything, legacy, fixture] = await Promise.all([startEverything('streamableHttp'), startEverything('sse'), startFixture('sdkServer.mjs')]);
  });
  after(async () => {
    await Promise.all([everything, legacy, fixture].filter(Boolean).map((p) => p.close()));
  });

  test('tools over Streamable HTTP lists the server\'s tools', async () => {
    const r = await runCli(['tools', '--url', everything.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^get-sum \(Get Sum Tool\)\n {2}Returns the sum of two numbers/m);
    assert.equal(r.stderr, '');
  });

  test('call with headers and --trace: frames and HTTP events on stderr, the Authorization value never', async () => {
    const r = await runCli(['call', 'echo', '--args', '{"text":"over http"}', '--url', fixture.url, '--header', `Authorization: Bearer ${SECRET}`, '--header', 'X-Client: cli-test', '--trace']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /over http/);
    assert.match(r.stderr, /→ \d+ B \{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call"/);
    assert.match(r.stderr, /\[http\] POST tools\/call \(id \d+\) → 200/);
    assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), r.stderr);
    // The header did reach the server, and the session was ended with DELETE.
    const seen = (await (await fetch(new URL('/control/requests', fixture.url))).json()) as { method: string; authorization: boolean; sessionId?: string }[];
    assert.ok(seen.some((q) => q.method === 'POST' && q.authorization));
    assert.ok(seen.some((q) => q.method === 'DELETE' && q.sessionId), JSON.stringify(seen));
  });

  test('--transport sse reaches a legacy HTTP+SSE server; ping --json', async () => {
    const r = await runCli(['ping', '--json', '--transport', 'sse', '--url', legacy.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(typeof JSON.parse(r.stdout).roundTripMs, 'number');
  });

  test('nothing listening: exit 2 and one line naming the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const r = await runCli(['inspect', '--url', url]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assertOneLine(r.stderr, new RegExp(`^mcp-host: .*${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test('an HTTP error status: exit 2 and one line naming the status and the URL', async () => {
    const url = new URL('/no-such-endpoint', fixture.url).href;
    const r = await runCli(['tools', '--transport', 'http', '--url', url, '--header', `Authorization: Bearer ${SECRET}`]);
    assert.equal(r.code, 2);
    assertOneLine(r.stderr, /^mcp-host: .*127\.0\.0\.1:\d+\/no-such-endpoint answered HTTP 404/);
    assert.ok(!r.stderr.includes(SECRET));
  });

  test('usage: --url with a command, --header or --transport without --url, a bad header or mode', async () => {
    const cases: [string[], RegExp][] = [
      [['tools', '--url', everything.url, '--', 'node'], /give either --url or a server command after --, not both/],
      [['tools', '--header', 'X-A: b', '--', 'node'], /--header only applies with --url/],
      [['tools', '--transport', 'sse', '--', 'node'], /--transport only applies with --url/],
      [['tools', '--url', 'ftp://example.com/mcp'], /--url must be an http:\/\/ or https:\/\/ URL/],
      [['tools', '--url', everything.url, '--transport', 'websocket'], /--transport must be auto, http or sse/],
      [['tools', '--url', everything.url, '--header', `Bearer ${SECRET}`], /--header needs "Name: value"/],
    ];
    for (const r of await expectUsageErrors(cases, runCliInProcess)) assert.ok(!r.stderr.includes(SECRET), r.stderr);
  });
});
