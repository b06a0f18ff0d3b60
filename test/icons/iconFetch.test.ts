// Fetching icons against real servers on 127.0.0.1. The product refuses plain http and loopback
// addresses, so the cases that need a server to answer (the stream cap, a redirect, wrong magic,
// the cache) pass `testOnlyAllowance` — a parameter the product never sets — which lets http and
// 127.0.0.1 through; the loopback refusal itself is tested without it.
import { after, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchIcon, type IconFetchOptions } from '../../src/icons/iconFetch';
import { IconResolver } from '../../src/icons/iconResolver';
import { IconDiskCache } from '../../src/icons/iconDiskCache';
import { iconImages } from './iconImages';

const allowance: IconFetchOptions = { testOnlyAllowance: { plainHttp: true, address: (a) => a === '127.0.0.1' } };
const closers: (() => Promise<void>)[] = [];
after(async () => {
  await Promise.all(closers.map((close) => close()));
});

interface Served {
  readonly origin: string;
  readonly requests: string[];
  /** Bytes of the body written before the client went away, per request. */
  readonly written: number[];
}

/** A real http server on 127.0.0.1 answering with `handler`. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse, served: Served) => void): Promise<Served> {
  const served: Served = { origin: '', requests: [], written: [] };
  const server = http.createServer((req, res) => {
    served.requests.push(req.url ?? '');
    handler(req, res, served);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  (served as { origin: string }).origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  closers.push(() => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }));
  return served;
}

describe('fetching icons', () => {
  test('an https URL whose host resolves to 127.0.0.1 is refused before any connection is made', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    closers.push(() => new Promise((ok) => server.close(() => ok())));
    const port = (server.address() as net.AddressInfo).port;
    const byName = await fetchIcon(new URL(`https://localhost:${port}/icon.png`));
    assert.equal(byName.kind, 'refused');
    assert.match(byName.kind === 'refused' ? byName.reason : '', /localhost resolves to (127\.0\.0\.1|::1), which is this machine/);
    const literal = await fetchIcon(new URL(`https://127.0.0.1:${port}/icon.png`));
    assert.match(literal.kind === 'refused' ? literal.reason : '', /127\.0\.0\.1 is this machine/);
    assert.equal(connections, 0, 'the loopback port was never connected to');
    // And plain http is refused without the allowance, whatever the address.
    assert.match(JSON.stringify(await fetchIcon(new URL(`http://127.0.0.1:${port}/icon.png`))), /http: icons are not fetched/);
    assert.equal(connections, 0);
  });

  test('a 50 MB PNG is cut at the cap while it streams, not buffered', async () => {
    const { png } = await iconImages();
    const FIFTY_MB = 50 * 1024 * 1024;
    const served = await serve((_req, res, s) => {
      res.writeHead(200, { 'content-type': 'image/png' }); // no Content-Length: only counting can stop it
      const block = Buffer.concat([png(4, 4, [0, 0, 0]), Buffer.alloc(64 * 1024 - 100)]);
      let sent = 0;
      const pump = (): void => {
        while (sent < FIFTY_MB) {
          sent += block.length;
          if (!res.write(block)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => s.written.push(sent));
      pump();
    });
    const started = process.memoryUsage().arrayBuffers;
    const result = await fetchIcon(new URL(`${served.origin}/huge.png`), allowance);
    assert.equal(result.kind, 'refused');
    assert.match(result.kind === 'refused' ? result.reason : '', /larger than 256 KiB; the download was cut there/);
    await new Promise((ok) => setTimeout(ok, 100));
    assert.ok(served.written[0] < 16 * 1024 * 1024, `the server got to write ${served.written[0]} bytes before the connection was cut`);
    assert.ok(process.memoryUsage().arrayBuffers - started < 32 * 1024 * 1024, 'not buffered');
  });

  test('a Content-Length over the cap is refused before the body', async () => {
    const served = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    });
    assert.match(JSON.stringify(await fetchIcon(new URL(`${served.origin}/big.png`), allowance)), /Content-Length/);
  });

  test('a redirect to another origin is not followed: the other origin gets no request', async () => {
    const other = await serve((_req, res) => res.end('never'));
    const first = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.origin}/icon.png` });
      res.end();
    });
    const result = await fetchIcon(new URL(`${first.origin}/icon.png`), allowance);
    assert.match(JSON.stringify(result), /302 \(a redirect\)/);
    assert.deepEqual(other.requests, []);
  });

  test('hostile icons never reach the output and are asked for once; good ones pass and are cached on disk', async () => {
    const { png, pngClaiming, dataUri, SCRIPTED_SVG } = await iconImages();
    const good = png(16, 16, [200, 30, 30]);
    const bodies: Record<string, [string, Buffer]> = {
      '/good.png': ['image/png', good],
      '/wrong-magic.png': ['image/png', Buffer.from('GIF89a\x10\x00\x10\x00\x00\x00\x00', 'latin1')],
      '/huge-dimensions.png': ['image/png', pngClaiming(30000, 30000)],
      '/script.svg': ['image/svg+xml', Buffer.from(SCRIPTED_SVG)],
    };
    const served = await serve((req, res) => {
      const [type, bytes] = bodies[req.url ?? ''] ?? ['text/plain', Buffer.from('missing')];
      res.writeHead(bodies[req.url ?? ''] ? 200 : 404, { 'content-type': type });
      res.end(bytes);
    });
    const folder = mkdtempSync(join(tmpdir(), 'icons-'));
    closers.push(async () => rmSync(folder, { recursive: true, force: true }));
    const refusals: string[] = [];
    const origins = { allowed: [served.origin] };
    const resolver = new IconResolver({ disk: new IconDiskCache(folder), fetch: allowance, onRefused: (src, reason) => refusals.push(`${src.slice(0, 50)}: ${reason}`) });
    const hostile = [
      ...['/wrong-magic.png', '/huge-dimensions.png', '/script.svg'].map((path) => [{ src: `${served.origin}${path}` }]),
      [{ src: dataUri('image/svg+xml', SCRIPTED_SVG) }],
      [{ src: dataUri('image/png', pngClaiming(40000, 40000)) }],
      [{ src: dataUri('image/png', Buffer.from(SCRIPTED_SVG)) }],
      [{ src: dataUri('image/jpeg', good) }],
    ];
    for (const icons of hostile) {
      assert.equal(await resolver.resolve(icons, 'light', origins), undefined, icons[0].src.slice(0, 50));
      assert.equal(await resolver.resolve(icons, 'light', origins), undefined);
    }
    assert.equal(refusals.length, hostile.length, `each refused once:\n${refusals.join('\n')}`);
    assert.deepEqual(served.requests.sort(), ['/huge-dimensions.png', '/script.svg', '/wrong-magic.png'], 'one request each, none again');
    assert.deepEqual(readdirSync(folder), [], 'nothing refused is kept on disk');

    const fetched = await resolver.resolve([{ src: `${served.origin}/good.png` }], 'dark', origins);
    assert.equal(fetched?.dataUri, `data:image/png;base64,${good.toString('base64')}`);
    assert.ok(fetched?.file && readdirSync(folder).some((f) => fetched.file!.endsWith(f)), 'written to the disk cache');
    // A new resolver (the next session) finds it on disk: no second request.
    const again = await new IconResolver({ disk: new IconDiskCache(folder), fetch: allowance }).resolve([{ src: `${served.origin}/good.png` }], 'dark', origins);
    assert.equal(again?.dataUri, fetched?.dataUri);
    assert.equal(served.requests.filter((r) => r === '/good.png').length, 1);

    const dark = png(8, 8, [1, 1, 1]);
    const themed = [{ src: dataUri('image/png', good), theme: 'light' as const }, { src: dataUri('image/png', dark), theme: 'dark' as const }];
    assert.equal((await resolver.resolve(themed, 'light', origins))?.dataUri, dataUri('image/png', good));
    assert.equal((await resolver.resolve(themed, 'dark', origins))?.dataUri, dataUri('image/png', dark));
    assert.equal(resolver.peek(themed, 'dark')?.dataUri, dataUri('image/png', dark));
  });
});
