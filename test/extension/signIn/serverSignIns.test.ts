// The editor's sign-in layer without VS Code: ServerSignIns over SecretTokenStore (given a
// SecretStorage-shaped map), against the fixture authorization server and protected MCP server
// (test/fixtures/servers/http/authServer.mjs) through the real loopback redirect and the real
// StreamableHttpTransport. A server that answers 401 is marked "sign in required" without any
// browser; the user's sign-in stores one secret per resource and issuer; while running, an
// expired token is refreshed without asking and a step-up asks once; Sign Out deletes the grant,
// even without the network; the prompt names the authorization server.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { loopbackRedirect } from '../../../src/auth/loopback';
import { McpClient } from '../../../src/client';
import { resolveRemoteServer } from '../../../src/config/variables';
import { signInPrompt } from '../../../src/extension/signIn/signInPrompt';
import { SecretTokenStore } from '../../../src/extension/signIn/secretTokenStore';
import { coversServer, ServerSignIns } from '../../../src/extension/signIn/serverSignIns';
import { StreamableHttpTransport } from '../../../src/transport/streamableHttp';
import { authFixtureStats, freePort, HttpPeer, startFixture } from '../../transport/httpPeers';

/** VS Code's SecretStorage, as far as SecretTokenStore uses it, over a Map (what is stored can be read back by the test). */
function secretStorage(): vscode.SecretStorage & { readonly map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get: async (key: string) => map.get(key),
    store: async (key: string, value: string) => void map.set(key, value),
    delete: async (key: string) => void map.delete(key),
    keys: async () => [...map.keys()],
    onDidChange: () => ({ dispose() {} }),
  } as unknown as vscode.SecretStorage & { readonly map: Map<string, string> };
}

const peers: HttpPeer[] = [];
const clients: McpClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  for (const p of peers.splice(0)) await p.close();
});

async function setUp(fixture = 'authServer.mjs', fixtureArgs: string[] = [], options: { callbackPort?: number; clientMetadataUrl?: (peerUrl: string) => string; window?: { peer: HttpPeer; secrets: ReturnType<typeof secretStorage>; lockDirectory: string } } = {}) {
  const peer = options.window?.peer ?? (await startFixture(fixture, fixtureArgs));
  if (!options.window) peers.push(peer);
  const secrets = options.window?.secrets ?? secretStorage();
  const noted = new Set<string>();
  const opened: URL[] = [];
  const logs: string[] = [];
  const changes: string[] = [];
  const stepUps: (readonly string[])[] = [];
  const refusals: string[] = [];
  const store = new SecretTokenStore(secrets, (...values) => values.forEach((v) => noted.add(v)), options.window?.lockDirectory);
  const signIns = new ServerSignIns({
    store,
    redirect: () => loopbackRedirect({ timeoutMs: 10_000, ...(options.callbackPort ? { port: options.callbackPort } : {}) }),
    ...(options.clientMetadataUrl ? { clientMetadataUrl: () => options.clientMetadataUrl!(peer.url) } : {}),
    userAgent: async (url) => {
      opened.push(url);
      // The fixture approves at once and redirects to the loopback listener.
      const location = (await fetch(url, { redirect: 'manual' })).headers.get('location');
      await fetch(location!);
    },
    confirmStepUp: async (_id, request) => {
      stepUps.push(request.scopes ?? []);
      return true;
    },
    log: (_id, _level, text) => logs.push(text),
    changed: (id) => changes.push(id),
    refreshRefused: (_id, reason) => refusals.push(reason),
  });
  const resolved = await resolveRemoteServer({ type: 'http', url: peer.url }, { workspaceFolder: undefined, folders: {}, userHome: '/home/u', env: {}, resolveInput: async () => '' });
  const connect = async () => {
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    clients.push(client);
    await client.connect(new StreamableHttpTransport({ url: peer.url, auth: signIns.provider('srv', resolved) }));
    return client;
  };
  return { peer, secrets, noted, opened, logs, changes, stepUps, refusals, store, signIns, connect };
}

