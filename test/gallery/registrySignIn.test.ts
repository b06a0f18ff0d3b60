// A private registry behind OAuth: the registry fixture's /oauth registry is a protected resource
// (RFC 9728) of a real authorization server (the sign-in tests' authServer.mjs, on the official
// SDK's auth router). The registry client goes 401 → the servers' sign-in machinery (discovery,
// dynamic client registration, PKCE, the loopback redirect; tokens in a SecretTokenStore) → the
// list works, also from a later client; no token reaches a log line or an error.
import { vscode as double } from '../support/vscode/vscodeModule';
import { after, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopbackRedirect } from '../../src/auth';
import { RegistryClient, RegistryError } from '../../src/gallery/registryClient';
import { RegistrySignIns, registryClients } from '../../src/extension/gallery/registryAuth';
import { checkRegistryUpdates } from '../../src/extension/gallery/registryUpdates';
import { registrySourceFields } from '../../src/config/registrySource';
import { SecretTokenStore } from '../../src/extension/signIn/secretTokenStore';
import { freePort, HttpPeer, startFixture } from '../transport/httpPeers';
import { RegistryFixture, startRegistryFixture } from './registryFixture';

let registry: RegistryFixture;
let authorizationServer: HttpPeer;
let issuer: string;
before(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  registry = await startRegistryFixture({ authorizationServer: issuer });
  authorizationServer = await startFixture('authServer.mjs', ['--resource', `${registry.url}/oauth`], port);
});
after(async () => {
  await registry.close();
  await authorizationServer.close();
});

/** VS Code's SecretStorage, in memory. */
function memorySecrets(): vscode.SecretStorage & { readonly values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
    keys: async () => [...values.keys()],
    onDidChange: () => ({ dispose() {} }),
  } as unknown as vscode.SecretStorage & { readonly values: Map<string, string> };
}

