// End-to-end: the MCP Registry gallery in a real VS Code, against the registry fixture
// (test/fixtures/registry, 127.0.0.1). "MCP Host: Browse MCP Registry…" lists the registry's
// servers; typing searches; picking one and a file writes its entry (the secret an input, no
// value, and where it came from) into .vscode/mcp.json, and the message says what was written.
// An older version installed from the registry gets an "update" mark on its row, and Update
// rewrites only its entry; the user settings take an entry and its inputs.
// Screenshots: test-results/screenshots/registry-*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { defaultVsixPath, launch, waitUntil, type Workbench } from './harness';
import { RegistryFixture, startRegistryFixture } from '../gallery/registryFixture';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-registry-e2e-'));
let workbench: Workbench | undefined;
let fixture: RegistryFixture | undefined;
after(async () => {
  await workbench?.close();
  await fixture?.close();
  rmSync(workspace, { recursive: true, force: true });
});

test('browse the registry, search, install a server into .vscode/mcp.json', { timeout: 300_000 }, async () => {
  assert.ok(existsSync(VSIX), `${VSIX} is missing; run \`node scripts/package.mjs\``);
  fixture = await startRegistryFixture();
  const wb = (workbench = await launch({ workspace, vsix: VSIX, settings: { 'mcpHost.registry.url': `${fixture.url}/public`, 'mcpHost.startPolicy': 'never' } }));
  const page = wb.page;
  // Each row's own label (its detail line is drawn with a .label-name too).
  const rowLabels = () => page.locator('.quick-input-widget .quick-input-list .monaco-list-row').evaluateAll((rows) => rows.map((row) => row.querySelector('.label-name')?.textContent ?? ''));

  await wb.runCommand('MCP Host: Browse MCP Registry…');
  // The first page: the registry's servers with title, version and package types.
  await waitUntil(async () => (await rowLabels()).some((l) => l.trim() === 'Filesystem'), 30_000, 'the first page of the gallery');
  const filesystem = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Filesystem' }).first();
  assert.match(await filesystem.innerText(), /1\.0\.2 · npm, oci/);
  await wb.screenshot('registry-gallery');

  // Typing searches the registry (not only the rows shown).
  await page.locator('.quick-input-widget .quick-input-box input').fill('weather');
  await waitUntil(async () => {
    const labels = (await rowLabels()).map((l) => l.trim());
    return labels.length === 1 && labels[0] === 'Weather' ? labels : undefined;
  }, 30_000, 'the search for "weather" answered by the registry').catch(async (error: unknown) => {
    await wb.screenshot('registry-search-failed');
    throw new Error(`${(error as Error).message}; rows: ${JSON.stringify(await rowLabels())}; registry asked: ${JSON.stringify(fixture?.requests.map((r) => r.path))}`);
  });
  assert.ok(fixture.requests.some((r) => r.path === '/v0.1/servers' ), 'the registry was asked');
  await wb.screenshot('registry-search');
  await wb.pickQuickItem('Weather');
  await wb.pickQuickItem('.vscode/mcp.json');

  const config = join(workspace, '.vscode', 'mcp.json');
  await waitUntil(async () => existsSync(config), 20_000, '.vscode/mcp.json written by install');
  const written = parse(readFileSync(config, 'utf8')) as { servers: Record<string, { command: string; args: string[]; env: Record<string, string> }>; inputs: { id: string; password?: boolean }[] };
  const gallery = (name: string) => `${fixture!.url}/public/v0.1/servers/${encodeURIComponent(name)}`;
  assert.deepEqual(written.servers['weather-mcp'], { type: 'stdio', command: 'uvx', args: ['weather-mcp-server==0.5.0'], env: { WEATHER_API_KEY: '${input:weather-mcp-WEATHER_API_KEY}', WEATHER_UNITS: 'celsius' }, gallery: gallery('io.github.example/weather-mcp'), version: '0.5.0' });
  assert.deepEqual(written.inputs.map((i) => [i.id, i.password === true]), [['weather-mcp-WEATHER_API_KEY', true]]);
  const message = await waitUntil(async () => (await wb.notifications()).find((n) => n.includes('installed io.github.example/weather-mcp')), 20_000, 'the install message');
  assert.match(message, /as "weather-mcp" in \.vscode\/mcp\.json: uvx weather-mcp-server==0\.5\.0\. Asks for weather-mcp-WEATHER_API_KEY when it starts/);
  await wb.screenshot('registry-installed');

  // An older brave-search installed from the registry: the check marks its row, Update rewrites only it.
  const brave = 'io.modelcontextprotocol.anonymous/brave-search';
  const before = readFileSync(config, 'utf8').replace(
    '"servers": {',
    `"servers": {\n    // pinned by the team\n    "brave-search": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-brave-search@1.0.1"], "env": { "BRAVE_API_KEY": "\${input:weather-mcp-WEATHER_API_KEY}" }, "gallery": "${gallery(brave)}", "version": "1.0.1" },`,
  );
  writeFileSync(config, before);
  await wb.openView('MCP Host');
  await wb.waitForTreeItem('brave-search', { timeoutMs: 30_000 });
  await wb.runCommand('MCP Host: Check MCP Registry for Updates');
  await waitUntil(async () => (await wb.treeItems()).find((r) => r.label === 'brave-search' && /^update 1\.0\.2 · /.test(r.description)), 30_000, 'the row of brave-search says "update 1.0.2"');
  await wb.screenshot('registry-update-mark');
  await wb.runCommand('MCP Host: Update Servers from Registry…');
  await wb.pickQuickItem('brave-search');
  await waitUntil(async () => readFileSync(config, 'utf8').includes('server-brave-search@1.0.2'), 20_000, 'brave-search rewritten at 1.0.2');
  const updated = readFileSync(config, 'utf8');
  assert.match(updated, /\/\/ pinned by the team/);
  const rewritten = parse(updated) as { servers: Record<string, Record<string, unknown>> };
  assert.equal(rewritten.servers['brave-search'].version, '1.0.2');
  assert.deepEqual(rewritten.servers['weather-mcp'], written.servers['weather-mcp']);
  await waitUntil(async () => (await wb.notifications()).find((n) => n.includes('updated "brave-search"')), 20_000, 'the update message');
  await waitUntil(async () => (await wb.treeItems()).find((r) => r.label === 'brave-search' && !r.description.includes('update 1.0.2')), 20_000, 'the mark gone after the update');
  await wb.screenshot('registry-updated');

  // The user settings as the target: mcpHost.servers and its secret input in mcpHost.inputs.
  await wb.runCommand('MCP Host: Browse MCP Registry…');
  await waitUntil(async () => (await rowLabels()).some((l) => l.trim() === 'Weather'), 30_000, 'the gallery again');
  await wb.pickQuickItem('Weather');
  await wb.pickQuickItem('User settings');
  const userSettings = join(wb.userDataDir, 'User', 'settings.json');
  const settings = await waitUntil(async () => {
    const value = parse(readFileSync(userSettings, 'utf8')) as Record<string, unknown>;
    return (value['mcpHost.servers'] as Record<string, unknown> | undefined)?.['weather-mcp'] ? value : undefined;
  }, 20_000, 'the user settings written');
  assert.deepEqual((settings['mcpHost.inputs'] as { id: string; password?: boolean }[]).map((i) => [i.id, i.password]), [['weather-mcp-WEATHER_API_KEY', true]]);
  await waitUntil(async () => (await wb.treeItems()).filter((r) => r.label === 'weather-mcp').length === 2, 20_000, 'weather-mcp from the workspace and from the user settings');
  await wb.screenshot('registry-user-settings');
  assert.deepEqual(wb.activationErrors(), []);
});
