import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfigText } from '../../src/config/parse';
import { folderSources } from '../../src/config/sources';
import { DEFAULT_TIMEOUT_SECONDS, describeTimeoutSource, resolveTimeout } from '../../src/usecases/timeouts';

describe('request timeout of an inspect call', () => {
  test('the call\'s own timeout beats the server entry\'s, which beats the setting', () => {
    assert.deepEqual(resolveTimeout({ call: 2, server: 30, setting: 90 }), { seconds: 2, source: 'call' });
    assert.deepEqual(resolveTimeout({ server: 30, setting: 90 }), { seconds: 30, source: 'server' });
    assert.deepEqual(resolveTimeout({ setting: 90 }), { seconds: 90, source: 'setting' });
    assert.deepEqual(resolveTimeout({}), { seconds: DEFAULT_TIMEOUT_SECONDS, source: 'default' });
  });

  test('values that are not a positive finite number are skipped', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '30', null]) {
      assert.deepEqual(resolveTimeout({ call: bad, server: bad, setting: 45 }), { seconds: 45, source: 'setting' }, String(bad));
    }
    assert.deepEqual(resolveTimeout({ setting: 'x' }).source, 'default');
    assert.deepEqual(resolveTimeout({ call: 0.5 }), { seconds: 0.5, source: 'call' });
  });

  test('every source has words for the panel', () => {
    for (const s of ['call', 'server', 'setting', 'default'] as const) assert.ok(describeTimeoutSource(s).length > 0);
    assert.match(describeTimeoutSource('server'), /"timeout"/);
  });
});

describe('the server entry\'s "timeout" (seconds, as Cline writes it)', () => {
  const [, DOT_MCP] = folderSources({ name: 'api', fsPath: '/work/api' });

  test('is read from .mcp.json and becomes the server\'s timeout', () => {
    const loaded = parseConfigText('{ "mcpServers": { "slow": { "command": "node", "args": ["s.js"], "timeout": 120 }, "plain": { "command": "node" } } }', DOT_MCP);
    assert.deepEqual(loaded.problems, []);
    const [slow, plain] = loaded.servers;
    assert.equal(slow.timeoutSeconds, 120);
    assert.equal(plain.timeoutSeconds, undefined);
    assert.deepEqual(resolveTimeout({ server: slow.timeoutSeconds, setting: 60 }), { seconds: 120, source: 'server' });
    assert.deepEqual(resolveTimeout({ call: 5, server: slow.timeoutSeconds, setting: 60 }), { seconds: 5, source: 'call' });
  });

  test('anything but a positive number is warned about at the value and ignored', () => {
    const text = '{ "mcpServers": { "a": { "command": "node", "timeout": "60" }, "b": { "command": "node", "timeout": 0 } } }';
    const loaded = parseConfigText(text, DOT_MCP);
    assert.deepEqual(loaded.servers.map((s) => s.timeoutSeconds), [undefined, undefined]);
    assert.deepEqual(loaded.problems.map((p) => [p.severity, p.path, p.column]), [
      ['warning', 'mcpServers.a.timeout', text.indexOf('"60"') + 1],
      ['warning', 'mcpServers.b.timeout', text.indexOf('0 }') + 1],
    ]);
    assert.match(loaded.problems[0].message, /"timeout" must be a positive number of seconds/);
  });
});
