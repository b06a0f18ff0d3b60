// A gateway client that is asked something by the server (an elicitation relayed to it) and never
// answers, or goes away meanwhile, holds only its own call: MCP Host's other requests on the
// shared connection keep their timeouts, the relayed request ends after the request timeout, a
// client whose stream closes has its call cancelled upstream, and its session then expires as an
// idle one. Driven as an attacker would: a second client on the official SDK 1.x client that
// declares elicitation and never answers; server-everything over stdio upstream.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { McpLocalError } from '../../src/protocol/errors';
import { StdioTransport } from '../../src/transport/stdio';
import { EVERYTHING, WireRecorder, waitFor } from '../client/support';
import { TestGateway, openGateway, sdkClient } from './support';

type SdkClient = Awaited<ReturnType<typeof sdkClient>>;

/** MCP Host's request timeout on the shared connection (the relayed request's bound too). */
const REQUEST_TIMEOUT_MS = 2500;
const IDLE_MS = 400;

describe('a gateway client that never answers the server holds only its own call', () => {
  let upstream: McpClient;
  let wire: WireRecorder;
  let gw: TestGateway;
  const clients: SdkClient[] = [];

  /** A client that declares elicitation and leaves every elicitation unanswered. */
  async function silentClient(name: string): Promise<SdkClient> {
    const types = await import('@modelcontextprotocol/sdk/types.js');
    const client = await sdkClient(gw.endpoint('everything'), name, { elicitation: {} });
    client.setRequestHandler(types.ElicitRequestSchema, () => new Promise<never>(() => {}));
    clients.push(client);
    return client;
  }

  /** Starts the elicitation tool as `client`; resolves once the server's elicitation/create reached MCP Host. */
  async function startHeldCall(client: SdkClient): Promise<{ call: Promise<unknown>; elicitationId: unknown; callId: unknown }> {
    const seen = wire.received('elicitation/create').length;
    const calls = wire.sent('tools/call').length;
    const call = client.callTool({ name: 'trigger-elicitation-request', arguments: {} }, undefined, { timeout: 60_000 }).catch((error: unknown) => error);
    const elicitation = await waitFor(() => wire.received('elicitation/create')[seen], 10_000, "the server's elicitation/create");
    const callId = wire.sent('tools/call')[calls]?.id;
    return { call, elicitationId: elicitation.id, callId };
  }

  before(async () => {
    upstream = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, requestTimeoutMs: REQUEST_TIMEOUT_MS, capabilities: { elicitation: { form: {} } } });
    wire = new WireRecorder(upstream);
    await upstream.connect(new StdioTransport({ command: process.execPath, args: EVERYTHING, closeGraceMs: 500, termGraceMs: 500 }));
    assert.equal(upstream.era, 'legacy');
    // server-everything asks for roots on its own after initialization; let that pass first.
    await new Promise((r) => setTimeout(r, 500));
    gw = await openGateway({ everything: { name: 'Everything', client: upstream } }, { sessionIdleMs: IDLE_MS });
  });

  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await gw?.close();
    await upstream?.close();
  });

  test("MCP Host's own call times out on time while another client's elicitation waits", async () => {
    const mallory = await silentClient('mallory');
    const held = await startHeldCall(mallory);
    const started = Date.now();
    const own = upstream.callTool('trigger-long-running-operation', { duration: 6, steps: 3 }, { timeoutMs: 800 });
    await assert.rejects(own, (error: unknown) => McpLocalError.is(error, 'timeout'));
    const took = Date.now() - started;
    assert.ok(took < 2400, `the own call's 800 ms timeout ran out after ${took} ms`);
    await held.call;
  });

  test('the relayed request ends after the request timeout: the server gets an error answer', async () => {
    const mallory = await silentClient('mallory-2');
    const started = Date.now();
    const held = await startHeldCall(mallory);
    const answer = await waitFor(() => wire.sent().find((m) => m.id === held.elicitationId && !m.method), REQUEST_TIMEOUT_MS + 5000, 'the answer to the elicitation');
    assert.ok(answer.error, `the server was answered ${JSON.stringify(answer)}`);
    assert.match(answer.error.message, /did not answer within 2500 ms/);
    assert.ok(Date.now() - started < REQUEST_TIMEOUT_MS + 3000);
    await held.call;
  });

  test('a client that goes away while asked: its call is cancelled upstream at once, and its session expires as idle', async () => {
    const mallory = await silentClient('mallory-gone');
    const held = await startHeldCall(mallory);
    const started = Date.now();
    // Its fetches aborted, no DELETE: the way a killed process leaves.
    await mallory.transport!.close();
    const cancelled = await waitFor(() => wire.sent('notifications/cancelled').find((m) => m.params.requestId === held.callId), REQUEST_TIMEOUT_MS + 5000, 'notifications/cancelled for the call');
    assert.ok(Date.now() - started < REQUEST_TIMEOUT_MS, `cancelled only after ${Date.now() - started} ms`);
    assert.match(cancelled.params.reason, /mallory-gone went away/);
    await waitFor(() => gw.logs.some((l) => l.includes('mallory-gone disconnected') && /session expired/.test(l)), 5000, "the session's expiry");
  });
});
