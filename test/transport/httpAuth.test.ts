// The AuthProvider hook of the HTTP transports, against a small node:http server that demands a
// bearer token: the provider's header replaces a configured one, a 401 is sent again once when
// the provider renewed its credentials, and otherwise closes with `authorization-required`.
import assert from 'node:assert/strict';
import { createServer, IncomingMessage, Server } from 'node:http';
import { asyncHandler } from '../support/asyncHandler';
import { AddressInfo } from 'node:net';
import { afterEach, describe, test } from 'node:test';
import { McpClient, TransportCloseInfo } from '../../src/client';
import { AuthChallenge, AuthProvider } from '../../src/transport/httpChannel';
import { StreamableHttpTransport } from '../../src/transport/streamableHttp';

const CHALLENGE = 'Bearer error="invalid_token", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"';
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** An MCP endpoint that answers initialize only with `Bearer good`; it records each Authorization it saw. */
async function protectedServer(): Promise<{ url: string; seen: Array<string | undefined> }> {
  const seen: Array<string | undefined> = [];
  const server = createServer(asyncHandler(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    seen.push(request.headers.authorization);
    if (request.headers.authorization !== 'Bearer good') {
      response.writeHead(401, { 'www-authenticate': CHALLENGE }).end();
      return;
    }
    const message = JSON.parse(body) as { id?: number; method: string };
    if (message.id === undefined) return void response.writeHead(202).end();
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const result = message.method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'guarded', version: '1' } } : {};
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

class ScriptedProvider implements AuthProvider {
  readonly challenges: AuthChallenge[] = [];
  constructor(
    public token: string | undefined,
    private readonly answer: (provider: ScriptedProvider) => 'retry' | 'fail',
  ) {}
  async authorization(): Promise<string | undefined> {
    return this.token && `Bearer ${this.token}`;
  }
  async onChallenge(challenge: AuthChallenge): Promise<'retry' | 'fail'> {
    this.challenges.push(challenge);
    return this.answer(this);
  }
}

async function connect(url: string, auth: AuthProvider) {
  const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
  const closes: TransportCloseInfo[] = [];
  client.onClose((c) => closes.push(c));
  const connected = client.connect(new StreamableHttpTransport({ url, headers: { Authorization: 'Bearer configured' }, auth }));
  return { client, closes, connected };
}

describe('HTTP transports with an AuthProvider', () => {
  test('a 401 is sent again once with the renewed token; the provider header replaces a configured one', async () => {
    const { url, seen } = await protectedServer();
    const provider = new ScriptedProvider('stale', (p) => ((p.token = 'good'), 'retry'));
    const { client, connected } = await connect(url, provider);
    await connected;
    assert.deepEqual(seen.slice(0, 2), ['Bearer stale', 'Bearer good']);
    assert.ok(seen.slice(2).every((h) => h === 'Bearer good'));
    assert.equal(provider.challenges.length, 1);
    assert.deepEqual(provider.challenges[0], { status: 401, url, wwwAuthenticate: CHALLENGE, refused: 'Bearer stale' });
    await client.close();
  });

  test('"fail" closes with authorization-required carrying the challenge; no token means no header', async () => {
    const { url, seen } = await protectedServer();
    const provider = new ScriptedProvider(undefined, () => 'fail');
    const { closes, connected } = await connect(url, provider);
    await assert.rejects(connected);
    assert.deepEqual(seen, [undefined]);
    assert.deepEqual(closes[0]?.reason, { kind: 'authorization-required', status: 401, url, wwwAuthenticate: CHALLENGE });
  });

  test('a provider that always says "retry" gets one retry, not a loop', async () => {
    const { url, seen } = await protectedServer();
    const provider = new ScriptedProvider('bad', () => 'retry');
    const { closes, connected } = await connect(url, provider);
    await assert.rejects(connected);
    assert.equal(seen.length, 2);
    assert.equal(provider.challenges.length, 1);
    assert.equal(closes[0]?.reason.kind, 'authorization-required');
  });
});
