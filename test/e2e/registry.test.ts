// End-to-end: the MCP Registry gallery in a real VS Code, against the registry fixture
// (test/fixtures/registry, 127.0.0.1). "MCP Host: Browse MCP Registry…" lists the registry's
// servers; typing searches; picking one and a file writes its entry (the secret an input, no
// value) into .vscode/mcp.json, and the message says what was written.
// Screenshots: test-results/screenshots/registry-*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  const wb = (workbench = await launch({ workspace, vsix: VSIX, settings: { 'mcpHost.registry.url': `${fixture.url}/public` } }));
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
  assert.deepEqual(written.servers['weather-mcp'], { type: 'stdio', command: 'uvx', args: ['weather-mcp-server==0.5.0'], env: { WEATHER_API_KEY: '${input:weather-mcp-WEATHER_API_KEY}', WEATHER_UNITS: 'celsius' } });
  assert.deepEqual(written.inputs.map((i) => [i.id, i.password === true]), [['weather-mcp-WEATHER_API_KEY', true]]);
  const message = await waitUntil(async () => (await wb.notifications()).find((n) => n.includes('installed io.github.example/weather-mcp')), 20_000, 'the install message');
  assert.match(message, /as "weather-mcp" in \.vscode\/mcp\.json: uvx weather-mcp-server==0\.5\.0\. Asks for weather-mcp-WEATHER_API_KEY when it starts/);
  await wb.screenshot('registry-installed');
  assert.deepEqual(wb.activationErrors(), []);
});
