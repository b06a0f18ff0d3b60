// The registry with remote servers over real HTTP: server-everything in its streamableHttp and
// sse modes, each started here on a free port of 127.0.0.1. Start, lists, a tool call, stop
// (the session is DELETEd), a server that goes away (error, then restarts with back-off), a
// server that forgets the session (a new session at once, not a crash), and secrets kept out
// of the log.
import assert from 'node:assert/strict';
import { after, afterEach, describe, test } from 'node:test';
import { loopbackRedirect, MemoryTokenStore, OAuthSession } from '../../src/auth';
import { resolveEntry } from '../../src/config/variables';
import { ServerRegistry, ServerStatus } from '../../src/registry/serverRegistry';
import { connectionWord } from '../../src/registry/connectionStatus';
import { transportFactory } from '../../src/transport/transportFactory';
import { HttpPeer, freePort, startEverything, startFixture } from '../transport/httpPeers';
import { disposeRegistries, entries, firstText, makeRegistry, variableContext, waitFor, waitForStatus } from './support';

const peers = new Set<HttpPeer>();
async function peer(mode: 'streamableHttp' | 'sse', port?: number): Promise<HttpPeer> {
  const p = await startEverything(mode, port);
  peers.add(p);
  return p;
}

afterEach(async () => {
  await disposeRegistries();
  await Promise.all([...peers].map((p) => p.close()));
  peers.clear();
});
after(disposeRegistries);

/** Every status kind the server `id` goes through, in order. */
function statusTrail(registry: ServerRegistry, id: string): ServerStatus['kind'][] {
  const trail: ServerStatus['kind'][] = [];
  registry.onDidChange((changed) => {
    if (changed.id === id && trail[trail.length - 1] !== changed.status.kind) trail.push(changed.status.kind);
  });
  return trail;
}

