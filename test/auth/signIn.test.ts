// Sign-in end to end: the real StreamableHttpTransport and McpClient against a protected MCP
// server whose authorization server is the official SDK's auth router
// (test/fixtures/servers/http/authServer.mjs), through the real loopback redirect. The "browser"
// follows the authorization URL with fetch. Every test checks that no token, code, verifier or
// secret reached a log line or an error message, and the failing ones that nothing was stored.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { AuthError, loopbackRedirect, MemoryTokenStore, OAuthSession, OAuthSessionOptions, SignInRequest } from '../../src/auth';
import { McpClient, TransportCloseInfo } from '../../src/client';
import { StreamableHttpTransport } from '../../src/transport/streamableHttp';
import { authFixtureStats, freePort, HttpPeer, startFixture } from '../transport/httpPeers';

const open: Array<{ client: McpClient; peer: HttpPeer }> = [];
afterEach(async () => {
  for (const { client, peer } of open.splice(0)) {
    await client.close().catch(() => {});
    await peer.close();
  }
});

/** Records every secret that went over the wire to or from the authorization server, and which kinds were seen. */
function recordingFetch(secrets: Set<string>, kinds: Set<string>): typeof fetch {
  const keep = (name: string, value: unknown) => {
    if (typeof value !== 'string') return;
    secrets.add(value);
    kinds.add(name);
  };
  return async (input, init) => {
    const body = init?.body;
    if (body !== undefined && body !== null) {
      const text = String(body);
      const fields = text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
      for (const name of ['code', 'code_verifier', 'refresh_token', 'client_secret']) keep(name, fields[name]);
    }
    const response = await fetch(input, init);
    const text = await response.clone().text().catch(() => '');
    if (text.startsWith('{')) {
      const json = JSON.parse(text) as Record<string, unknown>;
      for (const name of ['access_token', 'refresh_token', 'client_secret']) keep(name, json[name]);
    }
    return response;
  };
}

async function setUp(fixtureArgs: string[], options: Partial<OAuthSessionOptions> = {}, port?: number) {
  const peer = await startFixture('authServer.mjs', fixtureArgs, port);
  const secrets = new Set<string>();
  const secretKinds = new Set<string>();
  const logs: string[] = [];
  const authorizationUrls: URL[] = [];
  const confirmations: SignInRequest[] = [];
  const store = new MemoryTokenStore();
  const sessionOptions: OAuthSessionOptions = {
    serverUrl: peer.url,
    store,
    redirect: loopbackRedirect({ timeoutMs: 10_000 }),
    userAgent: async (url) => {
      authorizationUrls.push(url);
      // The fixture approves at once: its answer redirects to our loopback listener.
      const approval = await fetch(url, { redirect: 'manual' });
      const location = approval.headers.get('location');
      if (!location) throw new Error(`the authorization page answered HTTP ${approval.status}`);
      const code = new URL(location).searchParams.get('code');
      if (code) secrets.add(code);
      await fetch(location);
    },
    confirmSignIn: async (request) => {
      confirmations.push(request);
      return true;
    },
    log: (text) => logs.push(text),
    fetch: recordingFetch(secrets, secretKinds),
    ...options,
  };
  const session = new OAuthSession(sessionOptions);
  const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
  open.push({ client, peer });
  const closes: TransportCloseInfo[] = [];
  client.onClose((c) => closes.push(c));
  client.onTransportLog((l) => logs.push(l.text));
  const transport = new StreamableHttpTransport({ url: peer.url, auth: session });
  const stats = () => authFixtureStats(peer);
  const assertNoSecretIn = (texts: readonly string[]) => {
    for (const grant of [...secretsOf(store)]) secrets.add(grant);
    for (const line of texts) for (const secret of secrets) assert.ok(!line.includes(secret), `a secret appears in: ${line}`);
  };
  return { peer, session, sessionOptions, store, client, transport, logs, authorizationUrls, confirmations, closes, stats, secrets, secretKinds, assertNoSecretIn };
}

function secretsOf(store: MemoryTokenStore): string[] {
  return store.all().flatMap((g) => [g.accessToken, g.refreshToken, g.client.clientSecret]).filter((s): s is string => !!s);
}

const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text ?? '').join('');

