// Enterprise-managed authorization end to end, and grant tokens renewed ahead of expiry, against
// test/fixtures/servers/http/grantServer.mjs: an enterprise identity provider (OpenID Connect,
// ES256 ID tokens and ID-JAGs signed with its own key, checked with jose) and the MCP server's
// authorization server on 127.0.0.1, the official SDK's MCP server behind it. The real
// OAuthSession, StreamableHttpTransport and McpClient; the loopback redirect; the "browser"
// follows the IdP's authorization URL with fetch. No token, ID token or ID-JAG in any log line.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { loopbackRedirect, MemoryTokenStore, OAuthSession, OAuthSessionOptions } from '../../src/auth';
import { configuredGrant } from '../../src/auth/grants/configuredGrant';
import { McpClient } from '../../src/client';
import type { OAuthClientConfig } from '../../src/config/types';
import { StreamableHttpTransport } from '../../src/transport/streamableHttp';
import { HttpPeer, startFixture } from '../transport/httpPeers';

interface Credentials {
  clientId: string;
  clientSecret: string;
  idp: { issuer: string; tokenEndpoint: string; clientId: string };
  enterpriseClientId: string;
}
interface Stats {
  tokenRequests: { grantType: string; auth: string }[];
  mcpTokens: number[];
  idpRequests: string[];
}

const get = async <T>(peer: HttpPeer, path: string): Promise<T> => (await (await fetch(new URL(path, peer.url))).json()) as T;
const open: Array<{ client: McpClient; peer: HttpPeer }> = [];
afterEach(async () => {
  for (const { client, peer } of open.splice(0)) {
    await client.close().catch(() => {});
    await peer.close();
  }
});

