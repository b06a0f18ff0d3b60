// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks) against a server that follows its
// specification (test/fixtures/servers/modernTasksServer.mjs, on SDK 2.x), over stdio and
// Streamable HTTP: task-style tool calls through the tool-call use case (status updates, input
// answered by the client's handlers and sent with tasks/update, failure, cancel), every frame
// checked against 2026-07-28 and the extension's own schema.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InputRound, McpClient, McpLocalError, ResponseError, listTasks } from '../../src/client';
import { TASKS_EXTENSION, getModernTask, serverOffersTasks } from '../../src/client/modernTasks';
import type { TaskUpdate } from '../../src/client/tasks';
import type { RequestHandler } from '../../src/protocol/connection';
import { closedByClient } from '../../src/serverRequests/dialogQueue';
import { StdioTransport } from '../../src/transport/stdio';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { ToolCallOutcome, ToolCallPorts, callTool } from '../../src/usecases/callTool';
import { loadTasksSchemas, tasksWireProblems, validateTasksWire } from '../support/tasksSchema';
import { HttpPeer, startFixture } from '../transport/httpPeers';
import { WireRecorder, fixture, waitFor } from './support';

before(loadTasksSchemas);

type Kind = 'stdio' | 'http';

interface Session {
  readonly client: McpClient;
  readonly wire: WireRecorder;
  /** The server's stderr lines so far (task changes are written there). */
  serverLog(): string[];
  /** What the elicitation handler answers next, and how often it was asked. */
  elicit: { answer: RequestHandler; asked: number };
  readonly peer?: HttpPeer;
  close(): Promise<void>;
}

async function open(kind: Kind): Promise<Session> {
  const elicit: Session['elicit'] = { answer: () => ({ action: 'accept', content: { name: 'Ada' } }), asked: 0 };
  const client = new McpClient({
    clientInfo: { name: 'mcp-host-tests', version: '0.0.0' },
    protocol: 'modern',
    capabilities: { elicitation: { form: {} } },
    handlers: {
      'elicitation/create': (params, context) => {
        elicit.asked++;
        return elicit.answer(params, context);
      },
    },
  });
  const wire = new WireRecorder(client);
  const stderr: string[] = [];
  client.onTransportLog((l) => l.kind === 'stderr' && stderr.push(l.text));
  if (kind === 'stdio') {
    await client.connect(new StdioTransport({ command: process.execPath, args: [fixture('modernTasks.mjs')], closeGraceMs: 500, termGraceMs: 500 }));
    return { client, wire, elicit, serverLog: () => stderr, close: () => client.close() };
  }
  const peer = await startFixture('modernTasks.mjs');
  await client.connect(createHttpTransport({ url: peer.url, mode: 'auto' }));
  return {
    client,
    wire,
    elicit,
    peer,
    serverLog: () => peer.output,
    close: async () => {
      await client.close();
      await peer.close();
    },
  };
}

/** Calls a tool as the panel and the CLI do, keeping every status update. */
async function call(s: Session, name: string, args: Record<string, unknown> = {}, extra: Partial<ToolCallPorts> & { signal?: AbortSignal } = {}): Promise<{ outcome: ToolCallOutcome; updates: TaskUpdate[]; rounds: InputRound[] }> {
  const updates: TaskUpdate[] = [];
  const rounds: InputRound[] = [];
  const { signal, ...ports } = extra;
  const outcome = await callTool(
    { serverId: 's', tool: { name }, arguments: { mode: 'value', value: args }, origin: 'the test', ...(signal ? { signal } : {}) },
    { client: () => s.client, onTaskStatus: (u) => updates.push(u), onInputRound: (r) => rounds.push(r), ...ports },
  );
  return { outcome, updates, rounds };
}

function textOf(outcome: ToolCallOutcome): string {
  assert.equal(outcome.kind, 'answered', JSON.stringify(outcome));
  return (outcome as { result: { content: any[] } }).result.content.map((c) => c.text).join('');
}

const declares = (m: any) => m.params?._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS_EXTENSION] !== undefined;

