import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient, McpLocalError } from '../../src/client';
import { HealthChange, HealthMonitor, PingableClient, capabilitiesJson, formatPing, pingServer, requireLogging, setLogLevel } from '../../src/usecases/serverActions';
import { EVERYTHING, WireRecorder, connectStdio, fixture, waitFor } from '../client/support';

const PING_CONTROL = fixture('pingControl.mjs');
const T = { timeout: 20_000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The response the server sent to our `initialize`, as it came off the wire. */
function initializeResponse(wire: WireRecorder): any {
  const id = wire.sent('initialize')[0].id;
  return wire.frames.find((f) => f.direction === 'receive' && (f.message as any).id === id && 'result' in (f.message as any))!.message;
}

async function setPingMode(client: McpClient, mode: 'answer' | 'ignore' | 'error' | 'slow', delayMs?: number): Promise<void> {
  const r = await client.callTool('ping-mode', delayMs === undefined ? { mode } : { mode, delayMs });
  assert.deepEqual(r.content, [{ type: 'text', text: `ping mode ${mode}` }]);
}

describe('server actions against server-everything', () => {
  let client: McpClient;
  let wire: WireRecorder;

  before(async () => {
    ({ client, wire } = await connectStdio(process.execPath, EVERYTHING));
  });
  after(() => client.close());

  test('ping measures the round trip and says so', T, async () => {
    const before = wire.sent('ping').length;
    const { rttMs, message } = await pingServer(client, 'everything', 5000);
    assert.ok(Number.isFinite(rttMs) && rttMs > 0, `rtt ${rttMs}`);
    assert.equal(message, `everything answered ping in ${rttMs.toFixed(1)} ms.`);
    assert.match(message, /^everything answered ping in \d+\.\d ms\.$/);
    const pings = wire.sent('ping');
    assert.equal(pings.length, before + 1, 'one ping on the wire');
    const answer = wire.received().find((m) => m.id === pings[pings.length - 1].id);
    assert.deepEqual(answer?.result, {});
    assert.equal(formatPing('s', 12.345), 's answered ping in 12.3 ms.');
  });

  test('set log level sends logging/setLevel with the chosen level, and the server accepts it', T, async () => {
    for (const level of ['debug', 'error', 'emergency'] as const) {
      assert.equal(await setLogLevel(client, 'everything', level, 5000), level);
      const sent = wire.sent('logging/setLevel');
      const last = sent[sent.length - 1];
      assert.deepEqual(last.params, { level });
      const answer = wire.received().find((m) => m.id === last.id);
      assert.ok(answer && 'result' in answer && !('error' in answer), `answered ${JSON.stringify(answer)}`);
    }
  });

  test('an unknown level (a script\'s command argument) is refused without a frame', T, async () => {
    const before = wire.sent('logging/setLevel').length;
    await assert.rejects(setLogLevel(client, 'everything', 'verbose'), /"verbose" is not a log level; use one of debug, info, notice, warning, error, critical, alert, emergency/);
    await assert.rejects(setLogLevel(client, 'everything', 42), /42 is not a log level/);
    assert.equal(wire.sent('logging/setLevel').length, before);
  });

  test('show capabilities: the initialize result as it arrived, pretty-printed', T, () => {
    const text = capabilitiesJson(client);
    assert.ok(text.startsWith('{\n  "initializeResult": {\n    "'), 'two-space indented JSON');
    const shown = JSON.parse(text);
    const raw = initializeResponse(wire).result;
    assert.deepEqual(shown.initializeResult, raw, 'nothing dropped or added');
    assert.equal(shown.initializeResult.protocolVersion, '2025-11-25');
    assert.match(shown.initializeResult.serverInfo.name, /everything/i);
    for (const cap of ['tools', 'resources', 'prompts', 'logging']) assert.ok(cap in shown.initializeResult.capabilities, cap);
    assert.equal(typeof shown.initializeResult.instructions, 'string');
    assert.ok(shown.initializeResult.instructions.length > 0);
    assert.deepEqual(shown.clientCapabilities, client.clientCapabilities);
  });
});

describe('server actions against a server that misbehaves (pingControl fixture)', () => {
  let client: McpClient;
  let wire: WireRecorder;

  before(async () => {
    ({ client, wire } = await connectStdio(process.execPath, [PING_CONTROL]));
  });
  after(() => client.close());

  test('a ping that times out names the server and stays a local timeout', T, async () => {
    await setPingMode(client, 'ignore');
    const error = await pingServer(client, 'ctl', 300).then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(McpLocalError.is(error, 'timeout'), String(error));
    assert.match(error.message, /^ctl did not answer ping: ping timed out after 300 ms \(request id \S+\)$/);
  });

  test('a ping answered with an error says which error', T, async () => {
    await setPingMode(client, 'error');
    await assert.rejects(pingServer(client, 'ctl', 2000), { message: 'ctl answered ping with error -32000: pings are switched off' });
    await setPingMode(client, 'answer');
    assert.ok((await pingServer(client, 'ctl', 2000)).rttMs > 0, 'answers again');
  });

  test('set log level is refused, unsent, for a server without the logging capability', T, async () => {
    assert.equal(client.serverCapabilities?.logging, undefined);
    assert.throws(() => requireLogging(client, 'ctl'), (e: unknown) => McpLocalError.is(e, 'capability') && e.message === 'ctl does not declare the logging capability, so its log level cannot be set');
    await assert.rejects(setLogLevel(client, 'ctl', 'debug'), /ctl does not declare the logging capability/);
    assert.equal(wire.sent('logging/setLevel').length, 0, 'nothing on the wire');
  });

  test('show capabilities keeps fields the client does not know (_meta) and the instructions', T, () => {
    const shown = JSON.parse(capabilitiesJson(client)).initializeResult;
    assert.deepEqual(shown, initializeResponse(wire).result);
    assert.deepEqual(shown._meta, { fixture: 'ping-control' });
    assert.deepEqual(shown.serverInfo, { name: 'ping-control', version: '1.2.3' });
    assert.equal(shown.instructions, 'Answers ping as told by the ping-mode tool.');
    assert.deepEqual(shown.capabilities, { tools: {} });
  });

  test('a closed client: ping, set log level and capabilities fail clearly', T, async () => {
    const { client: other } = await connectStdio(process.execPath, [PING_CONTROL, '--logging']);
    await other.close();
    await assert.rejects(pingServer(other, 'gone', 1000), (e: unknown) => McpLocalError.is(e, 'not-initialized') && e.message === 'gone did not answer ping: ping: the client is not connected');
    await assert.rejects(setLogLevel(other, 'gone', 'info'), /gone does not declare the logging capability/);
    assert.throws(() => capabilitiesJson(other), /has not finished initializing/);
  });
});

/** A real client, wrapped to count how many health pings are in flight at once. */
function counted(client: McpClient) {
  const stats = { started: 0, inFlight: 0, maxInFlight: 0 };
  const wrapped: PingableClient = {
    get state() {
      return client.state;
    },
    async ping(options) {
      stats.started++;
      stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
      try {
        return await client.ping(options);
      } finally {
        stats.inFlight--;
      }
    },
  };
  return { wrapped, stats };
}

describe('HealthMonitor: the periodic ping', () => {
  let everything: McpClient;
  let ctl: McpClient;
  let ctlWire: WireRecorder;
  let ctlPid: number | undefined;
  const monitors: HealthMonitor[] = [];
  const logs: string[] = [];

  function monitor(servers: Record<string, PingableClient | undefined>, intervalMs: number, pingTimeoutMs?: number) {
    const changes: HealthChange[] = [];
    const m = new HealthMonitor({
      listServers: () => Object.keys(servers).map((id) => ({ id, name: `Server ${id}` })),
      getClient: (id) => servers[id],
      intervalMs: () => intervalMs,
      pingTimeoutMs: pingTimeoutMs === undefined ? undefined : () => pingTimeoutMs,
      log: (id, level, text) => logs.push(`${id} ${level} ${text}`),
    });
    m.onDidChange((e) => changes.push(e));
    monitors.push(m);
    return { m, changes };
  }

  before(async () => {
    ({ client: everything } = await connectStdio(process.execPath, EVERYTHING));
    ({ client: ctl, wire: ctlWire } = await connectStdio(process.execPath, [PING_CONTROL]));
    ctlPid = ctl.stats()?.process?.pid;
  });
  after(async () => {
    for (const m of monitors) m.dispose();
    await Promise.all([everything.close(), ctl.close()]);
    if (ctlPid) assert.throws(() => process.kill(ctlPid!, 0), 'the fixture is gone');
  });

  test('servers that answer are ok, and stay ok, with one change event each', T, async () => {
    const { m, changes } = monitor({ everything, ctl }, 100, 2000);
    assert.equal(m.running, true);
    assert.equal(m.get('everything'), undefined, 'no verdict before the first tick');
    const before = ctlWire.sent('ping').length;
    await waitFor(() => ctlWire.sent('ping').length >= before + 4, 5000, 'four health pings');
    for (const id of ['everything', 'ctl']) {
      const h = m.get(id);
      assert.ok(h?.kind === 'ok' && h.rttMs > 0 && h.time <= Date.now(), `${id}: ${JSON.stringify(h)}`);
    }
    assert.deepEqual(
      changes.map((c) => [c.serverId, c.name, c.previous, c.health.kind]).sort(),
      [
        ['ctl', 'Server ctl', undefined, 'ok'],
        ['everything', 'Server everything', undefined, 'ok'],
      ],
    );
    m.dispose();
  });

  test('a server that stops answering is marked unresponsive after the timeout, and recovers', T, async () => {
    const { m, changes } = monitor({ everything, ctl }, 100, 300);
    await waitFor(() => m.get('ctl')?.kind === 'ok', 3000, 'ctl ok');
    await setPingMode(ctl, 'ignore');
    const stopped = Date.now();

    const down = await waitFor(() => (m.get('ctl')?.kind === 'unresponsive' ? m.get('ctl') : undefined), 5000, 'ctl unresponsive');
    assert.ok(down.kind === 'unresponsive' && down.failures === 1 && down.since >= stopped);
    assert.match(down.error, /^ping timed out after 300 ms/);
    assert.equal(m.get('everything')?.kind, 'ok', 'the other server is not affected');
    assert.ok(logs.some((l) => /^ctl warn Health ping failed \(1 in a row\): ping timed out after 300 ms/.test(l)));

    // More failures count up; the kind did not change, so no new event.
    const later = await waitFor(() => {
      const h = m.get('ctl');
      return h?.kind === 'unresponsive' && h.failures >= 3 ? h : undefined;
    }, 5000, 'three failures');
    assert.ok(later.kind === 'unresponsive' && later.since === down.since);
    const ctlChanges = () => changes.filter((c) => c.serverId === 'ctl').map((c) => `${c.previous?.kind}->${c.health.kind}`);
    assert.deepEqual(ctlChanges(), ['undefined->ok', 'ok->unresponsive']);

    await setPingMode(ctl, 'answer');
    const up = await waitFor(() => (m.get('ctl')?.kind === 'ok' ? m.get('ctl') : undefined), 5000, 'ctl ok again');
    assert.ok(up.kind === 'ok' && up.rttMs > 0);
    assert.deepEqual(ctlChanges(), ['undefined->ok', 'ok->unresponsive', 'unresponsive->ok']);
    assert.ok(logs.some((l) => /^ctl info Answering pings again \(\d+\.\d ms\)\.$/.test(l)));
    m.dispose();
  });

  test('a ping answered with an error also marks the server unresponsive', T, async () => {
    const { m } = monitor({ ctl }, 80, 1000);
    await setPingMode(ctl, 'error');
    try {
      const h = await waitFor(() => (m.get('ctl')?.kind === 'unresponsive' ? m.get('ctl') : undefined), 3000, 'unresponsive');
      assert.ok(h.kind === 'unresponsive' && /pings are switched off/.test(h.error));
    } finally {
      await setPingMode(ctl, 'answer');
      m.dispose();
    }
  });

  test('ticks do not overlap: a slow or stuck server has at most one health ping in flight', T, async () => {
    const { wrapped, stats } = counted(ctl);
    await setPingMode(ctl, 'slow', 400);
    const { m } = monitor({ ctl: wrapped }, 40, 2000);
    try {
      await waitFor(() => m.get('ctl')?.kind === 'ok', 5000, 'a slow ok');
      // Three slow pings in a row, with a tick every 40 ms: never two at once.
      await waitFor(() => stats.started >= 3, 10_000, 'three slow pings');
      assert.equal(stats.maxInFlight, 1);

      // Stuck: each ping waits for its own timeout before the next one goes out.
      await setPingMode(ctl, 'ignore');
      const sentBefore = ctlWire.sent('ping').length;
      await waitFor(() => stats.inFlight === 1 && ctlWire.sent('ping').length > sentBefore, 5000, 'a stuck ping in flight');
      await sleep(1000);
      const sent = ctlWire.sent('ping').length - sentBefore;
      const health = m.get('ctl');
      const timedOut = health?.kind === 'unresponsive' ? health.failures : 0;
      assert.equal(stats.maxInFlight, 1);
      // A new ping goes out only after the one before it timed out.
      assert.ok(sent <= timedOut + 1, `${sent} pings sent, ${timedOut} timed out`);
    } finally {
      m.dispose();
      await setPingMode(ctl, 'answer');
    }
  });

  test('a server that stops running, even mid-ping, is unknown, not unresponsive', T, async () => {
    const { client: short } = await connectStdio(process.execPath, [PING_CONTROL]);
    const { wrapped, stats } = counted(short);
    const { m, changes } = monitor({ short: wrapped }, 50, 2000);
    await waitFor(() => m.get('short')?.kind === 'ok', 3000, 'ok');
    await setPingMode(short, 'slow', 500);
    await waitFor(() => stats.inFlight === 1, 3000, 'a ping in flight');
    await short.close();
    await waitFor(() => m.get('short')?.kind === 'unknown', 3000, 'unknown');
    assert.equal(stats.inFlight, 0);
    assert.deepEqual(changes.map((c) => c.health.kind), ['ok', 'unknown']);
    assert.ok(!logs.some((l) => l.startsWith('short warn')), logs.join('\n'));
    m.dispose();
  });

  test('interval 0 runs nothing; reschedule picks up a new interval', T, async () => {
    let interval = 0;
    const m = new HealthMonitor({ listServers: () => [{ id: 'ctl', name: 'ctl' }], getClient: () => ctl, intervalMs: () => interval });
    monitors.push(m);
    const before = ctlWire.sent('ping').length;
    assert.equal(m.running, false);
    await sleep(200);
    assert.equal(ctlWire.sent('ping').length, before, 'no pings while off');
    interval = 50;
    m.reschedule();
    assert.equal(m.running, true);
    await waitFor(() => m.get('ctl')?.kind === 'ok', 3000, 'ok after reschedule');
    interval = 0;
    m.reschedule();
    assert.equal(m.running, false);
    m.dispose();
  });

  test('dispose stops the timer, and a ping that settles afterwards changes nothing', T, async () => {
    await setPingMode(ctl, 'slow', 300);
    const { wrapped, stats } = counted(ctl);
    let ticks = 0;
    const changes: HealthChange[] = [];
    const m = new HealthMonitor({
      listServers: () => (ticks++, [{ id: 'ctl', name: 'ctl' }]),
      getClient: () => wrapped,
      intervalMs: () => 30,
      pingTimeoutMs: () => 2000,
    });
    m.onDidChange((e) => changes.push(e));
    monitors.push(m);
    try {
      await waitFor(() => stats.inFlight === 1 && ticks >= 3, 3000, 'a ping in flight and ticks skipping it');
      assert.equal(stats.started, 1, 'ticks while a ping waits send none');
      m.dispose();
      assert.equal(m.running, false);
      const ticksAtDispose = ticks;
      await waitFor(() => stats.inFlight === 0, 3000, 'the ping settled');
      await sleep(300); // 10 intervals
      assert.equal(ticks, ticksAtDispose, 'no ticks after dispose');
      assert.equal(stats.started, 1, 'no pings after dispose');
      assert.equal(m.get('ctl'), undefined, 'the late answer was ignored');
      assert.deepEqual(changes, []);
      await m.tick();
      assert.equal(ticks, ticksAtDispose, 'tick() after dispose does nothing');
    } finally {
      await setPingMode(ctl, 'answer');
    }
  });

  test('the timer alone never keeps a process alive (it is unref\'d)', T, async () => {
    // A child that starts a monitor and never disposes it must still exit by itself.
    const { spawn } = await import('node:child_process');
    const modulePath = require.resolve('../../src/usecases/serverActions');
    const script = `const { HealthMonitor } = require(${JSON.stringify(modulePath)});
      const m = new HealthMonitor({ listServers: () => [], getClient: () => undefined, intervalMs: () => 20 });
      process.stdout.write(String(m.running));`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
    clearTimeout(killer);
    assert.deepEqual([code, signal, out], [0, null, 'true'], 'exited on its own while the monitor ran');
  });
});
