// Smoke tests of the fixture servers themselves, over raw NDJSON: each one starts, answers
// initialize as documented, does its one trick, and exits when stdin ends.
import { after, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FixtureProcess, killAllFixtures } from './fixtureProcess';
import { assertMessage, validateWire, type SchemaVersion } from './wireSchema';

after(killAllFixtures);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isRequest = (method: string) => (m: unknown) => isObject(m) && m.method === method && m.id !== undefined;
const isNotification = (method: string) => (m: unknown) => isObject(m) && m.method === method && m.id === undefined;
const isResponse = (id: unknown) => (m: unknown) => isObject(m) && m.id === id && !('method' in m);

/** The text of content[index] of a tools/call response. */
function text(response: Json, index = 0): string {
  const result = response.result as { content: { type: string; text: string }[] };
  return result.content[index].text;
}

/** Ends stdin and expects a clean exit, which is how every fixture must stop. */
async function stop(server: FixtureProcess): Promise<void> {
  server.endInput();
  assert.deepEqual(await server.waitForExit(), { code: 0, signal: null });
}

function assertInitializeResult(result: Json, name: string, protocolVersion: string): void {
  assert.equal(result.protocolVersion, protocolVersion);
  assert.equal((result.serverInfo as Json).name, name);
  assert.equal(typeof (result.serverInfo as Json).version, 'string');
  assert.ok(isObject(result.capabilities));
}

suite('fixture versioned.mjs', () => {
  for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '1999-01-01']) {
    test(`--version ${version} answers exactly ${version} and reports what the client sent`, async () => {
      const server = FixtureProcess.start('versioned.mjs', ['--version', version]);
      // Offer a version different from the pinned one (except for 2025-06-18 itself).
      const offered = version === '2025-06-18' ? '2025-06-18' : '2025-03-26';
      const capabilities = { roots: { listChanged: true } };
      const init = await server.initialize(offered, capabilities);
      assertInitializeResult(init, 'versioned', version);
      for (const capability of ['tools', 'resources', 'prompts', 'logging']) assert.ok(capability in (init.capabilities as Json), capability);

      const whoami = await server.request(1, 'tools/call', { name: 'whoami', arguments: {} });
      assert.equal(text(whoami, 0), `version ${version}`);
      assert.deepEqual(JSON.parse(text(whoami, 1)), {
        clientProtocolVersion: offered,
        clientCapabilities: capabilities,
        clientInfo: { name: 'fixture-test', version: '0.0.1' },
      });
      const tools = await server.request(2, 'tools/list');
      const resources = await server.request(3, 'resources/list');
      const prompts = await server.request(4, 'prompts/list');
      const read = await server.request(5, 'resources/read', { uri: 'fixture://version' });
      assert.deepEqual(((tools.result as Json).tools as Json[]).map((t) => t.name), ['whoami', 'log', 'roots']);
      assert.equal(((read.result as Json).contents as Json[])[0].text, `version ${version}`);

      // What the SDK puts on the wire should be valid under the version it claims.
      if (version !== '1999-01-01') {
        const v = version as SchemaVersion;
        assertMessage(v, { jsonrpc: '2.0', id: 0, result: init }, 'inbound', 'initialize');
        assertMessage(v, whoami, 'inbound', 'tools/call');
        assertMessage(v, tools, 'inbound', 'tools/list');
        assertMessage(v, resources, 'inbound', 'resources/list');
        assertMessage(v, prompts, 'inbound', 'prompts/list');
        assertMessage(v, read, 'inbound', 'resources/read');
      }
      await stop(server);
    });
  }

  test('tool log sends notifications/message, tool roots asks the client', async () => {
    const server = FixtureProcess.start('versioned.mjs', ['--version', '2025-06-18']);
    await server.initialize('2025-06-18', { roots: {} });
    const logged = await server.request(1, 'tools/call', { name: 'log', arguments: { level: 'warning', message: 'careful' } });
    assert.equal(text(logged), 'logged');
    const log = (await server.nextMessage(isNotification('notifications/message'))) as Json;
    assert.deepEqual(log.params, { level: 'warning', logger: 'versioned', data: 'careful' });

    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'roots', arguments: {} } });
    const rootsRequest = (await server.nextMessage(isRequest('roots/list'))) as Json;
    server.send({ jsonrpc: '2.0', id: rootsRequest.id, result: { roots: [{ uri: 'file:///work', name: 'work' }] } });
    const roots = (await server.nextMessage(isResponse(2))) as Json;
    assert.deepEqual(JSON.parse(text(roots)), { roots: [{ uri: 'file:///work', name: 'work' }] });
    await stop(server);
  });

  test('without --version it exits with code 2', async () => {
    const server = FixtureProcess.start('versioned.mjs');
    assert.deepEqual(await server.waitForExit(), { code: 2, signal: null });
  });
});

