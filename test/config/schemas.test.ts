// The JSON schemas VS Code uses for validation and completion agree with the parser: what the
// parser rejects, the schema flags, and what it accepts, the schema accepts.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parseConfigText, parseSettingsValue } from '../../src/config/parse';
import { folderSources, settingsSource } from '../../src/config/sources';

const SCHEMAS = path.resolve(__dirname, '../../../media/schemas');
const load = (name: string) => JSON.parse(readFileSync(path.join(SCHEMAS, name), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
const validateMcp = ajv.compile(load('mcp.schema.json'));
const validateDot = ajv.compile(load('dot-mcp.schema.json'));
const validateSetting = ajv.compile(load('settings-servers.schema.json'));
const [MCP_JSON, DOT_MCP] = folderSources({ name: 'w', fsPath: '/w' });

const goodServers: Record<string, unknown>[] = [
  { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
  { type: 'stdio', command: 'node', args: [], env: { A: 'x', B: null, PORT: 8080 }, envFile: '${workspaceFolder}/.env', cwd: 'sub' },
  { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
  { type: 'sse', url: 'http://localhost:3000/sse' },
  { url: 'https://example.com/mcp' },
  { type: 'http', url: 'https://example.com/mcp', oauth: { clientId: 'app', clientSecret: '${env:APP_SECRET}', scopes: ['read', 'write'], callbackPort: 33418 } },
];
const badServers: Record<string, unknown>[] = [
  { command: 42 },
  { command: '' },
  { command: 'node', args: '--port 1' },
  { command: 'node', args: ['ok', 7] },
  { type: 'websocket', command: 'node' },
  { args: ['x'] },
  { command: 'node', env: { A: true } },
  { command: 'node', cwd: 3 },
  { type: 'http' },
  { type: 'stdio', url: 'https://x' },
  { type: 'sse', url: 'localhost:3000' },
  { type: 'http', url: 'https://x', headers: { A: 1 } },
  { type: 'http', url: 'https://x', oauth: { clientSecret: '${env:S}' } },
  { type: 'http', url: 'https://x', oauth: { clientId: 'app', clientSecret: 'written-in-the-file' } },
  { type: 'http', url: 'https://x', oauth: { clientId: 'app', scopes: ['a b'] } },
  { type: 'http', url: 'https://x', oauth: { clientId: 'app', callbackPort: 70000 } },
];

suite('JSON schemas', () => {
  test('mcp.schema.json accepts what the parser loads and flags what it rejects', () => {
    for (const [i, server] of goodServers.entries()) {
      const doc = { servers: { s: server } };
      assert.ok(validateMcp(doc), `good #${i}: ${ajv.errorsText(validateMcp.errors)}`);
      const loaded = parseConfigText(JSON.stringify(doc), MCP_JSON);
      assert.deepEqual(loaded.problems.filter((p) => p.severity === 'error'), [], `good #${i}`);
      assert.equal(loaded.servers.length, 1);
    }
    for (const [i, server] of badServers.entries()) {
      const doc = { servers: { s: server } };
      assert.equal(validateMcp(doc), false, `bad #${i} ${JSON.stringify(server)} passed the schema`);
      const loaded = parseConfigText(JSON.stringify(doc), MCP_JSON);
      assert.equal(loaded.servers.length, 0, `bad #${i} ${JSON.stringify(server)} loaded`);
    }
  });

  test('mcp.schema.json validates inputs like the parser', () => {
    const good = { inputs: [{ id: 'k', type: 'promptString', password: true, description: 'Key' }, { id: 'r', type: 'pickString', options: ['a', { label: 'B', value: 'b' }], default: 'a' }] };
    assert.ok(validateMcp(good), ajv.errorsText(validateMcp.errors));
    assert.equal(parseConfigText(JSON.stringify(good), MCP_JSON).inputs.length, 2);
    for (const input of [{ type: 'promptString' }, { id: 'x', type: 'command' }, { id: 'x', type: 'pickString' }, { id: 'x', type: 'promptString', password: 'yes' }]) {
      const doc = { inputs: [input] };
      assert.equal(validateMcp(doc), false, JSON.stringify(input));
      assert.equal(parseConfigText(JSON.stringify(doc), MCP_JSON).inputs.length, 0, JSON.stringify(input));
    }
  });

  test('dot-mcp.schema.json: the mcpServers format, including streamable-http', () => {
    for (const server of [...goodServers, { type: 'streamable-http', url: 'https://x/mcp' }]) {
      const doc = { mcpServers: { s: server } };
      assert.ok(validateDot(doc), `${JSON.stringify(server)}: ${ajv.errorsText(validateDot.errors)}`);
      assert.equal(parseConfigText(JSON.stringify(doc), DOT_MCP).servers.length, 1);
    }
    for (const server of badServers) {
      const doc = { mcpServers: { s: server } };
      assert.equal(validateDot(doc), false, JSON.stringify(server));
      assert.equal(parseConfigText(JSON.stringify(doc), DOT_MCP).servers.length, 0);
    }
  });

  test('settings-servers.schema.json is the servers map, self-contained (no $ref) for package.json', () => {
    const schema = load('settings-servers.schema.json');
    assert.ok(!JSON.stringify(schema).includes('$ref'));
    assert.equal(schema.type, 'object');
    for (const server of goodServers) {
      assert.ok(validateSetting({ s: server }), ajv.errorsText(validateSetting.errors));
      assert.equal(parseSettingsValue({ s: server }, settingsSource('user')).servers.length, 1);
    }
    for (const server of badServers) {
      assert.equal(validateSetting({ s: server }), false, JSON.stringify(server));
      assert.equal(parseSettingsValue({ s: server }, settingsSource('user')).servers.length, 0);
    }
  });
});