describe('ServerSignIns over SecretTokenStore', () => {
  test('a 401 marks the server "sign in required" and opens nothing; the user\'s sign-in stores one secret keyed by resource and issuer; a new session reuses it', async () => {
    const t = await setUp();
    await assert.rejects(t.connect());
    assert.equal(t.signIns.needsSignIn('srv'), true);
    assert.deepEqual(t.changes, ['srv']);
    assert.equal(t.opened.length, 0, 'no browser without the user');
    assert.equal(t.secrets.map.size, 0, 'nothing stored');

    const request = await t.signIns.signInRequest('srv');
    const issuer = new URL('/', t.peer.url).href;
    assert.equal(request.issuer, issuer);
    assert.deepEqual(request.scopes, ['mcp']);
    assert.equal(request.otherHost, false);
    await t.signIns.signIn('srv');
    assert.equal(t.signIns.needsSignIn('srv'), false);
    assert.equal(t.opened.length, 1);
    const key = `mcpHost.oauth:${JSON.stringify([t.peer.url, issuer])}`;
    assert.deepEqual([...t.secrets.map.keys()].sort(), ['mcpHost.oauth.index', key].sort());
    const grant = JSON.parse(t.secrets.map.get(key)!) as { accessToken: string; refreshToken: string; client: { registration: string } };
    assert.equal(grant.client.registration, 'dynamic');
    assert.ok(t.noted.has(grant.accessToken) && t.noted.has(grant.refreshToken), 'the redactor heard of both tokens');
    assert.ok(!t.secrets.map.get('mcpHost.oauth.index')!.includes(grant.accessToken), 'the index holds no secret');

    const client = await t.connect();
    assert.deepEqual((await client.listTools()).map((x) => x.name).sort(), ['admin', 'echo']);
    const state = t.signIns.state('srv')!;
    assert.equal(state.signedIn, true);
    assert.equal(state.issuer, issuer);
    assert.equal(state.scope, 'mcp');
    assert.equal(state.registration, 'dynamic');
    for (const line of t.logs) for (const secret of [grant.accessToken, grant.refreshToken]) assert.ok(!line.includes(secret), line);
  });

  test('mcpHost.oauth.clientMetadataUrl: the sign-in uses the metadata document as client id where the authorization server supports it', async () => {
    const port = await freePort();
    const t = await setUp('authServer.mjs', ['--cimd'], { callbackPort: port, clientMetadataUrl: (url) => new URL(`/client-metadata/${port}`, url).href });
    await assert.rejects(t.connect());
    await t.signIns.signIn('srv');
    assert.equal(t.opened[0].searchParams.get('client_id'), new URL(`/client-metadata/${port}`, t.peer.url).href);
    const client = await t.connect();
    assert.deepEqual((await client.listTools()).map((x) => x.name).sort(), ['admin', 'echo']);
    assert.equal(t.signIns.state('srv')!.registration, 'metadata-document');
    const stats = await authFixtureStats(t.peer);
    assert.equal(stats.registrations, 0, 'no dynamic registration');
    assert.ok((stats.metadataDocuments ?? 0) >= 1, 'the authorization server fetched the document');
  });

  test('while running: an expired token is refreshed without asking; a step-up 403 asks the user once for the larger scope', async () => {
    const t = await setUp();
    await assert.rejects(t.connect());
    await t.signIns.signIn('srv');
    const client = await t.connect();
    await fetch(new URL('/control/expire', t.peer.url), { method: 'POST' });
    assert.equal((await client.callTool('echo', { text: 'after expiry' })).content[0]?.type, 'text');
    const stats = (await (await fetch(new URL('/control/stats', t.peer.url))).json()) as { refreshes: number };
    assert.equal(stats.refreshes, 1, 'refreshed');
    assert.equal(t.opened.length, 1, 'no browser for a refresh');
    assert.deepEqual(t.stepUps, [], 'nobody asked');
    const admin = await client.callTool('admin', {});
    assert.equal(admin.content[0]?.type === 'text' && admin.content[0].text, 'admin done');
    assert.deepEqual(t.stepUps, [['mcp', 'admin']], 'asked once, for the granted and the new scope');
    assert.equal(t.opened.length, 2);
    assert.equal(t.signIns.state('srv')?.scope, 'mcp admin');
    assert.equal(t.signIns.needsSignIn('srv'), false);
  });

  test('a refused refresh (revoked) says why once and leaves one Sign In, however often the server is started again', async () => {
    const t = await setUp();
    await assert.rejects(t.connect());
    await t.signIns.signIn('srv');
    const client = await t.connect();
    assert.equal(t.signIns.state('srv')?.canRefresh, true);
    await fetch(new URL('/control/revoke', t.peer.url), { method: 'POST' });
    await assert.rejects(client.callTool('echo', { text: 'revoked' }));
    // The registry's restarts, or the user's Start: each is refused with no refresh to try.
    for (let i = 0; i < 3; i++) await assert.rejects(t.connect());
    assert.equal(t.refusals.length, 1, 'one prompt');
    assert.match(t.refusals[0], /^the sign-in expired or was revoked: the token endpoint http:\/\/127\.0\.0\.1:\d+\/token answered HTTP 400 with error "invalid_grant"/);
    assert.equal((await authFixtureStats(t.peer)).refreshRequests, 1, 'one refresh tried');
    assert.equal(t.opened.length, 1, 'no browser without the user');
    assert.equal(t.signIns.needsSignIn('srv'), true);
    const state = t.signIns.state('srv')!;
    assert.equal(state.refreshRefused, true);
    assert.equal(state.canRefresh, false);
    assert.equal(state.signedIn, false);
    // The user's Sign In clears it.
    await t.signIns.signIn('srv');
    assert.equal(t.signIns.state('srv')?.refreshRefused, undefined);
    await (await t.connect()).callTool('echo', { text: 'back' });
    for (const line of [...t.logs, ...t.refusals]) for (const secret of t.noted) assert.ok(!line.includes(secret), line);
  });

  test('two windows on one SecretStorage refresh a rotating token once: they share the refresh lock in global storage', async () => {
    // A slow token endpoint, so both windows are refreshing at once; `shared` gives its SecretStorage.
    const shared = await setUp('authServer.mjs', ['--refresh-delay', '800']);
    const lockDirectory = mkdtempSync(join(tmpdir(), 'mcp-host-global-storage-'));
    try {
      const two = await setUp('authServer.mjs', [], { window: { peer: shared.peer, secrets: shared.secrets, lockDirectory } });
      const first = await setUp('authServer.mjs', [], { window: { peer: shared.peer, secrets: shared.secrets, lockDirectory } });
      await assert.rejects(first.connect());
      await first.signIns.signIn('srv');
      const [a, b] = [await first.connect(), await two.connect()];
      await fetch(new URL('/control/expire', shared.peer.url), { method: 'POST' });
      const before = await authFixtureStats(shared.peer);
      await Promise.all([a.callTool('echo', { text: 'a' }), b.callTool('echo', { text: 'b' })]);
      const after = await authFixtureStats(shared.peer);
      assert.equal(after.refreshRequests - before.refreshRequests, 1, 'one refresh for both windows');
      assert.equal(after.authorizations.length, 1);
      assert.deepEqual([...first.refusals, ...two.refusals], []);
      assert.equal(existsSync(join(lockDirectory, 'oauth-refresh.lock')), false);
    } finally {
      rmSync(lockDirectory, { recursive: true, force: true });
    }
  });

  test('Sign Out deletes the grant and the client even when the server cannot be reached, and asks for sign-in again', async () => {
    const t = await setUp();
    await assert.rejects(t.connect());
    await t.signIns.signIn('srv');
    const url = t.peer.url;
    await t.peer.close();
    peers.length = 0;
    // The session knows its issuer: its own key goes, and whatever else the index holds for this URL.
    assert.ok((await t.signIns.signOut('srv', url)) >= 1);
    assert.deepEqual([...t.secrets.map.keys()], [], 'every secret and the index are gone');
    assert.equal(t.signIns.needsSignIn('srv'), true);
    assert.equal(t.signIns.state('srv'), undefined, 'the session is dropped');
  });

  test('grants of another authorization server are kept apart; Sign Out by URL finds only this server\'s', async () => {
    const secrets = secretStorage();
    const store = new SecretTokenStore(secrets);
    const client = { clientId: 'c', tokenEndpointAuthMethod: 'none' as const, registration: 'dynamic' as const };
    await store.set({ resource: 'https://mcp.example.com/mcp', issuer: 'https://as-one.example' }, { client, accessToken: 'one' });
    await store.set({ resource: 'https://mcp.example.com/mcp', issuer: 'https://as-two.example' }, { client, accessToken: 'two' });
    await store.set({ resource: 'https://other.example.com/mcp', issuer: 'https://as-one.example' }, { client, accessToken: 'three' });
    assert.equal((await store.get({ resource: 'https://mcp.example.com/mcp', issuer: 'https://as-two.example' }))?.accessToken, 'two');
    assert.equal(await store.get({ resource: 'https://mcp.example.com/mcp', issuer: 'https://as-three.example' }), undefined);
    const mine = await store.keys((r) => coversServer(r, 'https://mcp.example.com/mcp?tenant=1'));
    assert.deepEqual(mine.map((k) => k.issuer).sort(), ['https://as-one.example', 'https://as-two.example']);
  });

  test('coversServer: same origin, and the resource is the server\'s path or a prefix of it', () => {
    assert.equal(coversServer('https://a.example/mcp', 'https://a.example/mcp'), true);
    assert.equal(coversServer('https://a.example', 'https://a.example/mcp'), true);
    assert.equal(coversServer('https://a.example/mcp', 'https://a.example/mcpx'), false);
    assert.equal(coversServer('https://a.example/mcp', 'https://b.example/mcp'), false);
    assert.equal(coversServer('not a url', 'https://a.example/mcp'), false);
  });
});

