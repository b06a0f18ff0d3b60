import assert from 'node:assert/strict';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { ROOT, ensureBuilt, killQuietly, waitForNoLeftovers, runCliInProcess } from './cliProcess';

const EVOLVING = ['node', join(ROOT, 'test', 'fixtures', 'servers', 'evolving.mjs')];

/** An HTTP endpoint that answers every request the same way. */
function endpoint(status: number, headers: Record<string, string>, body: string): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(status, headers);
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }));
  });
}

let apiKeyServer: { server: Server; url: string };
let htmlServer: { server: Server; url: string };
before(async () => {
  ensureBuilt();
  apiKeyServer = await endpoint(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="api"' }, '{"error":"Missing bearer token"}');
  htmlServer = await endpoint(200, { 'content-type': 'text/html' }, '<html><body>Welcome to my blog</body></html>');
});
after(() => {
  apiKeyServer.server.close();
  htmlServer.server.close();
});
afterEach(async () => {
  const left = await waitForNoLeftovers();
  for (const pid of left) killQuietly(pid);
  assert.deepEqual(left, [], 'a server process was left running');
});

describe('mcp-host doctor', { timeout: 120_000 }, () => {
  test('a healthy stdio server: every step passes, the era probe explained, exit 0', async () => {
    const r = await runCliInProcess(['doctor', '--', ...EVOLVING]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^✓ command: node is \//m);
    assert.match(r.stdout, /^✓ era probe: server\/discover refused \(-32601 [^)]*\): a legacy server, initialize follows$/m);
    assert.match(r.stdout, /^✓ handshake: evolving 1\.0\.1 speaks 2025-11-25 \(legacy\); offers tools, prompts$/m);
    assert.match(r.stdout, /^healthy: the server answers the MCP handshake$/m);
  });

  test('a command not on PATH: broken at the command, with what to do', async () => {
    const r = await runCliInProcess(['doctor', '--', 'mcp-host-no-such-server', '--flag']);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /^✗ command: .*mcp-host-no-such-server/m);
    assert.match(r.stdout, /^ {4}→ install mcp-host-no-such-server, or give its full path in "command"$/m);
    assert.match(r.stdout, /^broken at: command$/m);
  });

  test('a command that is no MCP server: its exit and the first line it printed', async () => {
    const r = await runCliInProcess(['doctor', '--', 'node', '-e', 'console.log("hello there"); process.exit(3)']);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /^✗ handshake: .*exited with code 3.*first line on stdout that is not JSON-RPC: "hello there"/m);
    assert.match(r.stdout, /→ the process ended before answering without a word on stderr/);
  });

  test('a closed port: broken at tcp; an API-key server: its 401 and no sign-in metadata; an HTML page', async () => {
    const closed = await runCliInProcess(['doctor', '--url', 'http://127.0.0.1:1/mcp']);
    assert.equal(closed.code, 2);
    assert.match(closed.stdout, /^✗ tcp: 127\.0\.0\.1:1: connection refused$/m);
    assert.match(closed.stdout, /→ nothing listens there/);

    const apiKey = await runCliInProcess(['doctor', '--url', apiKeyServer.url]);
    assert.equal(apiKey.code, 2, apiKey.stdout);
    assert.match(apiKey.stdout, /^! http: 401 Unauthorized \(WWW-Authenticate: Bearer realm="api"\)$/m);
    assert.match(apiKey.stdout, /^✗ resource metadata: none \(no resource_metadata in the challenge, no well-known document\)$/m);
    assert.match(apiKey.stdout, /→ the server does not offer sign-in: it needs a credential you give it/);

    const html = await runCliInProcess(['doctor', '--url', htmlServer.url]);
    assert.equal(html.code, 2);
    assert.match(html.stdout, /^✗ http: 200 OK \(text\/html\): "<html><body>Welcome to my blog<\/body><\/html>"$/m);
    assert.match(html.stdout, /→ the endpoint answers, but not as an MCP server/);
  });

  test('secret header values never appear', async () => {
    const r = await runCliInProcess(['doctor', '--url', apiKeyServer.url, '--header', 'Authorization: Bearer sk-doctor-secret-123456']);
    assert.doesNotMatch(r.stdout + r.stderr, /sk-doctor-secret/);
  });
});
