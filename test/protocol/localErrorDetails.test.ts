// McpLocalError's details are typed per kind (LocalErrorDetailsByKind in src/protocol/errors.ts):
// a field a kind does not carry, or a field of the wrong type, does not compile (the
// `@ts-expect-error` lines below: `tsc` fails on one that compiles), and a reader that checked the
// kind reads typed fields. The runtime half checks connectionEndOf(), the one reader of how a
// connection ended.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpLocalError, connectionEndOf } from '../../src/protocol/errors';

const exitReason = { kind: 'process-exited', code: 1, signal: null } as const;

test('each kind takes only its own details: a wrong field or type does not compile', () => {
  // @ts-expect-error a timeout names no URL
  assert.ok(new McpLocalError('timeout', 'tools/call timed out', { url: 'http://127.0.0.1/mcp' }));
  // @ts-expect-error an HTTP status is a number
  assert.ok(new McpLocalError('transport', 'POST answered 500', { status: '500' }));
  // @ts-expect-error a sandbox that could not start is one of three known reasons
  assert.ok(new McpLocalError('spawn', 'no bwrap', { command: 'node', sandbox: 'no-bwrap' }));
  // @ts-expect-error a spawn error carries no stderr
  assert.equal(new McpLocalError('spawn', 'cannot start "nope"', { command: 'nope' }).details.stderrTail, undefined);
  const timeout = new McpLocalError('timeout', 'tools/call timed out', { method: 'tools/call', timeoutMs: 100, elapsedMs: 101 });
  assert.equal(timeout.details.timeoutMs, 100);
});

test('a reader reads typed fields once it checked the kind; before that only what every kind has', () => {
  const thrown: unknown = new McpLocalError('server-exited', 'tools/call: the server exited with code 1', { method: 'tools/call', reason: exitReason, stderrTail: ['boom'] });
  assert.ok(McpLocalError.is(thrown));
  assert.equal(thrown.details.method, 'tools/call', 'every kind may name its request');
  // @ts-expect-error not every kind says how the connection ended
  assert.equal(thrown.details.reason?.kind, 'process-exited');
  assert.ok(thrown.kind === 'server-exited');
  assert.equal(thrown.details.reason?.kind, 'process-exited');
  assert.deepEqual(thrown.details.stderrTail, ['boom']);
  assert.ok(McpLocalError.is(thrown, 'server-exited') && thrown.details.code === undefined);
});

test('connectionEndOf: closed, server-exited and transport errors say how the connection ended; other kinds nothing', () => {
  const ended = { method: 'initialize', reason: exitReason, stderrTail: ['a'], stderrExcerpt: ['a'] };
  assert.deepEqual(connectionEndOf(new McpLocalError('server-exited', 'exited', { ...ended, code: 1, signal: null })).reason, exitReason);
  assert.deepEqual(connectionEndOf(new McpLocalError('closed', 'closed', ended)).stderrTail, ['a']);
  const unauthorized = { kind: 'authorization-required', status: 401, url: 'http://127.0.0.1/mcp' } as const;
  assert.deepEqual(connectionEndOf(new McpLocalError('transport', 'needs sign-in', { url: 'http://127.0.0.1/mcp', reason: unauthorized })).reason, unauthorized);
  assert.deepEqual(connectionEndOf(new McpLocalError('timeout', 'timed out', { method: 'initialize', timeoutMs: 5 })), {});
  assert.deepEqual(connectionEndOf(new McpLocalError('spawn', 'cannot start', { command: 'nope' })), {});
});
