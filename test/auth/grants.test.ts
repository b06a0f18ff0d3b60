// The grants without a browser (src/auth/grants) at the unit level: a DPoP proof as RFC 9449 §4.2
// writes it (checked with jose), the key pair kept with the grant (and among its secrets), and a
// token endpoint that repeats what it was sent in its error: the message names the endpoint and
// the OAuth error, never the secret, key, token or assertion.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createServer, IncomingMessage } from 'node:http';
import { asyncHandler } from '../support/asyncHandler';
import { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { DpopKey, usesDpop } from '../../src/auth/grants/dpop';
import { MachineGrant, obtainMachineGrant } from '../../src/auth/grants/machineGrant';
import { AuthError } from '../../src/auth/errors';
import { StoredGrant } from '../../src/auth/tokenStore';
import type { DiscoveredAuthorization } from '../../src/auth/discovery';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
const loadJose = () => import('jose') as Promise<Jose>;

async function body(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

suite('auth grants: DPoP and the grants without a browser', () => {
  test('a DPoP proof: typ dpop+jwt, the public key only, htm, htu without query, a fresh jti, ath of the token, the nonce once told', async () => {
    const jose = await loadJose();
    const key = await DpopKey.generate();
    const first = await key.proof('post', 'https://mcp.example/mcp?x=1#f', 'the-access-token');
    key.noteNonce('https://mcp.example/other', 'n-1');
    const second = await key.proof('POST', 'https://mcp.example/mcp', 'the-access-token');
    const header = jose.decodeProtectedHeader(first);
    assert.equal(header.typ, 'dpop+jwt');
    assert.equal(header.alg, 'ES256');
    assert.equal((header.jwk as { d?: string }).d, undefined, 'no private part in the proof');
    const { payload } = await jose.jwtVerify(first, await jose.importJWK(header.jwk!, 'ES256'));
    assert.equal(payload.htm, 'POST');
    assert.equal(payload.htu, 'https://mcp.example/mcp');
    assert.equal(payload.ath, (await import('node:crypto')).createHash('sha256').update('the-access-token').digest('base64url'));
    assert.equal(payload.nonce, undefined);
    const again = jose.decodeJwt(second);
    assert.equal(again.nonce, 'n-1');
    assert.notEqual(again.jti, payload.jti);
    // The stored key signs as the same key (its thumbprint), and its private half is a secret of the grant.
    const restored = await DpopKey.of(JSON.parse(JSON.stringify(key.stored)));
    const h2 = jose.decodeProtectedHeader(await restored.proof('GET', 'https://mcp.example/mcp'));
    assert.equal(await jose.calculateJwkThumbprint(h2.jwk!), await jose.calculateJwkThumbprint(header.jwk!));
    const grant: StoredGrant = { client: { clientId: 'c', tokenEndpointAuthMethod: 'none', registration: 'pre-registered' }, accessToken: 'tok', tokenType: 'DPoP', dpopKey: key.stored };
    assert.ok(StoredGrant.secrets(grant).includes(key.stored.privateJwk.d!));
    assert.equal(StoredGrant.authorization(grant), 'DPoP tok');
  });

  test('DPoP is used when the authorization server offers ES256, never with "off", and "required" refuses a server without it', () => {
    const offers = { issuer: 'https://as', dpop_signing_alg_values_supported: ['ES256'] };
    assert.equal(usesDpop(undefined, offers), true);
    assert.equal(usesDpop('off', offers), false);
    assert.equal(usesDpop('auto', { issuer: 'https://as' }), false);
    assert.throws(() => usesDpop('required', { issuer: 'https://as', dpop_signing_alg_values_supported: ['RS256'] }), /does not advertise DPoP with ES256/);
  });

  test('a token endpoint that repeats the secret, the key and the assertion in its error: the message has none of them', async () => {
    const received: string[] = [];
    const server = createServer(asyncHandler(async (request, response) => {
      const text = await body(request);
      received.push(text);
      response.writeHead(400, { 'content-type': 'application/json' });
      // A careless server: its description quotes the whole request and its Authorization header.
      response.end(JSON.stringify({ error: 'invalid_client', error_description: `refused ${decodeURIComponent(text)} ${request.headers.authorization ?? ''}` }));
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const found: DiscoveredAuthorization = { resource: `${base}/mcp`, authorizationServer: { issuer: base, token_endpoint: `${base}/token` }, legacy: false };
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const secret = 'client-s3cret-value-4711';
    const assertion = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.d29ya2xvYWQtc2lnbmF0dXJl';
    const grants: MachineGrant[] = [
      { kind: 'client-credentials', clientId: 'bot', clientSecret: secret },
      { kind: 'client-credentials', clientId: 'bot', privateKey: pem },
      { kind: 'workload-identity', assertion },
    ];
    try {
      for (const grant of grants) {
        const error = await obtainMachineGrant(grant, found, undefined, { fetch, now: Date.now, log: () => {} }).then(
          () => assert.fail('the grant was refused'),
          (e: unknown) => e,
        );
        assert.ok(AuthError.is(error, 'token'), String(error));
        const message = (error as Error).message;
        assert.match(message, /invalid_client/);
        assert.match(message, /the token endpoint of http:\/\/127\.0\.0\.1:\d+/);
        for (const value of [secret, Buffer.from(`bot:${secret}`).toString('base64'), assertion, pem.split('\n')[1]]) assert.ok(!message.includes(value), `the message holds a secret: ${message}`);
      }
      // What was sent: the secret by basic authentication, a signed client assertion, the workload token as the assertion.
      assert.match(received[0], /grant_type=client_credentials/);
      assert.match(received[0], /resource=http/);
      assert.match(received[1], /client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer/);
      assert.match(received[2], /grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer/);
      assert.ok(received[2].includes(`assertion=${assertion}`));
      assert.ok(!received[2].includes('client_id='), 'no client id when none is configured');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a private key that is not one is refused in words, without the text given', async () => {
    const found: DiscoveredAuthorization = { resource: 'http://127.0.0.1:9/mcp', authorizationServer: { issuer: 'http://127.0.0.1:9', token_endpoint: 'http://127.0.0.1:9/token' }, legacy: false };
    await assert.rejects(obtainMachineGrant({ kind: 'client-credentials', clientId: 'bot', privateKey: 'not-a-key-but-a-s3cret' }, found, undefined, { fetch, now: Date.now, log: () => {} }), (error: Error) => {
      assert.match(error.message, /the private key is not a PEM private key/);
      assert.ok(!error.message.includes('not-a-key-but-a-s3cret'));
      return true;
    });
  });
});
