import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfigText } from '../../src/config/parse';
import type { ConfigSource, RemoteServerConfig } from '../../src/config/types';
import { resolveRemoteServer } from '../../src/config/variables';
import { McpClient } from '../../src/client/client';
import { Redactor } from '../../src/protocol/redaction';
import { transportFactory } from '../../src/transport/transportFactory';
import { startEverything } from '../transport/httpPeers';
import { serverDetails, serverEntryJson, signInFacts, signInSummary } from '../../src/usecases/serverInfo';
import { toTarget } from '../../src/extension/panels/useCaseDeps';
import { serverStateText } from '../../src/extension/tree/serverRowText';
import { EVERYTHING, connectStdio, fixture } from '../client/support';

const SOURCE: ConfigSource = { kind: 'vscode-mcp-json', label: '.vscode/mcp.json', file: '/ws/.vscode/mcp.json', workspaceDefined: true };
const CONFIG = `{
  // a comment
  "inputs": [{ "id": "api-key", "type": "promptString", "description": "API key", "password": true }],
  "servers": {
    "api": { "type": "stdio", "command": "node", "args": ["server.js", "--port", "0"], "env": { "API_KEY": "\${input:api-key}", "DROP": null }, "cwd": "\${workspaceFolder}" },
    "remote": { "type": "http", "url": "https://example.com/mcp" },
    "literal": { "command": "node", "args": ["s.js"], "env": { "API_KEY": "sk-literal-abcdef1234567", "LEVEL": "info", "ROOT": "\${workspaceFolder}/src" } },
    "creds": { "type": "http", "url": "https://user:hunter2pass@example.com/mcp?api_key=sk-query-998877&team=blue" },
    "keyed": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer sk-live-12345", "X-Token": "\${input:api-key}", "X-Api-Key": "abc-\${env:KEY}", "X-Plain": "yes" } }
  }
}`;

