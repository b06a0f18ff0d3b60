// Real servers in the bubblewrap sandbox, started the way the host starts them: an mcp.json entry
// with `sandboxEnabled` is parsed, resolved and handed to transportFactory. server-filesystem and
// server-everything answer; a raw fixture (sandboxProbe.mjs) tries to read a planted
// ~/.ssh/id_rsa, write outside the workspace and reach a loopback port this test listens on, and
// each refusal reaches the caller as the server reports it; after close nothing of the tree is left.
// Linux with a working bwrap only (scripts/prerequisites.sh installs it); skipped elsewhere.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer as createHttpServer, Server as HttpServer } from 'node:http';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { parseConfigText } from '../../src/config/parse';
import type { ConfigSource, StdioServerConfig } from '../../src/config/types';
import { resolveServer } from '../../src/config/variables';
import { transportFactory } from '../../src/transport/transportFactory';
import { EVERYTHING, FILESYSTEM, REPO, fixture, waitFor } from '../client/support';
import { bwrapWorks } from './bwrapAvailable';


/** Text of a tool result's first content part. */
const textOf = (result: { content?: unknown[] }): string => String((result.content?.[0] as { text?: string } | undefined)?.text ?? '');

describe('sandboxed stdio servers (bubblewrap)', { skip: !bwrapWorks && 'needs Linux with a working bwrap (apt-get install bubblewrap)' }, () => {
  // Outside /tmp (which the sandbox replaces anyway), so hiding $HOME is what hides the key.
  const root = mkdtempSync(path.join(REPO, 'out', 'sandbox-test-'));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'workspace');
  const outside = path.join(root, 'outside');
  const key = path.join(home, '.ssh', 'id_rsa');
  const savedHome = process.env.HOME;
  let listener: Server;
  let port = 0;
  let accepted = 0;
  // Two web hosts on loopback addresses: one the policy allows, one it does not.
  let allowedHost: HttpServer;
  let otherHost: HttpServer;
  let allowedPort = 0;
  let otherPort = 0;
  let otherHits = 0;
  const SOURCE: ConfigSource = { kind: 'vscode-mcp-json', label: '.vscode/mcp.json', file: path.join(workspace, '.vscode/mcp.json'), folder: { name: 'workspace', fsPath: workspace }, workspaceDefined: true };

  before(async () => {
    mkdirSync(path.dirname(key), { recursive: true });
    writeFileSync(key, '-----BEGIN OPENSSH PRIVATE KEY-----\nplanted-secret\n');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(workspace, 'notes.txt'), 'workspace notes\n');
    process.env.HOME = home;
    listener = createServer((socket) => {
      accepted++;
      socket.end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
    allowedHost = createHttpServer((_req, res) => res.end('hello from the allowed host'));
    otherHost = createHttpServer((_req, res) => (otherHits++, res.end('this must not be reached')));
    await new Promise<void>((resolve) => allowedHost.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => otherHost.listen(0, '127.0.0.2', resolve));
    allowedPort = (allowedHost.address() as { port: number }).port;
    otherPort = (otherHost.address() as { port: number }).port;
  });

  after(() => {
    process.env.HOME = savedHome;
    listener.close();
    allowedHost.close();
    otherHost.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Connects a client to the entry `server` of an mcp.json text, through the host's parse → resolve → transport path. */
  async function connect(server: Record<string, unknown>): Promise<McpClient> {
    // The servers' scripts are read from this clone, wherever it is: a clone under /tmp (which the
    // sandbox replaces) or a home folder (which it hides) needs them allowed, as a user's would.
    const sandbox = (server.sandbox ?? {}) as { filesystem?: Record<string, unknown> };
    const scripts = [path.join(REPO, 'node_modules'), path.join(REPO, 'test', 'fixtures')];
    const entryWithScripts = server.sandboxEnabled ? { ...server, sandbox: { ...sandbox, filesystem: { ...sandbox.filesystem, allowRead: scripts } } } : server;
    const loaded = parseConfigText(JSON.stringify({ servers: { probe: entryWithScripts } }), SOURCE);
    assert.deepEqual(loaded.problems, []);
    const entry = loaded.servers[0];
    const resolved = await resolveServer(entry.config as StdioServerConfig, { folders: {}, workspaceFolder: workspace, userHome: home, env: process.env, resolveInput: async () => '' }, workspace);
    const client = new McpClient({ clientInfo: { name: 'sandbox-test', version: '0.0.0' } });
    await client.connect(transportFactory({ stdio: { closeGraceMs: 300, termGraceMs: 300 }, workspaceFolders: () => [workspace] })(resolved, entry));
    return client;
  }

  test('the fixture server is refused the planted key, a write outside the workspace and a loopback port; the refusals reach the caller', async () => {
    const client = await connect({ command: 'node', args: [fixture('sandboxProbe.mjs')], sandboxEnabled: true, sandbox: { filesystem: { workspace: 'write' } } });
    try {
      // It runs and can do what the policy allows: read and write in the workspace.
      assert.match(textOf(await client.callTool('read_file', { path: path.join(workspace, 'notes.txt') })), /^OK: workspace notes/);
      assert.match(textOf(await client.callTool('write_file', { path: path.join(workspace, 'out.txt') })), /^OK/);
      assert.equal(readFileSync(path.join(workspace, 'out.txt'), 'utf8'), 'written by sandboxProbe\n');

      const read = await client.callTool('read_file', { path: key });
      assert.equal(read.isError, true);
      assert.match(textOf(read), /^REFUSED: ENOENT/, 'the key is not there at all: $HOME is an empty tmpfs');
      assert.doesNotMatch(JSON.stringify(read), /planted-secret/);

      const write = await client.callTool('write_file', { path: path.join(outside, 'escaped.txt') });
      assert.equal(write.isError, true);
      // Read-only where the folder is seen (EROFS); not there at all when this clone sits under /tmp,
      // which the sandbox replaces (ENOENT).
      assert.match(textOf(write), REPO.startsWith('/tmp/') ? /^REFUSED: ENOENT/ : /^REFUSED: EROFS/);
      assert.equal(existsSync(path.join(outside, 'escaped.txt')), false);

      const reach = await client.callTool('connect', { host: '127.0.0.1', port });
      assert.equal(reach.isError, true);
      assert.match(textOf(reach), /^REFUSED: (ECONNREFUSED|ENETUNREACH)/);
      assert.equal(accepted, 0, 'nothing reached the listener');
    } finally {
      await client.close();
    }
  });

  test('without the sandbox the same server reads the key and reaches the port (what the sandbox prevents is real)', async () => {
    const client = await connect({ command: 'node', args: [fixture('sandboxProbe.mjs')] });
    try {
      assert.match(textOf(await client.callTool('read_file', { path: key })), /planted-secret/);
      assert.match(textOf(await client.callTool('connect', { host: '127.0.0.1', port })), /^OK/);
    } finally {
      await client.close();
    }
  });

  test('a list of hosts: the allowed host answers through the filtering proxy; another host, a direct connection and a request without the secret are refused, as the server reports them', async () => {
    const proxies = () => readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-host-proxy-'));
    const before = new Set(proxies());
    const client = await connect({ command: 'node', args: [fixture('sandboxProbe.mjs')], sandboxEnabled: true, sandbox: { network: { allowedDomains: ['127.0.0.1'] } } });
    try {
      assert.match(textOf(await client.callTool('proxy_get', { url: `http://127.0.0.1:${allowedPort}/` })), /^OK: 200 hello from the allowed host/);
      assert.match(textOf(await client.callTool('proxy_connect', { host: '127.0.0.1', port: allowedPort })), /^OK: 200 hello from the allowed host/);

      const refusedGet = await client.callTool('proxy_get', { url: `http://127.0.0.2:${otherPort}/` });
      assert.equal(refusedGet.isError, true);
      assert.match(textOf(refusedGet), /^REFUSED: 403 mcp-host sandbox: the host "127\.0\.0\.2" is not allowed \(it is not in sandbox\.network\.allowedDomains\)/);
      assert.match(textOf(await client.callTool('proxy_connect', { host: '127.0.0.2', port: otherPort })), /^REFUSED: 403 mcp-host sandbox: the host "127\.0\.0\.2" is not allowed/);
      assert.equal(otherHits, 0, 'nothing reached the other host');

      // The proxy is the only way out: the allowed host itself is not reachable directly.
      assert.match(textOf(await client.callTool('connect', { host: '127.0.0.1', port: allowedPort })), /^REFUSED: (ECONNREFUSED|ENETUNREACH)/);
      // Without the per-start secret of its URL the proxy answers nothing else.
      assert.match(textOf(await client.callTool('proxy_get', { url: `http://127.0.0.1:${allowedPort}/`, noAuth: true })), /^REFUSED: 407/);
      assert.equal(proxies().filter((name) => !before.has(name)).length, 1, 'one proxy runs for the server');
    } finally {
      await client.close();
    }
    await waitFor(() => proxies().every((name) => before.has(name)), 5000, 'the proxy to be stopped and its folder removed');
  });

  test('a read-only workspace refuses writes inside it too', async () => {
    const client = await connect({ command: 'node', args: [fixture('sandboxProbe.mjs')], sandboxEnabled: true });
    try {
      const write = await client.callTool('write_file', { path: path.join(workspace, 'ro.txt') });
      assert.match(textOf(write), /^REFUSED: EROFS/);
    } finally {
      await client.close();
    }
  });

  test('after close no process of the sandboxed tree remains, a detached grandchild included', async () => {
    const marker = `sandbox-marker-${process.pid}-${Date.now()}`;
    const client = await connect({ command: 'node', args: [fixture('sandboxProbe.mjs')], sandboxEnabled: true });
    assert.match(textOf(await client.callTool('spawn_sleeper', { marker })), /^OK: started/);
    const running = () => execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim();
    assert.notEqual(running(), '', 'the grandchild runs before close');
    await client.close();
    await waitFor(() => {
      try {
        return running() === '';
      } catch {
        return true; // pgrep exits 1 when nothing matches
      }
    }, 5000, 'the tree to end');
  });

  test('server-filesystem answers tools/list and a tool call in the sandbox, and sees only the workspace', async () => {
    const client = await connect({ command: 'node', args: [FILESYSTEM, workspace], sandboxEnabled: true });
    try {
      const tools = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'read_text_file' || t.name === 'read_file'));
      const name = tools.some((t) => t.name === 'read_text_file') ? 'read_text_file' : 'read_file';
      assert.match(textOf(await client.callTool(name, { path: path.join(workspace, 'notes.txt') })), /workspace notes/);
    } finally {
      await client.close();
    }
  });

  test('server-everything answers tools/list and a tool call in the sandbox', async () => {
    const client = await connect({ command: 'node', args: EVERYTHING, sandboxEnabled: true });
    try {
      const tools = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'echo'));
      assert.match(textOf(await client.callTool('echo', { message: 'hello from the sandbox' })), /hello from the sandbox/);
    } finally {
      await client.close();
    }
  });
});
