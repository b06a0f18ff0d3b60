// Secrets in error texts, through the CLI (issue 32, F2): `mcp-host call` against a server at
// `…/mcp?api_key=sk_live_…` that answers 502, and against a config server that prints its token
// (an env value of the config) on stderr and crashes; both with --record. The secret is in
// neither stdout, stderr nor the recording file.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HttpPeer, startFixture } from '../transport/httpPeers';
import { ROOT, ensureBuilt, runCli } from './cliProcess';

const KEY = `sk_live_${randomBytes(8).toString('hex')}`;
const TOKEN = `tok_${randomBytes(8).toString('hex')}`;

describe('mcp-host CLI: secrets in error texts (issue 32, F2)', { timeout: 60_000 }, () => {
  let peer: HttpPeer;
  let dir: string;
  before(async () => {
    ensureBuilt();
    peer = await startFixture('badGateway.mjs');
    dir = mkdtempSync(join(tmpdir(), 'mcp-host-secret-errors-'));
  });
  after(async () => {
    await peer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const assertNoSecret = (texts: readonly string[]) => {
    for (const text of texts) assert.ok(!text.includes(KEY) && !text.includes(TOKEN), `a secret leaked: ${text.slice(0, 600)}`);
  };

  test('a 502 at a URL with ?api_key=: stderr says so with the key masked; the recording holds no key', async () => {
    const record = join(dir, 'remote.jsonl');
    const r = await runCli(['call', 'lookup', '--args', '{"word":"tide"}', '--record', record, '--url', `${peer.url}?api_key=${KEY}`]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /HTTP 502/);
    assert.match(r.stderr, /api_key=••••/);
    assertNoSecret([r.stdout, r.stderr, readFileSync(record, 'utf8')]);
  });

  test('a config server that prints its token on stderr and crashes: neither output nor the recording carries it', async () => {
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ servers: { crashy: { command: process.execPath, args: [join(ROOT, 'test/fixtures/servers/leakyCrash.mjs')], env: { API_TOKEN: TOKEN } } } }));
    const record = join(dir, 'crashy.jsonl');
    const r = await runCli(['call', 'lookup', '--args', '{"word":"reef"}', '--record', record, '--config', config, '--server', 'crashy']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /auth failed for token ••••/);
    assertNoSecret([r.stdout, r.stderr, readFileSync(record, 'utf8')]);
  });
});
