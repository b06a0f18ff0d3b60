// Gateway clients reach only the tasks they created: the gateway relays every client over MCP
// Host's one session with the server, where every task is visible. Driven as an attacker would: a
// second client ("mallory", the official SDK 1.x client) asks for the task of another ("alice")
// and of MCP Host itself, by id. Real peers: an SDK 1.x server with tasks (2025-11-25) and the SDK
// 2.x tasks-extension fixture (2026-07-28) over stdio.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { callToolWithTasks } from '../../src/client/modernTasks';
import { StdioTransport } from '../../src/transport/stdio';
import { fixture, waitFor } from '../client/support';
import { TestGateway, openGateway, sdkClient } from './support';

type SdkClient = Awaited<ReturnType<typeof sdkClient>>;

/** A request as the SDK client sends any method; its result parsed loosely, its error thrown as the SDK's McpError. */
async function ask(client: SdkClient, method: string, params: Record<string, unknown>): Promise<any> {
  const { ResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
  return client.request({ method, params } as never, ResultSchema);
}

/** Asserts `method` on `taskId` is refused as for a task that does not exist. */
async function refused(client: SdkClient, method: string, params: Record<string, unknown>): Promise<void> {
  await assert.rejects(ask(client, method, params), (error: any) => {
    assert.equal(error.code, -32602, `${method}: ${error.message}`);
    assert.match(error.message, /was created in this session/);
    return true;
  });
}

describe('gateway tasks are scoped per session: 2025-11-25', () => {
  let upstream: McpClient;
  let gw: TestGateway;
  let alice: SdkClient;
  let mallory: SdkClient;
  let aliceTask: string;

  before(async () => {
    upstream = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    await upstream.connect(new StdioTransport({ command: process.execPath, args: [fixture('optionalTask.mjs')], closeGraceMs: 500, termGraceMs: 500 }));
    assert.equal(upstream.protocolVersion, '2025-11-25');
    gw = await openGateway({ tasks: { name: 'Tasks', client: upstream } });
    alice = await sdkClient(gw.endpoint('tasks'), 'alice');
    mallory = await sdkClient(gw.endpoint('tasks'), 'mallory');
    const created = await ask(alice, 'tools/call', { name: 'brew', arguments: { what: 'tea' }, task: { ttl: 60_000 } });
    aliceTask = created.task.taskId;
    assert.equal(typeof aliceTask, 'string');
  });

  after(async () => {
    await alice?.close();
    await mallory?.close();
    await gw?.close();
    await upstream?.close();
  });

  test("another client cannot get, read the result of or cancel a client's task", async () => {
    await refused(mallory, 'tasks/get', { taskId: aliceTask });
    await refused(mallory, 'tasks/result', { taskId: aliceTask });
    await refused(mallory, 'tasks/cancel', { taskId: aliceTask });
    await refused(mallory, 'tasks/get', {});
  });

  test('tasks/list shows each client only its own tasks', async () => {
    const upstreamList = (await upstream.relay('tasks/list', {})) as any;
    assert.ok(upstreamList.tasks.some((t: any) => t.taskId === aliceTask), 'the server lists the task to MCP Host');
    assert.deepEqual((await ask(mallory, 'tasks/list', {})).tasks, []);
    assert.deepEqual((await ask(alice, 'tasks/list', {})).tasks.map((t: any) => t.taskId), [aliceTask]);
  });

  test('the client that created the task gets it, its result, and may cancel it', async () => {
    assert.equal((await ask(alice, 'tasks/get', { taskId: aliceTask })).taskId, aliceTask);
    const result = await ask(alice, 'tasks/result', { taskId: aliceTask });
    assert.equal(result.content[0].text, 'brewed tea');
    const other = (await ask(alice, 'tools/call', { name: 'brew', arguments: { what: 'coffee' }, task: { ttl: 60_000 } })).task.taskId;
    assert.equal((await ask(alice, 'tasks/cancel', { taskId: other })).status, 'cancelled');
  });
});

describe('gateway tasks are scoped per session: 2026-07-28', () => {
  let upstream: McpClient;
  let gw: TestGateway;
  let mallory: SdkClient;

  before(async () => {
    upstream = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' } });
    await upstream.connect(new StdioTransport({ command: process.execPath, args: [fixture('modernTasks.mjs')], closeGraceMs: 500, termGraceMs: 500 }));
    assert.equal(upstream.era, 'modern');
    gw = await openGateway({ tasks: { name: 'Modern tasks', client: upstream } });
    mallory = await sdkClient(gw.endpoint('tasks'), 'mallory');
  });

  after(async () => {
    await mallory?.close();
    await gw?.close();
    await upstream?.close();
  });

  test("a gateway client cannot get, update or cancel MCP Host's own task", async () => {
    let taskId: string | undefined;
    const own = callToolWithTasks(upstream, 'long', { steps: 10, stepMs: 300 }, { onTask: (task) => (taskId = task.taskId) });
    const id = await waitFor(() => taskId, 10_000, "MCP Host's task");
    await refused(mallory, 'tasks/get', { taskId: id });
    await refused(mallory, 'tasks/update', { taskId: id, inputResponses: {} });
    await refused(mallory, 'tasks/cancel', { taskId: id });
    // MCP Host's task ran on to its end, uncancelled.
    const { result } = await own;
    assert.match((result.content[0] as { text: string }).text, /long done after 10 steps/);
  });
});
