import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Emitter } from '../../src/protocol/events';

describe('Emitter listener hooks', () => {
  test('first and last listener are reported once each, and not after dispose', () => {
    const calls: string[] = [];
    const emitter = new Emitter<number>(undefined, { onFirstListener: () => calls.push('first'), onLastListener: () => calls.push('last') });
    const a = emitter.event(() => {});
    const b = emitter.event(() => {});
    assert.deepEqual(calls, ['first']);
    a.dispose();
    a.dispose();
    assert.deepEqual(calls, ['first'], 'one listener is left');
    b.dispose();
    assert.deepEqual(calls, ['first', 'last']);
    const c = emitter.event(() => {});
    assert.deepEqual(calls, ['first', 'last', 'first'], 'listening again starts again');
    emitter.dispose();
    c.dispose();
    assert.deepEqual(calls, ['first', 'last', 'first'], 'a disposed emitter reports nothing');
  });
});
