import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { terminalSafe } from '../../src/cli/terminalText';

describe('terminalSafe', () => {
  test('escapes C0 (but tab and line feed), DEL, C1 and bidi overrides; CRLF becomes LF', () => {
    assert.equal(terminalSafe('a\tb\nc\r\nd'), 'a\tb\nc\nd');
    assert.equal(terminalSafe('\u001b]52;c;eA==\u0007'), '\\u001b]52;c;eA==\\u0007');
    assert.equal(terminalSafe('x\ry\u0000\u007f\u009b\u202e'), 'x\\u000dy\\u0000\\u007f\\u009b\\u202e');
    assert.equal(terminalSafe('plain ünïcødé 例え'), 'plain ünïcødé 例え');
  });

  test('in JSON text it changes no value', () => {
    const value = { name: 'a\u001b[2J\u009b\u007f\r\n\u202eb', list: ['\u0007'] };
    const json = terminalSafe(JSON.stringify(value, null, 2));
    assert.doesNotMatch(json, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    assert.deepEqual(JSON.parse(json), value);
  });
});