describe('registry: remote servers over HTTP', { timeout: 120_000 }, () => {
  test('streamable HTTP: starts, lists, calls a tool; stop ends the session with DELETE; the secret header never reaches the log', async () => {
    const everything = await peer('streamableHttp');
    const { registry, logs, logsOf } = makeRegistry();
    const list = entries(
      { everything: { type: 'http', url: everything.url, headers: { Authorization: 'Bearer ${input:token}', 'X-Client': 'registry-test' } } },
      [{ id: 'token', type: 'promptString', password: true }],
    );
    const trail = statusTrail(registry, list[0].id);
    const ctx = variableContext({ token: 'sekrit-token-4242' });
    await registry.update(list, (entry) => resolveEntry(entry, ctx));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    assert.equal(h.resolved?.type, 'http');
    assert.deepEqual(h.resolved?.type === 'http' && h.resolved.secretHeaderNames, ['Authorization']);
    assert.equal(h.pid, undefined, 'no process of ours');
    assert.ok(h.tools?.some((t) => t.name === 'echo'), 'tools listed');
    assert.ok(h.resources && h.resources.length > 0, 'resources listed');
    assert.ok(h.prompts?.some((p) => p.name === 'simple-prompt'), 'prompts listed');
    assert.equal(firstText(await h.client!.callTool('echo', { message: 'over http' })), 'Echo: over http');
    const http = h.client!.stats()?.http;
    assert.equal(http?.transport, 'streamable-http');
    assert.ok(http?.sessionId, 'a session id');
    assert.ok(logsOf(h.id).includes(`starting: HTTP ${everything.url}`), logsOf(h.id).join('\n'));
    assert.ok(logsOf(h.id).some((l) => l.startsWith('initialized: ')));

    await registry.stop(h.id);
    assert.equal(h.status.kind, 'stopped');
    assert.deepEqual(trail.slice(-2), ['stopping', 'stopped'], trail.join(' → '));
    await waitFor(() => everything.output.some((l) => l.includes(`Received session termination request for session ${http!.sessionId}`)), 5000, 'the DELETE to reach the server');
    assert.ok(!logs.some((l) => l.text.includes('sekrit-token-4242')), logs.map((l) => l.text).join('\n'));
  });

  test('legacy HTTP+SSE: an sse entry starts and lists', async () => {
    const everything = await peer('sse');
    const { registry } = makeRegistry();
    const list = entries({ legacy: { type: 'sse', url: everything.url } });
    await registry.update(list, (entry) => resolveEntry(entry, variableContext()));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    assert.equal(h.client!.stats()?.http?.transport, 'sse');
    assert.ok(h.tools?.some((t) => t.name === 'echo'));
  });

  test('nothing listening: the start fails with an error naming the URL', async () => {
    const port = await freePort();
    const { registry } = makeRegistry();
    const list = entries({ nowhere: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } });
    await registry.update(list, (entry) => resolveEntry(entry, variableContext()));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'error');
    assert.match(h.status.kind === 'error' ? h.status.message : '', new RegExp(`127\\.0\\.0\\.1:${port}`));
  });

  test('a server that goes away: error with a restart scheduled, back-off, running again once it is back', async () => {
    const first = await peer('streamableHttp');
    const port = Number(new URL(first.url).port);
    const { registry, logsOf } = makeRegistry({ restart: { maxRestarts: 5, windowMinutes: 3, backoffMs: 300 } });
    const list = entries({ flaky: { type: 'http', url: first.url } });
    await registry.update(list, (entry) => resolveEntry(entry, variableContext()));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running');

    await first.close();
    peers.delete(first);
    // Nothing tells a client that an HTTP server is gone until it talks to it: a refresh does.
    void h.refresh();
    await waitForStatus(h, 'error', (x) => x.status.kind === 'error' && x.status.restart !== undefined, 20_000);
    assert.ok(h.restarts >= 1);
    assert.ok(logsOf(h.id).some((l) => /^restarting in \d+ ms/.test(l)), logsOf(h.id).join('\n'));

    await peer('streamableHttp', port);
    await waitForStatus(h, 'running', (x) => x.tools?.some((t) => t.name === 'echo') === true, 30_000);
  });

  test('a server that goes away is seen without any call: "reconnecting" with the reason at once, not "running"', async () => {
    const first = await peer('streamableHttp');
    const { registry, logsOf } = makeRegistry({ restart: { maxRestarts: 5, windowMinutes: 3, backoffMs: 300 } });
    const list = entries({ dying: { type: 'http', url: first.url } });
    await registry.update(list, (entry) => resolveEntry(entry, variableContext()));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running');
    await waitFor(() => logsOf(h.id).some((l) => l === 'GET stream opened'), 10_000, 'the GET stream');

    await first.close();
    peers.delete(first);
    // No refresh, no call: the GET stream's reconnect is refused and the transport says so.
    await waitForStatus(h, 'error', (x) => x.status.kind === 'error' && x.status.reconnecting === true, 20_000);
    const status = h.status as ServerStatus;
    assert.equal(status.kind === 'error' && connectionWord(status), 'reconnecting…');
    assert.match(status.kind === 'error' ? status.message : '', /connection closed unexpectedly: the server could not be reached at http:\/\/127\.0\.0\.1:\d+\/mcp: connection refused/);
    assert.ok(status.kind === 'error' && status.restart, 'a reconnect is scheduled');
  });

  test('a server that forgets the session (404): a new session at once, logged, not counted as a crash', async () => {
    // The SDK fixture answers 404 for an unknown session, as the specification says (server-everything answers 400).
    const fixture = await startFixture('sdkServer.mjs');
    peers.add(fixture);
    const { registry, logsOf } = makeRegistry();
    const list = entries({ forgetful: { type: 'http', url: fixture.url } });
    await registry.update(list, (entry) => resolveEntry(entry, variableContext()));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    const oldSession = h.client!.stats()?.http?.sessionId;
    assert.ok(oldSession);

    const expired = await fetch(new URL('/control/expire', fixture.url), { method: 'POST' });
    assert.equal(expired.ok, true);
    void h.refresh();
    const newSession = () => {
      const id = h.status.kind === 'running' ? h.client?.stats()?.http?.sessionId : undefined;
      return id !== undefined && id !== oldSession && h.tools !== undefined && id;
    };
    await waitFor(newSession, 20_000, 'a new session').catch((e: Error) => {
      throw new Error(`${e.message}\n${logsOf(h.id).join('\n')}`);
    });
    assert.ok(logsOf(h.id).some((l) => /ended the session \(HTTP 404 at .*\): starting a new session/.test(l)), logsOf(h.id).join('\n'));
    assert.equal(h.restarts, 0, 'not a crash');
    assert.ok(h.tools?.some((t) => t.name === 'echo'));
  });

  test('a modern-only server (SDK 2.x): the era is found without configuration; tools with invalid x-mcp-header are dropped with a log line naming each and why', async () => {
    const fixture = await startFixture('modernHttpServer.mjs');
    peers.add(fixture);
    const { registry, logsOf } = makeRegistry();
    const list = entries({ modern: { type: 'http', url: fixture.url } });
    await registry.update(list, (entry) => resolveEntry(entry, variableContext({})));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    await waitFor(() => h.tools, 10_000, 'the tools list');
    assert.deepEqual(h.tools!.map((t) => t.name).sort(), ['echo', 'route']);
    const line = logsOf(h.id).find((l) => l.startsWith('skipped 2 malformed tools: '));
    assert.ok(line, logsOf(h.id).join('\n'));
    assert.match(line, /tools\[2\]: invalid x-mcp-header: .*not "number" \("bad_number"\); tools\[3\]: invalid x-mcp-header: .*list\.<items>.* \("bad_nested"\)/);
    assert.equal(firstText(await h.client!.callTool('route', { region: 'eu-north', note: 'Grüße' })).startsWith('routed '), true);
  });
});

