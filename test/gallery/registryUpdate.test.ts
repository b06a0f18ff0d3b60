// Updates of registry-installed servers: version order, the check against the registry fixture
// (real HTTP), the way of installing kept (same package type or remote), and the recorded source
// read back from an entry.
import { after, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RegistryClient } from '../../src/gallery/registryClient';
import { ServerDetail } from '../../src/gallery/serverJson';
import { checkUpdate, compareVersions, matchingChoice, planUpdate } from '../../src/gallery/registryUpdate';
import { registrySourceFields, registrySourceOf } from '../../src/config/registrySource';
import { RegistryDocuments, RegistryFixture, registryDocuments, startRegistryFixture } from './registryFixture';

let fixture: RegistryFixture;
let docs: RegistryDocuments;
before(async () => {
  fixture = await startRegistryFixture();
  docs = await registryDocuments();
});
after(() => fixture.close());

const server = (name: string) => ServerDetail.parse(docs.REAL.find((d) => d.name === name));

suite('gallery: updates', () => {
  test('versions: numbers compare as numbers, a pre-release before its release, build metadata ignored', () => {
    assert.ok(compareVersions('1.0.10', '1.0.9') > 0);
    assert.ok(compareVersions('1.2.0-beta.2', '1.2.0') < 0);
    assert.ok(compareVersions('1.2.0-beta.10', '1.2.0-beta.2') > 0);
    assert.equal(compareVersions('v2.0.0+build.5', '2.0.0'), 0);
    assert.ok(compareVersions('2025.10.01', '2025.9.30') > 0);
  });

  test('the source recorded in an entry survives the round trip; a foreign gallery value is no source', () => {
    const source = { registryUrl: 'https://registry.example.com/team', name: 'io.github.example/weather-mcp', version: '0.5.0' };
    assert.deepEqual(registrySourceOf({ command: 'uvx', ...registrySourceFields(source) }), source);
    assert.equal(registrySourceOf({ gallery: true, version: '1.0.0' }), undefined);
    assert.equal(registrySourceOf({ gallery: 'https://api.mcp.github.com/2025-09-15', version: '1.0.0' }), undefined);
    assert.equal(registrySourceOf({ gallery: 'file:///v0.1/servers/a%2Fb', version: '1' }), undefined);
  });

  test('checked against the registry: newer, current, or why it could not be checked', async () => {
    const latest = (s: { registryUrl: string; name: string }) => new RegistryClient({ baseUrl: s.registryUrl }).server(s.name).then((r) => r.server);
    const base = `${fixture.url}/public`;
    const brave = 'io.modelcontextprotocol.anonymous/brave-search';
    assert.deepEqual(await checkUpdate({ registryUrl: base, name: brave, version: '1.0.1' }, latest), { kind: 'newer', installed: { registryUrl: base, name: brave, version: '1.0.1' }, latest: '1.0.2' });
    assert.equal((await checkUpdate({ registryUrl: base, name: brave, version: '1.0.2' }, latest)).kind, 'current');
    const down = await checkUpdate({ registryUrl: `${fixture.url}/down`, name: brave, version: '1.0.1' }, latest);
    assert.equal(down.kind, 'failed');
    assert.match(down.kind === 'failed' ? down.problem : '', /registry not reachable .* HTTP 503/);
  });

  test('the update is installed the way the entry was: the oci image stays oci, a remote stays its transport', () => {
    const filesystem = server('io.github.modelcontextprotocol/filesystem');
    assert.deepEqual(matchingChoice({ command: 'docker', args: ['run', '-i', 'docker.io/mcp/filesystem:1.0.1'] }, filesystem), { kind: 'package', index: 1 });
    assert.deepEqual(matchingChoice({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@1.0.1'] }, filesystem), { kind: 'package', index: 0 });
    const hybrid = server('io.modelcontextprotocol.anonymous/hybrid-mcp');
    assert.deepEqual(matchingChoice({ type: 'sse', url: 'https://old.example/sse' }, hybrid), { kind: 'remote', index: 1 });
    const plan = planUpdate('my-fs', { command: 'docker', args: [] }, filesystem, 'inputs');
    assert.ok(plan.ok);
    assert.equal(plan.ok && plan.plan.key, 'my-fs');
    assert.equal(plan.ok && plan.plan.entry.command, 'docker');
    const gone = planUpdate('weather', { command: 'npx', args: ['-y', 'weather@1'] }, server('io.github.example/weather-mcp'), 'inputs');
    assert.deepEqual(gone, { ok: false, reasons: ['io.github.example/weather-mcp 0.5.0 has no npm package or remote any more: install it again by hand'] });
  });
});
