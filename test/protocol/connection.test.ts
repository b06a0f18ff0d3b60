import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import * as z from '../../src/protocol/zod';
import { ConnectionDiagnostic, JsonRpcConnection } from '../../src/protocol/connection';
import { McpLocalError, ResponseError, WireError } from '../../src/protocol/errors';
import { MemoryTransport } from './memoryTransport';

const open: MemoryTransport[] = [];
afterEach(() => {
  for (const t of open.splice(0)) t.exit();
});

function setup(options: { defaultTimeoutMs?: number; uncancellableMethods?: string[] } = {}) {
  const transport = new MemoryTransport();
  open.push(transport);
  const connection = new JsonRpcConnection(transport, options);
  const diagnostics: ConnectionDiagnostic[] = [];
  connection.onDiagnostic((d) => diagnostics.push(d));
  return { transport, connection, diagnostics };
}

const isRequest = (method: string) => (m: any) => m.method === method && m.id !== undefined;
const isCancel = (m: any) => m.method === 'notifications/cancelled';

describe('JsonRpcConnection', () => {
  test('ids are unique and never reused, and responses resolve the right caller', async () => {
    const { transport, connection } = setup();
    const a = connection.request('a', {});
    const b = connection.request('b', {});
    const [ra, rb] = [await transport.next(isRequest('a')), await transport.next(isRequest('b'))];
    assert.notEqual(ra.id, rb.id);
    transport.deliver({ jsonrpc: '2.0', id: rb.id, result: { who: 'b' } });
    transport.deliver({ jsonrpc: '2.0', id: ra.id, result: { who: 'a' } });
    assert.deepEqual(await a, { who: 'a' });
    assert.deepEqual(await b, { who: 'b' });
    const c = connection.request('c', {});
    const rc = await transport.next(isRequest('c'));
    assert.ok(![ra.id, rb.id].includes(rc.id));
    transport.deliver({ jsonrpc: '2.0', id: rc.id, result: {} });
    await c;
  });

  test('a wire error becomes a ResponseError with code, message and data', async () => {
    const { transport, connection } = setup();
    const p = connection.request('tools/call', { name: 'x' });
    const req = await transport.next(isRequest('tools/call'));
    transport.deliver({ jsonrpc: '2.0', id: req.id, error: { code: -32602, message: 'Unknown tool', data: { name: 'x' } } });
    await assert.rejects(p, (e: unknown) => e instanceof ResponseError && e.code === -32602 && e.wireMessage === 'Unknown tool' && (e.data as any).name === 'x');
    assert.equal(connection.stats().errors, 1);
  });

  test('unknown server→client method gets -32601, a throwing handler -32603 without a stack', async () => {
    const { transport, connection } = setup();
    connection.onRequest('boom', () => {
      throw new Error('handler exploded');
    });
    connection.onRequest('coded', () => {
      throw new WireError(-1, 'User rejected');
    });
    transport.deliver({ jsonrpc: '2.0', id: 'x1', method: 'nope/nothing' });
    transport.deliver({ jsonrpc: '2.0', id: 'x2', method: 'boom' });
    transport.deliver({ jsonrpc: '2.0', id: 'x3', method: 'coded' });
    const r1 = await transport.next((m) => m.id === 'x1');
    const r2 = await transport.next((m) => m.id === 'x2');
    const r3 = await transport.next((m) => m.id === 'x3');
    assert.equal(r1.error.code, -32601);
    assert.match(r1.error.message, /nope\/nothing/);
    assert.equal(r2.error.code, -32603);
    assert.equal(r2.error.message, 'handler exploded');
    assert.equal(JSON.stringify(r2).includes('at '), false, 'no stack trace on the wire');
    assert.deepEqual(r3.error, { code: -1, message: 'User rejected' });
  });

  test('timeout rejects with a clear local error, sends notifications/cancelled, and a late answer is ignored', async () => {
    const { transport, connection, diagnostics } = setup();
    const p = connection.request('tools/call', { name: 'slow' }, undefined, { timeoutMs: 50 });
    const req = await transport.next(isRequest('tools/call'));
    await assert.rejects(p, (e: unknown) => McpLocalError.is(e, 'timeout') && /tools\/call timed out after 50 ms/.test(e.message));
    const cancel = await transport.next(isCancel);
    assert.equal(cancel.params.requestId, req.id);
    transport.deliver({ jsonrpc: '2.0', id: req.id, result: { late: true } });
    assert.equal(diagnostics.at(-1)?.kind, 'late-response');
    assert.equal(connection.stats().timeouts, 1);
  });

  test('initialize is never cancelled on the wire', async () => {
    const { transport, connection } = setup({ uncancellableMethods: ['initialize'] });
    const p = connection.request('initialize', {}, undefined, { timeoutMs: 30 });
    await assert.rejects(p, (e: unknown) => McpLocalError.is(e, 'timeout'));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(transport.sent.filter(isCancel).length, 0);
  });

  test('an AbortSignal cancels: the caller rejects and the server is told why', async () => {
    const { transport, connection } = setup();
    const ac = new AbortController();
    const p = connection.request('tools/call', {}, undefined, { signal: ac.signal });
    const req = await transport.next(isRequest('tools/call'));
    ac.abort('user pressed Cancel');
    await assert.rejects(p, (e: unknown) => McpLocalError.is(e, 'cancelled') && /user pressed Cancel/.test(e.message));
    const cancel = await transport.next(isCancel);
    assert.deepEqual(cancel.params, { requestId: req.id, reason: 'user pressed Cancel' });
  });

  test('progress gets a unique token per call and is routed to its caller; reset-on-progress keeps the call alive up to a hard maximum', async () => {
    const { transport, connection } = setup();
    const seenA: number[] = [];
    const seenB: number[] = [];
    const a = connection.request('tools/call', { name: 'a' }, undefined, { onProgress: (p) => seenA.push(p.progress), timeoutMs: 80, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 10_000 });
    const b = connection.request('tools/call', { name: 'b' }, undefined, { onProgress: (p) => seenB.push(p.progress) });
    const ra = await transport.next((m) => m.params?.name === 'a');
    const rb = await transport.next((m) => m.params?.name === 'b');
    const ta = ra.params._meta.progressToken;
    const tb = rb.params._meta.progressToken;
    assert.notEqual(ta, tb);
    // Progress every 50 ms for 200 ms: longer than the 80 ms timeout, but each one resets it.
    for (let i = 1; i <= 4; i++) {
      await new Promise((r) => setTimeout(r, 50));
      transport.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: ta, progress: i, total: 4 } });
    }
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: tb, progress: 7 } });
    transport.deliver({ jsonrpc: '2.0', id: ra.id, result: { ok: 'a' } });
    transport.deliver({ jsonrpc: '2.0', id: rb.id, result: { ok: 'b' } });
    assert.deepEqual(await a, { ok: 'a' });
    await b;
    assert.deepEqual(seenA, [1, 2, 3, 4]);
    assert.deepEqual(seenB, [7]);

    const capped = connection.request('tools/call', { name: 'c' }, undefined, { onProgress: () => {}, timeoutMs: 60, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 150 });
    const rc = await transport.next((m) => m.params?.name === 'c');
    const ticker = setInterval(() => transport.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: rc.params._meta.progressToken, progress: 1 } }), 30);
    await assert.rejects(capped, (e: unknown) => McpLocalError.is(e, 'timeout') && /maximum total time of 150 ms/.test(e.message));
    clearInterval(ticker);
  });

  test('stray and duplicate responses are dropped with a diagnostic; batches are unpacked', async () => {
    const { transport, connection, diagnostics } = setup();
    const notes: unknown[] = [];
    connection.onNotification('notifications/message', (p) => notes.push(p));
    transport.deliver({ jsonrpc: '2.0', id: 999, result: {} });
    assert.equal(diagnostics.at(-1)?.kind, 'stray-response');
    const p = connection.request('x', {});
    const req = await transport.next(isRequest('x'));
    transport.deliver([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'in a batch' } },
      { jsonrpc: '2.0', id: req.id, result: { first: true } },
    ]);
    assert.deepEqual(await p, { first: true });
    assert.deepEqual(notes, [{ level: 'info', data: 'in a batch' }]);
    transport.deliver({ jsonrpc: '2.0', id: req.id, result: { second: true } });
    assert.equal(diagnostics.at(-1)?.kind, 'stray-response');
    assert.ok(diagnostics.some((d) => d.kind === 'batch'));
    // The connection still works.
    const q = connection.request('y', {});
    const rq = await transport.next(isRequest('y'));
    transport.deliver({ jsonrpc: '2.0', id: rq.id, result: {} });
    await q;
  });

  test('a result of the wrong shape rejects only that call, naming the field; unknown fields are kept', async () => {
    const { transport, connection } = setup();
    const schema = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) });
    const bad = connection.request('tools/list', {}, schema);
    const r1 = await transport.next(isRequest('tools/list'));
    transport.deliver({ jsonrpc: '2.0', id: r1.id, result: { tools: 'nope' } });
    await assert.rejects(bad, (e: unknown) => McpLocalError.is(e, 'invalid-result') && e.message === 'tools/list: result.tools must be an array');
    const nested = connection.request('tools/list', { again: 1 }, schema);
    const r2 = await transport.next((m) => m.params?.again === 1);
    transport.deliver({ jsonrpc: '2.0', id: r2.id, result: { tools: [{ name: 'ok' }, { title: 'no name' }] } });
    await assert.rejects(nested, (e: unknown) => McpLocalError.is(e, 'invalid-result') && e.message === 'tools/list: result.tools[1].name is required');
    const good = connection.request('tools/list', { third: 1 }, schema);
    const r3 = await transport.next((m) => m.params?.third === 1);
    transport.deliver({ jsonrpc: '2.0', id: r3.id, result: { tools: [{ name: 'a', 'x-vendor': 1 }], extra: 'kept' } });
    assert.deepEqual(await good, { tools: [{ name: 'a', 'x-vendor': 1 }], extra: 'kept' });
  });

  test('an invalid request from the peer gets -32600; invalid messages never crash', async () => {
    const { transport, diagnostics } = setup();
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 'x', params: 'not an object' });
    const r = await transport.next((m) => m.id === 5);
    assert.equal(r.error.code, -32600);
    transport.deliver('a string');
    transport.deliver({ hello: 'world' });
    transport.deliver([]);
    assert.ok(diagnostics.filter((d) => d.kind === 'invalid-message').length >= 3);
  });

  test('the peer cancelling our handler aborts its signal and suppresses the answer', async () => {
    const { transport, connection } = setup();
    let aborted = '';
    connection.onRequest('sampling/createMessage', (_p, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => ((aborted = String(ctx.signal.reason)), resolve({ late: true })))));
    transport.deliver({ jsonrpc: '2.0', id: 'q', method: 'sampling/createMessage', params: {} });
    await new Promise((r) => setTimeout(r, 10));
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'q', reason: 'no longer needed' } });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(aborted, 'no longer needed');
    assert.equal(transport.sent.filter((m) => m.id === 'q').length, 0);
  });

  test('while a request of the peer waits on the user, our timeouts are paused, and the panel is told', async () => {
    const { transport, connection } = setup();
    let release: (() => void) | undefined;
    connection.onRequest('elicitation/create', (_params, ctx) => {
      const hold = ctx.waitOnUser();
      return new Promise((resolve) => (release = () => (hold.dispose(), resolve({ action: 'accept', content: {} }))));
    });
    const paused: boolean[] = [];
    const call = connection.request('tools/call', { name: 'ask' }, undefined, { timeoutMs: 80, mayAskUser: true, onTimeoutPaused: (p) => paused.push(p) });
    const req = await transport.next(isRequest('tools/call'));
    transport.deliver({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: {} });
    await new Promise((r) => setTimeout(r, 250)); // the user takes three timeouts' worth
    assert.deepEqual(paused, [true]);
    assert.equal(connection.stats().inFlight, 1, 'the call is still alive');
    release!();
    const answer = await transport.next((m) => m.id === 'e1');
    assert.deepEqual(answer.result, { action: 'accept', content: {} });
    assert.deepEqual(paused, [true, false]);
    transport.deliver({ jsonrpc: '2.0', id: req.id, result: { content: [] } });
    assert.deepEqual(await call, { content: [] });
    assert.equal(transport.sent.filter(isCancel).length, 0, 'nothing was cancelled');
  });

  test('the time the user spends answering is counted apart from the latency, and only for requests that may ask', async () => {
    const { transport, connection } = setup();
    let release: (() => void) | undefined;
    connection.onRequest('elicitation/create', (_params, ctx) => {
      const hold = ctx.waitOnUser();
      return new Promise((resolve) => (release = () => (hold.dispose(), resolve({ action: 'decline' }))));
    });
    const started = Date.now();
    const call = connection.request('tools/call', {}, undefined, { mayAskUser: true });
    const background = connection.request('tools/list', {});
    const req = await transport.next(isRequest('tools/call'));
    const list = await transport.next(isRequest('tools/list'));
    transport.deliver({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: {} });
    await new Promise((r) => setTimeout(r, 250)); // the user takes a while
    release!();
    await transport.next((m) => m.id === 'e1');
    transport.deliver({ jsonrpc: '2.0', id: list.id, result: { tools: [] } });
    transport.deliver({ jsonrpc: '2.0', id: req.id, result: { content: [] } });
    await Promise.all([call, background]);
    const total = Date.now() - started;
    const stats = connection.stats();
    const callStats = stats.byMethod['tools/call']!;
    assert.equal(callStats.userWait.requests, 1);
    assert.ok(callStats.userWait.totalMs >= 240, `the user's time is counted (${callStats.userWait.totalMs} ms)`);
    assert.ok(callStats.max! + callStats.userWait.totalMs <= total, 'the latency leaves the user’s time out');
    assert.deepEqual(stats.byMethod['tools/list']!.userWait, { requests: 0, totalMs: 0 }, 'a request that cannot ask the user waits on no one');
    assert.deepEqual(stats.userWait, callStats.userWait);
  });

  test('after the user answered, the timeout runs again with what it had left; the hard maximum never pauses', async () => {
    const { transport, connection } = setup();
    connection.onRequest('elicitation/create', (_params, ctx) => {
      const hold = ctx.waitOnUser();
      return new Promise((resolve) => setTimeout(() => (hold.dispose(), resolve({ action: 'decline' })), 60));
    });
    const call = connection.request('tools/call', {}, undefined, { timeoutMs: 100, mayAskUser: true });
    await transport.next(isRequest('tools/call'));
    transport.deliver({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: {} });
    await transport.next((m) => m.id === 'e1');
    await assert.rejects(call, (e: unknown) => McpLocalError.is(e, 'timeout'));

    const capped = connection.request('tools/call', {}, undefined, { timeoutMs: 1000, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 100, onProgress: () => {}, mayAskUser: true });
    await transport.next((m) => m.method === 'tools/call' && m.id !== undefined && m.id !== 1);
    connection.onRequest('sampling/createMessage', (_params, ctx) => {
      ctx.waitOnUser();
      return new Promise(() => {});
    });
    transport.deliver({ jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: {} });
    await assert.rejects(capped, (e: unknown) => McpLocalError.is(e, 'timeout') && /maximum total time of 100 ms/.test(e.message));
  });

  test('when the call a request of the peer came with ends, the request is closed and answered with an error', async () => {
    const { transport, connection } = setup();
    let signal: AbortSignal | undefined;
    connection.onRequest('elicitation/create', (_params, ctx) => {
      signal = ctx.signal;
      ctx.waitOnUser();
      return new Promise(() => {});
    });
    const abort = new AbortController();
    const call = connection.request('tools/call', {}, undefined, { timeoutMs: 5000, mayAskUser: true, signal: abort.signal });
    const background = connection.request('tools/list', {});
    await transport.next(isRequest('tools/call'));
    const list = await transport.next(isRequest('tools/list'));
    transport.deliver({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: {} });
    await new Promise((r) => setTimeout(r, 10));
    transport.deliver({ jsonrpc: '2.0', id: list.id, result: { tools: [] } });
    await background;
    assert.equal(signal?.aborted, false, 'a request that cannot ask the user does not count');
    abort.abort('the user pressed Cancel');
    await assert.rejects(call, (e: unknown) => McpLocalError.is(e, 'cancelled'));
    assert.equal(signal?.aborted, true);
    assert.ok(McpLocalError.is(signal?.reason, 'cancelled') && /tools\/call request .* has ended/.test(signal.reason.message));
    const answer = await transport.next((m) => m.id === 'e1');
    assert.equal(answer.error.code, -32603);
    assert.match(answer.error.message, /Cancelled by the client: the tools\/call request/);
  });

  test('a request of the peer that does not ask the user (roots/list) is answered even if the call ends first', async () => {
    const { transport, connection } = setup();
    connection.onRequest('roots/list', () => ({ roots: [] }));
    const call = connection.request('tools/call', {}, undefined, { mayAskUser: true });
    const req = await transport.next(isRequest('tools/call'));
    // Both in one read: the request is handled after the response was.
    transport.deliver({ jsonrpc: '2.0', id: 'r1', method: 'roots/list' });
    transport.deliver({ jsonrpc: '2.0', id: req.id, result: {} });
    await call;
    const answer = await transport.next((m) => m.id === 'r1');
    assert.deepEqual(answer.result, { roots: [] });
  });

  test('a request of the peer that arrived while nothing of ours was in flight stays open', async () => {
    const { transport, connection } = setup();
    let signal: AbortSignal | undefined;
    connection.onRequest('elicitation/create', (_params, ctx) => {
      signal = ctx.signal;
      return new Promise(() => {});
    });
    transport.deliver({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: {} });
    await new Promise((r) => setTimeout(r, 10));
    const call = connection.request('tools/call', {}, undefined, { mayAskUser: true });
    const req = await transport.next(isRequest('tools/call'));
    transport.deliver({ jsonrpc: '2.0', id: req.id, result: {} });
    await call;
    assert.equal(signal?.aborted, false);
  });

  test('close() cancels pending requests on the wire before the transport closes', async () => {
    const { transport, connection } = setup();
    const p = connection.request('tools/call', {});
    const req = await transport.next(isRequest('tools/call'));
    await connection.close();
    await assert.rejects(p, (e: unknown) => McpLocalError.is(e, 'closed'));
    const cancel = transport.sent.find(isCancel);
    assert.equal(cancel.params.requestId, req.id);
    await assert.rejects(connection.request('after', {}), (e: unknown) => McpLocalError.is(e, 'closed'));
  });

  test('when the server exits, pending requests reject naming the exit code and last stderr lines', async () => {
    const { transport, connection } = setup();
    const p = connection.request('tools/call', {});
    await transport.next(isRequest('tools/call'));
    transport.exit({ code: 3, stderrTail: ['starting', 'fatal: boom'] });
    await assert.rejects(p, (e: unknown) => McpLocalError.is(e, 'server-exited') && /exited with code 3/.test(e.message) && /fatal: boom/.test(e.message));
  });

  test('every message reaches the transport serialised once, with what it is', async () => {
    const { transport, connection } = setup();
    connection.onRequest('roots/list', () => ({ roots: [] }));
    connection.onRequest('boom', () => {
      throw new WireError(-32001, 'no');
    });
    const call = connection.request('tools/call', { name: 'x' });
    await connection.notify('notifications/initialized');
    transport.deliver({ jsonrpc: '2.0', id: 'r1', method: 'roots/list' });
    transport.deliver({ jsonrpc: '2.0', id: 'r2', method: 'boom' });
    await transport.next((m) => m.id === 'r2');
    const request = transport.sent[0];
    assert.deepEqual(transport.kinds, [
      { kind: 'request', id: request.id, method: 'tools/call' },
      { kind: 'notification', method: 'notifications/initialized' },
      { kind: 'response', id: 'r1' },
      { kind: 'response', id: 'r2' },
    ]);
    transport.deliver({ jsonrpc: '2.0', id: request.id, result: {} });
    await call;
  });

  test('a request the transport could not deliver fails with the transport\'s own error and details', async () => {
    const { transport, connection } = setup();
    transport.failNextSend = new McpLocalError('transport', 'HTTP 503 from http://127.0.0.1:9/mcp', { status: 503, url: 'http://127.0.0.1:9/mcp' });
    await assert.rejects(connection.request('tools/list', {}), (e: unknown) => {
      assert.ok(McpLocalError.is(e, 'transport'));
      assert.equal(e.message, 'tools/list: HTTP 503 from http://127.0.0.1:9/mcp');
      assert.equal(e.details.status, 503);
      return true;
    });
    assert.equal(connection.stats().errors, 1);
    assert.ok(connection.isOpen, 'one failed POST does not close the connection');
  });

  test('when an HTTP transport closes, pending requests reject with a transport error naming the reason', async () => {
    const { transport, connection } = setup();
    const p = connection.request('tools/call', {});
    await transport.next(isRequest('tools/call'));
    const reason = { kind: 'session-expired', url: 'http://127.0.0.1:9/mcp' } as const;
    transport.fireClose({ reason });
    await assert.rejects(p, (e: unknown) => McpLocalError.is(e, 'transport') && e.message === 'tools/call: the server ended the session (HTTP 404 at http://127.0.0.1:9/mcp)' && e.details.reason === reason);
  });

  test('every frame is seen with direction, size and time', async () => {
    const { transport, connection } = setup();
    const frames: Array<{ direction: string; bytes: number; time: number }> = [];
    connection.onFrame((f) => frames.push(f));
    const p = connection.request('ping', undefined);
    const req = await transport.next(isRequest('ping'));
    transport.deliver({ jsonrpc: '2.0', id: req.id, result: {} });
    await p;
    assert.deepEqual(frames.map((f) => f.direction), ['send', 'receive']);
    assert.equal(frames[0].bytes, JSON.stringify(req).length);
    assert.ok(frames.every((f) => f.time > 0));
  });
});
