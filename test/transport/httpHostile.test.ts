// Hostile HTTP peers: a small node:http server of our own answers each path badly (500, a body
// that is not JSON, text/html, an SSE event over the cap, never answering, a slow drip, a
// redirect to another origin, 401). Each must give one clear McpLocalError naming the URL (and
// the status), without a stack trace, while a well-behaved server connected at the same time
// keeps working.
import assert from 'node:assert/strict';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { McpClient, McpLocalError } from '../../src/client';
import { LocalErrorOf, connectionEndOf } from '../../src/protocol/errors';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { SseTransport } from '../../src/transport/sse';
import { waitFor } from '../client/support';
import { freePort, HttpPeer, startFixture } from './httpPeers';

const MiB = 1024 * 1024;

/** Sockets the hostile server holds open (never-answering and dripping requests), ended in `after`. */
const held = new Set<ServerResponse>();
const timers = new Set<NodeJS.Timeout>();
/** Requests to /hang whose connection the client has ended. */
let hangsEnded = 0;

function hostile(otherOrigin: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url!, 'http://x').pathname;
    req.resume();
    switch (path) {
      case '/500':
        return res.writeHead(500, { 'content-type': 'text/plain' }).end('database exploded');
      case '/not-json':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('this is {not json');
      case '/not-jsonrpc':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}');
      case '/html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Login</body></html>');
      case '/401':
        return res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"' }).end();
      case '/oversize': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const data = `{"jsonrpc":"2.0","id":1,"result":{"pad":"${'x'.repeat(2 * MiB)}"}}`;
        return res.end(`event: message\ndata: ${data}\n\n`);
      }
      case '/hang':
        held.add(res);
        res.on('close', () => hangsEnded++);
        return;
      case '/drip': {
        held.add(res);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"jsonrpc":"2.0",');
        const timer = setInterval(() => res.write(' '), 50);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/redirect':
        return res.writeHead(307, { location: `${otherOrigin}/mcp` }).end();
      default:
        return res.writeHead(404).end();
    }
  };
}

describe('hostile HTTP servers: one clear error each, and the other server keeps working', () => {
  let server: Server;
  let base: string;
  let good: HttpPeer;
  let goodClient: McpClient;

  before(async () => {
    good = await startFixture('sdkServer.mjs');
    goodClient = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    await goodClient.connect(createHttpTransport({ url: good.url, mode: 'http' }));
    const port = await freePort();
    // Another origin: same host, the good server's port.
    server = createServer(hostile(new URL(good.url).origin));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    for (const timer of timers) clearInterval(timer);
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await goodClient.close();
    await good.close();
  });

  /** Connects to `path` and returns the one error; checks it is clear, then that the good server still answers. */
  async function failure(path: string, options: { timeoutMs?: number; maxMessageBytes?: number } = {}): Promise<LocalErrorOf> {
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    const transport = createHttpTransport({ url: `${base}${path}`, mode: 'http', headers: { Authorization: 'Bearer HOSTILE-SECRET' }, maxMessageBytes: options.maxMessageBytes });
    let error: unknown;
    try {
      await client.connect(transport, { timeoutMs: options.timeoutMs ?? 3000 });
      assert.fail('connect should have failed');
    } catch (e) {
      error = e;
    } finally {
      await client.close();
      client.dispose();
    }
    assert.ok(McpLocalError.is(error), `an McpLocalError, got ${String(error)}`);
    assert.doesNotMatch(error.message, /\n|\s+at\s+\S+:\d+:\d+/, 'one line, no stack trace');
    assert.ok(!error.message.includes('HOSTILE-SECRET'), 'no header value in the error');
    const echo = await goodClient.callTool('echo', { text: `after ${path}` });
    assert.deepEqual(echo.content, [{ type: 'text', text: `after ${path}` }]);
    return error;
  }

  test('500: names the status, the URL and what the server said', async () => {
    const e = await failure('/500');
    assert.ok(McpLocalError.is(e, 'transport'));
    // The first request is the modern era's server/discover probe; a 500 says nothing about the era, so it stands.
    assert.equal(e.message, `server/discover: POST ${base}/500 answered HTTP 500 Internal Server Error: database exploded`);
    assert.equal(e.details.status, 500);
  });

  test('a body that is not JSON, and JSON that is not JSON-RPC', async () => {
    assert.match((await failure('/not-json')).message, new RegExp(`^initialize: POST ${base}/not-json answered with a body that is not JSON \\(.+\\): "this is \\{not json"$`));
    assert.match((await failure('/not-jsonrpc')).message, /answered with JSON that is not a JSON-RPC message: "\{\\"hello\\":\\"world\\"\}"$/);
  });

  test('text/html: the wrong content type is named', async () => {
    const e = await failure('/html');
    assert.equal(e.message, `initialize: POST ${base}/html answered HTTP 200 with content type "text/html"; expected application/json, text/event-stream`);
  });

  test('401: authorization required, with the challenge kept for sign-in', async () => {
    const e = await failure('/401');
    assert.match(e.message, new RegExp(`requires authorization \\(HTTP 401 at ${base}/401\\)`));
    const reason = connectionEndOf(e).reason;
    assert.deepEqual(reason, { kind: 'authorization-required', status: 401, url: `${base}/401`, wwwAuthenticate: 'Bearer realm="mcp"' });
  });

  test('an SSE event over the size cap is dropped with an error naming the limit', async () => {
    const e = await failure('/oversize', { maxMessageBytes: 1 * MiB });
    assert.match(e.message, /an event from .+\/oversize is larger than the 1 MiB limit/);
  });

  test('a server that accepts and never answers: the request times out, and its POST is ended', async () => {
    const e = await failure('/hang', { timeoutMs: 500 });
    assert.equal(e.kind, 'timeout');
    assert.match(e.message, /^server\/discover timed out after 500 ms/, 'over HTTP a probe that times out is a failure, not a sign of the legacy era');
    await waitFor(() => hangsEnded === 1, 2000, 'the hanging POST to be ended');
  });

  test('a slow drip of bytes that never completes a message times out the same way', async () => {
    const e = await failure('/drip', { timeoutMs: 500 });
    assert.equal(e.kind, 'timeout');
  });

  test('a redirect to another origin is not followed', async () => {
    const e = await failure('/redirect');
    assert.equal(e.message, `initialize: POST ${base}/redirect was redirected to another origin (${new URL(good.url).origin}); redirects are followed only within ${base}`);
  });

  test('connection refused: the transport closes with a network error naming the URL', async () => {
    const port = await freePort();
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    const closed = new Promise<string>((resolve) => client.onClose((c) => resolve(c.reason.kind)));
    await assert.rejects(client.connect(createHttpTransport({ url: `http://127.0.0.1:${port}/mcp`, mode: 'auto' })), (e: unknown) => {
      assert.ok(McpLocalError.is(e, 'transport'));
      assert.equal(e.message, `server/discover: the server could not be reached at http://127.0.0.1:${port}/mcp: connection refused (is the server running?)`);
      return true;
    });
    assert.equal(await closed, 'network-error');
    await client.close();
  });

  test('legacy SSE: an endpoint on another origin is refused', async () => {
    const other = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: endpoint\ndata: ${base}/messages\n\n`);
      held.add(res);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    try {
      const transport = new SseTransport({ url: `http://127.0.0.1:${port}/sse` });
      await assert.rejects(transport.start(), (e: unknown) => McpLocalError.is(e, 'transport') && /named a message endpoint on another origin \(http:\/\/127\.0\.0\.1:\d+\); refused/.test(e.message));
      await transport.close();
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
