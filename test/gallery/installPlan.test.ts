// The install planner over the real server.json examples of the MCP Registry's reference (and our
// unsafe ones): the entry written, the inputs asked for, secrets never written, refusals with reasons.
import { before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ServerDetail } from '../../src/gallery/serverJson';
import { InstallPlan, describeEntry, installChoices, planInstall } from '../../src/gallery/installPlan';
import { RegistryDocuments, registryDocuments } from './registryFixture';

let docs: RegistryDocuments;
before(async () => {
  docs = await registryDocuments();
});

function server(name: string): ServerDetail {
  const found = [...docs.REAL, ...docs.UNSAFE, docs.TEMPLATED].find((d) => d.name === name);
  assert.ok(found, name);
  return ServerDetail.parse(found);
}

function planned(name: string, dialect: 'inputs' | 'environment' = 'inputs', use = 0): InstallPlan {
  const s = server(name);
  const outcome = planInstall(s, dialect, { choice: installChoices(s)[use].choice });
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.reasons.join('; '));
  return outcome.plan;
}

suite('gallery: install plans from server.json', () => {
  test('every real example of the reference is read by the schema', () => {
    for (const doc of docs.REAL) assert.ok(ServerDetail.safeParse(doc).success, String(doc.name));
    assert.equal(ServerDetail.safeParse(docs.MALFORMED[0]).success, false);
  });

  test('npm with a secret environment variable: npx at the pinned version, the key an input with password, no value written', () => {
    const plan = planned('io.modelcontextprotocol.anonymous/brave-search');
    assert.equal(plan.key, 'brave-search');
    assert.deepEqual(plan.entry, { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-brave-search@1.0.2'], env: { BRAVE_API_KEY: '${input:brave-search-BRAVE_API_KEY}' } });
    assert.deepEqual(plan.inputs, [{ type: 'promptString', id: 'brave-search-BRAVE_API_KEY', description: 'Brave Search API Key', password: true }]);
  });

  test('the same into .mcp.json: an environment reference, and the variable named for the user', () => {
    const plan = planned('io.modelcontextprotocol.anonymous/brave-search', 'environment');
    assert.deepEqual(plan.entry.env, { BRAVE_API_KEY: '${BRAVE_API_KEY}' });
    assert.deepEqual(plan.inputs, []);
    assert.deepEqual(plan.environment, [{ name: 'BRAVE_API_KEY', description: 'Brave Search API Key', secret: true }]);
  });

  test('a required positional argument is asked for with its default; an optional variable with a default is written as is', () => {
    const plan = planned('io.github.modelcontextprotocol/filesystem');
    assert.deepEqual(plan.entry, { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@1.0.2', '${input:filesystem-target_dir}'], env: { LOG_LEVEL: 'info' } });
    assert.deepEqual(plan.inputs, [{ type: 'promptString', id: 'filesystem-target_dir', description: 'Path to access', default: '/Users/username/Desktop' }]);
  });

  test('oci: docker run with the runtime arguments, their {variables} asked for, and -e for each variable', () => {
    const plan = planned('io.github.modelcontextprotocol/filesystem', 'inputs', 1);
    assert.equal(describeEntry(plan.entry), 'docker run -i --rm --mount type=bind,src=${input:filesystem-source_path},dst=${input:filesystem-target_path} -e LOG_LEVEL docker.io/mcp/filesystem:1.0.2 /project');
    assert.deepEqual(plan.inputs.map((i) => i.id), ['filesystem-source_path', 'filesystem-target_path']);
  });

  test('pypi runs with uvx at the pinned version', () => {
    const plan = planned('io.github.example/weather-mcp');
    assert.deepEqual(plan.entry.args, ['weather-mcp-server==0.5.0']);
    assert.equal(plan.entry.command, 'uvx');
    assert.deepEqual(plan.entry.env, { WEATHER_API_KEY: '${input:weather-mcp-WEATHER_API_KEY}', WEATHER_UNITS: 'celsius' });
  });

  test('docker with host networking is installed but said plainly; choices become a pick; required named flags are asked for', () => {
    const plan = planned('io.github.example/database-manager');
    assert.ok(plan.warnings.includes('the container shares the host network (--network host)'), plan.warnings.join('; '));
    assert.deepEqual(plan.inputs.find((i) => i.id === 'database-manager-db_type'), { type: 'pickString', id: 'database-manager-db_type', description: 'Type of database', options: ['postgres', 'mysql', 'mongodb', 'redis'] });
    assert.equal(plan.inputs.find((i) => i.id === 'database-manager-DB_PASSWORD')?.password, true);
    const args = plan.entry.args as string[];
    assert.deepEqual(args.slice(args.indexOf('--host')), ['--host', '${input:database-manager-host}', '${input:database-manager-database_name}']);
    assert.ok(plan.warnings.includes('the optional package argument --port was left out'));
  });

  test('a remote: "http" with its headers, the secret one an input with password', () => {
    const plan = planned('io.modelcontextprotocol.anonymous/hybrid-mcp', 'inputs', 1);
    assert.deepEqual(plan.entry, { type: 'http', url: 'https://mcp.anonymous.modelcontextprotocol.io/http', headers: { 'X-API-Key': '${input:hybrid-mcp-X_API_Key}', 'X-Region': 'us-east-1' } });
    assert.equal(plan.inputs[0].password, true);
    assert.deepEqual(planned('io.modelcontextprotocol.anonymous/hybrid-mcp', 'inputs', 2).entry, { type: 'sse', url: 'https://mcp.anonymous.modelcontextprotocol.io/sse' });
  });

  test('a URL template: its variables asked for, a header built from a secret variable', () => {
    const plan = planned('com.example/tenant-remote');
    assert.deepEqual(plan.entry, { type: 'http', url: 'https://${input:tenant-remote-tenant}.mcp.example.com/mcp', headers: { Authorization: 'Bearer ${input:tenant-remote-token}' } });
    assert.deepEqual(plan.inputs.map((i) => [i.id, i.password === true]), [['tenant-remote-tenant', false], ['tenant-remote-token', true]]);
  });

  test('refused, with the reason: mcpb bundles (not yet), shell metacharacters, credentials in a URL, plain http, an injected argument, nothing to install', () => {
    const reasons = (name: string) => {
      const outcome = planInstall(server(name), 'inputs');
      assert.equal(outcome.ok, false, name);
      return outcome.ok ? '' : outcome.reasons.join('; ');
    };
    assert.match(reasons('io.modelcontextprotocol/text-editor'), /mcpb\) are not installed yet/);
    assert.match(reasons('com.example.unsafe/shell-in-name'), /shell metacharacters/);
    assert.match(reasons('com.example.unsafe/credentials-in-url'), /holds credentials/);
    assert.match(reasons('com.example.unsafe/plain-http'), /plain http to mcp\.example\.com/);
    assert.match(reasons('com.example.unsafe/argument-injection'), /package argument argument "\$\(cat ~\/\.ssh\/id_rsa\)" holds shell metacharacters/);
    const embedded = ServerDetail.parse(docs.REAL.find((d) => d.name === 'io.modelcontextprotocol.anonymous/embedded-mcp'));
    assert.deepEqual(planInstall(embedded, 'inputs'), { ok: false, reasons: ['io.modelcontextprotocol.anonymous/embedded-mcp has no package or remote to install (see https://anonymous.modelcontextprotocol.io/embedded-mcp-guide)'] });
  });

  test('a fixed argument runs as written; an optional flag with a default is left out and said', () => {
    const plan = planned('io.snyk/cli-mcp');
    assert.deepEqual(plan.entry.args, ['-y', 'snyk@1.1298.0', 'mcp']);
    assert.deepEqual(plan.warnings, ['the optional package argument -t was left out']);
  });
});