describe('server info', () => {
  const { servers, problems } = parseConfigText(CONFIG, SOURCE);

  test('Copy Server Entry: mcpServers format keeps ${input:…} references, never a resolved secret', () => {
    assert.deepEqual(problems.filter((p) => p.severity === 'error'), []);
    const api = servers.find((s) => s.name === 'api')!;
    assert.deepEqual(JSON.parse(serverEntryJson(api, 'mcpServers')), {
      mcpServers: { api: { command: 'node', args: ['server.js', '--port', '0'], env: { API_KEY: '${input:api-key}', DROP: null }, cwd: '${workspaceFolder}' } },
    });
  });

  test('Copy Server Entry: .vscode/mcp.json format carries the input definitions it uses', () => {
    const api = servers.find((s) => s.name === 'api')!;
    const json = JSON.parse(serverEntryJson(api, 'vscode'));
    assert.deepEqual(json.inputs, [{ id: 'api-key', type: 'promptString', description: 'API key', password: true }]);
    assert.equal(json.servers.api.type, 'stdio');
    const remote = servers.find((s) => s.name === 'remote')!;
    assert.deepEqual(JSON.parse(serverEntryJson(remote, 'mcpServers')), { mcpServers: { remote: { type: 'http', url: 'https://example.com/mcp' } } });
  });

  test('Copy Server Entry: a credential written into a header is masked; references and plain headers stay', () => {
    const keyed = servers.find((s) => s.name === 'keyed')!;
    const text = serverEntryJson(keyed, 'vscode');
    assert.ok(!text.includes('sk-live'), text);
    assert.deepEqual(JSON.parse(text).servers.keyed.headers, { Authorization: 'Bearer ••••', 'X-Token': '${input:api-key}', 'X-Api-Key': '••••${env:KEY}', 'X-Plain': 'yes' });
  });

  test('Copy Server Entry: literal env secrets, URL userinfo and secret query parameters are masked', () => {
    const literal = serverEntryJson(servers.find((s) => s.name === 'literal')!, 'mcpServers');
    assert.ok(!literal.includes('sk-literal'), literal);
    assert.deepEqual(JSON.parse(literal).mcpServers.literal.env, { API_KEY: '••••', LEVEL: 'info', ROOT: '${workspaceFolder}/src' });
    const creds = serverEntryJson(servers.find((s) => s.name === 'creds')!, 'vscode');
    assert.ok(!creds.includes('hunter2pass') && !creds.includes('sk-query'), creds);
    assert.equal(JSON.parse(creds).servers.creds.url, 'https://••••:••••@example.com/mcp?api_key=••••&team=blue');
  });

  test('Server Details of a modern server: the era, the version and the server/discover result', async () => {
    const { client } = await connectStdio(process.execPath, [fixture('eras.mjs'), '--modern-only']);
    try {
      const api = servers.find((s) => s.name === 'api')!;
      const view = serverDetails({ server: { id: api.id, entry: api, status: { kind: 'running' }, stderrTail: [], restarts: 0 } as never, client, stats: client.stats(), health: undefined, noise: [], redact: (t) => t, now: Date.now() });
      const fact = (label: string) => view.facts.find(([l]) => l === label)?.[1];
      assert.equal(fact('Protocol version'), '2026-07-28');
      assert.equal(fact('Protocol era'), 'modern (server/discover, per-request _meta)');
      const discover = JSON.parse(view.discover ?? '{}');
      assert.deepEqual(discover.supportedVersions, ['2026-07-28']);
      assert.equal(discover._meta['io.modelcontextprotocol/serverInfo'].name, 'eras-modern');
      assert.ok(discover.capabilities.tools);
    } finally {
      await client.close();
    }
  });

  test('Server Details words a server waiting for consent as its row does, not as "starting"', () => {
    const api = servers.find((s) => s.name === 'api')!;
    const status = (stateText?: string) =>
      serverDetails({ server: { id: api.id, entry: api, status: { kind: 'starting' }, stderrTail: [], restarts: 0 } as never, client: undefined, stats: undefined, health: undefined, stateText, noise: [], redact: (t) => t, now: Date.now() }).facts.find(([l]) => l === 'Status')?.[1];
    assert.equal(status(serverStateText({ status: 'waiting', waitingFor: 'consent' })), 'waiting for consent');
    assert.equal(status(), 'starting', 'without the view (the CLI), the registry\'s word');
  });

  test('Server Details from a real connection: pid, version, command, PATH, cwd, per-method latency, bytes; secrets redacted', async () => {
    const { client } = await connectStdio(process.execPath, EVERYTHING);
    try {
      await client.listTools();
      await client.ping();
      await client.callTool('echo', { message: 'x' });
      const stats = client.stats()!;
      const api = servers.find((s) => s.name === 'api')!;
      const view = serverDetails({
        server: {
          id: api.id,
          entry: api,
          status: { kind: 'running' },
          pid: stats.process?.pid,
          startedAt: Date.now() - 65_000,
          resolved: { type: 'stdio', command: '/usr/bin/node', args: ['server.js', '--token', 'SECRET123'], env: { PATH: '/usr/bin:/bin', API_KEY: 'SECRET123' }, cwd: '/ws', secretValues: ['SECRET123'], envNames: ['API_KEY'], removedEnvNames: ['DROP'], warnings: [] },
          stderrTail: ['listening | with SECRET123'],
          restarts: 1,
        },
        client,
        capabilities: 'tools, logging',
        stats,
        health: { kind: 'unresponsive', since: Date.now(), failures: 2, error: 'ping: timed out' },
        noise: ['12:00:00 [noise] hello from stdout'],
        redact: (t: string) => t.replace(/SECRET123/g, '••••'),
        now: Date.now(),
      });
      const fact = (label: string) => view.facts.find(([l]) => l === label)?.[1];
      assert.equal(fact('Process id'), String(stats.process?.pid));
      assert.equal(fact('Protocol version'), '2025-11-25');
      assert.match(fact('Uptime') ?? '', /^\d+ (s|min)/);
      assert.match(fact('Health') ?? '', /^not answering since .* \(2 failed pings: ping: timed out\)$/);
      assert.equal(view.capabilities, 'tools, logging');
      assert.match(view.instructions ?? '', /./, 'server-everything sends instructions');
      assert.equal(view.command?.line, '/usr/bin/node server.js --token ••••');
      assert.equal(view.command?.cwd, '/ws');
      assert.equal(view.command?.path, '/usr/bin:/bin');
      assert.deepEqual(view.command?.envNames, ['API_KEY'], 'names only');
      assert.doesNotMatch(JSON.stringify(view), /SECRET123/);
      const call = view.traffic?.methods.find((m) => m.method === 'tools/call');
      assert.deepEqual({ requests: call?.requests, errors: call?.errors }, { requests: 1, errors: 0 });
      // server-everything is a legacy server: it refused the era probe, which is said to be expected.
      assert.equal(view.traffic?.methods.find((m) => m.method === 'server/discover')?.errors, 1);
      assert.equal(view.traffic?.facts.find(([l]) => l === 'Errors · timeouts · cancelled')?.[1], '1 · 0 · 0 — the error is the era probe a legacy server refuses (expected)');
      assert.match(call?.p50 ?? '', /^[\d.]+ ms$/);
      assert.equal(view.traffic?.methods.find((m) => m.method === 'ping')?.requests, 1);
      assert.match(view.traffic?.facts.find(([l]) => l === 'Sent')?.[1] ?? '', /^[\d.]+ (B|KiB) in \d+ messages$/);
      assert.deepEqual(view.noise, ['12:00:00 [noise] hello from stdout']);
      assert.deepEqual(view.stderr, ['listening | with ••••']);
    } finally {
      await client.close();
    }
  });

  test('Server Details of a remote server from a real HTTP connection: URL, transport, session, statuses, headers masked', async () => {
    const everything = await startEverything('streamableHttp');
    const entry = parseConfigText(JSON.stringify({ servers: { cloud: { type: 'http', url: everything.url, headers: { Authorization: 'Bearer ${input:tok}', 'X-Team': 'blue' } } } }), SOURCE).servers[0];
    const resolved = await resolveRemoteServer(entry.config as RemoteServerConfig, { folders: {}, userHome: '/home', env: {}, resolveInput: async () => 'TOKEN-xyz-123' });
    const client = new McpClient({ clientInfo: { name: 'details-test', version: '0.0.0' } });
    try {
      await client.connect(transportFactory()(resolved));
      await client.callTool('echo', { message: 'x' });
      const stats = client.stats()!;
      const view = serverDetails({
        server: { id: entry.id, entry, status: { kind: 'running' }, resolved },
        client,
        stats,
        health: undefined,
        noise: [],
        redact: (t) => new Redactor(resolved.secretValues).redact(t),
        now: Date.now(),
      });
      const connection = (label: string) => view.connection?.find(([l]) => l === label)?.[1];
      assert.equal(connection('URL'), everything.url);
      assert.equal(connection('Transport'), 'Streamable HTTP');
      assert.equal(connection('Session id'), stats.http!.sessionId);
      assert.equal(connection('Header Authorization'), 'Bearer ${input:tok}');
      assert.equal(connection('Header X-Team'), 'blue');
      // The 400 is the legacy server refusing the server/discover probe.
      assert.match(connection('HTTP statuses') ?? '', /^200 × \d+, 202 × \d+, 400 × 1$/);
      assert.equal(view.traffic?.methods.find((m) => m.method === 'tools/call')?.requests, 1);
      assert.match(view.traffic?.facts.find(([l]) => l === 'Received')?.[1] ?? '', /^[\d.]+ (B|KiB) in \d+ messages$/);
      assert.equal(view.command, undefined);
      assert.equal(view.facts.find(([l]) => l === 'Process id'), undefined);
      assert.doesNotMatch(JSON.stringify(view), /TOKEN-xyz-123|stdout noise/);
    } finally {
      await client.close();
      client.dispose();
      await everything.close();
    }
  });

  test('command arguments: tree nodes and CommandTargets', () => {
    const tool = { name: 'echo', inputSchema: { type: 'object' } };
    assert.deepEqual(toTarget({ kind: 'tool', serverId: 's', tool, index: 0 }), { serverId: 's', kind: 'tool', name: 'echo' });
    assert.deepEqual(toTarget({ kind: 'resource', serverId: 's', resource: { uri: 'demo://a', name: 'a' } }), { serverId: 's', kind: 'resource', uri: 'demo://a', name: 'a' });
    assert.deepEqual(toTarget({ kind: 'resourceTemplate', serverId: 's', template: { uriTemplate: 'demo://{x}', name: 't' } }), { serverId: 's', kind: 'template', uri: 'demo://{x}', name: 't' });
    assert.deepEqual(toTarget({ kind: 'prompt', serverId: 's', prompt: { name: 'p' } }), { serverId: 's', kind: 'prompt', name: 'p' });
    assert.deepEqual(toTarget({ kind: 'server', serverId: 's' }), { serverId: 's', kind: 'server' });
    assert.deepEqual(toTarget({ kind: 'group', serverId: 's', list: 'tools' }), { serverId: 's', kind: 'server' });
    assert.deepEqual(toTarget({ serverId: 's', kind: 'tool', name: 'echo' }), { serverId: 's', kind: 'tool', name: 'echo' });
    assert.deepEqual(toTarget({ serverId: 's', kind: 'template', uri: 'x://{y}' }), { serverId: 's', kind: 'template', uri: 'x://{y}', name: undefined });
    for (const bad of [undefined, null, 'echo', 42, { kind: 'tool' }, { serverId: 5 }, { kind: 'tool', serverId: 's' }]) assert.equal(toTarget(bad), undefined, JSON.stringify(bad));
  });
});

