// The browser sign-in's token requests (src/auth/flow.ts) against a careless authorization server
// (node http on 127.0.0.1) whose token endpoint quotes back the request it was sent, its Basic
// Authorization header among it: the code exchange and the refresh fail with the server's OAuth
// error named, and neither the client secret, nor the Basic value, nor the code or refresh token.
import assert from 'node:assert/strict';
import { createServer, IncomingMessage } from 'node:http';
import { asyncHandler } from '../support/asyncHandler';
import { AddressInfo } from 'node:net';
import { suite, test } from 'node:test';
import { AuthError } from '../../src/auth/errors';
import { OAuthFlow } from '../../src/auth/flow';
import { loopbackRedirect } from '../../src/auth/loopback';
import { MemoryTokenStore, StoredGrant } from '../../src/auth/tokenStore';
import type { DiscoveredAuthorization } from '../../src/auth/discovery';

async function body(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

suite('auth flow: a token endpoint that repeats its request in its error', () => {
  test('the code exchange and the refresh fail in words without the secret, the Basic header, the code or the refresh token', async () => {
    const server = createServer(asyncHandler(async (request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/authorize') {
        // Approves at once: back to the loopback redirect with a code.
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', 'the-authorization-code-0815');
        back.searchParams.set('state', url.searchParams.get('state')!);
        response.writeHead(302, { location: back.toString() }).end();
        return;
      }
      const text = await body(request);
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'invalid_client', error_description: `refused ${decodeURIComponent(text)} with ${request.headers.authorization ?? 'no header'}` }));
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const found: DiscoveredAuthorization = {
      resource: `${base}/mcp`,
      authorizationServer: { issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, code_challenge_methods_supported: ['S256'] },
      legacy: false,
    };
    const secret = 'browser-client-s3cret-4711';
    const basic = Buffer.from(`app:${secret}`).toString('base64');
    const logs: string[] = [];
    const flow = new OAuthFlow({
      store: new MemoryTokenStore(),
      redirect: loopbackRedirect({ timeoutMs: 10_000 }),
      userAgent: async (url) => {
        const approval = await fetch(url, { redirect: 'manual' });
        await fetch(approval.headers.get('location')!);
      },
      client: { clientId: 'app', clientSecret: secret },
      log: (text) => logs.push(text),
    });
    const secrets = [secret, basic, 'the-authorization-code-0815', 'the-refresh-token-4242'];
    try {
      const signIn = await flow.signIn(found, undefined).then(() => assert.fail('the code exchange was refused'), (e: unknown) => e);
      assert.ok(AuthError.is(signIn, 'token'), String(signIn));
      assert.match(signIn.message, /invalid_client/);
      const grant: StoredGrant = { client: { clientId: 'app', clientSecret: secret, tokenEndpointAuthMethod: 'client_secret_basic', registration: 'pre-registered' }, accessToken: 'old', refreshToken: 'the-refresh-token-4242' };
      const refresh = await flow.refresh(found, grant);
      assert.equal(refresh.kind, 'refused');
      assert.match(refresh.kind === 'refused' ? refresh.reason : '', /invalid_client/);
      const said = [signIn.message, refresh.kind === 'refused' ? refresh.reason : '', ...logs].join('\n');
      assert.match(said, /with Basic \[redacted\]|with \[redacted\]/);
      for (const value of secrets) assert.ok(!said.includes(value), `a secret (${value.slice(0, 6)}…) was said:\n${said}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
