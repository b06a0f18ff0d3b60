// The sign-ins' lazy surface (signInsOnDemand.ts) in front of the real ServerSignIns and the real
// StreamableHttpTransport, against the fixture authorization server: nothing loads while no
// remote server asks, the first request loads the part before it is sent (so a 401 marks the row
// "sign in required"), and a part that fails to load says so in the start's error and loads again
// at the next request.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { McpClient } from '../../../src/client';
import { resolveRemoteServer, type ResolvedRemoteServer } from '../../../src/config/variables';
import type { ServerEntry } from '../../../src/config';
import { SecretTokenStore } from '../../../src/extension/signIn/secretTokenStore';
import { ServerSignIns } from '../../../src/extension/signIn/serverSignIns';
import { SIGN_IN_REASON } from '../../../src/extension/signIn/signInReasons';
import { EditorSignInsOnDemand, type SignInsPart } from '../../../src/extension/signIn/signInsOnDemand';
import { StreamableHttpTransport } from '../../../src/transport/streamableHttp';
import { HttpPeer, startFixture } from '../../transport/httpPeers';

/** VS Code's SecretStorage over a Map, as far as SecretTokenStore uses it. */
function secretStorage(): vscode.SecretStorage {
  const map = new Map<string, string>();
  return {
    get: async (key: string) => map.get(key),
    store: async (key: string, value: string) => void map.set(key, value),
    delete: async (key: string) => void map.delete(key),
    keys: async () => [...map.keys()],
    onDidChange: () => ({ dispose() {} }),
  } as unknown as vscode.SecretStorage;
}

/** The part as EditorSignIns is to the surface, over a real ServerSignIns (no browser: these tests never sign in). */
function partOver(signIns: ServerSignIns): SignInsPart {
  return {
    serverProvider: (id, resolved) => signIns.provider(id, resolved),
    forget: (ids) => ids.forEach((id) => signIns.forget(id)),
    needsSignIn: (id) => signIns.needsSignIn(id),
    signIn: (id) => signIns.signIn(id),
    signOut: async (id) => void (await signIns.signOut(id, 'http://127.0.0.1/')),
    canSignOut: (id) => signIns.state(id) !== undefined,
    signInReason: () => 'the part says why',
    signInState: (id) => {
      const state = signIns.state(id);
      return state && { ...state, required: signIns.needsSignIn(id) };
    },
  };
}

const peers: HttpPeer[] = [];
const clients: McpClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  for (const p of peers.splice(0)) await p.close();
});

async function setUp(load: () => Promise<void> = async () => {}) {
  const peer = await startFixture('authServer.mjs', []);
  peers.push(peer);
  const changes: string[] = [];
  let loads = 0;
  const signIns = new EditorSignInsOnDemand(async () => {
    loads++;
    await load();
    return partOver(
      new ServerSignIns({
        store: new SecretTokenStore(secretStorage()),
        redirect: () => () => Promise.reject(new Error('no sign-in in these tests')),
        userAgent: () => Promise.reject(new Error('no browser in these tests')),
        confirmStepUp: async () => false,
        log: () => {},
        changed: (id) => changes.push(id),
      }),
    );
  });
  const resolved = await resolveRemoteServer({ type: 'http', url: peer.url }, { workspaceFolder: undefined, folders: {}, userHome: '/home/u', env: {}, resolveInput: async () => '' });
  const entry = { id: 'srv' } as ServerEntry;
  const connect = async () => {
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    clients.push(client);
    await client.connect(new StreamableHttpTransport({ url: peer.url, auth: signIns.provider(resolved, entry) }));
  };
  return { signIns, resolved, entry, changes, connect, loads: () => loads };
}

describe('EditorSignInsOnDemand', () => {
  test('nothing loads until a remote server asks: the tree is told no server waits for or holds a sign-in; a configured Authorization header gets no provider', async () => {
    const t = await setUp();
    const provider = t.signIns.provider(t.resolved, t.entry);
    assert.ok(provider, 'a remote server without its own Authorization header gets a provider');
    const withHeader: ResolvedRemoteServer = { ...t.resolved, headers: { Authorization: 'Bearer x' } };
    assert.equal(t.signIns.provider(withHeader, t.entry), undefined);
    assert.equal(t.signIns.provider(t.resolved, undefined), undefined);
    t.signIns.forget(['srv']);
    assert.equal(t.signIns.needsSignIn('srv'), false);
    assert.equal(t.signIns.canSignOut('srv'), false);
    assert.equal(t.signIns.signInState('srv'), undefined);
    assert.equal(t.signIns.signInReason('srv'), SIGN_IN_REASON);
    assert.equal(t.loads(), 0, 'making a provider loads nothing');
  });

  test("a remote server's first request loads the part once, before it is sent: the 401 marks the server \"sign in required\"", async () => {
    const t = await setUp();
    await assert.rejects(Promise.all([t.connect(), t.connect()]));
    assert.equal(t.loads(), 1);
    assert.equal(t.signIns.needsSignIn('srv'), true);
    assert.deepEqual(t.changes, ['srv'], 'the tree was told');
    assert.equal(t.signIns.signInReason('srv'), 'the part says why');
    assert.equal(t.signIns.signInState('srv')?.required, true);
  });

  test('a part that fails to load fails the request with an error that says so, and the next request loads it again', async () => {
    let fail = true;
    const t = await setUp(async () => {
      if (fail) throw new Error("Cannot find module './chunk-TEST.js'");
    });
    await assert.rejects(t.connect(), /the sign-ins of MCP Host could not be loaded: Cannot find module '\.\/chunk-TEST\.js'/);
    await assert.rejects(t.signIns.signIn('srv'), /the sign-ins of MCP Host could not be loaded/);
    assert.equal(t.signIns.needsSignIn('srv'), false);
    fail = false;
    await assert.rejects(t.connect());
    assert.equal(t.loads(), 3);
    assert.equal(t.signIns.needsSignIn('srv'), true, 'loaded at the next request');
  });
});
