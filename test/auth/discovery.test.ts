// The pure parts of authorization: challenge parsing, the well-known URL orders of the spec,
// scope and registration choice; and the loopback redirect on a real socket.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { AuthError, canonicalResource, checkEndpoint, chooseRegistration, chooseScopes, discoverAuthorization, loopbackRedirect, MemoryTokenStore, OAuthFlow, parseBearerChallenge, resourceMetadataUrls, serverMetadataUrls } from '../../src/auth';
import type { AuthorizationServer } from '../../src/auth/oauth';

const AS: AuthorizationServer = { issuer: 'https://as.example/', scopes_supported: ['read', 'write'] };

describe('WWW-Authenticate', () => {
  test('reads error, scope and resource_metadata of the Bearer challenge, quoted or not, beside other schemes', () => {
    assert.deepEqual(parseBearerChallenge('Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"'), {
      error: 'insufficient_scope',
      scope: ['files:read', 'files:write'],
      resourceMetadata: 'https://mcp.example/.well-known/oauth-protected-resource/mcp',
    });
    assert.deepEqual(parseBearerChallenge('Basic realm="x", Bearer realm="mcp", error=invalid_token'), { error: 'invalid_token' });
    assert.deepEqual(parseBearerChallenge('bearer scope="a \\"b\\""'), { scope: ['a', '"b"'] });
    assert.deepEqual(parseBearerChallenge('Basic realm="x"'), {});
    assert.deepEqual(parseBearerChallenge(undefined), {});
  });
});

describe('discovery URLs in the order of the 2025-11-25 specification', () => {
  test('protected resource metadata: path-aware first, then the root', () => {
    assert.deepEqual(resourceMetadataUrls(new URL('https://mcp.example/public/mcp')).map(String), ['https://mcp.example/.well-known/oauth-protected-resource/public/mcp', 'https://mcp.example/.well-known/oauth-protected-resource']);
    assert.deepEqual(resourceMetadataUrls(new URL('https://mcp.example/')).map(String), ['https://mcp.example/.well-known/oauth-protected-resource']);
  });

  test('authorization server metadata: RFC 8414 and OIDC path insertion, then OIDC path appending; without a path RFC 8414 then OIDC', () => {
    assert.deepEqual(serverMetadataUrls(new URL('https://auth.example/tenant1')).map(String), [
      'https://auth.example/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example/.well-known/openid-configuration/tenant1',
      'https://auth.example/tenant1/.well-known/openid-configuration',
    ]);
    assert.deepEqual(serverMetadataUrls(new URL('https://auth.example')).map(String), ['https://auth.example/.well-known/oauth-authorization-server', 'https://auth.example/.well-known/openid-configuration']);
  });

  test('the canonical resource drops fragment, query and credentials, and a lone trailing slash', () => {
    assert.equal(canonicalResource(new URL('https://u:p@MCP.example/mcp?x=1#f')), 'https://mcp.example/mcp');
    assert.equal(canonicalResource(new URL('https://mcp.example/')), 'https://mcp.example');
  });
});

