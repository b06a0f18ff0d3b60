// 2025-11-25 tasks against the real server-everything (stdio): its `simulate-research-query`
// requires a task and walks through four stages, one a second.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient, McpLocalError } from '../../src/client';
import { TaskUpdate, callToolAsTask, listTasks, taskSupportOf } from '../../src/client/tasks';
import { serverOffersTasks } from '../../src/client/modernTasks';
import { callTool } from '../../src/usecases/callTool';
import { EverythingPeer, everythingPeer } from '../transport/httpPeers';
import { EVERYTHING, WireRecorder, connectStdio, fixture } from './support';

const RESEARCH = 'simulate-research-query';

describe('tasks (2025-11-25) with server-everything', () => {
  let client: McpClient;
  let wire: WireRecorder;
  /** What the server answered to each elicitation it sent (the ambiguous mode asks one). */
  const elicitations: any[] = [];

  before(async () => {
    ({ client, wire } = await connectStdio('node', EVERYTHING, {
      capabilities: { elicitation: { form: {} } },
      handlers: {
        'elicitation/create': (params) => {
          elicitations.push(params);
          return { action: 'accept', content: { interpretation: 'historical' } };
        },
      },
    }));
  });

  after(async () => {
    await client.close();
  });

  test('the client declares tasks; the tool lists taskSupport "required"', async () => {
    assert.deepEqual(wire.sent('initialize')[0].params.capabilities.tasks, {});
    const tool = (await client.listTools()).find((t) => t.name === RESEARCH);
    assert.ok(tool);
    assert.equal(taskSupportOf(tool), 'required');
    assert.equal(taskSupportOf({}), 'forbidden');
    assert.equal(serverOffersTasks(client), true, 'the editor shows its Tasks group');
  });

  test('simulate-research-query runs as a task to completion, with its status followed through tasks/get', async () => {
    const updates: TaskUpdate[] = [];
    const { result, task } = await callToolAsTask(client, RESEARCH, { topic: 'tides' }, { onStatus: (u) => updates.push(u) });
    assert.equal(task.status, 'completed');
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    assert.match(text, /# Research Report: tides/);
    // Every stage's status message was seen, in order, with elapsed time growing.
    const messages = updates.map((u) => u.task.statusMessage).filter((m): m is string => m !== undefined);
    const stages = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];
    const seen = stages.filter((s) => messages.some((m) => m.startsWith(s)));
    assert.ok(seen.length >= 3, `status messages: ${JSON.stringify(messages)}`);
    assert.ok(updates.every((u, i) => i === 0 || u.elapsedMs >= updates[i - 1].elapsedMs));
    assert.equal(updates.at(-1)!.task.status, 'completed');
    // On the wire: tools/call carried `task`, the answer was a CreateTaskResult, then tasks/get and tasks/result.
    const call = wire.sent('tools/call').find((m) => m.params.name === RESEARCH);
    assert.ok(call.params.task);
    const created = wire.received().find((m) => m.id === call.id);
    assert.equal(created.result.task.taskId, task.taskId);
    assert.ok(wire.sent('tasks/get').some((m) => m.params.taskId === task.taskId));
    assert.ok(wire.sent('tasks/result').some((m) => m.params.taskId === task.taskId));
  });

  test('an abort mid-way sends tasks/cancel; the server says the task is cancelled', async () => {
    const stop = new AbortController();
    let taskId: string | undefined;
    await assert.rejects(
      callToolAsTask(client, RESEARCH, { topic: 'glaciers' }, {
        signal: stop.signal,
        onStatus: (u) => {
          taskId = u.task.taskId;
          if (u.task.statusMessage?.startsWith('Analyzing')) stop.abort();
        },
      }),
      (error) => McpLocalError.is(error, 'cancelled') && /tasks\/cancel sent; the server says cancelled/.test((error as Error).message),
    );
    const cancel = wire.sent('tasks/cancel').find((m) => m.params.taskId === taskId);
    assert.ok(cancel, 'tasks/cancel was sent');
    const answer = wire.received().find((m) => m.id === cancel.id);
    assert.equal(answer.result.status, 'cancelled');
  });

  test('tasks/list shows the tasks the server holds, with their final status', async () => {
    const tasks = (await listTasks(client)).tasks;
    assert.ok(tasks.some((t) => t.status === 'completed'));
    assert.ok(tasks.some((t) => t.status === 'cancelled'));
  });

  test('the tool-call use case runs a listed "required" tool as a task and reports its status', async () => {
    const tool = (await client.listTools()).find((t) => t.name === RESEARCH)!;
    const statuses: string[] = [];
    const outcome = await callTool(
      { serverId: 's', tool, arguments: { mode: 'value', value: { topic: 'dunes' } }, origin: 'a test' },
      { client: () => client, onTaskStatus: (u) => statuses.push(u.task.status) },
    );
    assert.equal(outcome.kind, 'answered');
    assert.ok(outcome.kind === 'answered' && JSON.stringify(outcome.result.content).includes('Research Report: dunes'));
    assert.equal(statuses[0], 'working');
    assert.equal(statuses.at(-1), 'completed');
  });

  test('ambiguous mode: the server asks for clarification while the task waits (input_required); the answer reaches it', async () => {
    const updates: string[] = [];
    const { result } = await callToolAsTask(client, RESEARCH, { topic: 'python', ambiguous: true }, { onStatus: (u) => updates.push(u.task.status) });
    assert.equal(elicitations.length, 1);
    assert.match(elicitations[0].message, /multiple interpretations/);
    assert.match(JSON.stringify(result.content), /Clarification\*\*: historical/);
  });

  test('every frame is valid against the 2025-11-25 schema', () => {
    assert.deepEqual(wire.problems('2025-11-25'), []);
  });
});

