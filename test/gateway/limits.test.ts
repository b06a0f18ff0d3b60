// The gateway's limits, against a local process that opens sessions by the thousand and one that
// knocks without the secret: sessions are capped per client name and in all, the oldest idle one
// is closed to make room, a new session is refused (429) only when every session counted is in
// use, and refusals are logged once per window plus one line that counts the rest. Real peers: the
// eras fixture over stdio upstream, raw HTTP as the flood, the official SDK 1.x client as the
// clients in use (each holds its GET stream, so none of its sessions is idle).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { GATEWAY_SECRET_HEADER } from '../../src/gateway';
import { StdioTransport } from '../../src/transport/stdio';
import { fixture, waitFor } from '../client/support';
import { TestGateway, openGateway, sdkClient, send } from './support';

type SdkClient = Awaited<ReturnType<typeof sdkClient>>;

const MAX = 6;
const PER_CLIENT = 3;

const initialize = (name: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } });

describe('gateway limits', () => {
  let upstream: McpClient;
  let gw: TestGateway;
  const clients: SdkClient[] = [];

  /** A raw initialize as `name`: the status, and the session id when one was opened. */
  async function open(name: string): Promise<{ status: number; session?: string; body: string }> {
    const res = await send(gw.endpoint('eras').url, { headers: { ...gw.gateway.headers }, body: initialize(name) });
    return { status: res.status, session: res.headers['mcp-session-id'] as string | undefined, body: res.body };
  }

  const total = () => gw.gateway.sessionCounts().eras ?? 0;

  before(async () => {
    upstream = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    await upstream.connect(new StdioTransport({ command: process.execPath, args: [fixture('eras.mjs')], closeGraceMs: 500, termGraceMs: 500 }));
    gw = await openGateway({ eras: { name: 'Eras', client: upstream } }, { maxSessions: MAX, maxSessionsPerClient: PER_CLIENT, refusalLogWindowMs: 500 });
  });

  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await gw?.close();
    await upstream?.close();
  });

  test('a flood of sessions under one name: each new one closes that client\'s oldest idle session', async () => {
    const sessions: string[] = [];
    for (let i = 0; i < 40; i++) {
      const answer = await open('mallory');
      assert.equal(answer.status, 200, answer.body);
      sessions.push(answer.session!);
    }
    assert.equal(total(), PER_CLIENT);
    assert.ok(gw.logs.some((l) => /mallory disconnected \(mallory has 3 sessions open, the most one client may have: this session, idle the longest, was closed to make room\)/.test(l)));
    // The newest still works; the oldest is gone (404: initialize again).
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    assert.equal((await send(gw.endpoint('eras').url, { headers: { ...gw.gateway.headers, 'mcp-session-id': sessions.at(-1)! }, body: list })).status, 200);
    assert.equal((await send(gw.endpoint('eras').url, { headers: { ...gw.gateway.headers, 'mcp-session-id': sessions[0] }, body: list })).status, 404);
  });

  test('sessions in use are never closed for room: a client at its limit is refused with 429', async () => {
    for (let i = 0; i < PER_CLIENT; i++) clients.push(await sdkClient(gw.endpoint('eras'), 'alice'));
    // Each holds its GET stream once initialized.
    await waitFor(() => clients.length === PER_CLIENT && total() === PER_CLIENT * 2, 5000, "alice's sessions");
    const refused = await open('alice');
    assert.equal(refused.status, 429);
    assert.match(refused.body, /alice has 3 sessions open, the most one client may have, and none of them is idle/);
    for (const client of clients) assert.ok((await client.listTools()).tools.length > 0, 'alice\'s sessions still serve');
  });

  test('at the limit over all clients, the oldest idle session of any client makes room; with none idle, 429', async () => {
    // mallory 3 (idle) + alice 3 (in use) = 6 = MAX.
    assert.equal(total(), MAX);
    assert.equal((await open('eve')).status, 200);
    assert.equal(total(), MAX);
    assert.ok(gw.logs.some((l) => /mallory disconnected \(the gateway has 6 sessions open, the most it serves: this session, idle the longest, was closed to make room\)/.test(l)));
    // Three more clients in use take the places of the idle ones.
    for (let i = 0; i < 3; i++) clients.push(await sdkClient(gw.endpoint('eras'), 'bob'));
    await waitFor(() => gw.logs.some((l) => /eve disconnected/.test(l)), 5000, "eve's idle session closed for room");
    assert.equal(total(), MAX);
    const full = await open('trent');
    assert.equal(full.status, 429);
    assert.match(full.body, /the gateway has 6 sessions open, the most it serves, and none of them is idle/);
    for (const client of clients) assert.ok((await client.listTools()).tools.length > 0, 'the sessions in use still serve');
  });

  test('requests without the secret, by the hundred: one line in full, then lines that count them', async () => {
    // The window the refusals above opened has closed.
    await new Promise((r) => setTimeout(r, 1200));
    const before = gw.logs.length;
    await Promise.all(Array.from({ length: 300 }, () => send(gw.endpoint('eras').url, { headers: { [GATEWAY_SECRET_HEADER]: 'guess' }, body: initialize('knock') })));
    const counted = () =>
      gw.logs
        .slice(before)
        .map((l) => /refused (\d+) more requests? in 1 s \(401 ×(\d+)\)/.exec(l))
        .reduce((sum, m) => sum + (m ? Number(m[2]) : 0), 0);
    await waitFor(() => counted() === 299, 5000, 'summary lines counting 299 refusals');
    const lines = gw.logs.slice(before);
    assert.equal(lines.filter((l) => / 401: /.test(l)).length, 1, lines.join('\n'));
    assert.ok(lines.length <= 6, `${lines.length} lines for 300 refusals:\n${lines.join('\n')}`);
  });
});
