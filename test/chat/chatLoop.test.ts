// The loop of @mcp without VS Code: a scripted model (this test's, a list of turns) asks for
// tools; calls go through the tool-call use case to a real server-everything.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpClient, Tool } from '../../src/client';
import { SessionGrants } from '../../src/chat/approval';
import { ApprovalRequest, ChatLoopPorts, ChatMessage, DENIED_TEXT, ModelOutput, describeApproval, runChatLoop } from '../../src/chat/chatLoop';
import { FIND_TOOLS, ModelToolDefinition, buildToolCatalog } from '../../src/chat/toolCatalog';
import type { NewHistoryEntry } from '../../src/usecases/history';
import { TaskStore } from '../../src/usecases/taskStore';
import { describeTaskState, taskStateOf } from '../../src/usecases/taskText';
import { EVERYTHING, WireRecorder, connectStdio } from '../client/support';

type Turn = (messages: readonly ChatMessage[], tools: readonly ModelToolDefinition[]) => ModelOutput[];

describe('the @mcp loop (server-everything)', () => {
  let client: McpClient;
  let wire: WireRecorder;
  let tools: Tool[];
  before(async () => {
    ({ client, wire } = await connectStdio(process.execPath, EVERYTHING));
    tools = await client.listTools();
  });
  after(async () => client.close());

  function setup(turns: Turn[], options: { decisions?: ('once' | 'session' | 'deny')[]; maxTools?: number; pinChanged?: boolean } = {}) {
    const seen: string[][] = [];
    const approvals: ApprovalRequest[] = [];
    const history: NewHistoryEntry[] = [];
    const texts: string[] = [];
    const pinned: string[] = [];
    const decisions = [...(options.decisions ?? [])];
    let turn = 0;
    const ports: ChatLoopPorts = {
      async *send(messages, defs) {
        seen.push(defs.map((d) => d.name));
        const script = turns[Math.min(turn++, turns.length - 1)];
        for (const part of script(messages, defs)) yield part;
      },
      catalog: (loaded) => buildToolCatalog({ tools: tools.map((tool) => ({ serverId: 'ev', serverName: 'everything', tool })), isServerEnabled: () => true, isToolEnabled: (_s, t) => t !== 'get-env', budget: { maxTools: options.maxTools ?? 128, maxTokens: 1e9 }, loaded }),
      approve: async (request) => {
        approvals.push(request);
        return decisions.shift() ?? 'deny';
      },
      approvalSettings: () => ({ serverTrusted: false, autoApproveReadOnly: false }),
      pinChanges: () => (options.pinChanged ? [{ field: 'description', before: 'old', after: 'new' }] : undefined),
      pinApproved: (t) => pinned.push(t.modelName),
      callPorts: () => ({ client: () => client, record: (e) => history.push(e) }),
      onText: (t) => texts.push(t),
    };
    return { ports, seen, approvals, history, texts, pinned };
  }
  const lastResultText = (messages: readonly ChatMessage[]) => {
    const last = messages[messages.length - 1];
    return last.parts.flatMap((p) => (p.kind === 'result' ? p.parts.map((q) => (q.kind === 'text' ? q.text : '')) : [])).join('');
  };

  test('echo: approved once, called through the use case (history says chat), answer built from the result', async () => {
    const s = setup(
      [
        () => [{ kind: 'call', callId: 'c1', name: 'everything_echo', input: { message: 'hello chat' } }],
        (messages) => [{ kind: 'text', text: `The tool said: ${lastResultText(messages)}` }],
      ],
      { decisions: ['once'] },
    );
    const before = wire.sent('tools/call').length;
    const end = await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'echo hello chat' }] }], s.ports, { maxRounds: 5, acceptsImages: false, grants: new SessionGrants() });
    assert.deepEqual(end, { kind: 'answered', rounds: 2, calls: 1 });
    assert.equal(s.texts.join(''), 'The tool said: Echo: hello chat');
    assert.equal(s.approvals.length, 1);
    assert.match(describeApproval(s.approvals[0]), /\*\*everything\*\* wants to run \*\*echo\*\*[\s\S]*"message": "hello chat"/);
    assert.equal(wire.sent('tools/call').length, before + 1);
    assert.equal(s.history[0].name, 'echo');
    assert.equal(s.history[0].outcome, 'ok');
    assert.deepEqual(s.pinned, ['everything_echo']);
    assert.ok(!s.seen[0].includes('everything_get-env'), 'a disabled tool is never offered');
  });

  test('a request an app view wrote: three calls of a granted tool of a trusted server each ask; denied, none is sent', async () => {
    const s = setup([() => [1, 2, 3].map((i) => ({ kind: 'call' as const, callId: `c${i}`, name: 'everything_echo', input: { message: `steal ${i}` } })), () => [{ kind: 'text', text: 'done' }]]);
    const ports: ChatLoopPorts = { ...s.ports, approvalSettings: () => ({ serverTrusted: true, autoApproveReadOnly: true }) };
    const grants = new SessionGrants();
    grants.grant('ev', 'echo');
    const sent = wire.sent('tools/call').length;
    await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], ports, { maxRounds: 3, acceptsImages: false, grants, writtenByApp: 'the app of show-widget (widget)' });
    assert.equal(s.approvals.length, 3);
    for (const a of s.approvals) assert.match(a.reason, /written by the app of show-widget/);
    assert.equal(wire.sent('tools/call').length, sent, 'nothing ran');
  });

  test('deny: nothing is sent, the model reads a refusal; a disabled tool called anyway is refused', async () => {
    const s = setup([() => [{ kind: 'call', callId: 'c1', name: 'everything_echo', input: { message: 'x' } }, { kind: 'call', callId: 'c2', name: 'everything_get-env', input: {} }], (m) => [{ kind: 'text', text: lastResultText(m) }]], { decisions: ['deny'] });
    const before = wire.sent('tools/call').length;
    await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], s.ports, { maxRounds: 5, acceptsImages: false, grants: new SessionGrants() });
    assert.equal(wire.sent('tools/call').length, before);
    assert.equal(s.texts.join(''), DENIED_TEXT + 'There is no tool named everything_get-env.');
  });

  test('allow for the session: the second call does not ask; a changed pin asks again with the diff', async () => {
    const grants = new SessionGrants();
    const call = (): ModelOutput[] => [{ kind: 'call', callId: 'c', name: 'everything_echo', input: { message: 'a' } }];
    const s = setup([call, call, () => [{ kind: 'text', text: 'done' }]], { decisions: ['session'] });
    await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], s.ports, { maxRounds: 5, acceptsImages: false, grants });
    assert.equal(s.approvals.length, 1);
    assert.equal(s.history.length, 2);
    const changed = setup([call, () => [{ kind: 'text', text: 'done' }]], { decisions: ['once'], pinChanged: true });
    await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], changed.ports, { maxRounds: 5, acceptsImages: false, grants });
    assert.equal(changed.approvals.length, 1);
    assert.match(describeApproval(changed.approvals[0]), /Changed since you approved it:\n```diff\ndescription:\n- old\n\+ new/);
  });

  test('images: a model that takes them gets the PNG bytes of get-tiny-image as data; another gets a description', async () => {
    const received: ChatMessage[][] = [];
    const call = (): ModelOutput[] => [{ kind: 'call', callId: 'i', name: 'everything_get-tiny-image', input: {} }];
    const keep = (messages: readonly ChatMessage[]): ModelOutput[] => (received.push([...messages]), [{ kind: 'text', text: 'seen' }]);
    const taking = setup([call, keep], { decisions: ['once'] });
    await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], taking.ports, { maxRounds: 5, acceptsImages: true, grants: new SessionGrants() });
    const not = setup([call, keep], { decisions: ['once'] });
    await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], not.ports, { maxRounds: 5, acceptsImages: false, grants: new SessionGrants() });
    const resultParts = (messages: ChatMessage[]) => messages.at(-1)!.parts.flatMap((p) => (p.kind === 'result' ? p.parts : []));
    const image = resultParts(received[0]).find((p) => p.kind === 'data');
    assert.ok(image?.kind === 'data', 'the image goes as data');
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual([...image.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
    const described = resultParts(received[1]);
    assert.ok(described.every((p) => p.kind === 'text'));
    assert.ok(described.some((p) => p.kind === 'text' && /^\[image: image\/png, [\d.]+ (B|KiB); this model does not take images\]$/.test(p.text)), JSON.stringify(described));
  });

  test('the round limit ends a model that keeps calling', async () => {
    const s = setup([() => [{ kind: 'call', callId: 'c', name: 'everything_get-sum', input: { a: 1, b: 2 } }]], { decisions: ['session'] });
    const end = await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], s.ports, { maxRounds: 3, acceptsImages: false, grants: new SessionGrants() });
    assert.deepEqual(end, { kind: 'round-limit', rounds: 3, calls: 3 });
  });

  test('cancelling the request cancels the call in flight with notifications/cancelled', async () => {
    const abort = new AbortController();
    const s = setup([() => [{ kind: 'call', callId: 'c', name: 'everything_trigger-long-running-operation', input: { duration: 30, steps: 30 } }], () => [{ kind: 'text', text: 'after' }]], { decisions: ['once'] });
    s.ports.onCallStart = () => setTimeout(() => abort.abort(), 300);
    const end = await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], s.ports, { maxRounds: 5, acceptsImages: false, grants: new SessionGrants(), signal: abort.signal });
    assert.equal(end.kind, 'cancelled');
    assert.equal(s.history[0].outcome, 'cancelled');
    const call = wire.sent('tools/call').at(-1) as { id: number };
    assert.ok(wire.sent('notifications/cancelled').some((n) => (n as { params: { requestId: number } }).params.requestId === call.id));
  });

  test('a task tool: its status reaches the response while it runs, and the chat’s cancel cancels the task (tasks/cancel)', { timeout: 30_000 }, async () => {
    const abort = new AbortController();
    const s = setup([() => [{ kind: 'call', callId: 't', name: 'everything_simulate-research-query', input: { topic: 'tides' } }], () => [{ kind: 'text', text: 'after' }]], { decisions: ['once'] });
    const shown: string[] = [];
    const store = new TaskStore();
    s.ports.callPorts = () => ({
      client: () => client,
      record: (e) => s.history.push(e),
      tasks: store,
      // As the chat handler shows it: one progress line per change.
      onTaskStatus: (u) => {
        shown.push(describeTaskState(taskStateOf(u)));
        if (u.task.statusMessage?.startsWith('Analyzing')) abort.abort();
      },
    });
    const end = await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'research tides' }] }], s.ports, { maxRounds: 5, acceptsImages: false, grants: new SessionGrants(), signal: abort.signal });
    assert.equal(end.kind, 'cancelled');
    assert.match(shown[0], /^working · /);
    assert.ok(shown.some((line) => /Gathering sources/.test(line)), JSON.stringify(shown));
    const [task] = store.list('ev');
    assert.equal(task.status, 'cancelled');
    assert.equal(task.origin, 'chat (@mcp)');
    assert.ok(wire.sent('tasks/cancel').some((m) => (m as { params: { taskId: string } }).params.taskId === task.taskId), 'tasks/cancel was sent');
    assert.deepEqual(s.history.at(-1)!.task, { id: task.taskId, status: 'cancelled' });
  });

  test('over the budget: find_tools loads the right tool, which is offered and called next', async () => {
    const s = setup(
      [
        () => [{ kind: 'call', callId: 'f', name: FIND_TOOLS, input: { query: 'add two numbers', limit: 2 } }],
        (messages, defs) => {
          assert.match(lastResultText(messages), /everything_get-sum/);
          assert.ok(defs.some((d) => d.name === 'everything_get-sum'));
          return [{ kind: 'call', callId: 'c', name: 'everything_get-sum', input: { a: 20, b: 22 } }];
        },
        (messages) => [{ kind: 'text', text: lastResultText(messages) }],
      ],
      { decisions: ['once'], maxTools: 3 },
    );
    await runChatLoop([{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }], s.ports, { maxRounds: 5, acceptsImages: false, grants: new SessionGrants() });
    assert.deepEqual(s.seen[0], [FIND_TOOLS]);
    assert.ok(s.seen[1].length <= 3);
    assert.match(s.texts.join(''), /42/);
  });
});
