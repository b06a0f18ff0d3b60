import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StatusKind } from '../../../src/extension/tree/serverRowText';
import { serverRowClick, serverRowExpands } from '../../../src/extension/tree/serverRowClick';

test('a click on a server row that expands only expands it: Server Details opens from rows without children', () => {
  const kinds: StatusKind[] = ['running', 'error', 'blocked', 'stopped', 'starting', 'stopping', 'waiting', 'signin'];
  const clicks = Object.fromEntries(kinds.map((k) => [k, serverRowClick(k) ?? 'expand']));
  assert.deepEqual(clicks, { running: 'expand', error: 'expand', blocked: 'expand', stopped: 'details', starting: 'details', stopping: 'details', waiting: 'details', signin: 'signIn' });
  for (const k of kinds) assert.equal(serverRowClick(k) === undefined, serverRowExpands(k), k);
});