async function setUp(fixtureArgs: string[], oauth: (c: Credentials, peer: HttpPeer) => Promise<OAuthClientConfig> | OAuthClientConfig, extra: Partial<OAuthSessionOptions> = {}) {
  const peer = await startFixture('grantServer.mjs', ['--no-dpop', ...fixtureArgs]);
  const credentials = await get<Credentials>(peer, '/control/credentials');
  const logs: string[] = [];
  const browsed: URL[] = [];
  /** Added to the clock of the flow: a test moves time forward without waiting. */
  const clock = { skew: 0 };
  const options: OAuthSessionOptions = {
    serverUrl: peer.url,
    store: new MemoryTokenStore(),
    redirect: loopbackRedirect({ timeoutMs: 10_000 }),
    userAgent: async (url) => {
      browsed.push(url);
      const approval = await fetch(url, { redirect: 'manual' });
      const location = approval.headers.get('location');
      if (!location) throw new Error(`the sign-in page answered HTTP ${approval.status}`);
      await fetch(location);
    },
    log: (text) => logs.push(text),
    now: () => Date.now() + clock.skew,
    allowLocalAuthorization: true,
    grant: configuredGrant(await oauth(credentials, peer)),
    ...extra,
  };
  const session = new OAuthSession(options);
  const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
  open.push({ client, peer });
  const transport = new StreamableHttpTransport({ url: peer.url, auth: session });
  const whoami = async () => ((await client.callTool('whoami', {})).content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
  const assertNoSecretLogged = async () => {
    const { tokens } = await get<{ tokens: string[] }>(peer, '/control/secrets');
    assert.ok(tokens.length > 0);
    for (const line of logs) for (const secret of [...tokens, credentials.clientSecret]) assert.ok(!line.includes(secret), `a secret in: ${line}`);
  };
  return { peer, credentials, session, client, transport, logs, browsed, clock, whoami, stats: () => get<Stats>(peer, '/control/stats'), assertNoSecretLogged };
}

const enterprise = (c: Credentials): OAuthClientConfig => ({ grant: 'enterprise_managed', clientId: c.enterpriseClientId, idp: { issuer: c.idp.issuer, tokenEndpoint: c.idp.tokenEndpoint, clientId: c.idp.clientId } });

describe('enterprise-managed authorization: MCP Host signs in to the IdP itself', { timeout: 120_000 }, () => {
  test('OIDC sign-in at the IdP (code + PKCE), token exchange for an ID-JAG, JWT bearer grant: the tool answers for the user', async () => {
    const t = await setUp([], enterprise);
    await t.client.connect(t.transport);
    assert.equal(await t.whoami(), 'alice@example.com by id-jag');
    assert.equal(t.browsed.length, 1);
    const asked = t.browsed[0].searchParams;
    assert.equal(t.browsed[0].pathname, '/idp/authorize');
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.equal(asked.get('scope'), 'openid');
    assert.ok(asked.get('nonce'));
    const stats = await t.stats();
    assert.deepEqual(stats.idpRequests, ['authorize', 'authorization_code', 'urn:ietf:params:oauth:grant-type:token-exchange']);
    assert.deepEqual(stats.tokenRequests.map((r) => r.grantType), ['id-jag']);
    assert.match(t.logs.join('\n'), /signed in at http:\/\/127\.0\.0\.1:\d+\/idp \(ID token expires in \d+ s\)/);
    await t.assertNoSecretLogged();
  });

  test('the token renewed ahead of expiry exchanges the kept ID token again: no second sign-in, no 401', async () => {
    const t = await setUp(['--expires-in', '20'], enterprise);
    await t.client.connect(t.transport);
    await t.whoami();
    // 19 s later by the flow's clock: inside the margin (a tenth of 20 s), before the server's expiry.
    t.clock.skew = 19_000;
    assert.equal(await t.whoami(), 'alice@example.com by id-jag');
    const stats = await t.stats();
    assert.equal(t.browsed.length, 1, 'one sign-in at the IdP');
    assert.deepEqual(stats.idpRequests.filter((r) => r.endsWith('token-exchange')).length, 2);
    assert.deepEqual(stats.tokenRequests.map((r) => r.grantType), ['id-jag', 'id-jag']);
    assert.equal(stats.mcpTokens.at(-1), 2, 'the last request carried the renewed token');
    assert.match(t.logs.join('\n'), /running the grant again[\s\S]*using the ID token of the sign-in/);
  });

  for (const [name, args, why] of [
    ['an ID token for another audience', ['--id-token-audience', 'someone-else'], /aud/],
    ['an expired ID token', ['--id-token-expired'], /exp/],
  ] as const) {
    test(`${name} from the IdP's sign-in is refused before any exchange, in words`, async () => {
      const t = await setUp([...args], enterprise);
      await assert.rejects(t.client.connect(t.transport));
      const state = t.session.state();
      assert.equal(state.signedIn, false);
      assert.equal(state.lastErrorKind, 'token');
      assert.match(state.lastError ?? '', /no ID token: the identity provider's token endpoint/);
      assert.match(state.lastError ?? '', why);
      const stats = await t.stats();
      assert.ok(!stats.idpRequests.some((r) => r.endsWith('token-exchange')), 'no token exchange');
      assert.deepEqual(stats.tokenRequests, []);
      await t.assertNoSecretLogged();
    });
  }

  test('an ID token from a variable still works (no browser); one for another audience is refused by the IdP at the exchange', async () => {
    const idTokenOf = async (peer: HttpPeer, query = '') => (await get<{ idToken: string }>(peer, `/control/id-token${query}`)).idToken;
    const noBrowser = { userAgent: async () => assert.fail('no browser') };
    const good = await setUp([], async (c, peer) => ({ ...enterprise(c), idToken: await idTokenOf(peer) }), noBrowser);
    await good.client.connect(good.transport);
    assert.equal(await good.whoami(), 'alice@example.com by id-jag');
    const wrong = await setUp([], async (c, peer) => ({ ...enterprise(c), idToken: await idTokenOf(peer, '?aud=someone-else') }), noBrowser);
    await assert.rejects(wrong.client.connect(wrong.transport));
    assert.match(wrong.session.state().lastError ?? '', /the identity provider http:\/\/127\.0\.0\.1:\d+\/idp .*invalid_grant/);
    assert.deepEqual((await wrong.stats()).tokenRequests, [], 'nothing reached the authorization server');
    await wrong.assertNoSecretLogged();
  });
});

describe('grant tokens renewed ahead of expiry', { timeout: 120_000 }, () => {
  test('client credentials: inside the margin the grant runs again before the request; the old token is not sent, no 401', async () => {
    const t = await setUp(['--expires-in', '20'], (c) => ({ grant: 'client_credentials', clientId: c.clientId, clientSecret: c.clientSecret }));
    await t.client.connect(t.transport);
    assert.equal(await t.whoami(), 'grant-fixture-client by client_credentials');
    t.clock.skew = 10_000;
    await t.whoami();
    assert.equal((await t.stats()).tokenRequests.length, 1, 'outside the margin: the same token');
    t.clock.skew = 19_000;
    await t.whoami();
    const stats = await t.stats();
    assert.deepEqual(stats.tokenRequests.map((r) => `${r.grantType} ${r.auth}`), ['client_credentials client_secret_basic', 'client_credentials client_secret_basic']);
    assert.equal(stats.mcpTokens.at(-1), 2);
    assert.equal(t.session.state().lastError, undefined);
    // Server Details say it renews by itself, though no refresh token is held.
    assert.equal(t.session.state().canRefresh, true);
    assert.equal(t.session.state().renewsByGrant, true);
    await t.assertNoSecretLogged();
  });
});
