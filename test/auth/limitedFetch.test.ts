// The size limit on authorization answers, against a real HTTP server: a declared length over the
// limit, a chunked answer without a length that grows past it, and answers under it kept intact.
import assert from 'node:assert/strict';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { limitedFetch } from '../../src/auth/limitedFetch';

describe('limitedFetch', () => {
  let server: Server;
  let base: string;
  const limit = 64 * 1024;
  const fetchLimited = limitedFetch(fetch, limit);

  before(async () => {
    server = createServer((req, res) => {
      const chunk = 'y'.repeat(16 * 1024);
      switch (req.url) {
        case '/declared':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(limit + 1) });
          res.end('z'.repeat(limit + 1));
          return;
        case '/chunked': {
          // No content-length: the limit is only found by reading.
          res.writeHead(200, { 'content-type': 'application/json' });
          let sent = 0;
          const more = () => {
            if (sent++ > 20) return res.end();
            res.write(chunk, () => setImmediate(more));
          };
          more();
          return;
        }
        case '/small':
          res.writeHead(201, { 'content-type': 'application/json', 'x-kept': 'yes' });
          res.write('{"a":');
          res.end('1}');
          return;
        default:
          res.writeHead(204).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a declared length over the limit is refused before reading', async () => {
    await assert.rejects(fetchLimited(`${base}/declared`), /the answer is larger than 64 KiB; refused/);
  });

  test('a chunked answer that grows past the limit is refused', async () => {
    await assert.rejects(fetchLimited(`${base}/chunked`), /the answer is larger than 64 KiB; refused/);
  });

  test('an answer under the limit arrives whole, with its status and headers', async () => {
    const response = await fetchLimited(`${base}/small`);
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('x-kept'), 'yes');
    assert.deepEqual(await response.json(), { a: 1 });
  });

  test('an answer without a body passes', async () => {
    const response = await fetchLimited(`${base}/none`);
    assert.equal(response.status, 204);
  });
});