/** A server answering GETs from `routes` (path → JSON, with `{origin}` replaced), 404 otherwise; it records the paths asked. */
async function metadataServer(routes: Record<string, unknown>, run: (origin: string, asked: string[]) => Promise<void>): Promise<void> {
  const asked: string[] = [];
  let origin = '';
  const server = createServer((request, response) => {
    asked.push(request.url ?? '');
    const body = routes[request.url ?? ''];
    if (body === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body).replaceAll('{origin}', origin));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await run(origin, asked);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('discovery over HTTP', () => {
  const log = () => {};
  test('root resource metadata after the path-aware 404, then OIDC path appending after two 404s, issuer checked', async () => {
    const routes = {
      '/.well-known/oauth-protected-resource': { resource: '{origin}/api/mcp', authorization_servers: ['{origin}/tenant1'], scopes_supported: ['files'] },
      '/tenant1/.well-known/openid-configuration': { issuer: '{origin}/tenant1', authorization_endpoint: '{origin}/tenant1/auth', token_endpoint: '{origin}/tenant1/token', code_challenge_methods_supported: ['S256'] },
    };
    await metadataServer(routes, async (origin, asked) => {
      const found = await discoverAuthorization(new URL(`${origin}/api/mcp`), {}, { fetch, log });
      assert.deepEqual(asked, [
        '/.well-known/oauth-protected-resource/api/mcp',
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-authorization-server/tenant1',
        '/.well-known/openid-configuration/tenant1',
        '/tenant1/.well-known/openid-configuration',
      ]);
      assert.equal(found.resource, `${origin}/api/mcp`);
      assert.equal(found.authorizationServer.token_endpoint, `${origin}/tenant1/token`);
      assert.deepEqual(found.resourceMetadata?.scopes_supported, ['files']);
      assert.equal(found.legacy, false);
    });
  });

  test('the challenge\'s resource_metadata is used as given', async () => {
    const routes = {
      '/meta/prm.json': { resource: '{origin}/mcp', authorization_servers: ['{origin}'] },
      '/.well-known/oauth-authorization-server': { issuer: '{origin}/', authorization_endpoint: '{origin}/a', token_endpoint: '{origin}/t', code_challenge_methods_supported: ['S256'] },
    };
    await metadataServer(routes, async (origin, asked) => {
      const found = await discoverAuthorization(new URL(`${origin}/mcp`), { resourceMetadata: `${origin}/meta/prm.json` }, { fetch, log });
      assert.deepEqual(asked, ['/meta/prm.json', '/.well-known/oauth-authorization-server']);
      assert.equal(found.metadataUrl, `${origin}/.well-known/oauth-authorization-server`);
    });
  });

  test('resource metadata for another server is refused', async () => {
    await metadataServer({ '/.well-known/oauth-protected-resource/mcp': { resource: 'https://elsewhere.example/mcp', authorization_servers: ['{origin}'] } }, async (origin) => {
      await assert.rejects(discoverAuthorization(new URL(`${origin}/mcp`), {}, { fetch, log }), (e: unknown) => AuthError.is(e, 'discovery') && /is for https:\/\/elsewhere\.example\/mcp, not for/.test(e.message));
    });
  });

  test('2025-03-26: no resource metadata and no server metadata mean the default endpoints at the origin', async () => {
    await metadataServer({}, async (origin, asked) => {
      const found = await discoverAuthorization(new URL(`${origin}/v1/mcp`), {}, { fetch, log });
      assert.deepEqual(asked, ['/.well-known/oauth-protected-resource/v1/mcp', '/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server']);
      assert.equal(found.legacy, true);
      assert.deepEqual([found.authorizationServer.authorization_endpoint, found.authorizationServer.token_endpoint, found.authorizationServer.registration_endpoint], [`${origin}/authorize`, `${origin}/token`, `${origin}/register`]);
      assert.equal(found.resource, `${origin}/v1/mcp`);
    });
  });
});

describe('scope selection', () => {
  test('explicit, else the challenge, else the resource metadata, else omitted', () => {
    const resource = { resource: 'https://mcp.example/mcp', scopes_supported: ['read'] };
    assert.deepEqual(chooseScopes(['admin'], { scope: ['write'] }, resource, AS), ['admin']);
    assert.deepEqual(chooseScopes(undefined, { scope: ['write'] }, resource, AS), ['write']);
    assert.deepEqual(chooseScopes(undefined, {}, resource, AS), ['read']);
    assert.equal(chooseScopes(undefined, {}, { resource: resource.resource }, AS), undefined);
  });

  test('offline_access only when the authorization server lists it', () => {
    const withOffline = { ...AS, scopes_supported: ['read', 'offline_access'] };
    assert.deepEqual(chooseScopes(undefined, { scope: ['read'] }, undefined, withOffline), ['read', 'offline_access']);
    assert.deepEqual(chooseScopes(undefined, { scope: ['read'] }, undefined, AS), ['read']);
    assert.equal(chooseScopes(undefined, {}, undefined, withOffline), undefined, 'never alone: it would narrow the default grant');
  });
});

describe('client registration order', () => {
  const doc = 'https://host.example/client.json';
  test('pre-registered, then a metadata document where supported, then dynamic registration, else none', () => {
    const full: AuthorizationServer = { ...AS, client_id_metadata_document_supported: true, registration_endpoint: 'https://as.example/register' };
    assert.equal(chooseRegistration({ client: { clientId: 'x' }, clientMetadataUrl: doc }, full), 'pre-registered');
    assert.equal(chooseRegistration({ clientMetadataUrl: doc }, full), 'metadata-document');
    assert.equal(chooseRegistration({ clientMetadataUrl: doc }, { ...full, client_id_metadata_document_supported: false }), 'dynamic');
    assert.equal(chooseRegistration({}, full), 'dynamic');
    assert.equal(chooseRegistration({}, AS), undefined);
  });
});

describe('loopback redirect', () => {
  test('listens on 127.0.0.1, answers the callback with the right state once, then stops listening', async () => {
    const redirect = await loopbackRedirect()({});
    const uri = new URL(redirect.uri);
    assert.equal(uri.hostname, '127.0.0.1');
    assert.ok(Number(uri.port) > 0);
    const waiting = redirect.wait('s-1');
    assert.equal((await fetch(new URL('/favicon.ico', uri))).status, 404, 'other paths do not count');
    const page = await fetch(`${redirect.uri}?code=c&state=s-1`);
    assert.equal(page.status, 200);
    assert.equal((await waiting).get('code'), 'c');
    await assert.rejects(fetch(`${redirect.uri}?code=c&state=s-1`), 'closed after one use');
  });

  test('a wrong or missing state is refused with 400 and the listener keeps waiting for the right one', async () => {
    const redirect = await loopbackRedirect({ timeoutMs: 20_000 })({});
    const waiting = redirect.wait('s-2');
    for (const query of ['?code=c&state=other', '?code=c']) assert.equal((await fetch(`${redirect.uri}${query}`)).status, 400);
    assert.equal((await fetch(`${redirect.uri}?code=right&state=s-2`)).status, 200);
    assert.equal((await waiting).get('code'), 'right');
  });

  test('gives up after the timeout and closes', async () => {
    const redirect = await loopbackRedirect({ timeoutMs: 50 })({});
    await assert.rejects(redirect.wait('s-3'), (e: unknown) => AuthError.is(e, 'redirect') && /no answer from the browser/.test(e.message));
    await assert.rejects(fetch(redirect.uri));
  });

  test('reuses a preferred port when free, and a fixed port is an error when taken', async () => {
    const first = await loopbackRedirect()({});
    const port = Number(new URL(first.uri).port);
    const second = await loopbackRedirect()({ preferredPort: port });
    assert.notEqual(new URL(second.uri).port, String(port), 'taken: another port');
    await assert.rejects(loopbackRedirect({ port })({}), (e: unknown) => AuthError.is(e, 'redirect') && e.message.includes(String(port)));
    await first.close();
    const third = await loopbackRedirect()({ preferredPort: port });
    assert.equal(new URL(third.uri).port, String(port));
    await Promise.all([second.close(), third.close()]);
  });
});

describe('the authorization page', () => {
  test('an authorization endpoint that is not https (or http to this machine) is never opened', async () => {
    for (const endpoint of ['javascript:alert(1)', 'http://as.example/authorize', 'file:///etc/passwd']) {
      const store = new MemoryTokenStore();
      const opened: URL[] = [];
      const flow = new OAuthFlow({ store, redirect: loopbackRedirect(), userAgent: async (url) => void opened.push(url) });
      const authorizationServer = { issuer: 'https://as.example/', authorization_endpoint: endpoint, token_endpoint: 'https://as.example/token', code_challenge_methods_supported: ['S256'] };
      await assert.rejects(flow.signIn({ resource: 'https://mcp.example/mcp', authorizationServer, legacy: false }, undefined), (e: unknown) => AuthError.is(e, 'discovery') && /must use https/.test(e.message));
      assert.deepEqual(opened, []);
      assert.equal(store.size, 0);
    }
  });
});

describe('checkEndpoint: where a server\'s 401 and metadata may send this client', () => {
  const refused = (url: string, server: string, allowLocal = false) => {
    try {
      checkEndpoint(new URL(url), { serverUrl: new URL(server), ...(allowLocal ? { allowLocal } : {}) });
      return false;
    } catch (error) {
      assert.ok(AuthError.is(error, 'discovery'));
      assert.ok(error.message.includes(new URL(url).href), error.message);
      return true;
    }
  };
  test('a remote server: https to public hosts only; no loopback, private, link-local or shared addresses, whatever their spelling', () => {
    const remote = 'https://mcp.example.com/mcp';
    assert.equal(refused('https://login.example.net/.well-known/oauth-authorization-server', remote), false);
    assert.equal(refused('https://mcp.example.com/token', remote), false, 'its own host');
    for (const url of ['http://login.example.net/token', 'http://mcp.example.com/token', 'https://127.0.0.1/admin', 'https://0x7f.1/admin', 'https://2130706433/admin', 'https://localhost/x', 'https://a.localhost/x', 'https://[::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://10.1.2.3/x', 'https://172.20.0.1/x', 'https://192.168.1.1/x', 'https://169.254.169.254/latest/meta-data', 'https://100.64.0.1/x', 'https://0.0.0.0/x', 'https://[fd00::1]/x', 'https://[fe80::1]/x', 'ftp://login.example.net/x']) {
      assert.equal(refused(url, remote), true, url);
    }
    assert.equal(refused('https://172.32.0.1/x', remote), false, 'outside 172.16/12');
  });
  test('a server on loopback may name http and local addresses; the user may allow them for a remote one', () => {
    assert.equal(refused('http://127.0.0.1:9/token', 'http://127.0.0.1:8/mcp'), false);
    assert.equal(refused('http://192.168.1.1/token', 'http://localhost:8/mcp'), false);
    assert.equal(refused('http://127.0.0.1:9/token', 'https://mcp.example.com/mcp', true), false);
    assert.equal(refused('http://login.example.net/token', 'https://mcp.example.com/mcp', true), true, 'plain http to a public host stays refused');
  });
});
