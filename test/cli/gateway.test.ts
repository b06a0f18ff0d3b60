// `mcp-host gateway --json --config FILE`: the real CLI process serves the file's servers (one
// legacy, one modern-only), a separate SDK client process uses the printed URL and headers, and
// a signal ends it with nothing left running (stdin closing only with --exit-on-stdin-close).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, EVERYTHING, MARKER, ROOT, ensureBuilt, expectUsageErrors, leftoverProcesses, waitForNoLeftovers, runCliInProcess } from './cliProcess';

const SDK_CLIENT = path.join(ROOT, 'test/fixtures/clients/sdkGatewayClient.mjs');
const ERAS = path.join(ROOT, 'test/fixtures/servers/eras.mjs');

interface Printed {
  servers: Array<{ name: string; url: string; headers: Record<string, string> }>;
}

/** Starts `mcp-host gateway` with stdin a pipe (or /dev/null); resolves with the process and its first stdout line, parsed. */
function startGateway(args: string[], stdin: 'pipe' | 'ignore' = 'pipe'): Promise<{ child: ReturnType<typeof spawn>; printed: Printed; stderr: () => string; exited: Promise<number | null> }> {
  const [key, value] = MARKER.split('=');
  const child = spawn(process.execPath, [CLI, 'gateway', ...args], { cwd: ROOT, env: { ...process.env, [key]: value }, stdio: [stdin, 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no first line within 20 s; stderr: ${stderr}`)), 20_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const nl = stdout.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      resolve({ child, printed: JSON.parse(stdout.slice(0, nl)) as Printed, stderr: () => stderr, exited });
    });
    child.once('close', (code) => reject(new Error(`mcp-host gateway exited with ${code}: ${stderr}`)));
  });
}

function sdkClientProcess(server: Printed['servers'][number], tool: string, args: unknown): any {
  const r = spawnSync(process.execPath, [SDK_CLIENT, server.url, JSON.stringify(server.headers), tool, JSON.stringify(args)], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('mcp-host gateway', () => {
  let tmp: string;
  let config: string;
  before(async () => {
    ensureBuilt();
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-gateway-cli-'));
    config = path.join(tmp, '.mcp.json');
    const [command, ...args] = EVERYTHING;
    await fs.writeFile(config, JSON.stringify({ mcpServers: { everything: { command, args }, eras: { command: 'node', args: [ERAS, '--modern-only'] } } }));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('--json --config: a separate SDK client process uses the printed URL and headers; Ctrl-C leaves nothing running', async () => {
    const run = await startGateway(['--json', '--config', config]);
    try {
      assert.deepEqual(run.printed.servers.map((s) => s.name), ['everything', 'eras']);
      for (const s of run.printed.servers) {
        assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp\//);
        assert.equal(Object.keys(s.headers).length, 1);
      }
      const everything = sdkClientProcess(run.printed.servers[0], 'echo', { message: 'from another process' });
      assert.equal(everything.server.name, 'everything');
      assert.ok(everything.tools.includes('echo'));
      assert.match(JSON.stringify(everything.result.content), /from another process/);
      const eras = sdkClientProcess(run.printed.servers[1], 'echo', { text: 'modern behind legacy' });
      assert.equal(eras.server.name, 'eras');
      assert.equal(eras.result.content[0].text, 'modern behind legacy');
      // The servers run as MCP Host's children (marked), one per server.
      assert.equal(leftoverProcesses().length, 3, 'the CLI and its two servers');
      // Without the headers the same URL is refused.
      const refused = await fetch(run.printed.servers[0].url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(refused.status, 401);
      assert.ok(!run.stderr().includes(Object.values(run.printed.servers[0].headers)[0]), 'the secret is not in the log');
      assert.match(run.stderr(), /refused POST .* 401/);
    } finally {
      run.child.kill('SIGINT');
    }
    assert.equal(await run.exited, 0);
    assert.deepEqual(await waitForNoLeftovers(), []);
  });

  test('with stdin /dev/null (as under &, nohup, a service) it serves until SIGTERM', async () => {
    const run = await startGateway(['--json', '--config', config, '--server', 'eras'], 'ignore');
    let exited = false;
    void run.exited.then(() => (exited = true));
    try {
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(exited, false, `it ended on its own: ${run.stderr()}`);
      assert.equal(sdkClientProcess(run.printed.servers[0], 'echo', { text: 'still here' }).result.content[0].text, 'still here');
    } finally {
      run.child.kill('SIGTERM');
    }
    assert.equal(await run.exited, 0);
    assert.doesNotMatch(run.stderr(), /stdin was closed/);
    assert.deepEqual(await waitForNoLeftovers(), []);
  });

  test('a closed stdin does not end it; with --exit-on-stdin-close it does', async () => {
    const kept = await startGateway(['--json', '--config', config, '--server', 'eras']);
    let exited = false;
    void kept.exited.then(() => (exited = true));
    kept.child.stdin!.end();
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(exited, false, 'it ended when stdin closed');
    kept.child.kill('SIGINT');
    assert.equal(await kept.exited, 0);
    const run = await startGateway(['--json', '--config', config, '--server', 'eras', '--exit-on-stdin-close']);
    assert.deepEqual(run.printed.servers.map((s) => s.name), ['eras']);
    run.child.stdin!.end();
    assert.equal(await run.exited, 0);
    assert.deepEqual(await waitForNoLeftovers(), []);
  });

  test('usage errors', async () => {
    await expectUsageErrors([
      [['gateway', '--port', 'x', '--config', 'f.json'], /--port must be a port number/],
      [['tools', '--port', '1', '--', 'node', 's.js'], /--port only applies to gateway/],
      [['gateway', 'extra', '--', 'node', 's.js'], /unexpected argument "extra"/],
      [['tools', '--exit-on-stdin-close', '--', 'node', 's.js'], /--exit-on-stdin-close only applies to gateway/],
    ], runCliInProcess);
  });
});
