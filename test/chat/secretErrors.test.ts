// Secrets in error texts (issue 32, F2): a user's server at `…/mcp?api_key=sk_live_…` that answers
// 502, and a stdio server that prints its token on stderr and crashes. Run as the editor runs
// them (the registry, with its per-server redaction) and driven by @mcp's loop with this test's
// scripted model, then relayed through the gateway to the official SDK client: the secret is in
// no text the model reads, the chat shows, the history keeps, the logs hold or a gateway client gets.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SessionGrants } from '../../src/chat/approval';
import { ChatLoopPorts, ChatMessage, ModelOutput, runChatLoop } from '../../src/chat/chatLoop';
import { buildToolCatalog } from '../../src/chat/toolCatalog';
import { resolveEntry } from '../../src/config/variables';
import { McpGateway } from '../../src/gateway';
import { CallHistory } from '../../src/usecases/history';
import { runSavedTest } from '../../src/usecases/savedTestRunner';
import { parseSavedTests } from '../../src/usecases/savedTests';
import { HttpPeer, startFixture } from '../transport/httpPeers';
import { sdkClient } from '../gateway/support';
import { NODE, disposeRegistries, entries, makeRegistry, sharedFixture, variableContext } from '../registry/support';

const KEY = `sk_live_${randomBytes(8).toString('hex')}`;
const TOKEN = `tok_${randomBytes(8).toString('hex')}`;

describe('secrets in error texts never leave MCP Host (issue 32, F2)', { timeout: 60_000 }, () => {
  let peer: HttpPeer;
  let registry: ReturnType<typeof makeRegistry>['registry'];
  let logs: ReturnType<typeof makeRegistry>['logs'];
  const ids: Record<'remote' | 'crashy', string> = { remote: '', crashy: '' };

  before(async () => {
    peer = await startFixture('badGateway.mjs');
    ({ registry, logs } = makeRegistry({ restart: { maxRestarts: 0, windowMinutes: 3, backoffMs: 50 } }));
    const list = entries({
      remote: { type: 'http', url: `${peer.url}?api_key=${KEY}` },
      crashy: { command: NODE, args: [sharedFixture('leakyCrash.mjs')], env: { API_TOKEN: TOKEN } },
    });
    await registry.update(list, (entry) => resolveEntry(entry, variableContext()));
    for (const e of list) ids[e.name as 'remote' | 'crashy'] = e.id;
    for (const id of Object.values(ids)) await registry.get(id)!.whenReady();
  });

  after(async () => {
    await disposeRegistries();
    await peer?.close();
  });

  /** Every tool of both servers as @mcp offers them. */
  const catalog = (loaded: ReadonlySet<string>) =>
    buildToolCatalog({
      tools: Object.entries(ids).flatMap(([name, id]) => (registry.get(id)!.tools ?? []).map((tool) => ({ serverId: id, serverName: name, tool }))),
      isServerEnabled: () => true,
      isToolEnabled: () => true,
      budget: { maxTools: 128, maxTokens: 1e9 },
      loaded,
    });

  test('@mcp: the model’s input, the chat’s text, the history and the logs carry neither the key nor the token', async () => {
    const history = new CallHistory();
    const shown: string[] = [];
    const modelInputs: string[] = [];
    // The scripted model calls both tools, then echoes back what it was told (as the model did in the review).
    const turns: ((messages: readonly ChatMessage[]) => ModelOutput[])[] = [
      () => [
        { kind: 'call', callId: 'c1', name: 'remote_lookup', input: { word: 'tide' } },
        { kind: 'call', callId: 'c2', name: 'crashy_lookup', input: { word: 'reef' } },
      ],
      (messages) => [{ kind: 'text', text: `I was told: ${JSON.stringify(messages.at(-1))}` }],
    ];
    let turn = 0;
    const ports: ChatLoopPorts = {
      async *send(messages) {
        modelInputs.push(JSON.stringify(messages));
        for (const part of turns[Math.min(turn++, turns.length - 1)](messages)) yield part;
      },
      catalog,
      approve: async () => 'once',
      approvalSettings: () => ({ serverTrusted: false, autoApproveReadOnly: false }),
      pinChanges: () => undefined,
      pinApproved: () => {},
      // What the editor's chat gives the use case: the server's client, the history, the logs' redaction.
      callPorts: (tool) => ({ client: () => registry.get(tool.serverId)!.whenReady(), record: (e) => history.add(e), redact: (text) => registry.redact(text) }),
      onText: (text) => shown.push(text),
      onCallEnd: (report) => shown.push(`${report.tool.tool.name}: ${report.summary}`),
    };
    const end = await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'look up tide and reef' }] }], ports, { maxRounds: 3, acceptsImages: false, grants: new SessionGrants() });
    assert.equal(end.kind, 'answered');
    const told = modelInputs.at(-1)!;
    // The failures did reach the model and the chat, so the test would see a leak.
    assert.match(told, /answered HTTP 502/);
    assert.match(told, /api_key=••••/);
    assert.match(told, /auth failed for token ••••/);
    const texts = [...modelInputs, ...shown, JSON.stringify(history.toJSON()), ...logs.map((l) => l.text)];
    for (const text of texts) {
      assert.ok(!text.includes(KEY), `the key leaked: ${text.slice(0, 400)}`);
      assert.ok(!text.includes(TOKEN), `the token leaked: ${text.slice(0, 400)}`);
    }
  });

  test('the gateway: the SDK client’s JSON-RPC error answer carries neither the key nor the token', async () => {
    // The crashed server is started again for its share (its last start failed the call).
    await registry.start(ids.crashy);
    const gateway = new McpGateway({
      servers: () => Object.entries(ids).map(([key, id]) => ({ key, name: key, acquire: () => registry.get(id)!.whenReady() })),
      log: () => {},
      redact: (text) => registry.redact(text),
    });
    await gateway.start();
    try {
      for (const key of ['remote', 'crashy'] as const) {
        const client = await sdkClient(gateway.endpoint({ key, name: key }));
        try {
          const error = await client.callTool({ name: 'lookup', arguments: { word: 'tide' } }).then(
            () => assert.fail('the call should fail'),
            (e: unknown) => e as Error & { code?: number; data?: unknown },
          );
          const text = `${error.message} ${JSON.stringify(error.data ?? null)}`;
          assert.match(text, key === 'remote' ? /502/ : /auth failed for token ••••/);
          assert.ok(!text.includes(KEY) && !text.includes(TOKEN), text);
        } finally {
          await client.close();
        }
      }
    } finally {
      await gateway.close();
    }
  });

  test('a saved test of each tool: its result, the history and the logs carry neither the key nor the token', async () => {
    await registry.start(ids.crashy);
    const history = new CallHistory();
    const file = parseSavedTests(JSON.stringify({ tests: Object.keys(ids).map((server) => ({ name: `lookup on ${server}`, server, tool: 'lookup', arguments: { word: 'tide' } })) }), 'mcp-tests.json');
    for (const test of file.tests) {
      const id = ids[test.server as 'remote' | 'crashy'];
      const result = await runSavedTest(test, { origin: 'this test', client: () => registry.get(id)!.whenReady(), record: (e) => history.add(e), redact: (text) => registry.redact(text) });
      assert.equal(result.outcome, 'error', JSON.stringify(result));
      assert.match(result.error ?? '', test.server === 'remote' ? /502/ : /auth failed for token ••••/);
      for (const text of [JSON.stringify(result), JSON.stringify(history.toJSON()), ...logs.map((l) => l.text)]) assert.ok(!text.includes(KEY) && !text.includes(TOKEN), text);
    }
  });
});
