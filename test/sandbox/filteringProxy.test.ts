// The filtering proxy's host check, and the proxy itself on its Unix socket (no sandbox needed):
// an allowed host is tunnelled, another gets a 403 naming it, a request without the secret a 407.
import assert from 'node:assert/strict';
import { createServer, Server } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { FilteringProxy, hostAllowed, PROXY_USER, startFilteringProxy } from '../../src/sandbox/filteringProxy';

describe('hostAllowed', () => {
  test('exact names and addresses, case and a trailing dot ignored; *.domain allows subdomains only', () => {
    const allowed = ['api.github.com', '*.example.org', '127.0.0.1', '[::1]'];
    for (const host of ['api.github.com', 'API.GitHub.com.', 'a.example.org', 'b.a.example.org', '127.0.0.1', '::1']) assert.ok(hostAllowed(host, allowed), host);
    for (const host of ['github.com', 'evil-api.github.com', 'api.github.com.evil', 'example.org', 'xexample.org', '127.0.0.2', 'localhost']) assert.ok(!hostAllowed(host, allowed), host);
  });
});

describe('startFilteringProxy', () => {
  let proxy: FilteringProxy;
  let web: Server;
  let port = 0;
  before(async () => {
    proxy = await startFilteringProxy(['127.0.0.1']);
    web = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    port = (web.address() as { port: number }).port;
  });
  after(async () => {
    await proxy.close();
    web.close();
  });

  /** Sends raw bytes to the proxy's socket and collects the answer until it closes (or 2 s). */
  const raw = (text: string) =>
    new Promise<string>((resolve) => {
      const socket = connect(proxy.socketPath);
      let answer = '';
      socket.setEncoding('utf8').on('data', (d: string) => {
        answer += d;
        if (answer.includes('hello')) socket.end();
      });
      socket.on('close', () => resolve(answer));
      setTimeout(() => socket.destroy(), 2000).unref();
      socket.write(text);
    });
  const auth = () => `Proxy-Authorization: Basic ${Buffer.from(`${PROXY_USER}:${proxy.secret}`).toString('base64')}\r\n`;

  test('CONNECT to an allowed host tunnels; to another it is 403 with the reason; without the secret 407', async () => {
    const tunnelled = await raw(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth()}\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.match(tunnelled, /^HTTP\/1\.1 200 Connection Established[\s\S]*hello/);
    const refused = await raw(`CONNECT 127.0.0.2:${port} HTTP/1.1\r\nHost: 127.0.0.2\r\n${auth()}\r\n`);
    assert.match(refused, /^HTTP\/1\.1 403 Forbidden[\s\S]*the host "127\.0\.0\.2" is not allowed/);
    const noSecret = await raw(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    assert.match(noSecret, /^HTTP\/1\.1 407/);
    const wrongSecret = await raw(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: Basic ${Buffer.from(`${PROXY_USER}:guess`).toString('base64')}\r\nConnection: close\r\n\r\n`);
    assert.match(wrongSecret, /^HTTP\/1\.1 407/);
  });

  test('a plain GET with an absolute URL is forwarded to an allowed host and refused for another', async () => {
    assert.match(await raw(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Connection: close\r\n\r\n`), /^HTTP\/1\.1 200[\s\S]*hello/);
    assert.match(await raw(`GET http://localhost:${port}/ HTTP/1.1\r\nHost: localhost\r\n${auth()}Connection: close\r\n\r\n`), /^HTTP\/1\.1 403[\s\S]*"localhost" is not allowed/);
  });
});
