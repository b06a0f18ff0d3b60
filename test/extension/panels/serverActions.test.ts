// The server-level actions of the editor (src/extension/panels/serverActions.ts) on the vscode
// double, against real servers over stdio: Copy Server Entry's format pick, Ping and Set Log Level
// (the pick, and a server without the logging capability refused before anything is asked), Show
// Capabilities as a document, Server Details in one panel per server with the noise lines the
// server printed, and the health ping's warning and "answering again".
import '../../support/vscode/vscodeModule';
import { after, afterEach, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DetailsPanel, HealthMonitor, NoiseRecorder, copyServerEntry, pingServer, setLogLevel, showCapabilities, showServerDetails } from '../../../src/extension/panels/serverActions';
import type { ServerHealth } from '../../../src/extension/panels/useCaseDeps';
import type { ServerDetailsView } from '../../../src/usecases/serverInfo';
import { EVERYTHING, NODE, entries, sharedFixture } from '../../registry/support';
import { lastPanel, panelHost, posted, waitUntil, vscode } from './panelSupport';

type Host = Awaited<ReturnType<typeof panelHost>>;
const T = { timeout: 30_000 };

suite('server actions (vscode double, real servers)', () => {
  let host: Host;
  const health: { serverId: string; health: ServerHealth }[] = [];
  before(async () => {
    host = await panelHost(
      entries({
        everything: { command: NODE, args: EVERYTHING },
        pings: { command: NODE, args: [sharedFixture('pingControl.mjs')] },
        noisy: { command: NODE, args: [sharedFixture('misbehave.mjs'), '--mode', 'noise'] },
      }),
    );
    Object.assign(host.ctx.deps, { setHealth: (serverId: string, h: ServerHealth) => health.push({ serverId, health: h }) });
  });
  afterEach(() => {
    DetailsPanel.disposeAll();
    vscode.recorder.reset();
  });
  after(() => host.close());

  const server = (name: string) => host.registry.get(host.idOf(name))!;

  test('Copy Server Entry: the picked format goes to the clipboard; Escape copies nothing', T, async () => {
    vscode.env.clipboard.text = 'before';
    vscode.recorder.picks.push(() => undefined);
    await copyServerEntry(host.ctx, server('everything'));
    assert.equal(vscode.env.clipboard.text, 'before');
    assert.deepEqual(vscode.recorder.callsOf('window.setStatusBarMessage'), []);

    vscode.recorder.picks.push((items) => items.find((i) => i.label === 'servers + inputs'));
    await copyServerEntry(host.ctx, server('everything'));
    const copied = JSON.parse(vscode.env.clipboard.text) as { servers: Record<string, { command: string; args: string[] }> };
    assert.deepEqual(Object.keys(copied.servers), ['everything']);
    assert.deepEqual(copied.servers.everything.args, EVERYTHING);
    assert.deepEqual(vscode.recorder.callsOf('window.setStatusBarMessage')[0], ['Copied the entry of everything (servers + inputs)', 4000]);

    vscode.recorder.picks.push((items) => items.find((i) => i.label === 'mcpServers'));
    await copyServerEntry(host.ctx, server('everything'));
    assert.deepEqual(Object.keys(JSON.parse(vscode.env.clipboard.text) as object), ['mcpServers']);
  });

  test('Ping: the round trip in the log and in a message', T, async () => {
    const rtt = await pingServer(host.ctx, server('everything'));
    assert.ok(rtt > 0);
    assert.ok(host.logs.some((l) => l.serverId === host.idOf('everything') && l.text === `Ping: ${rtt.toFixed(1)} ms`));
    assert.deepEqual(vscode.recorder.callsOf('window.showInformationMessage'), [[`everything answered ping in ${rtt.toFixed(1)} ms.`]]);
  });

  test('Set Log Level: asks which level, sends it, says so; Escape sends nothing; no logging capability: refused before asking', T, async () => {
    vscode.recorder.picks.push((items) => items.find((i) => (i as unknown) === 'error' || i.label === 'error'));
    await setLogLevel(host.ctx, server('everything'));
    const [[levels]] = vscode.recorder.callsOf('window.showQuickPick') as [[readonly string[]]];
    assert.deepEqual(levels, ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
    assert.deepEqual(vscode.recorder.callsOf('window.setStatusBarMessage'), [['everything: log level error', 4000]]);
    assert.ok(host.logs.some((l) => l.text === 'Log level set to error.'));

    vscode.recorder.reset();
    vscode.recorder.picks.push(() => undefined);
    await setLogLevel(host.ctx, server('everything'));
    assert.deepEqual(vscode.recorder.callsOf('window.setStatusBarMessage'), [], 'Escape: nothing set');

    vscode.recorder.reset();
    await assert.rejects(setLogLevel(host.ctx, server('pings')), /pings does not declare the logging capability, so its log level cannot be set/);
    assert.deepEqual(vscode.recorder.callsOf('window.showQuickPick'), [], 'not asked');
  });

  test('Show Capabilities: the initialize result as a JSON document', T, async () => {
    await showCapabilities(host.ctx, server('pings'));
    const [[document]] = vscode.recorder.callsOf('window.showTextDocument') as [[{ getText(): string; languageId: string }]];
    assert.equal(document.languageId, 'json');
    const shown = JSON.parse(document.getText()) as { initializeResult: { serverInfo: { name: string }; capabilities: unknown } };
    assert.equal(shown.initializeResult.serverInfo.name, 'ping-control');
    assert.deepEqual(shown.initializeResult.capabilities, { tools: {} });
  });

  test('Server Details: one panel per server, the figures once the page is ready, the noise the server printed; a malformed message is logged and ignored', T, async () => {
    const noise = new NoiseRecorder();
    const monitor = new HealthMonitor(host.ctx);
    try {
      const noisy = server('noisy');
      noise.watch(noisy.id, noisy.client!);
      await host.ctx.runningClient(noisy.id)!.ping();
      showServerDetails(host.ctx, noisy, noise, monitor);
      const panel = lastPanel();
      assert.equal(panel.title, 'noisy — details');
      assert.equal(panel.postedOfType('details').length, 0, 'nothing before the page is ready');
      panel.webview.fromPage({ type: 'ready' });
      const { view } = await posted<{ view: ServerDetailsView }>(panel, 'details');
      assert.equal(view.name, 'noisy');
      assert.ok(view.facts.some(([label, value]) => label === 'Server' && value.startsWith('misbehave-noise')), JSON.stringify(view.facts));
      assert.ok(view.noise.some((l) => /\[noise\] noise: about to send/.test(l)), JSON.stringify(view.noise));

      showServerDetails(host.ctx, noisy, noise, monitor);
      assert.equal(vscode.recorder.webviewPanels.length, 1, 'the same panel');
      assert.equal(panel.reveals, 1);
      await posted(panel, 'details', 2);

      panel.webview.fromPage({ type: 'run', input: {} });
      assert.ok(host.logs.some((l) => l.serverId === noisy.id && /^Ignored a malformed message from Server Details/.test(l.text)));
      assert.equal(panel.postedOfType('details').length, 2, 'no new figures for it');
      panel.dispose();
      showServerDetails(host.ctx, noisy, noise, monitor);
      assert.equal(vscode.recorder.webviewPanels.length, 2, 'closed: a new panel');
    } finally {
      noise.dispose();
      monitor.dispose();
    }
  });

  test('health ping: a server that stops answering gets one warning and its health; answering again is said in the status bar', T, async () => {
    vscode.recorder.settings.set('healthPingSeconds', 1);
    const monitor = new HealthMonitor(host.ctx);
    const id = host.idOf('pings');
    const client = host.ctx.runningClient(id)!;
    try {
      await monitor.tick();
      assert.equal(monitor.get(id)?.kind, 'ok');
      await client.callTool('ping-mode', { mode: 'error' });
      await waitUntil(() => monitor.get(id)?.kind === 'unresponsive', 10_000);
      const warnings = vscode.recorder.callsOf('window.showWarningMessage').map(([text]) => text as string);
      assert.equal(warnings.filter((w) => w.startsWith('MCP server pings is not answering pings:')).length, 1, JSON.stringify(warnings));
      assert.ok(health.some((h) => h.serverId === id && h.health.kind === 'unresponsive'));
      await client.callTool('ping-mode', { mode: 'answer' });
      await waitUntil(() => monitor.get(id)?.kind === 'ok', 10_000);
      await waitUntil(() => vscode.recorder.callsOf('window.setStatusBarMessage').some(([text]) => text === 'pings is answering again'));
    } finally {
      monitor.dispose();
    }
  });

  test('health ping off (0): no timer pings', T, async () => {
    vscode.recorder.settings.set('healthPingSeconds', 0);
    const monitor = new HealthMonitor(host.ctx);
    try {
      await new Promise((r) => setTimeout(r, 1200));
      assert.equal(monitor.get(host.idOf('pings')), undefined);
    } finally {
      monitor.dispose();
    }
  });
});
