import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TextLineSplitter } from '../../src/transport/textLineSplitter';

describe('TextLineSplitter', () => {
  test('splits lines, accepts \\r\\n, skips empty lines and keeps characters split across chunks', () => {
    const lines: string[] = [];
    const splitter = new TextLineSplitter((line) => lines.push(line));
    const data = Buffer.from('first\r\n\nzweite Zeile: größer €\nlast without newline');
    for (let i = 0; i < data.length; i++) splitter.push(data.subarray(i, i + 1));
    splitter.end();
    assert.deepEqual(lines, ['first', 'zweite Zeile: größer €', 'last without newline']);
  });

  test('cuts a line longer than the cap and marks it', () => {
    const lines: string[] = [];
    const splitter = new TextLineSplitter((line) => lines.push(line), 10);
    splitter.push(Buffer.from('0123456789abcdef'));
    splitter.push(Buffer.from('ghij\nshort\n'));
    assert.deepEqual(lines, ['0123456789 … [line truncated]', 'short']);
  });
});
