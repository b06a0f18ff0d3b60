// Reading the workspace's MCP configuration in the editor (src/extension/config/workspaceConfig.ts,
// configReloader.ts) on the vscode double, over real files in a temporary workspace folder and a
// real ServerRegistry: what is read from each source, problems as diagnostics at their exact
// range, a file with a syntax error keeping its last good servers, saves gathered into one
// re-read, servers that are no longer configured, and the note about VS Code's own MCP support.
import { vscode } from '../../support/vscode/vscodeModule';
import { after, afterEach, beforeEach, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscodeTypes from 'vscode';
import { ConfigReloader } from '../../../src/extension/config/configReloader';
import { WorkspaceConfigReader, problemRange } from '../../../src/extension/config/workspaceConfig';
import { disposeRegistries, makeRegistry, prepare } from '../../registry/support';
import { waitUntil } from '../panels/panelSupport';

const T = { timeout: 20_000 };

suite('the workspace configuration in the editor (vscode double, files on disk)', () => {
  let folder: string;
  const lines: string[] = [];
  const log = Object.fromEntries(['trace', 'debug', 'info', 'warn', 'error'].map((level) => [level, (text: string) => lines.push(`${level}: ${text}`)])) as unknown as vscodeTypes.LogOutputChannel;
  const disposables: { dispose(): void }[] = [];
  const write = (file: string, value: unknown) => {
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    writeFileSync(join(folder, file), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const reader = () => {
    const r = new WorkspaceConfigReader(log);
    disposables.push(r);
    return r;
  };

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'mcp-host-config-reader-'));
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(folder), name: 'ws', index: 0 }];
  });
  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose();
    vscode.recorder.reset();
    vscode.workspace.workspaceFolders = undefined;
    lines.length = 0;
    rmSync(folder, { recursive: true, force: true });
  });
  after(() => disposeRegistries());

  test('reads .vscode/mcp.json, .mcp.json and the user setting; a folder not on disk is skipped and said', T, async () => {
    write('.vscode/mcp.json', { servers: { alpha: { command: 'node', args: ['a.js'] } } });
    write('.mcp.json', { mcpServers: { beta: { command: 'node', args: ['b.js'] } } });
    vscode.recorder.inspected.set('mcpHost.servers', { globalValue: { gamma: { type: 'http', url: 'https://mcp.example.com/mcp' } } });
    vscode.workspace.workspaceFolders = [...vscode.workspace.workspaceFolders!, { uri: vscode.Uri.parse('vscode-remote://host/elsewhere'), name: 'remote', index: 1 }];
    const config = await reader().read();
    assert.deepEqual(config.servers.map((s) => `${s.name} ← ${s.source.label}`), ['gamma ← User settings', 'alpha ← .vscode/mcp.json (ws)', 'beta ← .mcp.json (ws)']);
    assert.deepEqual(config.sources.map((s) => s.label), ['User settings', '.vscode/mcp.json (ws)', '.mcp.json (ws)']);
    assert.deepEqual(config.folders, { ws: folder });
    assert.deepEqual(config.problems, []);
    assert.ok(lines.some((l) => l.startsWith('info: Skipping workspace folder "remote" (vscode-remote://host/elsewhere): only folders on disk')), lines.join('\n'));
  });

  test('a problem becomes a diagnostic at its exact range in its file; fixed, the diagnostic goes', T, async () => {
    const text = '{\n  "servers": {\n    "alpha": { "command": "node", "args": 5 }\n  }\n}\n';
    write('.vscode/mcp.json', text);
    const r = reader();
    const config = await r.read();
    assert.equal(config.problems.length, 1, JSON.stringify(config.problems));
    const [collection] = vscode.workspaceDoubles.diagnostics.slice(-1);
    assert.equal(collection.name, 'mcpHost');
    const shown = collection.entries.get(vscode.Uri.file(join(folder, '.vscode', 'mcp.json')).toString());
    assert.equal(shown?.length, 1);
    const [d] = shown!;
    assert.equal(d.message, config.problems[0].message);
    assert.equal(d.source, 'MCP Host');
    assert.equal(d.severity, config.problems[0].severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error);
    // The range covers the offending value: line 2 (0-based), at the `5`.
    assert.deepEqual([d.range.start.line, d.range.start.character], [2, text.split('\n')[2].indexOf('5')]);

    write('.vscode/mcp.json', { servers: { alpha: { command: 'node', args: ['a.js'] } } });
    await r.read();
    assert.equal(collection.entries.size, 0);
  });

  test('problemRange: the offset where the text is at hand, else the line and column', () => {
    const source = { kind: 'vscode-mcp-json' as const, label: 'x', workspaceDefined: true };
    const problem = { source, severity: 'error' as const, kind: 'schema' as const, message: 'm', line: 3, column: 7, offset: 4, length: 3, path: 'p' };
    const fromOffset = problemRange(problem, 'ab\r\ncdefg');
    assert.deepEqual([fromOffset.start.line, fromOffset.start.character, fromOffset.end.line, fromOffset.end.character], [1, 0, 1, 3]);
    const fromLine = problemRange(problem, '');
    assert.deepEqual([fromLine.start.line, fromLine.start.character, fromLine.end.line, fromLine.end.character], [2, 6, 2, 6]);
  });

  test('a file with a syntax error keeps its servers of the last good read, and says so', T, async () => {
    write('.vscode/mcp.json', { servers: { alpha: { command: 'node' }, beta: { command: 'node' } } });
    const r = reader();
    assert.equal((await r.read()).servers.length, 2);
    write('.vscode/mcp.json', '{ "servers": { "alpha": { "command": "node" ');
    const broken = await r.read();
    assert.deepEqual(broken.servers.map((s) => s.name), ['alpha', 'beta']);
    assert.ok(broken.problems.some((p) => p.kind === 'syntax'));
    assert.ok(lines.includes('warn: .vscode/mcp.json (ws) has a syntax error; keeping its 2 previously loaded server(s) until it is fixed.'), lines.join('\n'));
    // Deleted, then broken again: nothing good to keep.
    rmSync(join(folder, '.vscode', 'mcp.json'));
    assert.deepEqual((await r.read()).servers, []);
    write('.vscode/mcp.json', '{ "servers": ');
    assert.deepEqual((await r.read()).servers, []);
  });

  test('saves and setting changes are gathered into one change with every reason; other settings are not', T, async () => {
    const r = reader();
    const fired: string[] = [];
    disposables.push(r.onDidChange((reason) => fired.push(reason)));
    const watcher = vscode.workspaceDoubles.watchers.at(-1)!;
    assert.equal(watcher.pattern.pattern, '{.vscode/mcp.json,.mcp.json}');
    watcher.changed.fire(vscode.Uri.file(join(folder, '.vscode', 'mcp.json')));
    watcher.changed.fire(vscode.Uri.file(join(folder, '.vscode', 'mcp.json')));
    watcher.created.fire(vscode.Uri.file(join(folder, '.mcp.json')));
    vscode.workspace.changeConfiguration(['mcpHost.servers']);
    await waitUntil(() => fired.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(fired, ['ws/.vscode/mcp.json changed; ws/.mcp.json changed; the mcpHost.servers setting changed']);
    vscode.workspace.changeConfiguration(['mcpHost.requestTimeoutSeconds']);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(fired.length, 1);
    // New folders: the old watchers go, new ones watch, and the change is said.
    vscode.workspaceDoubles.workspaceFolders.fire({});
    assert.equal(watcher.disposed, true);
    await waitUntil(() => fired.length === 2);
    assert.equal(fired[1], 'workspace folders changed');
  });

  test('ConfigReloader: the registry gets what was read; a server no longer configured is said removed; the read is logged', T, async () => {
    write('.vscode/mcp.json', { servers: { alpha: { command: 'node', args: ['a.js'] }, beta: { command: 'node', args: ['b.js'] } } });
    const { registry } = makeRegistry({ autoStart: false });
    const removed: string[][] = [];
    let changes = 0;
    const reloader = new ConfigReloader(registry, prepare, log, (ids) => removed.push([...ids]), () => changes++);
    disposables.push(reloader);
    assert.equal(reloader.isLoaded(), false);
    await reloader.reload('activation');
    assert.equal(reloader.isLoaded(), true);
    assert.deepEqual(registry.list().map((h) => h.entry.name), ['alpha', 'beta']);
    assert.deepEqual(removed, [[]]);
    assert.ok(changes >= 1);
    assert.ok(lines.includes('info: Configuration read (activation): 2 server(s) from .vscode/mcp.json (ws).'), lines.join('\n'));

    const betaId = registry.list().find((h) => h.entry.name === 'beta')!.id;
    write('.vscode/mcp.json', '{\n  "servers": {\n    "alpha": { "command": "node", "args": ["a.js"] },\n    "gamma": { "command": 7 }\n  }\n}\n');
    // A save, as the watcher reports it: the reloader re-reads on its own.
    vscode.workspaceDoubles.watchers.at(-1)!.changed.fire(vscode.Uri.file(join(folder, '.vscode', 'mcp.json')));
    await waitUntil(() => removed.length === 2);
    assert.deepEqual(removed[1], [betaId]);
    assert.deepEqual(registry.list().map((h) => h.entry.name), ['alpha']);
    assert.equal(reloader.problems().length, 1);
    assert.equal(reloader.current().servers.length, 1);
    assert.ok(lines.some((l) => /^error: \.vscode\/mcp\.json \(ws\):4:\d+: /.test(l)), lines.join('\n'));
  });

  test("ConfigReloader: servers from .vscode/mcp.json bring one note on VS Code's own MCP support, none when chat.mcp.access is none", T, async () => {
    write('.vscode/mcp.json', { servers: { alpha: { command: 'node' } } });
    const note = (l: string) => l.startsWith("info: VS Code's own MCP support also reads .vscode/mcp.json");
    const reloader = new ConfigReloader(makeRegistry({ autoStart: false }).registry, prepare, log, () => {}, () => {});
    disposables.push(reloader);
    await reloader.reload('one');
    await reloader.reload('two');
    assert.equal(lines.filter(note).length, 1);

    lines.length = 0;
    vscode.recorder.settings.set('chat.mcp.access', 'none');
    const quiet = new ConfigReloader(makeRegistry({ autoStart: false }).registry, prepare, log, () => {}, () => {});
    disposables.push(quiet);
    await quiet.reload('one');
    assert.equal(lines.filter(note).length, 0);
  });
});