describe('the sign-in as Server Details and the row\'s tooltip show it', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const base = { signedIn: true, issuer: 'https://as.example/', scope: 'mcp', registration: 'dynamic' as const, required: false };

  test('when the token expires and whether it is refreshed without the user', () => {
    const refreshing = new Map(signInFacts({ ...base, expiresAt: now + 52 * 60_000, canRefresh: true }, now));
    assert.match(refreshing.get('Access token expires')!, /^in 52 min 0 s \(/);
    assert.equal(refreshing.get('Refresh'), 'automatic, shortly before it expires (a refresh token is held)');
    assert.match(signInSummary({ ...base, expiresAt: now + 52 * 60_000, canRefresh: true }, now), /^signed in, token expires in 52 min 0 s \(.+\), refreshed automatically$/);
    const once = new Map(signInFacts({ ...base, expiresAt: now - 1000, canRefresh: false }, now));
    assert.doesNotMatch(once.get('Access token expires')!, /refreshed/);
    assert.equal(once.get('Refresh'), 'not possible (no refresh token): sign in again when it expires');
    assert.match(signInSummary({ ...base, expiresAt: now - 1000, canRefresh: false }, now), /no refresh token: sign in again when it expires$/);
    const grant = new Map(signInFacts({ ...base, expiresAt: now + 60_000, canRefresh: true, renewsByGrant: true }, now));
    assert.equal(grant.get('Refresh'), 'automatic, shortly before it expires (the configured grant runs again)');
  });

  test('a refused refresh: why, and that a sign-in is needed', () => {
    const reason = 'the sign-in expired or was revoked: the token endpoint https://as.example/token answered HTTP 400 with error "invalid_grant"';
    const state = { signedIn: false, issuer: 'https://as.example/', registration: 'dynamic' as const, canRefresh: false, refreshRefused: true, lastError: reason, lastErrorKind: 'token' as const, required: true };
    const facts = new Map(signInFacts(state, now));
    assert.equal(facts.get('State'), 'sign in required');
    assert.equal(facts.get('Last failure'), reason);
    assert.equal(facts.has('Refresh'), false);
    assert.equal(signInSummary(state, now), 'the sign-in expired or was revoked: sign in again');
  });
});