suite('fixture shapes.mjs', () => {
  test('wrong shapes, extra fields, and a tool that still works', async () => {
    const server = FixtureProcess.start('shapes.mjs');
    const init = await server.initialize('2025-06-18');
    assertInitializeResult(init, 'shapes', '2025-06-18');
    assert.equal(init['x-extra'], 1);

    const tools = await server.request(1, 'tools/list');
    assert.deepEqual(tools.result, { tools: 'not-an-array' });
    assert.equal(validateWire('2025-06-18', 'ListToolsResult', tools.result).ok, false);

    const resources = await server.request(2, 'resources/list');
    assert.equal(validateWire('2025-06-18', 'ListResourcesResult', resources.result).ok, false);
    assert.equal(((resources.result as Json).resources as Json[])[0].uri, undefined);

    const prompts = await server.request(3, 'prompts/list');
    assertMessage('2025-06-18', prompts, 'inbound', 'prompts/list');
    assert.equal((prompts.result as Json)['x-extra'], 1);

    const ok = await server.request(4, 'tools/call', { name: 'ok', arguments: {} });
    assert.deepEqual(ok.result, { content: [{ type: 'text', text: 'ok' }], 'x-extra': 1 });
    assertMessage('2025-06-18', ok, 'inbound', 'tools/call');

    assert.deepEqual((await server.request(5, 'ping')).result, {});
    await stop(server);
  });
});

