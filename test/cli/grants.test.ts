// mcp-host --url with the grants that need no browser, against a real authorization server
// (test/fixtures/servers/http/grantServer.mjs: jose-checked client assertions, workload tokens
// and DPoP proofs, the official SDK's MCP server behind it). The credentials are the fixture's
// own, written to files and variables here as a user or a CI system would; every run's stdout
// and stderr (with --trace) is searched for each secret, key and token the flow handled.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { HttpPeer, startFixture } from '../transport/httpPeers';
import { CliRun, cliTestHooks, expectUsageErrors, runCli, runCliInProcess } from './cliProcess';

interface Credentials {
  clientId: string;
  clientSecret: string;
  privateKeyPem: string;
  workloadToken: string;
}
interface Stats {
  tokenRequests: { grantType: string; auth: string; dpop: boolean }[];
  mcpSchemes: string[];
}

const get = async <T>(peer: HttpPeer, path: string): Promise<T> => (await (await fetch(new URL(path, peer.url))).json()) as T;

describe('mcp-host --url: grants without a browser', { timeout: 180_000 }, () => {
  const work = cliTestHooks('mcp-host-cli-grants-');
  const peers: HttpPeer[] = [];
  afterEach(async () => {
    await Promise.all(peers.splice(0).map((p) => p.close()));
  });

  async function fixture(...args: string[]): Promise<{ peer: HttpPeer; credentials: Credentials }> {
    const peer = await startFixture('grantServer.mjs', args);
    peers.push(peer);
    return { peer, credentials: await get<Credentials>(peer, '/control/credentials') };
  }

  /** No secret the run handled is in what it printed. */
  async function assertNothingSecret(peer: HttpPeer, run: CliRun, credentials: Credentials): Promise<void> {
    const { tokens } = await get<{ tokens: string[] }>(peer, '/control/secrets');
    assert.ok(tokens.length > 0, 'the fixture issued no token');
    const keyBody = credentials.privateKeyPem.split('\n')[1];
    for (const secret of [...tokens, credentials.clientSecret, keyBody, credentials.workloadToken]) {
      assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), `a secret (${secret.slice(0, 6)}…) was printed:\n${run.stderr}`);
    }
  }

  test('client credentials with a client secret from the environment: no browser, a token, the tool answers', async () => {
    const { peer, credentials } = await fixture('--no-dpop');
    const run = await runCli(['call', 'whoami', '--url', peer.url, '--grant', 'client_credentials', '--client-id', credentials.clientId, '--client-secret-env', 'GRANT_SECRET', '--trace'], { env: { GRANT_SECRET: credentials.clientSecret, BROWSER: 'false' } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /grant-fixture-client by client_credentials/);
    assert.doesNotMatch(run.stderr, /sign in at|authorization page/);
    const stats = await get<Stats>(peer, '/control/stats');
    assert.deepEqual(stats.tokenRequests.map((r) => `${r.grantType} ${r.auth}`), ['client_credentials client_secret_basic']);
    assert.ok(stats.mcpSchemes.every((s) => s === 'Bearer'), stats.mcpSchemes.join());
    await assertNothingSecret(peer, run, credentials);
  });

  test('client credentials with a private key file (private_key_jwt), the token bound to a DPoP key with nonces at both servers', async () => {
    const { peer, credentials } = await fixture('--dpop-nonce');
    const keyFile = join(work, 'client-key.pem');
    writeFileSync(keyFile, credentials.privateKeyPem, { mode: 0o600 });
    const run = await runCli(['call', 'whoami', '--url', peer.url, '--grant', 'client_credentials', '--client-id', credentials.clientId, '--private-key-file', keyFile, '--trace']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /grant-fixture-client by client_credentials \(DPoP\)/);
    const stats = await get<Stats>(peer, '/control/stats');
    // The first token request is refused for want of the nonce, the second carries it.
    assert.deepEqual(stats.tokenRequests.map((r) => `${r.auth} ${r.dpop}`), ['private_key_jwt true', 'private_key_jwt true']);
    assert.ok(stats.mcpSchemes.length > 0 && stats.mcpSchemes.every((s) => s === 'DPoP'), stats.mcpSchemes.join());
    assert.match(run.stderr, /use_dpop_nonce: sent again/);
    await assertNothingSecret(peer, run, credentials);
  });

  test('workload identity: the JWT bearer grant with the token from a file, as CI systems give it', async () => {
    const { peer, credentials } = await fixture();
    const tokenFile = join(work, 'workload-token');
    writeFileSync(tokenFile, `${credentials.workloadToken}\n`, { mode: 0o600 });
    const run = await runCli(['call', 'whoami', '--url', peer.url, '--grant', 'workload_identity', '--workload-token-file', tokenFile, '--trace']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /job-42 by urn:ietf:params:oauth:grant-type:jwt-bearer \(DPoP\)/);
    await assertNothingSecret(peer, run, credentials);
  });

  test('a refused grant is one clear line, without the token, and no retry', async () => {
    const { peer, credentials } = await fixture('--no-dpop');
    const run = await runCli(['tools', '--url', peer.url, '--grant', 'workload_identity', '--workload-token-env', 'CI_TOKEN'], { env: { CI_TOKEN: `${credentials.workloadToken.slice(0, -4)}AAAA` } });
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /invalid_grant/);
    assert.ok(!run.stderr.includes(credentials.workloadToken.slice(0, 40)), run.stderr);
    const stats = await get<Stats>(peer, '/control/stats');
    assert.equal(stats.tokenRequests.length, 1, 'the refused grant was tried again');
  });

  test('the grant flags are checked before anything runs', async () => {
    await expectUsageErrors([
      [['tools', '--url', 'http://127.0.0.1:9/mcp', '--grant', 'password'], /--grant must be one of client_credentials, workload_identity/],
      [['tools', '--url', 'http://127.0.0.1:9/mcp', '--grant', 'client_credentials'], /--grant client_credentials needs --client-id/],
      [['tools', '--url', 'http://127.0.0.1:9/mcp', '--grant', 'client_credentials', '--client-id', 'a'], /needs one of --client-secret-env VAR and --private-key-file FILE/],
      [['tools', '--url', 'http://127.0.0.1:9/mcp', '--grant', 'workload_identity', '--workload-token-file', 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.sig'], /not the key or token itself/],
      [['tools', '--url', 'http://127.0.0.1:9/mcp', '--private-key-file', '/k.pem'], /--private-key-file needs --grant client_credentials/],
      [['tools', '--url', 'http://127.0.0.1:9/mcp', '--dpop', 'maybe'], /--dpop must be one of auto, off, required/],
    ], runCliInProcess);
  });
});