describe('registry: a remote server that asks for authorization', { timeout: 60_000 }, () => {
  test('a 401 mid-session that no refresh can answer ends in error without restarts: restarting cannot sign in', async () => {
    const fixture = await startFixture('authServer.mjs');
    peers.add(fixture);
    const session = new OAuthSession({
      serverUrl: fixture.url,
      store: new MemoryTokenStore(),
      redirect: loopbackRedirect({ timeoutMs: 10_000 }),
      // The fixture approves at once and redirects to the loopback listener.
      userAgent: async (url) => void (await fetch((await fetch(url, { redirect: 'manual' })).headers.get('location')!)),
    });
    const { registry, logs, logsOf } = makeRegistry({ createTransport: transportFactory({ auth: () => session }) });
    const list = entries({ guarded: { type: 'http', url: fixture.url } });
    await registry.update(list, (entry) => resolveEntry(entry, variableContext({})));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'error', 'no sign-in without the user');
    assert.match(h.status.kind === 'error' ? h.status.message : '', /requires authorization \(HTTP 401/);
    await session.signIn();
    await registry.start(h.id);
    assert.equal(h.status.kind, 'running');

    const trail = statusTrail(registry, h.id);
    await fetch(new URL('/control/revoke', fixture.url), { method: 'POST' });
    await assert.rejects(h.client!.callTool('echo', { text: 'x' }));
    await waitForStatus(h, 'error');
    await new Promise((r) => setTimeout(r, 300)); // several back-off periods (50 ms)
    const status = h.status as ServerStatus; // read again: the assertions above narrowed it
    assert.equal(status.kind, 'error');
    assert.equal(status.kind === 'error' && status.restart, undefined, 'no restart scheduled');
    assert.equal(h.restarts, 0);
    assert.deepEqual(trail, ['error']);
    // Waiting for a sign-in is not an error: said at info level, never as "failed to start".
    const said = logs.filter((l) => l.id === h.id && /^not started: /.test(l.text));
    assert.ok(said.length > 0 && said.every((l) => l.level === 'info' && /the server requires authorization \(HTTP 401 at .*\); waiting for a sign-in or a credential$/.test(l.text)), JSON.stringify(said));
    assert.ok(!logsOf(h.id).some((l) => /failed to start/.test(l)), logsOf(h.id).join('\n'));
  });
});
