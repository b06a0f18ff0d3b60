import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { collectAnswer, estimateTokens } from '../../src/serverRequests/answerStream';

async function* chunks(...parts: string[]): AsyncIterable<string> {
  for (const p of parts) yield p;
}

describe('collectAnswer', () => {
  test('a stream that ends on its own: endTurn, all text', async () => {
    assert.deepEqual(await collectAnswer(chunks('Hello', ', ', 'world'), { maxTokens: 100 }), { text: 'Hello, world', stopReason: 'endTurn' });
  });

  test('cut before the first stop sequence, even across chunks, and the model is stopped', async () => {
    let stopped = 0;
    const r = await collectAnswer(chunks('one two ', 'EN', 'D three', 'never read'), { maxTokens: 100, stopSequences: ['END', 'three'] }, () => stopped++);
    assert.deepEqual(r, { text: 'one two ', stopReason: 'stopSequence' });
    assert.equal(stopped, 1);
  });

  test('maxTokens: stopped once the model’s count goes past it', async () => {
    let stopped = 0;
    const words = Array.from({ length: 50 }, (_, i) => `w${i} `);
    const countTokens = async (t: string) => t.split(' ').filter(Boolean).length;
    const r = await collectAnswer(chunks(...words), { maxTokens: 10, countTokens }, () => stopped++);
    assert.equal(r.stopReason, 'maxTokens');
    assert.equal(stopped, 1);
    assert.ok((await countTokens(r.text)) > 10 && (await countTokens(r.text)) < 50, r.text);
  });

  test('without a tokenizer, 4 characters a token', async () => {
    assert.equal(estimateTokens('abcdefgh'), 2);
    const r = await collectAnswer(chunks('x'.repeat(30), 'y'.repeat(30)), { maxTokens: 10 });
    assert.equal(r.stopReason, 'maxTokens');
    const ok = await collectAnswer(chunks('x'.repeat(40)), { maxTokens: 10 });
    assert.equal(ok.stopReason, 'endTurn');
  });
});
