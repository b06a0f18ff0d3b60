// The registry client against the registry fixture (real HTTP on 127.0.0.1): pagination, search,
// versions, a private registry's 401, malformed entries named, and "not reachable" for what is not
// the registry.
import { after, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { RegistryClient, RegistryError, searchAll } from '../../src/gallery/registryClient';
import { RegistryFixture, startRegistryFixture } from './registryFixture';

let fixture: RegistryFixture;
before(async () => {
  fixture = await startRegistryFixture();
});
after(() => fixture.close());

const client = (prefix: string, token?: string) => new RegistryClient({ baseUrl: `${fixture.url}/${prefix}`, ...(token ? { token: () => token } : {}) });

async function failure(promise: Promise<unknown>): Promise<RegistryError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof RegistryError, `expected a RegistryError, got ${String(error)}`);
  return error;
}

suite('gallery: registry client', () => {
  test('pages with the cursor it was given, to the last page', async () => {
    const first = await client('public').search({ limit: 4 });
    assert.equal(first.servers.length, 4);
    assert.ok(first.nextCursor);
    const all = await searchAll(client('public'), { limit: 4 }, 1000);
    assert.equal(all.servers.length, 15);
    assert.equal(all.nextCursor, undefined);
    assert.equal(new Set(all.servers.map((s) => s.server.name)).size, 15);
  });

  test('search and updated_since reach the registry', async () => {
    const page = await client('public').search({ search: 'FILESYSTEM' });
    assert.deepEqual(page.servers.map((s) => s.server.name), ['io.github.modelcontextprotocol/filesystem']);
    const recent = await client('public').search({ updatedSince: '2025-09-10T00:00:00Z' });
    assert.ok(recent.servers.length > 0 && recent.servers.length < 15, String(recent.servers.length));
  });

  test('the latest version, and an older one by number', async () => {
    const latest = await client('public').server('io.modelcontextprotocol.anonymous/brave-search');
    assert.equal(latest.server.version, '1.0.2');
    const older = await client('public').server('io.modelcontextprotocol.anonymous/brave-search', '1.0.1');
    assert.equal(older.server.packages?.[0].version, '1.0.1');
    assert.equal((await failure(client('public').server('com.example/none'))).reason, 'not-found');
  });

  test('a private registry: 401 without the token (which is never in the message), answers with it', async () => {
    const refused = await failure(client('private').search({}));
    assert.equal(refused.reason, 'unauthorized');
    assert.match(refused.message, /answered 401: it needs a token/);
    const wrong = await failure(client('private', 'not-it').search({}));
    assert.match(wrong.message, /the token was refused/);
    assert.doesNotMatch(wrong.message, /not-it/);
    const page = await client('private', fixture.token).search({ search: 'weather' });
    assert.equal(page.servers[0].server.name, 'io.github.example/weather-mcp');
    assert.ok(fixture.requests.some((r) => r.prefix === 'private' && r.authorized));
  });

  test('a malformed entry is named: left out of a list, an error for a lookup', async () => {
    const page = await client('broken').search({});
    assert.equal(page.servers.length, 10);
    assert.deepEqual(page.invalid.map((i) => [i.index, i.name]), [[2, 'broken-without-namespace']]);
    const error = await failure(client('broken').server('broken-without-namespace'));
    assert.equal(error.reason, 'invalid');
    assert.match(error.message, /registry entry "broken-without-namespace" is malformed: server\.(name|description)/);
  });

  test('not reachable: a 503, an HTML page, a closed port; a registry URL over plain http elsewhere is refused', async () => {
    const down = await failure(client('down').search({}));
    assert.equal(down.reason, 'unreachable');
    assert.match(down.message, /registry not reachable at .*: HTTP 503/);
    const html = await failure(client('html').search({}));
    assert.equal(html.reason, 'unreachable');
    assert.match(html.message, /answered text\/html, not the registry's JSON/);
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const closed = await failure(new RegistryClient({ baseUrl: `http://127.0.0.1:${port}` }).search({}));
    assert.match(closed.message, /registry not reachable at http:\/\/127\.0\.0\.1:\d+: the connection was refused/);
    assert.throws(() => new RegistryClient({ baseUrl: 'http://registry.example.com' }), /plain http to registry\.example\.com/);
    assert.throws(() => new RegistryClient({ baseUrl: 'https://me:secret@registry.example.com' }), (e: Error) => /holds credentials/.test(e.message) && !e.message.includes('secret'));
  });
});