describe('ServerSignIns against hostile authorization servers (test/fixtures/servers/http/hostileAuth.mjs)', () => {
  test('a sign-in page on another host:port than the issuer: the request and the prompt name the host the browser opens, with a warning', async () => {
    const t = await setUp('hostileAuth.mjs', ['--page-elsewhere']);
    await assert.rejects(t.connect());
    const request = await t.signIns.signInRequest('srv');
    const port = new URL(t.peer.url).port;
    assert.equal(request.issuer, `http://127.0.0.1:${port}`);
    assert.match(request.authorizationEndpoint, /^http:\/\/localhost:\d+\/authorize$/);
    assert.equal(request.otherHost, true);
    const prompt = signInPrompt({ name: 'docs', serverUrl: t.peer.url, issuer: request.issuer, authorizationEndpoint: request.authorizationEndpoint, reason: 'sign-in' });
    assert.ok(!('blocked' in prompt));
    const page = new URL(request.authorizationEndpoint);
    assert.equal(prompt.message, `Sign in to "docs" at ${page.host}?`);
    assert.match(prompt.detail, new RegExp(`The sign-in page is on http://${page.host}, not on the authorization server http://127\\.0\\.0\\.1:${port} nor on the MCP server http://127\\.0\\.0\\.1:${port}`));
    await t.signIns.signIn('srv');
    assert.equal(t.opened[0].host, page.host, 'the browser went where the prompt said');
  });

  test('step-ups stay counted across restarts when the 403s alternate between two authorization servers: two, then none', async () => {
    const t = await setUp('hostileAuth.mjs', ['--alternate-metadata']);
    await assert.rejects(t.connect());
    await t.signIns.signIn('srv');
    // Each start meets a 403 on its first list; the session (kept across restarts) asks at most twice in all.
    for (let start = 0; start < 4; start++) {
      const client = await t.connect().catch(() => undefined);
      await client?.listTools().catch(() => {});
      await client?.close().catch(() => {});
    }
    assert.equal(t.stepUps.length, 2, JSON.stringify(t.stepUps));
    assert.match(t.logs.join('\n'), /the authorization server changed from http:\/\/127\.0\.0\.1:\d+\/as-a to http:\/\/127\.0\.0\.1:\d+\/as-b/);
    assert.match(t.signIns.state('srv')?.lastError ?? '', /asked for more scopes 3 times; stopped after 2/);
  });

  test('an API-key server: Sign In ends before any browser, saying no sign-in exists and quoting the server', async () => {
    const t = await setUp('hostileAuth.mjs', ['--api-key', 'key-4711-abcdef']);
    await assert.rejects(t.connect());
    assert.equal(t.signIns.needsSignIn('srv'), true);
    await assert.rejects(t.signIns.signIn('srv'), /requires a credential it does not offer to obtain by sign-in\. It answered HTTP 401, WWW-Authenticate: "Bearer realm=\\"api\\"", body: "\{\\"error\\":\\"Missing bearer token\\"/);
    assert.equal(t.opened.length, 0);
    assert.equal(t.signIns.state('srv')?.lastErrorKind, 'credential-required');
  });

  test('a remote server whose 401 names a loopback metadata URL: refused by name, nothing fetched', async () => {
    const admin = await startFixture('hostileAuth.mjs');
    peers.push(admin);
    const adminUrl = new URL('/admin/metadata', admin.url).href;
    const t = await setUp('hostileAuth.mjs', ['--metadata-at', adminUrl]);
    // The session's view of the server is a remote https URL; its requests still reach the fixture through this fetch.
    const signIns = new ServerSignIns({
      store: t.store,
      redirect: () => loopbackRedirect({ timeoutMs: 10_000 }),
      userAgent: async () => assert.fail('no browser'),
      confirmStepUp: async () => false,
      log: () => {},
      changed: () => {},
    });
    const remote = await resolveRemoteServer({ type: 'http', url: 'https://mcp.example.com/mcp' }, { workspaceFolder: undefined, folders: {}, userHome: '/home/u', env: {}, resolveInput: async () => '' });
    const provider = signIns.provider('remote', remote);
    const answer = await fetch(t.peer.url, { method: 'POST', body: '{}' });
    assert.equal(await provider.onChallenge({ status: 401, url: remote.url, wwwAuthenticate: answer.headers.get('www-authenticate') ?? '' }), 'fail');
    assert.match(signIns.state('remote')?.lastError ?? '', new RegExp(`${adminUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is on this machine or a private network, but the MCP server https://mcp\\.example\\.com is not; refused`));
    const stats = (await (await fetch(new URL('/control/stats', admin.url))).json()) as { adminHits: number };
    assert.equal(stats.adminHits, 0);
  });
});

describe('signInPrompt', () => {
  test('names the host the browser opens; warns when it is not the issuer\'s or the MCP server\'s origin; blocks a URL with userinfo', () => {
    const same = signInPrompt({ name: 'docs', serverUrl: 'https://mcp.example.com/mcp', issuer: 'https://mcp.example.com/', authorizationEndpoint: 'https://mcp.example.com/authorize', scopes: ['read'], reason: 'sign-in' });
    assert.ok(!('blocked' in same));
    assert.equal(same.message, 'Sign in to "docs" at mcp.example.com?');
    assert.match(same.detail, /scopes\): read/);
    assert.doesNotMatch(same.detail, /⚠/);
    const other = signInPrompt({ name: 'docs', serverUrl: 'https://mcp.example.com/mcp', issuer: 'https://login.example.net/tenant', authorizationEndpoint: 'https://login.example.net/tenant/authorize', reason: 'step-up' });
    assert.ok(!('blocked' in other));
    assert.equal(other.message, '"docs" asks for more access: sign in again at login.example.net?');
    assert.match(other.detail, /⚠ The sign-in page is on https:\/\/login\.example\.net, not on the MCP server https:\/\/mcp\.example\.com\./);
    assert.match(other.detail, /No scopes are named/);
    // Same host, another port: a different origin.
    const port = signInPrompt({ name: 'docs', serverUrl: 'https://mcp.example.com/mcp', issuer: 'https://mcp.example.com', authorizationEndpoint: 'https://mcp.example.com:8443/authorize', reason: 'sign-in' });
    assert.ok(!('blocked' in port));
    assert.equal(port.message, 'Sign in to "docs" at mcp.example.com:8443?');
    assert.match(port.detail, /not on the authorization server https:\/\/mcp\.example\.com nor on the MCP server https:\/\/mcp\.example\.com/);
    assert.match(port.detail, /unusual port 8443/);
    const lookalike = signInPrompt({ name: 'docs', serverUrl: 'https://mcp.example.com/mcp', issuer: 'https://mcp.example.com', authorizationEndpoint: 'https://xn--exmple-4nf.com/authorize', reason: 'sign-in' });
    assert.ok(!('blocked' in lookalike));
    assert.match(lookalike.detail, /punycode/);
    const userinfo = signInPrompt({ name: 'docs', serverUrl: 'https://mcp.example.com/mcp', issuer: 'https://mcp.example.com', authorizationEndpoint: 'https://mcp.example.com@evil.example/authorize', reason: 'sign-in' });
    assert.ok('blocked' in userinfo);
    assert.match(userinfo.blocked, /user name or other text before "@"/);
  });
});
