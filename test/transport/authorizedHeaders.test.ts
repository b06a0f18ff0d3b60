// The headers of a request sent with a sign-in (src/transport/authorizedHeaders.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authorizedHeaders } from '../../src/transport/authorizedHeaders';

test('with no token the headers go as they are, the same object (no copy per request); configured Authorization and DPoP never go with a sign-in', () => {
  const plain = { 'content-type': 'application/json', 'mcp-session-id': 's' };
  assert.equal(authorizedHeaders(plain, undefined, undefined), plain);
  assert.equal(authorizedHeaders(plain, undefined, undefined), plain, 'again, from the cache');
  assert.deepEqual(authorizedHeaders(plain, 'Bearer t', undefined), { ...plain, authorization: 'Bearer t' });
  assert.deepEqual(authorizedHeaders(plain, 'DPoP t', 'proof'), { ...plain, authorization: 'DPoP t', dpop: 'proof' });
  assert.deepEqual(plain, { 'content-type': 'application/json', 'mcp-session-id': 's' }, 'the given object is never changed');
  const configured = { Authorization: 'Bearer static', DPoP: 'old', accept: 'application/json' };
  assert.deepEqual(authorizedHeaders(configured, undefined, undefined), { accept: 'application/json' });
  assert.deepEqual(authorizedHeaders(configured, 'Bearer t', undefined), { accept: 'application/json', authorization: 'Bearer t' });
});