describe('sign-in to a protected MCP server', () => {
  test('401 → discovery → dynamic registration → code + PKCE via loopback → token → tools listed', async () => {
    const t = await setUp([]);
    await t.client.connect(t.transport);
    assert.deepEqual((await t.client.listTools()).map((tool) => tool.name).sort(), ['admin', 'echo']);
    assert.equal(t.authorizationUrls.length, 1);
    const asked = t.authorizationUrls[0].searchParams;
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.equal(asked.get('resource'), t.peer.url);
    assert.equal(asked.get('scope'), 'mcp', 'the scope from the challenge');
    const stats = await t.stats();
    assert.equal(stats.registrations, 1);
    assert.deepEqual(stats.authorizations, [{ scope: 'mcp', resource: t.peer.url }]);
    assert.equal(t.confirmations.length, 1);
    assert.equal(t.confirmations[0].reason, 'sign-in');
    assert.equal(t.confirmations[0].otherHost, false);
    const state = t.session.state();
    assert.equal(state.signedIn, true);
    assert.equal(state.registration, 'dynamic');
    assert.equal(state.scope, 'mcp');
    assert.match(state.issuer ?? '', /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const steps = t.logs.join('\n');
    assert.match(steps, /protected resource metadata from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp/);
    assert.match(steps, /authorization server metadata from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server/);
    assert.match(steps, /client: dynamically registered/);
    assert.match(steps, /scopes: mcp/);
    assert.match(steps, /token obtained/);
    assert.deepEqual([...t.secretKinds].sort(), ['access_token', 'code', 'code_verifier', 'refresh_token'], 'the secrets looked for were seen on the wire');
    t.assertNoSecretIn(t.logs);
  });

  test('a stored grant is used by a new session without asking again', async () => {
    const t = await setUp([]);
    await t.client.connect(t.transport);
    const again = new OAuthSession({ ...t.sessionOptions, userAgent: async () => assert.fail('no second sign-in'), confirmSignIn: async () => assert.fail('no confirmation') });
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    await client.connect(new StreamableHttpTransport({ url: t.peer.url, auth: again }));
    assert.equal((await client.listTools()).length, 2);
    await client.close();
    const stats = await t.stats();
    assert.equal(stats.authorizations.length, 1);
    assert.equal(stats.refreshes, 0, 'the stored access token itself was sent');
    assert.match(t.logs.join('\n'), /using the stored token/);
    await new OAuthSession(t.sessionOptions).signOut();
    assert.equal(t.store.size, 0, 'a new session signs out after discovering the issuer');
  });

  test('an expired token is refreshed without asking the user', async () => {
    let clock = Date.now();
    const t = await setUp([], { refreshSkewMs: 0, now: () => clock });
    await t.client.connect(t.transport);
    // The hour of the fixture's tokens passes, on both sides, without being waited out.
    clock += 3600_000 + 1000;
    assert.equal((await fetch(new URL('/control/expire', t.peer.url), { method: 'POST' })).ok, true);
    assert.equal(text(await t.client.callTool('echo', { text: 'still here' })), 'still here');
    const stats = await t.stats();
    assert.ok(stats.refreshes >= 1, 'the refresh token was used');
    assert.equal(stats.authorizations.length, 1, 'the user was asked once');
    assert.equal(t.authorizationUrls.length, 1);
    assert.match(t.logs.join('\n'), /token refreshed/);
    t.assertNoSecretIn(t.logs);
  });

  test('a token within its refresh margin (a tenth of its lifetime, at most a minute) is refreshed before it expires, without a 401 first', async () => {
    let clock = Date.now();
    const t = await setUp([], { now: () => clock });
    await t.client.connect(t.transport);
    const before = await t.stats();
    // The fixture's tokens live an hour: 50 s before expiry is inside the one-minute margin.
    clock += 3600_000 - 50_000;
    assert.equal(text(await t.client.callTool('echo', { text: 'early' })), 'early');
    const after = await t.stats();
    assert.equal(after.refreshRequests - before.refreshRequests, 1, 'refreshed ahead of expiry');
    assert.equal(after.unauthorized, before.unauthorized, 'no 401 came first');
    assert.equal(t.session.state().canRefresh, true);
    assert.equal(t.session.state().expiresAt, clock + 3600_000);
    // Fresh again: the next call sends the new token as it is.
    await t.client.callTool('echo', { text: 'again' });
    assert.equal((await t.stats()).refreshRequests, after.refreshRequests);
    t.assertNoSecretIn(t.logs);
  });

  test('requests in parallel refused for an expired token share one refresh', async () => {
    const t = await setUp([]);
    await t.client.connect(t.transport);
    await fetch(new URL('/control/expire', t.peer.url), { method: 'POST' });
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((word) => t.client.callTool('echo', { text: word })));
    assert.deepEqual(answers.map(text), ['a', 'b', 'c', 'd']);
    const stats = await t.stats();
    assert.equal(stats.refreshes, 1);
    assert.equal(stats.authorizations.length, 1);
  });

  test('revoked tokens: the refused refresh leads to one sign-in, reusing the registered client', async () => {
    const t = await setUp([]);
    await t.client.connect(t.transport);
    await fetch(new URL('/control/revoke', t.peer.url), { method: 'POST' });
    assert.equal(text(await t.client.callTool('echo', { text: 'back' })), 'back');
    assert.equal(t.authorizationUrls.length, 2);
    assert.deepEqual(t.confirmations.map((c) => c.reason), ['sign-in', 'sign-in']);
    const stats = await t.stats();
    assert.equal(stats.registrations, 1, 'the dynamically registered client and its redirect port were reused');
    const steps = t.logs.join('\n');
    assert.match(steps, /refresh refused: the sign-in expired or was revoked: the token endpoint http:\/\/127\.0\.0\.1:\d+\/token answered HTTP 400 with error "invalid_grant"/);
    assert.match(steps, /client: dynamically registered before, reused/);
    t.assertNoSecretIn(t.logs);
  });

  test('step-up: a 403 insufficient_scope asks once for the larger scope, then the call succeeds', async () => {
    const t = await setUp([]);
    await t.client.connect(t.transport);
    assert.equal(text(await t.client.callTool('admin')), 'admin done');
    assert.equal(t.authorizationUrls.length, 2);
    assert.equal(t.authorizationUrls[1].searchParams.get('scope'), 'mcp admin');
    assert.equal(t.confirmations[1].reason, 'step-up');
    assert.equal(t.session.state().scope, 'mcp admin');
    assert.equal(text(await t.client.callTool('admin')), 'admin done', 'no further prompt');
    assert.equal(t.authorizationUrls.length, 2);
    t.assertNoSecretIn(t.logs);
  });

  test('the server moves to another authorization server: the refused token leads to its metadata read again and a new registration there; the old grant stays under its own key', async () => {
    const t = await setUp([]);
    await t.client.connect(t.transport);
    assert.equal((await t.client.listTools()).length, 2);
    const first = t.session.state().issuer;
    const other = await startFixture('authServer.mjs', ['--resource', t.peer.url]);
    try {
      const otherBase = new URL('/', other.url).href;
      const moved = await fetch(new URL(`/control/move-to?issuer=${encodeURIComponent(otherBase)}`, t.peer.url), { method: 'POST' });
      assert.equal(moved.status, 204);
      assert.equal(text(await t.client.callTool('echo', { text: 'after the move' })), 'after the move');
      assert.deepEqual(t.confirmations.map((c) => c.issuer), [first, otherBase]);
      assert.equal(t.session.state().issuer, otherBase);
      const atOther = await authFixtureStats(other);
      assert.equal(atOther.registrations, 1, 'registered anew with the new authorization server');
      assert.equal(atOther.authorizations.length, 1);
      assert.equal((await t.stats()).registrations, 1);
      const clientIds = t.authorizationUrls.map((u) => u.searchParams.get('client_id'));
      assert.notEqual(clientIds[1], clientIds[0], 'the first server\'s client id is not presented to the second');
      assert.equal(t.store.size, 2);
      assert.match(t.logs.join('\n'), /the authorization server changed from http:\/\/127\.0\.0\.1:\d+\/ to http:\/\/127\.0\.0\.1:\d+\//);
      t.assertNoSecretIn(t.logs);
    } finally {
      await other.close();
    }
  });

  test('step-up: a server that keeps refusing is asked once, then the connection closes with authorization-required', async () => {
    const t = await setUp(['--deny-admin']);
    await t.client.connect(t.transport);
    await assert.rejects(t.client.callTool('admin'));
    await assert.rejects(t.client.callTool('admin'));
    assert.equal(t.authorizationUrls.length, 2, 'one sign-in, one step-up: no loop');
    assert.equal(t.closes[0]?.reason.kind, 'authorization-required');
  });

  test('a sign-in cancelled while the browser has the user: the listener closes, nothing is stored, the next sign-in works', async () => {
    let opened: URL | undefined;
    let comesBack = false;
    const abort = new AbortController();
    // At first this "browser" shows the page and never comes back, and the user cancels; later it approves.
    const t = await setUp([], {
      confirmSignIn: undefined,
      userAgent: async (url) => {
        opened = url;
        if (!comesBack) {
          setTimeout(() => abort.abort(), 50);
          return;
        }
        const approval = await fetch(url, { redirect: 'manual' });
        await fetch(approval.headers.get('location')!);
      },
    });
    await assert.rejects(t.client.connect(t.transport));
    await assert.rejects(t.session.signIn(abort.signal), (e: unknown) => AuthError.is(e, 'cancelled'));
    assert.ok(opened, 'the authorization page was opened');
    const redirect = new URL(opened.searchParams.get('redirect_uri')!);
    await assert.rejects(fetch(redirect), 'the loopback listener is closed');
    assert.equal(t.store.size, 0);
    assert.equal(t.session.state().signedIn, false);
    assert.equal(t.session.state().lastError, undefined, 'a cancel is not a failure');
    assert.match(t.logs.join('\n'), /cancelled by the user before the browser came back; nothing stored/);
    assert.doesNotMatch(t.logs.join('\n'), /sign-in stopped/);
    // Already cancelled: the listener never waits.
    await assert.rejects(t.session.signIn(AbortSignal.abort()), (e: unknown) => AuthError.is(e, 'cancelled'));
    comesBack = true;
    await t.session.signIn(new AbortController().signal);
    assert.equal(t.session.state().signedIn, true);
    assert.equal(t.store.size, 1);
    t.assertNoSecretIn(t.logs);
  });

  test('without confirmation the transport closes with authorization-required and the challenge; signIn() then works', async () => {
    const t = await setUp([], { confirmSignIn: undefined });
    await assert.rejects(t.client.connect(t.transport));
    const reason = t.closes[0]?.reason;
    assert.equal(reason?.kind, 'authorization-required');
    assert.match(reason.kind === 'authorization-required' ? (reason.wwwAuthenticate ?? '') : '', /resource_metadata=/);
    assert.equal(t.authorizationUrls.length, 0, 'nothing opened without the user');
    await t.session.signIn();
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    await client.connect(new StreamableHttpTransport({ url: t.peer.url, auth: t.session }));
    assert.equal((await client.listTools()).length, 2);
    await client.close();
    await t.session.signOut();
    assert.equal(t.store.size, 0);
  });

  test('a pre-registered confidential client: no registration, client_secret_post as the server lists, the secret never logged', async () => {
    const port = await freePort();
    const clientSecret = 'cs-pre-registered-9c1d2e3f';
    const t = await setUp(['--client', `host-client:${clientSecret}:http://127.0.0.1:${port}/callback`], {
      client: { clientId: 'host-client', clientSecret },
      redirect: loopbackRedirect({ port, timeoutMs: 10_000 }),
    });
    await t.client.connect(t.transport);
    assert.equal((await t.client.listTools()).length, 2);
    const stats = await t.stats();
    assert.equal(stats.registrations, 0);
    assert.equal(stats.lastTokenAuth, 'body');
    assert.equal(t.session.state().registration, 'pre-registered');
    assert.equal(t.authorizationUrls[0].searchParams.get('client_id'), 'host-client');
    assert.match(t.logs.join('\n'), /client: pre-registered \(token endpoint authentication client_secret_post\)/);
    t.secrets.add(clientSecret);
    t.assertNoSecretIn(t.logs);
  });

  test('a client id metadata document where the server supports one, before dynamic registration', async () => {
    const port = await freePort();
    const peerPort = await freePort();
    const t = await setUp(['--cimd'], { clientMetadataUrl: `http://127.0.0.1:${peerPort}/client-metadata/${port}`, redirect: loopbackRedirect({ port, timeoutMs: 10_000 }) }, peerPort);
    await t.client.connect(t.transport);
    assert.equal((await t.client.listTools()).length, 2);
    const stats = await t.stats();
    assert.equal(stats.registrations, 0);
    assert.equal(stats.metadataDocuments, 2, 'fetched at authorization and at the token request');
    assert.equal(t.session.state().registration, 'metadata-document');
  });

  test('a 2025-03-26 server without resource metadata: metadata at its origin', async () => {
    const t = await setUp(['--legacy']);
    await t.client.connect(t.transport);
    assert.equal((await t.client.listTools()).length, 2);
    assert.match(t.logs.join('\n'), /using the 2025-03-26 discovery/);
    assert.equal(t.authorizationUrls[0].searchParams.get('scope'), 'mcp');
  });

  test('a redirect with another state gets 400 and the listener keeps waiting (until its timeout here): nothing stored', async () => {
    const t = await setUp(['--wrong-state'], { redirect: loopbackRedirect({ timeoutMs: 1500 }) });
    const answers: number[] = [];
    const session = new OAuthSession({
      ...t.sessionOptions,
      userAgent: async (url) => {
        const location = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
        const page = await fetch(location);
        answers.push(page.status);
        assert.match(page.headers.get('content-security-policy') ?? '', /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
        assert.match(await page.text(), /does not belong to the sign-in MCP Host is waiting for/);
        // Still listening: the right answer could still come.
        const again = await fetch(location);
        answers.push(again.status);
        await again.text();
      },
    });
    await assert.rejects(session.signIn(), (e: unknown) => AuthError.is(e, 'redirect') && /no answer from the browser within 2 s \(2 requests with another state refused\)/.test(e.message));
    assert.deepEqual(answers, [400, 400]);
    assert.equal(t.store.size, 0);
  });

  test('the page the browser lands on: styled, under a CSP whose hash matches its one stylesheet, saying the window can be closed', async () => {
    const t = await setUp([]);
    let html = '';
    let csp = '';
    const session = new OAuthSession({
      ...t.sessionOptions,
      userAgent: async (url) => {
        const location = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
        const page = await fetch(location);
        csp = page.headers.get('content-security-policy') ?? '';
        html = await page.text();
      },
    });
    await session.signIn();
    assert.match(html, /You can close this window and return to MCP Host/);
    const style = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
    const { createHash } = await import('node:crypto');
    assert.ok(csp.includes(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`), csp);
    assert.doesNotMatch(html, /<script/);
  });

  for (const [flag, message] of [
    ['--no-s256', /does not support PKCE S256/],
    ['--iss-mismatch', /names issuer "http:\/\/evil\.example\/", not http:\/\/127\.0\.0\.1:\d+\/ \(RFC 9207\)/],
    ['--bad-issuer', /claims issuer "http:\/\/evil\.example\/", not http:\/\/127\.0\.0\.1:\d+\//],
    ['--html-token', /no token: the token endpoint http:\/\/127\.0\.0\.1:\d+\/token did not answer with JSON/],
    ['--huge-metadata', /GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server failed: the answer is larger than 1 MiB; refused/],
    ['--huge-token', /no token: the token endpoint http:\/\/127\.0\.0\.1:\d+\/token: the answer is larger than 1 MiB; refused/],
  ] as const) {
    test(`refused (${flag}): a clear message, nothing stored, nothing secret logged`, async () => {
      const t = await setUp([flag]);
      await assert.rejects(t.client.connect(t.transport));
      const error = t.session.state().lastError ?? '';
      assert.match(error, message);
      assert.equal(t.session.state().signedIn, false);
      assert.equal(t.store.size, 0);
      assert.equal(t.closes[0]?.reason.kind, 'authorization-required');
      assert.match(t.logs.join('\n'), /sign-in stopped/);
      t.assertNoSecretIn([...t.logs, error]);
      await assert.rejects(t.session.signIn(), (e: unknown) => AuthError.is(e) && message.test(e.message));
    });
  }
});
