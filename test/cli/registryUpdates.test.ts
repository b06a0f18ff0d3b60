// `mcp-host registry outdated|update` and `--target user` (in-process: runCliInProcess) against the
// registry fixture, where brave-search has 1.0.1 and a newer 1.0.2: install records where an
// entry came from; outdated names the newer version; update rewrites only that entry (comments
// and the other entries kept, the same inputs), so its fingerprint — what consent remembers —
// changes and the new command is asked about again; user settings get the entry and its inputs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findNodeAtLocation, parse, parseTree } from 'jsonc-parser';
import { ensureBuilt, runCliInProcess } from './cliProcess';
import { RegistryFixture, startRegistryFixture } from '../gallery/registryFixture';
import { folderSources, parseConfigText, parseSettingsText, settingsSource } from '../../src/config';

let fixture: RegistryFixture;
let workspace: string;
before(async () => {
  ensureBuilt();
  fixture = await startRegistryFixture();
  workspace = mkdtempSync(join(tmpdir(), 'mcp-host-registry-updates-'));
});
after(async () => {
  await fixture.close();
  rmSync(workspace, { recursive: true, force: true });
});

const BRAVE = 'io.modelcontextprotocol.anonymous/brave-search';

describe('mcp-host registry outdated|update', () => {
  test('install records the registry entry; outdated sees 1.0.2; update rewrites only that entry, its consent fingerprint changes', async () => {
    const registry = ['--registry', `${fixture.url}/public`];
    const target = join(workspace, '.vscode', 'mcp.json');
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(target, '{\n  // team servers\n  "servers": {\n    "notes": { "command": "node", "args": ["notes.js"] } // keep me\n  }\n}\n');
    const installed = await runCliInProcess(['registry', 'install', BRAVE, ...registry, '--target', target, '--version', '1.0.1']);
    assert.equal(installed.code, 0, installed.stderr);
    const before = readFileSync(target, 'utf8');
    const entry = parse(before).servers['brave-search'];
    assert.equal(entry.gallery, `${fixture.url}/public/v0.1/servers/${encodeURIComponent(BRAVE)}`);
    assert.equal(entry.version, '1.0.1');

    const outdated = await runCliInProcess(['registry', 'outdated', ...registry, '--target', target]);
    assert.equal(outdated.code, 0, outdated.stderr);
    assert.equal(outdated.stdout, `brave-search  ${BRAVE}  1.0.1 → 1.0.2  (mcp-host registry update brave-search)\n`);

    const updated = await runCliInProcess(['registry', 'update', 'brave-search', ...registry, '--target', target]);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /^updated "brave-search" in .*: io\.modelcontextprotocol\.anonymous\/brave-search 1\.0\.1 → 1\.0\.2\n {2}npx -y @modelcontextprotocol\/server-brave-search@1\.0\.2/);
    const after = readFileSync(target, 'utf8');
    // Every character outside the updated entry is as it was, comments included.
    const outside = (text: string) => {
      const node = findNodeAtLocation(parseTree(text)!, ['servers', 'brave-search'])!;
      return text.slice(0, node.offset) + text.slice(node.offset + node.length);
    };
    assert.equal(outside(after), outside(before));
    assert.match(after, /\/\/ team servers[\s\S]*\/\/ keep me/);
    const value = parse(after);
    assert.deepEqual(value.servers['brave-search'].args, ['-y', '@modelcontextprotocol/server-brave-search@1.0.2']);
    assert.equal(value.servers['brave-search'].version, '1.0.2');
    assert.deepEqual(value.inputs.map((i: { id: string }) => i.id), ['brave-search-BRAVE_API_KEY']);
    // What consent remembers is the entry's fingerprint: it changes for the updated entry only.
    const source = folderSources({ name: 'w', fsPath: workspace })[0];
    const print = (text: string) => Object.fromEntries(parseConfigText(text, source).servers.map((s) => [s.name, s.fingerprint]));
    assert.notEqual(print(after)['brave-search'], print(before)['brave-search']);
    assert.equal(print(after).notes, print(before).notes);
    assert.deepEqual(parseConfigText(after, source).servers.find((s) => s.name === 'brave-search')?.registrySource, { registryUrl: `${fixture.url}/public`, name: BRAVE, version: '1.0.2' });

    const current = await runCliInProcess(['registry', 'outdated', ...registry, '--target', target]);
    assert.match(current.stdout, /^brave-search {2}\S+ {2}1\.0\.2 {2}up to date$/m);
    const notFromRegistry = await runCliInProcess(['registry', 'update', 'notes', ...registry, '--target', target]);
    assert.equal(notFromRegistry.code, 2);
    assert.match(notFromRegistry.stderr, /has no entry "notes" installed from a registry/);
  });

  test('--target user: VS Code user settings get the entry under mcpHost.servers and its inputs under mcpHost.inputs, comments kept', async () => {
    const config = join(workspace, 'xdg');
    const settings = join(config, 'Code', 'User', 'settings.json');
    mkdirSync(join(config, 'Code', 'User'), { recursive: true });
    writeFileSync(settings, '{\n  // my editor\n  "editor.fontSize": 14\n}\n');
    const r = await runCliInProcess(['registry', 'install', 'io.github.example/weather-mcp', '--registry', `${fixture.url}/public`, '--target', 'user'], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /as "weather-mcp" in your user settings \(.*settings\.json\)/);
    const text = readFileSync(settings, 'utf8');
    assert.match(text, /\/\/ my editor/);
    const loaded = parseSettingsText(text, settingsSource('user'), { inputsKey: 'mcpHost.inputs' });
    assert.deepEqual(loaded.problems, []);
    const weather = loaded.servers.find((s) => s.name === 'weather-mcp');
    assert.deepEqual(weather?.inputs, [{ id: 'weather-mcp-WEATHER_API_KEY', type: 'promptString', description: 'API key for weather service', password: true }]);
    assert.equal(weather?.registrySource?.version, '0.5.0');
  });
});