suite('fixture misbehave.mjs', () => {
  test('every mode answers initialize and ping', async () => {
    for (const mode of ['never-answer', 'exit-mid-request', 'stray-responses', 'server-requests', 'paginate', 'slow-progress', 'noise']) {
      const server = FixtureProcess.start('misbehave.mjs', ['--mode', mode]);
      const init = await server.request(0, 'initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } });
      assertInitializeResult(init.result as Json, `misbehave-${mode}`, '2024-11-05');
      assertMessage('2024-11-05', init, 'inbound', 'initialize');
      assert.deepEqual((await server.request(1, 'ping')).result, {});
      const unknown = await server.request(2, 'no/such/method');
      assert.equal((unknown.error as Json).code, -32601);
      await stop(server);
    }
  });

  test('a wait counts from the first output, not from the spawn: a slow start does not eat the bound of one answer', async () => {
    // Silent for 1.5 s (a loaded machine's node start), then each answer comes at once: a 500 ms bound holds.
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'never-answer', '--start-delay', '1500']);
    const init = await server.request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }, 500);
    assertInitializeResult(init.result as Json, 'misbehave-never-answer', '2025-06-18');
    // Once it spoke, the bound is the bound: no answer within it is a timeout.
    server.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'hang', arguments: {} } });
    await server.waitForStderr(/^call 7$/);
    const waited = performance.now();
    await assert.rejects(server.nextMessage(isResponse(7), 300), /: timed out after 300 ms waiting for a matching message(;|$)/);
    assert.ok(performance.now() - waited < 3000);
    await stop(server);
  });

  test('an unknown mode exits with code 2', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'nonsense']);
    assert.deepEqual(await server.waitForExit(), { code: 2, signal: null });
  });

  test('never-answer: tools/call gets no answer; cancellation is written to stderr', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'never-answer']);
    await server.initialize();
    server.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'hang', arguments: {} } });
    await server.waitForStderr(/^call 7$/);
    await assert.rejects(server.nextMessage(isResponse(7), 200), /timed out/);
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'test' } });
    assert.equal(await server.waitForStderr(/^cancelled /), 'cancelled 7');
    assert.deepEqual((await server.request(8, 'ping')).result, {});
    await stop(server);
  });

  test('exit-mid-request: stderr "fatal: boom" and exit code 3', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'exit-mid-request']);
    await server.initialize();
    server.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'boom', arguments: {} } });
    assert.deepEqual(await server.waitForExit(), { code: 3, signal: null });
    // The exit can be seen before the last of stderr is read.
    assert.equal(await server.waitForStderr(/^fatal: boom$/), 'fatal: boom');
    assert.equal(server.messages.filter(isResponse(1)).length, 0);
  });

  test('stray-responses: unknown id, a doubled answer, and a batch', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'stray-responses']);
    await server.initialize();
    assert.deepEqual(await server.nextMessage(isResponse(424242)), { jsonrpc: '2.0', id: 424242, result: {} });

    server.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'twice', arguments: {} } });
    assert.equal(text((await server.nextMessage(isResponse(1))) as Json), 'first');
    assert.equal(text((await server.nextMessage(isResponse(1))) as Json), 'second');

    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'batch', arguments: {} } });
    const batch = (await server.nextMessage(Array.isArray)) as Json[];
    assert.equal(batch.length, 2);
    assert.equal(batch[0].method, 'notifications/message');
    assert.equal(batch[1].id, 2);
    assert.equal(text(batch[1]), 'batched');

    assert.equal(text(await server.request(3, 'tools/call', { name: 'ok', arguments: {} })), 'ok');
    await stop(server);
  });

  test('server-requests: foo/bar, roots/list and ping go to the client; replies are reported', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'server-requests']);
    await server.initialize('2025-06-18', { roots: {} });
    const methods = ['foo/bar', 'roots/list', 'ping'];
    const requests: Json[] = [];
    for (const method of methods) requests.push((await server.nextMessage(isRequest(method))) as Json);
    assert.deepEqual(requests.map((r) => r.id), ['s1', 's2', 's3']);

    const replies = [
      { jsonrpc: '2.0', id: 's1', error: { code: -32601, message: 'Method not found' } },
      { jsonrpc: '2.0', id: 's2', result: { roots: [] } },
      { jsonrpc: '2.0', id: 's3', result: {} },
    ];
    for (const reply of replies) server.send(reply);
    for (const reply of replies) assert.equal(await server.waitForStderr(new RegExp(`^got .*"${reply.id}"`)), `got ${JSON.stringify(reply)}`);
    const report = await server.request(1, 'tools/call', { name: 'report', arguments: {} });
    assert.deepEqual(JSON.parse(text(report)), replies);
    await stop(server);
  });

  test('paginate: three pages of two tools', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'paginate']);
    await server.initialize();
    const names: string[] = [];
    let cursor: unknown;
    let pages = 0;
    do {
      const page = (await server.request(++pages, 'tools/list', cursor === undefined ? {} : { cursor })).result as Json;
      names.push(...(page.tools as Json[]).map((t) => t.name as string));
      cursor = page.nextCursor;
    } while (cursor !== undefined && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual(names, ['t1', 't2', 't3', 't4', 't5', 't6']);
    // stderr is a pipe of its own: the last page's line may come after its answer on stdout.
    await server.waitForStderr(/^list page-3$/);
    assert.deepEqual(server.stderrLines, ['list start', 'list page-2', 'list page-3']);
    const bad = await server.request(99, 'tools/list', { cursor: 'page-4' });
    assert.equal((bad.error as Json).code, -32602);
    await stop(server);
  });

  test('paginate --endless: every page has a nextCursor', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'paginate', '--endless']);
    await server.initialize();
    let cursor: unknown;
    for (let page = 1; page <= 20; page++) {
      const result = (await server.request(page, 'tools/list', cursor === undefined ? {} : { cursor })).result as Json;
      assert.equal((result.tools as Json[])[1].name, `t${2 * page}`);
      cursor = result.nextCursor;
      assert.equal(cursor, `page-${page + 1}`);
    }
    await stop(server);
  });

  test('slow-progress: progress with the request token, then the answer; cancel stops it', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'slow-progress']);
    await server.initialize();
    const response = await server.request(1, 'tools/call', { name: 'slow', arguments: { steps: 3, intervalMs: 20 }, _meta: { progressToken: 'tok' } });
    assert.equal(text(response), 'done 3');
    const progress = server.messages.filter(isNotification('notifications/progress')) as Json[];
    assert.deepEqual(progress.map((p) => p.params), [1, 2, 3].map((progress) => ({ progressToken: 'tok', progress, total: 3 })));
    for (const p of progress) assertMessage('2025-06-18', p, 'inbound');

    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { steps: 50, intervalMs: 20 }, _meta: { progressToken: 7 } } });
    await server.nextMessage((m) => isNotification('notifications/progress')(m) && (m as { params: Json }).params.progressToken === 7);
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    assert.equal(await server.waitForStderr(/^cancelled/), 'cancelled 2');
    await assert.rejects(server.nextMessage(isResponse(2), 300), /timed out/);
    await stop(server);
  });

  test('noise: non-JSON lines before and between messages', async () => {
    const server = FixtureProcess.start('misbehave.mjs', ['--mode', 'noise']);
    await server.initialize();
    assert.equal(text(await server.request(1, 'tools/call', { name: 'ok', arguments: {} })), 'ok');
    assert.deepEqual(server.noise.slice(0, 2), ['noise: fixture server starting (this is not JSON)', '{ not json either']);
    assert.ok(server.noise.includes('noise: about to send a response to 1'));
    await stop(server);
  });
});