describe('tasks (2025-11-25): a tool that may run as a task (SDK fixture, taskSupport "optional")', () => {
  let client: McpClient;
  let wire: WireRecorder;

  before(async () => {
    ({ client, wire } = await connectStdio('node', [fixture('optionalTask.mjs')]));
  });

  after(async () => {
    await client.close();
  });

  const brew = async (task: boolean, rush?: true) => {
    const tool = (await client.listTools()).find((t) => t.name === 'brew')!;
    assert.equal(taskSupportOf(tool), 'optional');
    const messages: string[] = [];
    const progress: string[] = [];
    /** Every progress the use case heard, as it heard it. */
    const heard: string[] = [];
    const outcome = await callTool(
      { serverId: 's', tool, arguments: { mode: 'value', value: { what: task ? 'tea' : 'coffee', ...(rush ? { rush } : {}) } }, origin: 'a test', task },
      {
        client: () => client,
        onProgress: (p) => heard.push(`${p.progress}/${p.total}`),
        onTaskStatus: (u) => {
          if (u.task.statusMessage && messages.at(-1) !== u.task.statusMessage) messages.push(u.task.statusMessage);
          if (u.progress && progress.at(-1) !== `${u.progress.progress}/${u.progress.total}`) progress.push(`${u.progress.progress}/${u.progress.total}`);
        },
      },
    );
    assert.equal(outcome.kind, 'answered');
    return { text: outcome.kind === 'answered' ? JSON.stringify(outcome.result.content) : '', messages, progress, heard };
  };

  test('with the task option the use case calls it as a task and follows its status and progress', async () => {
    const { text, messages, progress, heard } = await brew(true);
    assert.match(text, /brewed tea/);
    assert.ok(messages.includes('heating') && messages.includes('steeping'), JSON.stringify(messages));
    // The progress the server sent after creating the task reached the status callback.
    assert.deepEqual(progress, ['1/2', '2/2']);
    assert.deepEqual(heard, ['1/2', '2/2']);
    assert.ok(wire.sent('tools/call').some((m) => m.params.arguments.what === 'tea' && m.params.task !== undefined));
  });

  test('progress sent before the CreateTaskResult (both steps ahead of the answer) reaches the status callback, each once, in order', async () => {
    const { progress, heard } = await brew(true, true);
    // Both came while the task was not known yet: the status callback still hears each step.
    assert.deepEqual(progress, ['1/2', '2/2']);
    assert.deepEqual(heard, ['1/2', '2/2']);
  });

  test('without it the tool is called directly (no task on the wire)', async () => {
    const { text, messages } = await brew(false);
    assert.match(text, /brewed coffee/);
    assert.deepEqual(messages, []);
    assert.ok(wire.sent('tools/call').some((m) => m.params.arguments.what === 'coffee' && m.params.task === undefined));
  });

  test('every frame is valid against the 2025-11-25 schema', () => {
    assert.deepEqual(wire.problems('2025-11-25'), []);
  });
});

describe('tasks (2025-11-25) with server-everything over Streamable HTTP', () => {
  let client: McpClient;
  let wire: WireRecorder;
  let peer: EverythingPeer;
  const elicited: any[] = [];

  before(async () => {
    peer = await everythingPeer('streamableHttp');
    client = new McpClient({
      clientInfo: { name: 'mcp-host-tests', version: '0.0.0' },
      capabilities: { elicitation: { form: {} } },
      handlers: {
        'elicitation/create': (params) => {
          elicited.push(params);
          return { action: 'accept', content: { interpretation: 'current' } };
        },
      },
    });
    wire = new WireRecorder(client);
    await client.connect(peer.transport);
  });

  after(async () => {
    await client.close();
    await peer.stop();
  });

  test('a task runs to completion, its clarification answered while tasks/result is open; cancel and list work', async () => {
    const { result, task } = await callToolAsTask(client, RESEARCH, { topic: 'comets', ambiguous: true });
    assert.equal(task.status, 'completed');
    assert.equal(elicited.length, 1);
    assert.match(JSON.stringify(result.content), /Clarification\*\*: current/);
    const stop = new AbortController();
    await assert.rejects(
      callToolAsTask(client, RESEARCH, { topic: 'moons' }, { signal: stop.signal, onStatus: (u) => u.task.statusMessage?.startsWith('Analyzing') && stop.abort() }),
      (error) => McpLocalError.is(error, 'cancelled'),
    );
    const statuses = (await listTasks(client)).tasks.map((t) => t.status);
    assert.ok(statuses.includes('completed') && statuses.includes('cancelled'), JSON.stringify(statuses));
  });

  test('every frame is valid against the 2025-11-25 schema', () => {
    assert.deepEqual(wire.problems('2025-11-25'), []);
  });
});
