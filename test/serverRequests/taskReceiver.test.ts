// The host as the receiver of 2025-11-25 tasks: servers on the official SDK (1.x) ask for
// elicitation and sampling as tasks, follow them with tasks/get, fetch tasks/result, list and
// cancel them; the host's services are wired as the extension wires them (attachServerRequests),
// with a scripted "user" at the dialogs. Every frame is checked against the 2025-11-25 schema.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client';
import { StdioTransport } from '../../src/transport/stdio';
import {
  DialogQueue,
  ElicitFormView,
  ElicitationPrompter,
  ElicitationService,
  FormAnswer,
  LanguageModels,
  SamplingPolicyStore,
  SamplingPrompter,
  SamplingService,
  attachServerRequests,
  clientCapabilitiesFor,
} from '../../src/serverRequests';
import { ReceivedTasks } from '../../src/serverRequests/taskReceiver';
import { McpLocalError } from '../../src/protocol/errors';
import { EVERYTHING, WireRecorder, fixture, waitFor } from '../client/support';

const SERVER = { id: 'test::asks', name: 'asks' };

/** The scripted user: answers each form with `answer()` (which may wait), and records what it saw. */
function scriptedServices() {
  const forms: ElicitFormView[] = [];
  const signals: AbortSignal[] = [];
  const log: string[] = [];
  const user = { answer: async (): Promise<FormAnswer> => ({ action: 'accept', content: { colour: 'teal' } }) };
  const prompterE: ElicitationPrompter = {
    async form(_server, view, _check, signal) {
      forms.push(view);
      signals.push(signal);
      return user.answer();
    },
    url: async () => 'decline',
    awaitCompletion: async () => false,
    notify: () => {},
  };
  const prompterS: SamplingPrompter = {
    open: () => ({ decide: async () => ({ kind: 'approve' }), generating: () => {}, review: async (a) => ({ kind: 'send', text: a.text }), failed: () => {}, close: () => {} }),
    pickModel: async (_s, models) => models[0],
    notify: () => {},
  };
  const models: LanguageModels = {
    models: async () => [{ id: 'scripted-model-1', name: 'Scripted', family: 'scripted', vendor: 'tests' }],
    generate: async () => ({ text: 'hello from the host, as a task', stopReason: 'endTurn' }),
  };
  const queue = new DialogQueue(() => 3);
  const say = (_id: string, level: string, text: string) => log.push(`${level} ${text}`);
  const sampling = new SamplingService({ queue, policies: new SamplingPolicyStore({ get: () => undefined, update: async () => {} }), prompter: prompterS, models, log: say });
  const elicitation = new ElicitationService({ queue, prompter: prompterE, log: say, modes: ['form', 'url'], openUrl: async () => true });
  return { services: { sampling, elicitation }, forms, signals, log, user, say };
}

/** A client wired as the extension wires one (capabilities, attachServerRequests before connect). */
async function connectWired(args: string[], s: ReturnType<typeof scriptedServices>): Promise<{ client: McpClient; wire: WireRecorder }> {
  const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, capabilities: clientCapabilitiesFor(s.services) });
  const wire = new WireRecorder(client);
  attachServerRequests(client, SERVER, s.services, { log: s.say });
  await client.connect(new StdioTransport({ command: 'node', args, closeGraceMs: 500, termGraceMs: 500 }));
  return { client, wire };
}

function resultJson(result: { content: Array<{ type: string; text?: string }> }): any {
  return JSON.parse(result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''));
}

describe('the host as task receiver (SDK 1.x fixture: elicitInputStream, createMessageStream, tasks/list, tasks/cancel)', () => {
  let client: McpClient;
  let wire: WireRecorder;
  let s: ReturnType<typeof scriptedServices>;

  before(async () => {
    s = scriptedServices();
    ({ client, wire } = await connectWired([fixture('asksAsTask.mjs')], s));
  });

  after(async () => {
    await client.close();
  });

  test('declares tasks.list, tasks.cancel and tasks.requests for sampling and elicitation', () => {
    assert.deepEqual(wire.sent('initialize')[0].params.capabilities.tasks, { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } });
  });

  test('an elicitation asked as a task: CreateTaskResult at once, the form, then completed with the answer through tasks/result', { timeout: 30_000 }, async () => {
    // The answer waits until the server has polled once: the task is seen "working" first.
    let release!: () => void;
    s.user.answer = () => new Promise((resolve) => (release = () => resolve({ action: 'accept', content: { colour: 'teal' } })));
    const call = client.callTool('ask-as-task', { ttl: 30_000 });
    await waitFor(() => wire.received('tasks/get').length > 0, 10_000, 'the server polling tasks/get');
    release();
    const seen = resultJson(await call);
    assert.equal(seen.error, undefined, JSON.stringify(seen));
    assert.deepEqual(seen.result.content, { colour: 'teal' });
    assert.equal(seen.result.action, 'accept');
    assert.equal(seen.statuses[0], 'working');
    assert.equal(seen.statuses.at(-1), 'completed');
    assert.equal(s.forms.at(-1)!.message, 'Which colour, as a task?', 'the same form the user answers for a plain request');
    // On the wire: the request carried `task`, our answer was { task } (not the form's result), the ttl as asked.
    const asked = wire.received('elicitation/create').at(-1);
    assert.deepEqual(asked.params.task, { ttl: 30_000 });
    const created = wire.sent().find((m) => m.id === asked.id && m.result);
    assert.equal(created.result.task.taskId, seen.taskId);
    assert.equal(created.result.task.status, 'working');
    assert.equal(created.result.task.ttl, 30_000);
    assert.equal(created.result.action, undefined);
    // tasks/result carried the related-task _meta; a status notification told of completion.
    const resultRequest = wire.received('tasks/result').find((m) => m.params.taskId === seen.taskId);
    const answer = wire.sent().find((m) => m.id === resultRequest.id && m.result);
    assert.deepEqual(answer.result._meta['io.modelcontextprotocol/related-task'], { taskId: seen.taskId });
    assert.ok(wire.sent('notifications/tasks/status').some((m) => m.params.taskId === seen.taskId && m.params.status === 'completed'));
  });

  test('a sampling request asked as a task runs through the sampling service and completes', { timeout: 30_000 }, async () => {
    const seen = resultJson(await client.callTool('sample-as-task', {}));
    assert.equal(seen.error, undefined, JSON.stringify(seen));
    assert.equal(seen.result.model, 'scripted-model-1');
    assert.deepEqual(seen.result.content, { type: 'text', text: 'hello from the host, as a task' });
    assert.equal(seen.statuses.at(-1), 'completed');
  });

  test('the server lists and cancels a task: the dialog is closed, the task says cancelled, a second cancel is refused', { timeout: 30_000 }, async () => {
    // The user never answers this one: only the cancel ends it.
    s.user.answer = () => new Promise(() => {});
    const formsBefore = s.forms.length;
    const seen = resultJson(await client.callTool('ask-then-cancel', { afterMs: 300 }));
    assert.equal(s.forms.length, formsBefore + 1, 'the form was shown');
    assert.ok(seen.listed.some((t: { taskId: string; status: string }) => t.taskId === seen.taskId && t.status === 'working'), JSON.stringify(seen.listed));
    assert.equal(seen.cancelled, 'cancelled');
    assert.equal(seen.after, 'cancelled');
    assert.equal(seen.cancelAgain.code, -32602);
    assert.ok(s.signals.at(-1)!.aborted, 'the form was told to close');
  });

  test('every frame is valid against the 2025-11-25 schema', () => {
    assert.deepEqual(wire.problems('2025-11-25'), []);
  });
});

