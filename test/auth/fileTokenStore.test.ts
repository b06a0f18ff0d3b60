import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FileTokenStore, StoredGrant } from '../../src/auth';

const grant = (token: string): StoredGrant => ({ client: { clientId: 'c', tokenEndpointAuthMethod: 'none', registration: 'dynamic' }, accessToken: token, scope: 'mcp' });

test('FileTokenStore: grants by resource and issuer in a 0600 file of a 0700 directory, kept across instances', { skip: process.platform === 'win32' }, async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-tokens-'));
  try {
    const directory = path.join(root, 'cache');
    const store = new FileTokenStore(directory);
    const a = { resource: 'https://mcp.example/mcp', issuer: 'https://as.example/' };
    const b = { resource: 'https://mcp.example/mcp', issuer: 'https://other.example/' };
    assert.equal(await store.get(a), undefined);
    await Promise.all([store.set(a, grant('at-a')), store.set(b, grant('at-b'))]);
    assert.equal((await fs.stat(store.file)).mode & 0o777, 0o600);
    assert.equal((await fs.stat(directory)).mode & 0o777, 0o700);
    const again = new FileTokenStore(directory);
    assert.equal((await again.get(a))?.accessToken, 'at-a');
    assert.equal((await again.get(b))?.accessToken, 'at-b', 'another issuer, another grant');
    await again.delete(a);
    assert.equal(await store.get(a), undefined);
    assert.equal((await store.get(b))?.accessToken, 'at-b');
    assert.deepEqual((await fs.readdir(directory)).sort(), ['mcp-host-tokens.json'], 'no temporary file left');
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});
