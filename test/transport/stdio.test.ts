import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, test } from 'node:test';
import { McpLocalError } from '../../src/protocol/errors';
import { isPidAlive } from '../../src/transport/processTree';
import { exitOf, fixture, frame, RecordedTransport, stdinOf } from './stdioHarness';

const node = process.execPath;
const posix = process.platform !== 'win32';

/** Starts a fixture server, runs `body`, and always closes it. */
async function withServer(script: string, args: string[], body: (server: RecordedTransport) => Promise<void>, options: { maxMessageBytes?: number } = {}): Promise<void> {
  const server = new RecordedTransport({ command: node, args: [fixture(script), ...args], ...options });
  await server.transport.start();
  try {
    await body(server);
  } finally {
    await server.transport.close();
  }
}

describe('StdioTransport', () => {
  test('exchanges messages and closes gracefully when the server exits on end of stdin', async () => {
    const server = new RecordedTransport({ command: node, args: [fixture('echo.mjs')], closeGraceMs: 10_000 });
    await server.transport.start();
    const pid = server.transport.stats().process?.pid!;
    assert.ok(pid > 0);
    await server.transport.send(frame({ jsonrpc: '2.0', id: 1, method: 'ping', params: { text: 'grüß dich' } }));
    const reply = await server.message({ id: 1 });
    assert.deepEqual(reply.result.echo, { text: 'grüß dich' });
    assert.equal(reply.result.pid, pid);

    await server.transport.close();
    const info = await server.closed;
    assert.equal(exitOf(info).code, 0);
    assert.equal(server.logsOf('lifecycle').some((l) => l.includes('SIGTERM')), false);
    assert.equal(await isPidAlive(pid), false);

    const stats = server.transport.stats();
    assert.equal(stats.messagesSent, 1);
    assert.equal(stats.messagesReceived, 1);
    assert.ok(stats.bytesSent > 50 && stats.bytesReceived > 50);
    assert.ok(stats.startedAt! <= Date.now());
    await assert.rejects(server.transport.send(frame({})), (e) => McpLocalError.is(e, 'closed'));
  });

  test('skips banners and junk between valid messages', async () => {
    await withServer('noise.mjs', [], async (server) => {
      await server.message({ method: 'notifications/three' });
      assert.deepEqual(
        server.messages.map((m) => (m.message as { method: string }).method),
        ['notifications/one', 'notifications/two', 'notifications/three'],
      );
      assert.deepEqual(server.logsOf('noise'), ['Weather MCP server v1.2.3 starting...', 'null', 'Debugger attached.']);
      assert.equal(server.logsOf('invalid-json').length, 2);
      assert.equal(server.transport.stats().noiseLines, 5);
    });
  });

  test('reassembles a multi-byte character split across two writes 100 ms apart', async () => {
    await withServer('split-utf8.mjs', [], async (server) => {
      const m = await server.message({ method: 'notifications/text' });
      assert.equal(m.params.text, 'héllo € 𝄞 日本');
      assert.deepEqual(server.logs.filter((l) => l.kind !== 'lifecycle'), []);
    });
  });

  test('drops an oversize line, reports it once, and delivers the next message', async () => {
    await withServer(
      'oversize.mjs',
      ['300000'],
      async (server) => {
        await server.message({ method: 'notifications/after' });
        assert.equal(server.messages.length, 1);
        const oversize = server.logsOf('oversize');
        assert.equal(oversize.length, 1);
        assert.match(oversize[0], /64 KiB limit/);
        assert.match(oversize[0], /at least \d+ bytes dropped/);
      },
      { maxMessageBytes: 64 * 1024 },
    );
  });

  test('reports a server that exits mid-stream with its exit code and stderr tail', async () => {
    const server = new RecordedTransport({ command: node, args: [fixture('crash.mjs')] });
    await server.transport.start();
    const info = await server.closed;
    const exit = exitOf(info);
    assert.equal(exit.code, 3);
    assert.equal(exit.signal, null);
    assert.equal(exit.stderrTail.length, 20);
    assert.equal(exit.stderrTail[0], 'err line 6');
    assert.equal(exit.stderrTail[19], 'fatal: out of cheese');
    // The message before the crash arrived; the cut-off one was reported, not delivered.
    assert.deepEqual(server.messages.map((m) => (m.message as { method: string }).method), ['notifications/first']);
    assert.equal(server.logsOf('invalid-json').length, 1);
    assert.equal(server.logsOf('stderr').length, 26);
    await assert.rejects(server.transport.send(frame({})), (e) => McpLocalError.is(e, 'closed') && /exited/.test(e.message));
    await server.transport.close();
    assert.equal(server.closes.length, 1, 'onClose fires exactly once');
  });

  test('a missing command is reported with the command and the PATH searched', async () => {
    const server = new RecordedTransport({ command: 'mcp-no-such-server', env: { PATH: '/nonexistent/a:/nonexistent/b' } });
    await assert.rejects(server.transport.start(), (e: unknown) => {
      assert.ok(McpLocalError.is(e, 'spawn'));
      assert.match(e.message, /"mcp-no-such-server"/);
      assert.match(e.message, /\/nonexistent\/a:\/nonexistent\/b/);
      return true;
    });
    const info = await server.closed;
    assert.equal(info.reason.kind, 'start-failed');
    assert.ok(McpLocalError.is(info.error, 'spawn'));
    await server.transport.close();
    assert.equal(server.closes.length, 1);
  });

  test('env is laid over ours (undefined unsets a variable) and cwd is honoured', async () => {
    process.env.MCP_HOST_TEST_INHERITED = 'inherited';
    process.env.MCP_HOST_TEST_REMOVED = 'removed';
    try {
      const script = `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'env', params: { cwd: process.cwd(), inherited: process.env.MCP_HOST_TEST_INHERITED ?? null, removed: process.env.MCP_HOST_TEST_REMOVED ?? null, added: process.env.MCP_HOST_TEST_ADDED ?? null } }) + '\\n')`;
      const cwd = realpathSync(tmpdir());
      const server = new RecordedTransport({ command: node, args: ['-e', script], cwd, env: { MCP_HOST_TEST_ADDED: 'added', MCP_HOST_TEST_REMOVED: undefined } });
      await server.transport.start();
      const m = await server.message({ method: 'env' });
      assert.deepEqual(m.params, { cwd, inherited: 'inherited', removed: null, added: 'added' });
      await server.transport.close();
    } finally {
      delete process.env.MCP_HOST_TEST_INHERITED;
      delete process.env.MCP_HOST_TEST_REMOVED;
    }
  });

  test('a missing working directory is reported as such, not as a missing command', async () => {
    const server = new RecordedTransport({ command: node, cwd: '/nonexistent/dir' });
    await assert.rejects(server.transport.start(), /working directory \/nonexistent\/dir does not exist/);
  });

  test('close() before start() fires onClose once and start() then rejects', async () => {
    const server = new RecordedTransport({ command: node });
    await server.transport.close();
    assert.deepEqual(await server.closed, { reason: { kind: 'closed-by-client' } });
    await assert.rejects(server.transport.start(), (e) => McpLocalError.is(e, 'closed'));
    assert.equal(server.closes.length, 1);
  });

  test('close() is idempotent and a second call while closing skips the grace periods', async () => {
    const server = new RecordedTransport({ command: node, args: [fixture('echo.mjs'), '--ignore-eof', '--ignore-term'], closeGraceMs: 10_000, termGraceMs: 10_000 });
    await server.transport.start();
    // A reply means the SIGTERM handler is installed.
    await server.transport.send(frame({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    await server.message({ id: 1 });
    const first = server.transport.close();
    assert.equal(server.transport.close(), first);
    await first;
    assert.equal(exitOf(await server.closed).signal, 'SIGKILL');
    assert.equal(server.logsOf('lifecycle').some((l) => l.includes('SIGTERM')), false);
    assert.equal(server.transport.close(), first);
  });

  test('dispose() closes the server and does not force a close in progress', async () => {
    // A generous grace: the server exits on its own once stdin ends, however slow its start.
    const server = new RecordedTransport({ command: node, args: [fixture('echo.mjs')], closeGraceMs: 10_000 });
    await server.transport.start();
    const pid = server.transport.stats().process?.pid!;
    const closing = server.transport.close();
    // dispose() after close() must not force the shutdown (no signals for a server that exits on its own).
    server.transport.dispose();
    await closing;
    assert.equal(exitOf(await server.closed).code, 0);
    assert.equal(await isPidAlive(pid), false);
    assert.equal(server.logsOf('lifecycle').some((l) => /SIG|forced|again/.test(l)), false);
  });

  test('dispose() before start() closes the transport', async () => {
    const server = new RecordedTransport({ command: node });
    server.transport.dispose();
    assert.deepEqual(await server.closed, { reason: { kind: 'closed-by-client' } });
    await assert.rejects(server.transport.start(), (e) => McpLocalError.is(e, 'closed'));
  });

  test('send() respects back-pressure with one drain listener and keeps order', { timeout: 30_000 }, async () => {
    await withServer('slow-reader.mjs', [], async (server) => {
      const stdin = stdinOf(server.transport);
      const drainListenersBefore = stdin.listenerCount('drain');
      assert.ok(drainListenersBefore <= 1);
      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on('warning', onWarning);

      const payload = 'x'.repeat(64 * 1024);
      const count = 100;
      let maxListeners = 0;
      const sends: Promise<void>[] = [];
      for (let seq = 0; seq < count; seq++) {
        sends.push(server.transport.send(frame({ jsonrpc: '2.0', method: 'data', params: { seq, payload } })));
        maxListeners = Math.max(maxListeners, stdin.listenerCount('drain'));
      }
      // The stream holds at most one message above its high-water mark; the rest wait in order.
      assert.ok(stdin.writableLength < 2 * 64 * 1024 + stdin.writableHighWaterMark, `buffered ${stdin.writableLength}`);
      const sampler = setInterval(() => (maxListeners = Math.max(maxListeners, stdin.listenerCount('drain'))), 5);
      await Promise.all(sends);
      clearInterval(sampler);
      process.off('warning', onWarning);

      await server.transport.send(frame({ jsonrpc: '2.0', id: 1, method: 'report' }));
      const report = await server.message({ id: 1 });
      assert.equal(report.result.count, count);
      assert.equal(report.result.inOrder, true);
      assert.ok(maxListeners <= 1, `drain listeners: ${maxListeners}`);
      assert.deepEqual(warnings, []);
      assert.equal(server.transport.stats().messagesSent, count + 1);
    });
  });

  test('the sends of one tick go out in a few writes, in order, a large message among them intact', async () => {
    await withServer('echo.mjs', [], async (server) => {
      const stdin = stdinOf(server.transport);
      const write = stdin.write;
      let writes = 0;
      stdin.write = function (this: typeof stdin, ...args: unknown[]) {
        writes++;
        return (write as (...a: unknown[]) => boolean).apply(this, args);
      } as typeof stdin.write;
      const big = 'ü'.repeat(150 * 1024);
      const sends: Promise<void>[] = [];
      let bytes = 0;
      for (let id = 1; id <= 401; id++) {
        const params = id === 201 ? { big } : { n: id };
        const out = frame({ jsonrpc: '2.0', id, method: 'ping', params });
        bytes += Buffer.byteLength(out.json) + 1;
        sends.push(server.transport.send(out));
      }
      await Promise.all(sends);
      stdin.write = write;
      const last = await server.message({ id: 401 });
      assert.deepEqual(last.result.echo, { n: 401 });
      const ids = server.messages.map((m) => (m.message as { id: number }).id);
      assert.deepEqual(ids, Array.from({ length: 401 }, (_, i) => i + 1), 'answers in the order sent');
      assert.equal((server.messages[200].message as { result: { echo: { big: string } } }).result.echo.big, big);
      assert.ok(writes <= 5, `${writes} writes for 401 messages`);
      const stats = server.transport.stats();
      assert.equal(stats.messagesSent, 401);
      assert.equal(stats.bytesSent, bytes, 'bytes counted once per message, newline included');
    });
  });

  test('a flood of output is handed on a slice per turn, in order, so the host keeps answering', async () => {
    // 5,000 notifications in one write: the pipe gives them 64 KiB (about 1,000) per read.
    const script = `const out = []; for (let i = 0; i < 5000; i++) out.push(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/n', params: { i } })); process.stdout.write(out.join('\\n') + '\\n'); setInterval(() => {}, 1000);`;
    const server = new RecordedTransport({ command: node, args: ['-e', script] });
    let turn = 0;
    let ticking = true;
    const tick = (): void => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const perTurn = new Map<number, number>();
    server.transport.onMessage(() => perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1));
    await server.transport.start();
    try {
      await server.until(() => server.messages.length >= 5000, '5,000 notifications', 15_000);
      ticking = false;
      assert.deepEqual(server.messages.map((m) => (m.message as { params: { i: number } }).params.i), Array.from({ length: 5000 }, (_, i) => i), 'in the order written');
      const most = Math.max(...perTurn.values());
      // A slice is 16 KiB to the next newline: 257 of these 64-byte lines. A whole read would be 1,024.
      assert.ok(most <= 260, `${most} messages handed on in one turn`);
      assert.ok(perTurn.size >= 19, `the 5,000 came in ${perTurn.size} turns`);
    } finally {
      ticking = false;
      await server.transport.close();
    }
  });

  test('a server that floods and exits at once has all its output handed on before the close', async () => {
    const script = `const out = []; for (let i = 0; i < 5000; i++) out.push(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/n', params: { i } })); process.stdout.write(out.join('\\n') + '\\n', () => process.exit(3));`;
    const server = new RecordedTransport({ command: node, args: ['-e', script] });
    let atClose = -1;
    server.transport.onClose(() => (atClose = server.messages.length));
    await server.transport.start();
    const info = await server.closed;
    assert.equal(exitOf(info).code, 3);
    assert.equal(atClose, 5000, 'every message came before the close');
  });

  test('a message sent in the same tick as close() still reaches the server', async () => {
    const server = new RecordedTransport({ command: node, args: [fixture('echo.mjs')], closeGraceMs: 5_000 });
    await server.transport.start();
    const sent = server.transport.send(frame({ jsonrpc: '2.0', id: 7, method: 'ping', params: { last: true } }));
    const closing = server.transport.close();
    await sent;
    const reply = await server.message({ id: 7 });
    assert.deepEqual(reply.result.echo, { last: true });
    await closing;
    assert.equal(exitOf(await server.closed).code, 0, 'the server read it and exited on end of stdin');
  });

  test('queued sends are rejected when the transport closes', async () => {
    await withServer('slow-reader.mjs', [], async (server) => {
      const payload = 'y'.repeat(256 * 1024);
      const sends = Array.from({ length: 20 }, (_, seq) => server.transport.send(frame({ jsonrpc: '2.0', method: 'data', params: { seq, payload } })));
      const settled = Promise.allSettled(sends);
      await server.transport.close();
      const results = await settled;
      const rejected = results.filter((r) => r.status === 'rejected');
      assert.ok(rejected.length > 0);
      for (const r of rejected) assert.ok(McpLocalError.is((r as PromiseRejectedResult).reason, 'closed'));
    });
  });

  test('a server wrapped in sh -c is stopped with everything it started', { skip: !posix }, async () => {
    // `; echo after` keeps sh from exec'ing node, so node is a child of sh, as with npx.
    const script = `"${node}" "${fixture('echo.mjs')}" --ignore-eof; echo after`;
    const server = new RecordedTransport({ command: 'sh', args: ['-c', script] });
    await server.transport.start();
    const shPid = server.transport.stats().process?.pid!;
    await server.transport.send(frame({ jsonrpc: '2.0', id: 7, method: 'ping' }));
    const nodePid: number = (await server.message({ id: 7 })).result.pid;
    assert.notEqual(nodePid, shPid);

    await server.transport.close();
    assert.equal(await isPidAlive(shPid), false);
    assert.equal(await isPidAlive(nodePid), false);
    assert.ok(server.logsOf('lifecycle').some((l) => l.includes('SIGTERM')));
  });

  test('processes left behind by a server that exited on its own are cleaned up', { skip: !posix }, async () => {
    // The orphan inherits stdout and holds the pipe open: onClose must not wait for it.
    const script = 'sleep 30 & echo "{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"orphan\\",\\"params\\":{\\"pid\\":$!}}"; exit 5';
    const server = new RecordedTransport({ command: 'sh', args: ['-c', script] });
    await server.transport.start();
    const orphan: number = (await server.message({ method: 'orphan' })).params.pid;
    const info = await server.closed;
    assert.equal(exitOf(info).code, 5);
    await server.transport.close();
    assert.equal(await isPidAlive(orphan), false);
    assert.match(server.logsOf('lifecycle').join('\n'), new RegExp(`process ${orphan} still running 200 ms after the server exited: sending SIGTERM`));
  });

  test('close() kills a tree that ignores SIGTERM, including a grandchild that called setsid', { skip: !posix, timeout: 20_000 }, async () => {
    const server = new RecordedTransport({ command: node, args: [fixture('tree.mjs')] });
    await server.transport.start();
    const tree = await server.message({ method: 'tree' }, 10_000);
    const pids: number[] = tree.params.pids;
    assert.equal(pids.length, 3);
    assert.equal(pids[0], server.transport.stats().process?.pid);
    for (const pid of pids) assert.equal(await isPidAlive(pid), true, `${pid} runs before close`);

    await server.transport.close();
    for (const pid of pids) assert.equal(await isPidAlive(pid), false, `${pid} is gone after close`);

    const lifecycle = server.logsOf('lifecycle').join('\n');
    assert.match(lifecycle, /SIGTERM/);
    assert.match(lifecycle, /SIGKILL/);
    // Every process was named before the first signal, though the grandchild left the group.
    for (const pid of pids) assert.match(lifecycle, new RegExp(`\\b${pid}\\b.*SIGTERM`));
    const info = await server.closed;
    assert.equal(exitOf(info).signal, 'SIGKILL');
    assert.deepEqual(exitOf(info).stderrTail, ['tree ready']);
  });
});

describe('StdioTransport: processes that left the tree', { skip: process.platform !== 'linux' }, () => {
  /** Fails unless every pid is gone. */
  async function assertGone(pids: number[]): Promise<void> {
    for (const pid of pids) assert.equal(await isPidAlive(pid), false, `${pid} survived`);
  }

  test('a server that starts a setsid worker and crashes at once: the worker is found by its inherited marker and killed', async () => {
    const server = new RecordedTransport({ command: node, args: [fixture('setsid-crash.mjs')] });
    await server.transport.start();
    const worker: number = (await server.message({ method: 'worker' })).params.pid;
    assert.equal(exitOf(await server.closed).code, 1);
    await server.transport.close();
    await assertGone([server.transport.stats().process!.pid!, worker]);
    assert.match(server.logsOf('lifecycle').join('\n'), new RegExp(`process ${worker} still running 200 ms after the server exited: sending SIGTERM`));
  });

  test('a worker without the marker is still found when it was seen while its parent ran', async () => {
    const server = new RecordedTransport({ command: node, args: [fixture('setsid-crash.mjs'), '--clean-env', '--linger-ms', '600'], processScanMs: 100 });
    await server.transport.start();
    const worker: number = (await server.message({ method: 'worker' })).params.pid;
    assert.equal(exitOf(await server.closed).code, 1);
    await server.transport.close();
    await assertGone([worker]);
  });

  test('a double-forked daemon does not survive a clean shutdown', async () => {
    const server = new RecordedTransport({ command: node, args: [fixture('daemon.mjs')] });
    await server.transport.start();
    const { pid: daemon, intermediate } = (await server.message({ method: 'daemon' })).params;
    await assertGone([intermediate]);
    assert.equal(await isPidAlive(daemon), true, 'the daemon runs, its parent gone');
    await server.transport.close();
    assert.equal(exitOf(await server.closed).code, 0, 'the server itself exited on end of stdin');
    await assertGone([server.transport.stats().process!.pid!, daemon]);
  });
});