suite('gallery: a private registry behind OAuth', () => {
  test('401 → sign-in through the server sign-in code → the list works; the token is in SecretStorage only', async () => {
    const url = `${registry.url}/oauth`;
    const logs: string[] = [];
    const opened: URL[] = [];
    const secrets = memorySecrets();
    const signIns = new RegistrySignIns({
      store: new SecretTokenStore(secrets),
      redirect: loopbackRedirect({ timeoutMs: 10_000 }),
      // The "browser": the fixture approves at once and redirects to the loopback listener.
      userAgent: async (page) => {
        opened.push(page);
        const approval = await fetch(page, { redirect: 'manual' });
        await fetch(approval.headers.get('location')!);
      },
      log: (level, text) => logs.push(`${level} ${text}`),
    });
    const client = new RegistryClient({ baseUrl: url, auth: signIns.provider(url) });
    const refused = await client.search({}).then(() => undefined, (e: unknown) => e);
    assert.ok(refused instanceof RegistryError, String(refused));
    assert.equal(refused.reason, 'unauthorized');
    assert.equal(refused.signIn, true, 'the 401 points at protected-resource metadata');
    assert.match(refused.message, /answered 401: it needs a sign-in \(a private registry behind OAuth\)/);
    assert.equal(opened.length, 0, 'nothing opens before the user confirms');

    const request = await signIns.request(url);
    assert.equal(new URL(request.issuer).origin, issuer);
    assert.deepEqual(request.scopes, ['mcp']);
    await signIns.signIn(url);
    assert.equal(opened.length, 1);
    assert.equal(opened[0].searchParams.get('resource'), url);
    assert.ok(opened[0].searchParams.get('code_challenge'), 'PKCE');

    const page = await client.search({ search: 'weather' });
    assert.equal(page.servers[0]?.server.name, 'io.github.example/weather-mcp');
    // A later gallery (a new client and provider) finds the stored token without a sign-in.
    const later = await new RegistryClient({ baseUrl: url, auth: signIns.provider(url) }).server('io.github.example/weather-mcp');
    assert.equal(later.server.name, 'io.github.example/weather-mcp');
    assert.equal(opened.length, 1);
    assert.ok(registry.requests.filter((r) => r.prefix === 'oauth' && r.authorized).length >= 2);

    const issued = ((await (await fetch(`${issuer}/control/secrets`)).json()) as { tokens: string[] }).tokens;
    assert.ok(issued.length >= 2);
    const stored = [...secrets.values].filter(([key]) => key.startsWith('mcpHost.oauth:'));
    assert.equal(stored.length, 1, 'one grant, under the registry resource and its issuer');
    assert.ok(stored[0][0].includes(JSON.stringify(url).slice(1, -1)), stored[0][0]);
    for (const token of issued) {
      assert.ok(!logs.some((line) => line.includes(token)), `a token in the log: ${logs.join('\n')}`);
      assert.ok(!refused.message.includes(token));
    }
    assert.ok(issued.some((token) => stored[0][1].includes(token)), 'the token is kept in SecretStorage');
  });

  test('a refused token: the session refreshes it and the request is sent again, without a sign-in', async () => {
    const url = `${registry.url}/oauth`;
    const opened: URL[] = [];
    const signIns = new RegistrySignIns({
      store: new SecretTokenStore(memorySecrets()),
      redirect: loopbackRedirect({ timeoutMs: 10_000 }),
      userAgent: async (page) => {
        opened.push(page);
        await fetch((await fetch(page, { redirect: 'manual' })).headers.get('location')!);
      },
      log: () => {},
    });
    const client = new RegistryClient({ baseUrl: url, auth: signIns.provider(url) });
    await client.search({}).catch(() => undefined);
    await signIns.signIn(url);
    await fetch(`${issuer}/control/expire`, { method: 'POST' });
    const before = ((await (await fetch(`${issuer}/control/stats`)).json()) as { refreshes: number }).refreshes;
    const page = await client.search({ search: 'weather' });
    assert.equal(page.servers.length, 1);
    const afterStats = (await (await fetch(`${issuer}/control/stats`)).json()) as { refreshes: number };
    assert.equal(afterStats.refreshes, before + 1);
    assert.equal(opened.length, 1);
  });

  test('the update check uses the sign-in session (no browser while signed out), and a set bearer token first', async () => {
    const url = `${registry.url}/oauth`;
    const folder = await mkdtemp(join(tmpdir(), 'mcp-host-regupdate-'));
    const opened: URL[] = [];
    try {
      const entry = { command: 'uvx', args: ['weather-mcp'], ...registrySourceFields({ registryUrl: url, name: 'io.github.example/weather-mcp', version: '0.4.0' }) };
      await mkdir(join(folder, '.vscode'));
      await writeFile(join(folder, '.vscode', 'mcp.json'), JSON.stringify({ servers: { weather: entry } }));
      double.workspace.workspaceFolders = [{ uri: double.Uri.file(folder), name: 'ws', index: 0 }];
      const signIns = new RegistrySignIns({
        store: new SecretTokenStore(memorySecrets()),
        redirect: loopbackRedirect({ timeoutMs: 10_000 }),
        userAgent: async (page) => {
          opened.push(page);
          await fetch((await fetch(page, { redirect: 'manual' })).headers.get('location')!);
        },
        log: () => {},
      });
      const noToken = async () => undefined;
      const [signedOut] = await checkRegistryUpdates(registryClients(noToken, signIns));
      assert.equal(signedOut?.check.kind, 'failed', 'signed out: the check fails quietly');
      assert.equal(opened.length, 0, 'an update check never opens the browser');

      await signIns.signIn(url);
      const [signedIn] = await checkRegistryUpdates(registryClients(noToken, signIns));
      assert.deepEqual(signedIn?.check.kind === 'newer' ? signedIn.check.latest : signedIn?.check, '0.5.0', 'signed in: the check reads the registry with the session');
      assert.equal(opened.length, 1);

      // A bearer token the user set goes first (and this one is refused, not replaced by the session).
      const before = registry.requests.length;
      const [bearer] = await checkRegistryUpdates(registryClients(async () => 'not-a-token', signIns));
      assert.equal(bearer?.check.kind, 'failed');
      const sent = registry.requests.slice(before).filter((r) => r.prefix === 'oauth');
      assert.ok(sent.length >= 1 && sent.every((r) => r.authorization === 'Bearer not-a-token'), JSON.stringify(sent));
    } finally {
      double.workspace.workspaceFolders = undefined;
      await rm(folder, { recursive: true, force: true });
    }
  });
});
