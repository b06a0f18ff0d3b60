// The era rules as pure decisions: what a preference plans, and what a failed probe says.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EraMemory, McpLocalError, ResponseError, isProtocolPreference, judgeProbeFailure, planEra } from '../../src/client';

test('a preference plans the era: auto probes modern with a fallback, pins do not fall back', () => {
  assert.deepEqual(planEra('auto'), { era: 'modern', version: '2026-07-28', fallback: true });
  assert.deepEqual(planEra('modern'), { era: 'modern', version: '2026-07-28', fallback: false });
  assert.deepEqual(planEra('2026-07-28'), { era: 'modern', version: '2026-07-28', fallback: false });
  assert.deepEqual(planEra('legacy'), { era: 'legacy', version: '2025-11-25', fallback: false });
  assert.deepEqual(planEra('2025-03-26'), { era: 'legacy', version: '2025-03-26', fallback: false });
  assert.deepEqual(planEra('auto', { era: 'legacy', version: '2025-06-18' }), { era: 'legacy', version: '2025-06-18', fallback: false }, 'a remembered legacy server is not probed again');
  assert.deepEqual(planEra('legacy', { era: 'modern', version: '2026-07-28' }), { era: 'legacy', version: '2025-11-25', fallback: false }, 'a pin wins over memory');
  for (const ok of ['auto', 'legacy', 'modern', '2026-07-28', '2024-11-05']) assert.ok(isProtocolPreference(ok), ok);
  for (const bad of ['', 'latest', '2026-01-01', 7]) assert.ok(!isProtocolPreference(bad), String(bad));
});

test('a failed probe: any non-modern error means legacy, never one code only', () => {
  for (const code of [-32601, -32600, -32602, -32603, -32000, -1]) {
    assert.deepEqual(judgeProbeFailure(new ResponseError('server/discover', code, 'nope'), 'stdio'), { kind: 'legacy' }, String(code));
  }
  assert.deepEqual(judgeProbeFailure(new McpLocalError('timeout', 'slow'), 'stdio'), { kind: 'legacy' }, 'a silent stdio server is legacy');
  assert.equal(judgeProbeFailure(new McpLocalError('timeout', 'slow'), 'http').kind, 'fail', 'an HTTP timeout says nothing about the era');
});

test('-32022 with a version this client speaks is a retry; with only legacy versions a fallback; with unknown modern ones a failure', () => {
  const unsupported = (supported: unknown) => new ResponseError('server/discover', -32022, 'Unsupported protocol version', { supported, requested: '2026-07-28' });
  assert.deepEqual(judgeProbeFailure(unsupported(['2026-07-28']), 'http'), { kind: 'retry', version: '2026-07-28' });
  assert.deepEqual(judgeProbeFailure(unsupported(['2025-11-25', '2025-06-18']), 'stdio'), { kind: 'legacy' });
  assert.equal(judgeProbeFailure(unsupported(['2027-01-01']), 'stdio').kind, 'fail');
  assert.deepEqual(judgeProbeFailure(unsupported('garbage'), 'stdio'), { kind: 'legacy' });
  assert.match(unsupported(['2026-07-28', '2025-11-25']).message, /2026-07-28 is not supported; the server supports 2026-07-28, 2025-11-25/);
});

test('HTTP: a 4xx is legacy, its JSON-RPC error read like one; 401/403, 5xx and the network are failures', () => {
  const status = (s: number, serverMessage?: string) => new McpLocalError('transport', `HTTP ${s}`, { status: s, ...(serverMessage ? { serverMessage } : {}) });
  assert.deepEqual(judgeProbeFailure(status(400, 'Bad Request: Server not initialized'), 'http'), { kind: 'legacy' });
  assert.deepEqual(judgeProbeFailure(status(404), 'http'), { kind: 'legacy' });
  // The transport delivers a JSON-RPC error in a 4xx body as the error response.
  assert.deepEqual(judgeProbeFailure(new ResponseError('server/discover', -32022, 'x', { supported: ['2026-07-28'] }), 'http'), { kind: 'retry', version: '2026-07-28' });
  for (const s of [401, 403, 500, 503]) assert.equal(judgeProbeFailure(status(s), 'http').kind, 'fail', String(s));
  assert.equal(judgeProbeFailure(new McpLocalError('transport', 'ECONNREFUSED', { unreachable: true }), 'http').kind, 'fail');
});

test('the memory of eras is per key', () => {
  const memory = new EraMemory();
  memory.remember('http:https://a.example', { era: 'modern', version: '2026-07-28' });
  assert.deepEqual(memory.get('http:https://a.example'), { era: 'modern', version: '2026-07-28' });
  assert.equal(memory.get('http:https://b.example'), undefined);
  memory.forget('http:https://a.example');
  assert.equal(memory.get('http:https://a.example'), undefined);
});

test('the new wire codes are explained in the error message', () => {
  assert.match(new ResponseError('tools/call', -32021, 'missing', { requiredCapabilities: { elicitation: {} } }).message, /needs the client capability elicitation/);
  assert.match(new ResponseError('tools/call', -32020, 'mismatch').message, /Mcp-\* header did not match/);
  assert.match(new ResponseError('resources/read', -32002, 'gone').message, /resource not found/);
});