for (const kind of ['stdio', 'http'] as const) {
  describe(`the tasks extension over ${kind}`, { timeout: 60_000 }, () => {
    let s: Session;
    before(async () => {
      s = await open(kind);
    });
    after(async () => {
      await s.close();
      assert.deepEqual(tasksWireProblems(s.wire.frames), [], 'every frame, both ways, is valid 2026-07-28 or valid for the tasks extension');
    });

    test('the server declares the extension; requests that are not ready for a task do not declare it', async () => {
      assert.equal(s.client.era, 'modern');
      assert.deepEqual((s.client.serverCapabilities as any).extensions, { [TASKS_EXTENSION]: {} });
      assert.equal(serverOffersTasks(s.client), true, 'the editor shows its Tasks group');
      await s.client.listTools();
      for (const m of s.wire.sent().filter((m) => m.id !== undefined)) assert.equal(declares(m), false, m.method);
    });

    test('a long task completes: status messages step by step, tasks/get and notifications/tasks, the result inlined', async () => {
      const { outcome, updates } = await call(s, 'long', { steps: 4, stepMs: 250 });
      assert.equal(textOf(outcome), 'long done after 4 steps');
      const messages = updates.map((u) => `${u.task.status}${u.task.statusMessage ? ` ${u.task.statusMessage}` : ''}`);
      assert.equal(messages.at(-1), 'completed done');
      for (const step of ['working step 2 of 4', 'working step 3 of 4', 'working step 4 of 4']) assert.ok(messages.includes(step), JSON.stringify(messages));
      // The status callback's shape is the 2025-11-25 one (ttl, pollInterval), elapsed time growing.
      const first = updates[0]!;
      assert.equal(first.task.ttl, 60_000);
      assert.equal(first.task.pollInterval, 200);
      assert.ok(updates.at(-1)!.elapsedMs >= first.elapsedMs);

      const created = s.wire.received().find((m) => m.result?.resultType === 'task');
      assert.ok(created, 'tools/call answered with a CreateTaskResult');
      const taskId = created.result.taskId as string;
      const calls = s.wire.sent('tools/call');
      assert.ok(declares(calls.at(-1)), 'tools/call declares the extension in its own capabilities');
      // With notifications acknowledged, tasks/get only backs them up (a notification carries the whole task).
      const gets = s.wire.sent('tasks/get').filter((m) => m.params.taskId === taskId);
      assert.ok(gets.every(declares), 'tasks/get declares the extension');
      assert.ok(gets.length <= 2, `tasks/get ${gets.length} times although notifications came`);
      // Status through subscriptions/listen: asked for by task id, acknowledged, delivered.
      const listen = s.wire.sent('subscriptions/listen').find((m) => m.params.notifications.taskIds?.includes(taskId));
      assert.ok(listen && declares(listen), 'a listen stream asked for the task, declaring the extension');
      const ack = s.wire.received('notifications/subscriptions/acknowledged').find((m) => m.params.notifications.taskIds?.includes(taskId));
      assert.ok(ack, 'the server acknowledged the task id');
      const pushed = s.wire.received('notifications/tasks').filter((m) => m.params.taskId === taskId);
      assert.ok(pushed.length >= 1, 'notifications/tasks arrived');
      for (const n of pushed) assert.equal(n.params._meta['io.modelcontextprotocol/subscriptionId'], listen.id);
      // Once the task ended, the stream no longer asks for it.
      await waitFor(() => s.wire.sent('subscriptions/listen').at(-1)!.params.notifications.taskIds?.includes(taskId) !== true, 5000, 'a stream without the task');
      if (kind === 'http') {
        // Routing: tasks/get carries Mcp-Name = the task id.
        await getModernTask(s.client, taskId, { timeoutMs: 5000 });
        const seen = (await (await fetch(s.peer!.url.replace('/mcp', '/control/requests'))).json()) as { headers: Record<string, string> }[];
        assert.ok(seen.some((r) => r.headers['mcp-method'] === 'tasks/get' && r.headers['mcp-name'] === taskId), JSON.stringify(seen.slice(-3)));
      }
    });

    test('a tool the server answers at once is no task: no tasks/get follows', async () => {
      const before = s.wire.sent('tasks/get').length;
      const { outcome, updates } = await call(s, 'quick', { text: 'now' });
      assert.equal(textOf(outcome), 'quick now');
      assert.deepEqual(updates, []);
      assert.equal(s.wire.sent('tasks/get').length, before);
    });

    test('input during a task: the elicitation handler answers it once, tasks/update carries the answer, the task completes', async () => {
      s.elicit.asked = 0;
      s.elicit.answer = () => ({ action: 'accept', content: { name: 'Grace' } });
      const { outcome, updates, rounds } = await call(s, 'ask-name');
      assert.equal(textOf(outcome), 'hello Grace');
      assert.equal(s.elicit.asked, 1, 'asked once although every poll repeats the input request');
      assert.ok(updates.some((u) => u.task.status === 'input_required' && u.task.statusMessage === 'waiting for a name'));
      assert.deepEqual(
        rounds.map((r) => [r.method, r.target, r.requests, r.waiting]),
        [
          ['tools/call', 'ask-name', { name: 'elicitation/create' }, true],
          ['tools/call', 'ask-name', { name: 'elicitation/create' }, false],
        ],
      );
      const update = s.wire.sent('tasks/update').at(-1);
      assert.deepEqual(update.params.inputResponses, { name: { action: 'accept', content: { name: 'Grace' } } });
      // The rounds name the task they answer (the panel says the answers go to it, not that the call is sent again).
      assert.deepEqual(rounds.map((r) => r.taskId), [update.params.taskId, update.params.taskId]);
      assert.ok(declares(update));
      // The input request reached the client (a tasks/get answer or notifications/tasks), with its status.
      const asked = s.wire.received().filter((m) => (m.result ?? m.params)?.status === 'input_required');
      assert.ok(asked.length >= 1 && asked.every((m) => (m.result ?? m.params).inputRequests.name.method === 'elicitation/create'));
    });

    test('a declined elicitation is an answer too: the task goes on with it', async () => {
      s.elicit.answer = () => ({ action: 'decline' });
      const { outcome } = await call(s, 'ask-name');
      assert.equal(textOf(outcome), 'no name: decline');
    });

    test('input that cannot be answered cancels the task (tasks/cancel), nothing left waiting', async () => {
      s.elicit.answer = () => {
        throw new Error('the user closed the form');
      };
      const { outcome } = await call(s, 'ask-name');
      assert.equal(outcome.kind, 'failed');
      assert.match((outcome as any).failure.message ?? String((outcome as any).error), /the user closed the form/);
      const cancel = s.wire.sent('tasks/cancel').at(-1);
      assert.ok(cancel && declares(cancel));
      await waitFor(() => s.serverLog().some((l) => l.includes(`task ${cancel.params.taskId} cancelled`)), 5000, 'the server to cancel the task');
    });

    test('Cancel while the form is open: the handler is told this side closed it (not that the server withdrew it), and tasks/cancel goes', async () => {
      const cancel = new AbortController();
      let seen: unknown;
      s.elicit.answer = (_params, context) =>
        new Promise((_, reject) => {
          // The form is open; the user presses Cancel in the panel.
          setTimeout(() => cancel.abort('you pressed Cancel in the panel'), 50);
          context.signal.addEventListener('abort', () => {
            seen = context.signal.reason;
            reject(context.signal.reason);
          }, { once: true });
        });
      const { outcome } = await call(s, 'ask-name', {}, { signal: cancel.signal });
      assert.notEqual(outcome.kind, 'answered');
      assert.ok(closedByClient({ reason: seen } as AbortSignal), `a cancellation of this side: ${String(seen)}`);
      assert.match((seen as Error).message, /you pressed Cancel in the panel/);
      await waitFor(() => s.wire.sent('tasks/cancel').length > 0, 5000, 'tasks/cancel');
    });

    test('a failed task rejects with its JSON-RPC error; a tool error completes as an isError result', async () => {
      const { outcome, updates } = await call(s, 'fail');
      assert.equal(outcome.kind, 'failed');
      const error = (outcome as any).error;
      assert.ok(error instanceof ResponseError);
      assert.equal(error.code, -32603);
      assert.equal(error.wireMessage, 'the fixture failed on purpose');
      assert.equal(updates.at(-1)!.task.status, 'failed');
      const toolError = await call(s, 'tool-error');
      assert.equal(toolError.outcome.kind, 'answered');
      assert.equal((toolError.outcome as any).result.isError, true);
      assert.equal(toolError.updates.at(-1)!.task.status, 'completed');
    });

    test('cancel mid-way: tasks/cancel, then what the server says; the call rejects as cancelled', async () => {
      const abort = new AbortController();
      const { outcome, updates } = await call(s, 'long', { steps: 50, stepMs: 100 }, {
        signal: abort.signal,
        onTaskStatus: (u) => {
          if (u.task.statusMessage === 'step 3 of 50') abort.abort();
        },
      });
      assert.equal(outcome.kind, 'failed');
      assert.ok(McpLocalError.is((outcome as any).error, 'cancelled'), String((outcome as any).error));
      const cancel = s.wire.sent('tasks/cancel').at(-1);
      assert.ok(cancel && declares(cancel));
      const taskId = cancel.params.taskId as string;
      assert.equal(s.wire.sent('notifications/cancelled').filter((m) => m.params.requestId === cancel.id).length, 0, 'a task is never cancelled with notifications/cancelled');
      await waitFor(() => s.serverLog().some((l) => l.includes(`task ${taskId} cancelled`)), 5000, 'the server to stop the task');
      assert.ok(!updates.some((u) => u.task.statusMessage === 'step 50 of 50'));
      // The task is kept by the server, cancelled; tasks/get tells so.
      const { task } = await getModernTask(s.client, taskId, { timeoutMs: 5000 });
      assert.equal(task.status, 'cancelled');
    });

    test('without the extension declared (client.callTool), the server runs the same tool before answering', async () => {
      const result = await s.client.callTool('long', { steps: 2, stepMs: 50 });
      assert.equal(result.content.map((c: any) => c.text).join(''), 'long done after 2 steps');
      assert.equal(declares(s.wire.sent('tools/call').at(-1)), false);
    });

    test('tasks/list does not exist in the extension: listTasks says so, nothing is sent', async () => {
      const sent = s.wire.sent().length;
      await assert.rejects(listTasks(s.client), (e: unknown) => McpLocalError.is(e, 'capability') && /no tasks\/list/.test((e as Error).message));
      assert.equal(s.wire.sent().length, sent);
    });

    test('an unknown task id is the server\'s -32602', async () => {
      await assert.rejects(getModernTask(s.client, 'no-such-task', { timeoutMs: 5000 }), (e: unknown) => e instanceof ResponseError && e.code === -32602);
    });
  });
}

