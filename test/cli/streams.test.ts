// The CLI against hostile HTTP fixtures and a crashing stdio server: a request whose answer cannot
// come ends in exit 2 and one line (never exit 0 with nothing printed); a 403 shows the server's
// words; TLS failures are said in words; a modern-only server's answer to a legacy pin comes
// first; the log names only the headers really sent (these in-process: runCliInProcess); a
// detached worker of a crashed server is dead before the real CLI process exits.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isPidAlive } from '../../src/transport/processTree';
import { HttpPeer, startFixture } from '../transport/httpPeers';
import { ROOT, ensureBuilt, runCli, runCliInProcess } from './cliProcess';

function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0], pattern);
}

describe('mcp-host against hostile streams and refusals', { timeout: 180_000 }, () => {
  const peers: HttpPeer[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-streams-'));
  before(() => ensureBuilt());
  after(async () => {
    await Promise.all(peers.map((p) => p.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function fixture(name: string, args: string[]): Promise<HttpPeer> {
    const peer = await startFixture(name, args);
    peers.push(peer);
    return peer;
  }

  test('a tools/list whose answer never comes: exit 2 and one line that says so, after a bounded number of resumes', async () => {
    const peer = await fixture('hostileStreams.mjs', ['--mode', 'lost-answer']);
    const r = await runCliInProcess(['tools', '--url', peer.url], { timeoutMs: 60_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assertOneLine(r.stderr, /^mcp-host: tools\/list: no answer can come: 5 attempts in a row to resume its response stream from http:\/\/127\.0\.0\.1:\d+\/mcp failed or ended without a message$/);
    const seen = (await (await fetch(new URL('/control/stats', peer.url))).json()) as { resumeGets: number };
    assert.equal(seen.resumeGets, 4);
  });

  test('a 403 with a JSON-RPC error body: the status and the server\'s words, escaped, not "requires authorization"', async () => {
    const peer = await fixture('hostileStreams.mjs', ['--mode', 'forbidden']);
    const r = await runCliInProcess(['tools', '--url', peer.url]);
    assert.equal(r.code, 2, r.stderr);
    assertOneLine(r.stderr, /^mcp-host: \S+: POST http:\/\/127\.0\.0\.1:\d+\/mcp answered HTTP 403 Forbidden: Access is only allowed at localhost:18103\\u001b\[31m \(JSON-RPC error -32600\)$/);
    assert.doesNotMatch(r.stderr, /requires authorization/);
  });

  test('https to a port that speaks plain HTTP: says so and suggests http://', async () => {
    const peer = await fixture('hostileStreams.mjs', ['--mode', 'get-storm']);
    const url = peer.url.replace('http:', 'https:');
    const r = await runCliInProcess(['tools', '--url', url]);
    assert.equal(r.code, 2, r.stderr);
    assertOneLine(r.stderr, /127\.0\.0\.1:\d+ does not speak TLS \(https\) on this port \(ERR_SSL_WRONG_VERSION_NUMBER\); if the server serves plain HTTP there, use http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.doesNotMatch(r.stderr, /0A00010B|wrong version number/);
  });

  test('a self-signed certificate: the host and the reason in words', async (t) => {
    // The key and certificate are made here, for this run only: no private key is committed.
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    if (made.status !== 0) return t.skip('openssl is not installed');
    const server: Server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const r = await runCliInProcess(['tools', '--url', `https://127.0.0.1:${port}/mcp`]);
      assert.equal(r.code, 2, r.stderr);
      assertOneLine(r.stderr, new RegExp(`the TLS certificate of 127\\.0\\.0\\.1:${port} was refused: it is self-signed, and nothing this system trusts vouches for it \\(DEPTH_ZERO_SELF_SIGNED_CERT\\)$`));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('--protocol-version legacy against a modern-only server: the server\'s own answer, not the fallback\'s 405', async () => {
    const peer = await fixture('modernHttpServer.mjs', []);
    const r = await runCliInProcess(['tools', '--protocol-version', 'legacy', '--url', peer.url]);
    assert.equal(r.code, 2, r.stderr);
    assertOneLine(r.stderr, /^mcp-host: initialize: POST http:\/\/127\.0\.0\.1:\d+\/mcp answered HTTP 400 Bad Request: Unsupported protocol version: 2025-11-25 \(JSON-RPC error -32022\)$/);
    assert.doesNotMatch(r.stderr, /HTTP 405|Method Not Allowed/);
  });

  test('--trace names the headers really sent: none configured, no sign-in claimed', async () => {
    const peer = await fixture('hostileStreams.mjs', ['--mode', 'get-storm']);
    const plain = await runCliInProcess(['ping', '--trace', '--url', peer.url]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stderr, /\[http\] Streamable HTTP to http:\/\/127\.0\.0\.1:\d+\/mcp \(headers: none\)/);
    assert.doesNotMatch(plain.stderr, /Authorization from sign-in/);
    const headed = await runCliInProcess(['ping', '--trace', '--url', peer.url, '--header', 'X-Trace: abc']);
    assert.equal(headed.code, 0, headed.stderr);
    assert.match(headed.stderr, /\(headers: X-Trace\)/);
  });

  test('a server that starts a detached (setsid) worker and crashes: the worker is dead when the CLI exits', async () => {
    const pidFile = join(dir, 'worker.pid');
    const r = await runCli(['tools', '--', process.execPath, join(ROOT, 'test/fixtures/servers/transport/setsidCrashServer.mjs'), pidFile]);
    const worker = Number(readFileSync(pidFile, 'utf8'));
    // Read at once: a killed worker may stay a zombie until init reaps it, which counts as dead.
    const alive = await isPidAlive(worker);
    if (alive) process.kill(worker, 'SIGKILL');
    assert.equal(r.code, 2, r.stderr);
    // The probe restarts a server that exits on it once, so this says how the second start ended.
    assert.match(r.stderr, /exited with code 1/);
    assert.equal(alive, false, `worker ${worker} outlived the CLI`);
  });
});
