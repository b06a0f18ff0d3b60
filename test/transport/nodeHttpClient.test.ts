// The remote transports' HTTP requests (src/transport/nodeHttpClient.ts) against real sockets:
// a kept-alive connection the server dropped while it sat idle is replaced once, silently; any
// other reset is the caller's error.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import * as http from 'node:http';
import * as net from 'node:net';
import { after, describe, test } from 'node:test';
import { NodeHttpClient } from '../../src/transport/nodeHttpClient';

const ANSWER = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}';

/**
 * A plain-TCP HTTP/1.1 server: `onRequest(connection, n)` decides, for the n-th request on a
 * connection (1-based), whether to answer (true) or reset the connection without an answer.
 */
async function rawServer(onRequest: (connection: number, n: number) => boolean) {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const connection = ++connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let n = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // One request at a time: headers, then a Content-Length body.
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        if (onRequest(connection, ++n)) socket.write(ANSWER);
        else return void socket.resetAndDestroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    connections: () => connections,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

async function post(client: NodeHttpClient, url: URL): Promise<string> {
  const response = await client.request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', signal: new AbortController().signal });
  const reader = response.body!.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return `${response.status} ${text}`;
    text += Buffer.from(value).toString('utf8');
  }
}

describe('NodeHttpClient', () => {
  const closers: (() => Promise<void>)[] = [];
  after(async () => Promise.all(closers.map((c) => c())));

  test('a kept-alive connection reset when the next request arrives: the request goes again on a new connection, and is answered', async () => {
    // Every connection answers its first request and resets at its second: what a server does
    // that closed the idle connection as the client reused it.
    const server = await rawServer((_, n) => n === 1);
    closers.push(server.close);
    const client = new NodeHttpClient();
    assert.equal(await post(client, server.url), '200 {}');
    assert.equal(server.connections(), 1);
    assert.equal(await post(client, server.url), '200 {}', 'the second request, reset on the reused connection, was sent again');
    assert.equal(server.connections(), 2, 'on a new connection');
    client.close();
  });

  test("a reset on a new connection is the caller's error, not retried", async () => {
    const server = await rawServer(() => false);
    closers.push(server.close);
    const client = new NodeHttpClient();
    await assert.rejects(post(client, server.url), (error: NodeJS.ErrnoException) => error.code === 'ECONNRESET');
    assert.equal(server.connections(), 1, 'one attempt only');
    client.close();
  });

  test('a reused connection reset twice in a row: one retry, then the error', async () => {
    // The first connection answers once; every later request, on any connection, is reset.
    let answered = 0;
    const server = await rawServer(() => answered++ === 0);
    closers.push(server.close);
    const client = new NodeHttpClient();
    assert.equal(await post(client, server.url), '200 {}');
    await assert.rejects(post(client, server.url), (error: NodeJS.ErrnoException) => error.code === 'ECONNRESET');
    assert.equal(server.connections(), 2, 'the reused connection, then one new one');
    client.close();
  });

  test('a request sends Host, Content-Length and the headers given, on one kept-alive connection; a custom Host wins; URL credentials go as Basic authorization', async () => {
    const seen: string[][] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.rawHeaders);
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
    const { port } = server.address() as net.AddressInfo;
    const client = new NodeHttpClient();
    const url = new URL(`http://127.0.0.1:${port}/mcp?x=1`);
    const send = (target: URL, headers: Record<string, string>) => client.request(target, { method: 'POST', headers, body: '{"é":1}', signal: new AbortController().signal }).then((r) => r.body!.cancel());
    await send(url, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
    await send(url, { 'content-type': 'application/json', Host: 'example.test' });
    await send(new URL(`http://user:p%40ss@127.0.0.1:${port}/mcp`), { accept: 'application/json' });
    client.close();
    const pairs = seen.map((raw) => Object.fromEntries(raw.flatMap((v, i) => (i % 2 ? [] : [[v.toLowerCase(), raw[i + 1]]]))));
    assert.deepEqual(pairs[0], { 'content-type': 'application/json', 'mcp-session-id': 's1', host: `127.0.0.1:${port}`, 'content-length': '8', connection: 'keep-alive' });
    assert.equal(pairs[1].host, 'example.test');
    assert.equal(pairs[2].authorization, `Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    assert.equal(pairs[2].host, `127.0.0.1:${port}`);
    assert.equal(pairs[2]['content-length'], '8');
    await assert.rejects(client.request(url, { method: 'POST', headers: { 'x-a': 'b\r\nInjected: 1' }, signal: new AbortController().signal }), (error: NodeJS.ErrnoException) => error.code === 'ERR_INVALID_CHAR');
  });

  test("an abort before the answer and one while its body is read both reject with the signal's reason and end the exchange; an exchange that ended leaves no listener on its signal", async () => {
    // /slow answers never; /partial sends headers and half a body, then waits.
    const closed: string[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      res.once('close', () => closed.push(req.url ?? ''));
      if (req.url === '/partial') res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('{"half":');
      else if (req.url === '/done') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
    const { port } = server.address() as net.AddressInfo;
    const client = new NodeHttpClient();
    const at = (path: string) => new URL(`http://127.0.0.1:${port}${path}`);
    const waitFor = async (path: string) => {
      for (let i = 0; i < 500 && !closed.includes(path); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return closed.includes(path);
    };

    const beforeAnswer = new AbortController();
    const slow = client.request(at('/slow'), { method: 'POST', headers: {}, body: '{}', signal: beforeAnswer.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const why = new Error('the caller gave up');
    beforeAnswer.abort(why);
    await assert.rejects(slow, (error) => error === why);
    assert.ok(await waitFor('/slow'), 'the server saw the exchange end');

    const whileReading = new AbortController();
    const partial = await client.request(at('/partial'), { method: 'POST', headers: {}, body: '{}', signal: whileReading.signal });
    const reader = partial.body!.getReader();
    assert.equal(Buffer.from((await reader.read()).value!).toString(), '{"half":');
    const reading = reader.read();
    const cancelled = new Error('cancelled mid-body');
    whileReading.abort(cancelled);
    await assert.rejects(reading, (error) => error === cancelled);
    assert.ok(await waitFor('/partial'), 'the server saw the exchange end');

    const done = new AbortController();
    const answered = await client.request(at('/done'), { method: 'POST', headers: {}, body: '{}', signal: done.signal });
    const body = answered.body!.getReader();
    while (!(await body.read()).done);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(getEventListeners(done.signal, 'abort').length, 0);
    client.close();
  });
});