describe('the tasks extension with a server that pushes no task status', { timeout: 60_000 }, () => {
  test('the task is followed with tasks/get at its pollIntervalMs, each answer in the status updates', async () => {
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, protocol: 'modern' });
    const wire = new WireRecorder(client);
    await client.connect(new StdioTransport({ command: process.execPath, args: [fixture('modernTasks.mjs'), '--no-task-notifications'], closeGraceMs: 500, termGraceMs: 500 }));
    try {
      const s = { client } as Session;
      const { outcome, updates } = await call(s, 'long', { steps: 5, stepMs: 500 });
      assert.equal(textOf(outcome), 'long done after 5 steps');
      assert.equal(wire.received('notifications/tasks').length, 0);
      assert.ok(wire.received('notifications/subscriptions/acknowledged').every((m) => !m.params.notifications.taskIds?.length), 'no task ids acknowledged');
      const gets = wire.sent('tasks/get');
      // 2.5 s of work at a 200 ms poll interval (the server's): several polls, not a spin.
      assert.ok(gets.length >= 5 && gets.length <= 20, `tasks/get ${gets.length} times`);
      assert.ok(gets.every(declares));
      for (const step of [2, 3, 4, 5]) assert.ok(updates.some((u) => u.task.statusMessage === `step ${step} of 5`), JSON.stringify(updates.map((u) => u.task.statusMessage)));
    } finally {
      await client.close();
      assert.deepEqual(tasksWireProblems(wire.frames), []);
    }
  });
});

describe('the tasks extension schema check itself', () => {
  test('refuses a task without its required fields, and a completed task without its result', () => {
    assert.equal(validateTasksWire('CreateTaskResult', { resultType: 'task', taskId: 't', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: null }).ok, true);
    assert.equal(validateTasksWire('CreateTaskResult', { resultType: 'task', taskId: 't', status: 'working' }).ok, false);
    assert.equal(validateTasksWire('GetTaskResult', { resultType: 'complete', taskId: 't', status: 'completed', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: 1 }).ok, false);
  });
});
