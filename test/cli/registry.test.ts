// `mcp-host registry search|show|install` (in-process: runCliInProcess) against the registry fixture:
// what a user reads, what install writes (and never writes), refusals, a private registry, and
// a registry that cannot be reached.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { ensureBuilt, runCliInProcess } from './cliProcess';
import { RegistryFixture, startRegistryFixture } from '../gallery/registryFixture';

let fixture: RegistryFixture;
let workspace: string;
before(async () => {
  ensureBuilt();
  fixture = await startRegistryFixture();
  workspace = mkdtempSync(join(tmpdir(), 'mcp-host-registry-'));
});
after(async () => {
  await fixture.close();
  rmSync(workspace, { recursive: true, force: true });
});

const registry = (prefix = 'public') => ['--registry', `${fixture.url}/${prefix}`];

describe('mcp-host registry', () => {
  test('search: name, version, package types, title, description and repository; the cursor of the next page', async () => {
    const r = await runCliInProcess(['registry', 'search', 'example', ...registry(), '--limit', '2']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^io\.github\.example\/weather-mcp {2}0\.5\.0 {2}\[pypi\]\n {4}Weather: Python MCP server for weather data access\n {4}https:\/\/github\.com\/example\/weather-mcp$/m);
    const cursor = /^more: --cursor (\S+)$/m.exec(r.stdout)?.[1];
    assert.ok(cursor, r.stdout);
    const next = await runCliInProcess(['registry', 'search', 'example', ...registry(), '--limit', '2', '--cursor', cursor]);
    assert.match(next.stdout, /^com\.example\.unsafe\/shell-in-name/m);
    assert.doesNotMatch(next.stdout, /weather-mcp/);
  });

  test('show: the ways to install, each with its command or the reason it is refused', async () => {
    const r = await runCliInProcess(['registry', 'show', 'io.github.modelcontextprotocol/filesystem', ...registry()]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1\. npm @modelcontextprotocol\/server-filesystem@1\.0\.2\n {5}npx -y @modelcontextprotocol\/server-filesystem@1\.0\.2 \$\{input:filesystem-target_dir\}/);
    assert.match(r.stdout, /2\. oci docker\.io\/mcp\/filesystem:1\.0\.2\n {5}docker run -i --rm --mount/);
    const unsafe = await runCliInProcess(['registry', 'show', 'com.example.unsafe/credentials-in-url', ...registry()]);
    assert.match(unsafe.stdout, /refused: the URL holds credentials/);
  });

  test('install into .vscode/mcp.json: the entry and its secret input, no value; a second install of the name is refused', async () => {
    const target = join(workspace, 'a', '.vscode', 'mcp.json');
    const r = await runCliInProcess(['registry', 'install', 'io.modelcontextprotocol.anonymous/brave-search', ...registry(), '--target', target]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /installed io\.modelcontextprotocol\.anonymous\/brave-search 1\.0\.2 as "brave-search"/);
    assert.match(r.stdout, /asks for brave-search-BRAVE_API_KEY \(secret: kept in SecretStorage\)/);
    const written = parse(readFileSync(target, 'utf8'));
    assert.deepEqual(written.servers['brave-search'].env, { BRAVE_API_KEY: '${input:brave-search-BRAVE_API_KEY}' });
    assert.deepEqual(written.inputs, [{ type: 'promptString', id: 'brave-search-BRAVE_API_KEY', description: 'Brave Search API Key', password: true }]);
    const again = await runCliInProcess(['registry', 'install', 'io.modelcontextprotocol.anonymous/brave-search', ...registry(), '--target', target, '--version', '1.0.1']);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /a server named "brave-search" is already configured/);
    const renamed = await runCliInProcess(['registry', 'install', 'io.modelcontextprotocol.anonymous/brave-search', ...registry(), '--target', target, '--version', '1.0.1', '--name', 'brave-old']);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.deepEqual(parse(readFileSync(target, 'utf8')).servers['brave-old'].args, ['-y', '@modelcontextprotocol/server-brave-search@1.0.1']);
  });

  test('install a remote into .mcp.json (comments kept): headers read from the environment', async () => {
    const target = join(workspace, 'b', '.mcp.json');
    mkdirSync(join(workspace, 'b'));
    writeFileSync(target, '{\n  // team servers\n  "mcpServers": {}\n}\n');
    const r = await runCliInProcess(['registry', 'install', 'io.modelcontextprotocol.anonymous/hybrid-mcp', ...registry(), '--target', target, '--use', '2']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /reads \$X_API_KEY from the environment \(secret\)/);
    const text = readFileSync(target, 'utf8');
    assert.match(text, /\/\/ team servers/);
    const gallery = `${fixture.url}/public/v0.1/servers/${encodeURIComponent('io.modelcontextprotocol.anonymous/hybrid-mcp')}`;
    assert.deepEqual(parse(text).mcpServers['hybrid-mcp'], { type: 'http', url: 'https://mcp.anonymous.modelcontextprotocol.io/http', headers: { 'X-API-Key': '${X_API_KEY}', 'X-Region': 'us-east-1' }, gallery, version: '1.5.0' });
  });

  test('unsafe and malformed entries: refused with the reason, nothing written', async () => {
    const target = join(workspace, 'c', '.vscode', 'mcp.json');
    for (const [name, reason] of [
      ['com.example.unsafe/shell-in-name', /shell metacharacters/],
      ['com.example.unsafe/credentials-in-url', /holds credentials/],
      ['io.modelcontextprotocol/text-editor', /mcpb\) are not installed yet/],
    ] as const) {
      const r = await runCliInProcess(['registry', 'install', name, ...registry(), '--target', target]);
      assert.equal(r.code, 2, name);
      assert.match(r.stderr, reason);
    }
    const broken = await runCliInProcess(['registry', 'install', 'broken-without-namespace', ...registry('broken'), '--target', target]);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /registry entry "broken-without-namespace" is malformed/);
    assert.equal(existsSync(target), false);
  });

  test('a private registry: 401 says how to give the token; with it, search answers; the token is printed nowhere', async () => {
    const refused = await runCliInProcess(['registry', 'search', ...registry('private')]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /answered 401: it needs a token \(a private registry\)\ngive the token in an environment variable: --registry-token-env VAR/);
    const r = await runCliInProcess(['registry', 'search', 'weather', ...registry('private'), '--registry-token-env', 'TEAM_REGISTRY_TOKEN'], { env: { TEAM_REGISTRY_TOKEN: fixture.token } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /io\.github\.example\/weather-mcp/);
    assert.ok(!r.stdout.includes(fixture.token) && !r.stderr.includes(fixture.token));
  });

  test('not reachable: a 503 and an HTML page say so', async () => {
    const down = await runCliInProcess(['registry', 'search', ...registry('down')]);
    assert.equal(down.code, 2);
    assert.match(down.stderr, /^mcp-host: registry not reachable at http:\/\/127\.0\.0\.1:\d+\/down: HTTP 503$/m);
    const html = await runCliInProcess(['registry', 'search', ...registry('html'), '--json']);
    assert.match(html.stderr, /not the registry's JSON \(is the URL right\?\)/);
  });
});