suite('fixture counter.mjs', () => {
  test('echoes a known protocol version, falls back to 2025-11-25', async () => {
    for (const [offered, expected] of [['2025-03-26', '2025-03-26'], ['2024-11-05', '2024-11-05'], ['2030-01-01', '2025-11-25']]) {
      const server = FixtureProcess.start('counter.mjs');
      assertInitializeResult(await server.initialize(offered), 'counter', expected);
      await stop(server);
    }
  });

  test('tools/list, echo, and a 10 MiB blob as one line', async () => {
    const server = FixtureProcess.start('counter.mjs');
    await server.initialize();
    const tools = await server.request(1, 'tools/list');
    assert.deepEqual(((tools.result as Json).tools as Json[]).map((t) => t.name), ['echo']);
    assertMessage('2025-06-18', tools, 'inbound', 'tools/list');
    const echo = await server.request(2, 'tools/call', { name: 'echo', arguments: { text: 'héllo' } });
    assert.deepEqual(echo.result, { content: [{ type: 'text', text: 'héllo' }] });

    const bytes = 10 * 1024 * 1024;
    const linesBefore = server.lineLengths.length;
    const blob = await server.request('blob', 'tools/call', { name: 'blob', arguments: { bytes } }, 15000);
    const content = (blob.result as { content: { type: string; text: string }[] }).content;
    assert.equal(content.length, 1);
    assert.equal(content[0].type, 'text');
    assert.equal(content[0].text.length, bytes);
    assert.equal(server.lineLengths.length, linesBefore + 1, 'the blob arrived as exactly one line');
    assert.ok(server.lineLengths[linesBefore] > bytes);

    // Same size again (served from the cache) and a different id.
    const again = await server.request(3, 'tools/call', { name: 'blob', arguments: { bytes: 5 } });
    assert.deepEqual(again.result, { content: [{ type: 'text', text: 'abcde' }] });
    assert.deepEqual((await server.request(4, 'ping')).result, {});
    await stop(server);
  });
});

suite('fixture counter.mjs --http', () => {
  test('Streamable HTTP on 127.0.0.1: session id on initialize, JSON answers, 202, 405, a 9 MiB blob, socket counts', async () => {
    const server = FixtureProcess.start('counter.mjs', ['--http']);
    const { port } = (await server.nextMessage((m) => isObject(m) && 'port' in m)) as { port: number };
    const url = `http://127.0.0.1:${port}/mcp`;
    const post = (message: Json) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(message) });

    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fixture-test', version: '0' } } });
    assert.equal(init.status, 200);
    assert.equal(init.headers.get('content-type'), 'application/json');
    assert.equal(init.headers.get('mcp-session-id'), 'counter-session');
    const initBody = (await init.json()) as Json;
    assertInitializeResult(initBody.result as Json, 'counter', '2025-06-18');
    assertMessage('2025-06-18', initBody, 'inbound', 'initialize');

    const notified = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(notified.status, 202);
    assert.equal(await notified.text(), '');
    const echo = (await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'héllo' } } })).json()) as Json;
    assert.deepEqual(echo, { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'héllo' }] } });
    assert.equal((await fetch(url)).status, 405, 'no server stream: GET is refused');

    const bytes = 9 * 1024 * 1024;
    const blob = await post({ jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'blob', arguments: { bytes } } });
    assert.equal(Number(blob.headers.get('content-length')), Buffer.byteLength(await blob.clone().text()));
    const blobBody = (await blob.json()) as { id: string; result: { content: { text: string }[] } };
    assert.equal(blobBody.id, 'b');
    assert.equal(blobBody.result.content[0].text.length, bytes);

    server.send({ command: 'stats' });
    const stats = (await server.nextMessage((m) => isObject(m) && 'open' in m)) as { open: number; total: number };
    assert.ok(stats.total >= 1 && stats.open >= 1 && stats.open <= stats.total, JSON.stringify(stats));
    await stop(server);
  });
});
