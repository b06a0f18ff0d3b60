import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseServeInbound } from '../../src/serverRequests/dialogMessages';

describe('serve webview messages', () => {
  test('accepted messages', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'samplingApprove', edits: { texts: { m0p0: 'x' }, systemPrompt: '', maxTokens: 5 }, remember: 'once' },
      { type: 'samplingApprove', edits: {}, remember: 'allowAlways' },
      { type: 'samplingReject', remember: 'never' },
      { type: 'samplingAnswerSelf', text: 'Four.', model: 'human' },
      { type: 'answerSend', text: 'ok' },
      { type: 'formValidate', state: { a: '1', b: [0, 2], c: true, d: 1 } },
      { type: 'formAccept', state: {} },
      { type: 'urlOpen' },
      { type: 'retryNow' },
    ]) {
      assert.equal(parseServeInbound(m).ok, true, JSON.stringify(m));
    }
  });

  test('a "__proto__" key in edits never reaches the extension as a key or a prototype', () => {
    const r = parseServeInbound(JSON.parse('{"type":"samplingApprove","edits":{"texts":{"__proto__":{"polluted":1}}},"remember":"once"}'));
    assert.ok(r.ok && r.message.type === 'samplingApprove', `parsed as a samplingApprove: ${JSON.stringify(r)}`);
    const texts = r.message.edits.texts;
    assert.ok(texts, 'the edits keep their texts object');
    assert.deepEqual(Object.keys(texts), []);
    assert.equal(Object.getPrototypeOf(texts), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('anything else is refused: unknown types, extra keys, bad ids, bad numbers', () => {
    for (const m of [
      null,
      'ready',
      { type: 'openAnything', url: 'file:///etc/passwd' },
      { type: 'ready', extra: 1 },
      { type: 'samplingApprove', edits: { texts: { m0: 'x' } }, remember: 'once' },
      { type: 'samplingApprove', edits: { maxTokens: 0 }, remember: 'once' },
      { type: 'samplingApprove', edits: { maxTokens: 1.5 }, remember: 'once' },
      { type: 'samplingApprove', edits: {}, remember: 'forever' },
      { type: 'samplingReject', remember: 'allowAlways' },
      { type: 'answerSend' },
      { type: 'samplingAnswerSelf', text: 'x' },
      { type: 'samplingAnswerSelf', text: 'x', model: 'm'.repeat(201) },
      { type: 'urlOpen', url: 'https://elsewhere.example' },
    ]) {
      assert.equal(parseServeInbound(m).ok, false, JSON.stringify(m));
    }
  });
});