describe('the host as task receiver (server-everything: trigger-elicitation-request-async)', () => {
  let client: McpClient;
  let wire: WireRecorder;
  let s: ReturnType<typeof scriptedServices>;

  before(async () => {
    s = scriptedServices();
    ({ client, wire } = await connectWired(EVERYTHING, s));
  });

  after(async () => {
    await client.close();
  });

  test('server-everything offers its async (task) tools once the host declares tasks.requests, and gets the answer by polling', { timeout: 30_000 }, async () => {
    const tools = (await client.listTools()).map((t) => t.name);
    assert.ok(tools.includes('trigger-elicitation-request-async'), tools.join(', '));
    s.user.answer = async () => ({ action: 'accept', content: { name: 'Ada', favoriteColor: 'Blue' } });
    const result = await client.callTool('trigger-elicitation-request-async', {});
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.match(text, /\[COMPLETED\] User provided the requested information/);
    assert.match(text, /Name: Ada/);
    assert.match(text, /Favorite Color: Blue/);
    assert.ok(wire.received('tasks/get').length >= 1);
    assert.deepEqual(wire.problems('2025-11-25'), []);
  });
});

describe('ReceivedTasks on its own', () => {
  test('a request without `task` goes straight to the handler; a malformed `task` is refused', async () => {
    const tasks = new ReceivedTasks({ notify: () => {}, pauseTimeouts: () => ({ dispose() {} }) });
    const ctx = { id: 1, method: 'elicitation/create', signal: new AbortController().signal, waitOnUser: () => ({ dispose() {} }) };
    const handler = tasks.augment('elicitation/create', async () => ({ action: 'decline' }));
    assert.deepEqual(await handler({ message: 'plain' }, ctx), { action: 'decline' });
    assert.throws(() => handler({ message: 'x', task: 5 }, ctx), /"task" must be an object/);
    await assert.rejects(async () => tasks.handlers()['tasks/get']({ taskId: 'nope' }, ctx), /no task "nope"/);
    tasks.dispose();
  });

  test('a failing handler makes a failed task whose tasks/result is the error; closing aborts the running ones', async () => {
    const notified: any[] = [];
    let holds = 0;
    const tasks = new ReceivedTasks({ notify: (_m, p) => void notified.push(p), pauseTimeouts: () => (holds++, { dispose: () => holds-- }) });
    const ctx = { id: 7, method: 'sampling/createMessage', signal: new AbortController().signal, waitOnUser: () => ({ dispose() {} }) };
    const failing = tasks.augment('sampling/createMessage', async () => {
      throw new McpLocalError('cancelled', 'the user closed the dialog');
    });
    const { task } = (await failing({ messages: [], maxTokens: 1, task: {} }, ctx)) as { task: { taskId: string; ttl: number } };
    assert.equal(task.ttl, 10 * 60_000, 'the default retention when none is asked');
    await assert.rejects(async () => tasks.handlers()['tasks/result']({ taskId: task.taskId }, ctx), /the user closed the dialog/);
    assert.equal(notified.at(-1).status, 'failed');
    let signal: AbortSignal | undefined;
    const waiting = tasks.augment('elicitation/create', (_p, c) => {
      signal = c.signal;
      c.waitOnUser();
      return new Promise(() => {});
    });
    await waiting({ message: 'm', requestedSchema: { type: 'object', properties: {} }, task: { ttl: 1 } }, ctx);
    await waitFor(() => signal !== undefined, 2000, 'the handler to start');
    assert.equal(holds, 1, 'timeouts are held while the task waits on the user');
    tasks.dispose();
    assert.ok(signal!.aborted);
    assert.equal(holds, 0);
  });
});
