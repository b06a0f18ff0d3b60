import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DetailsInboundSchema, parseInbound } from '../../src/usecases/panelMessages';
import { parseWebviewMessage } from '../../src/content/webviewMessages';

describe('webview messages are validated strictly', () => {
  test('the messages the webview script sends are accepted', () => {
    const good: unknown[] = [
      { type: 'ready' },
      { type: 'validate', input: { mode: 'form', state: { a: '1', list: [{ x: true }, null], pick: 2 } } },
      { type: 'validate', input: { mode: 'form' } },
      { type: 'switchMode', input: { mode: 'json', text: '{"a":1}' } },
      { type: 'run', input: { mode: 'form', state: {} }, timeoutSeconds: 30 },
      { type: 'cancel' },
      { type: 'openLink', url: 'https://example.com' },
      { type: 'readResource', uri: 'demo://resource/static/document/architecture.md' },
      { type: 'openPart', callId: 'c1', index: 0 },
      { type: 'savePart', callId: 'c1', index: 3 },
      { type: 'copyResult', callId: 'c1' },
      { type: 'loadHistory', historyId: 'h1' },
      { type: 'rerun', historyId: 'h1' },
      { type: 'clearHistory' },
      { type: 'openResult', callId: 'c1' },
      { type: 'complete', name: 'department', value: 'E', context: { name: '' } },
    ];
    for (const m of good) assert.ok(parseInbound(m).ok, JSON.stringify(m));
  });

  test('anything else is refused with a reason', () => {
    const bad: unknown[] = [
      null,
      'ready',
      { type: 'explode' },
      { type: 'ready', extra: 1 },
      { type: 'run', input: { mode: 'form', state: {} }, timeoutSeconds: -1 },
      { type: 'run', input: { mode: 'yaml', text: '' } },
      { type: 'openPart', callId: 'c1', index: 1.5 },
      { type: 'openPart', callId: '', index: 1 },
      { type: 'openLink', url: 42 },
      { type: 'validate', input: { mode: 'form', state: { f: () => 1 } } },
      { type: 'validate', input: { mode: 'form', state: { n: Number.NaN } } },
      { type: 'readResource', uri: '' },
      { type: 'complete', name: 'department', value: 'E' },
      { type: 'complete', name: 'department', value: 'E', context: { n: 1 } },
      { type: 'openResult' },
    ];
    for (const m of bad) {
      const r = parseInbound(m);
      assert.equal(r.ok, false, JSON.stringify(m));
      assert.ok(!r.ok && r.reason.length > 0);
    }
  });

  test('Server Details accepts only ready and refresh', () => {
    assert.ok(parseWebviewMessage(DetailsInboundSchema, { type: 'ready' }).ok);
    assert.ok(parseWebviewMessage(DetailsInboundSchema, { type: 'refresh' }).ok);
    for (const m of [{ type: 'run' }, { type: 'refresh', x: 1 }, null]) assert.equal(parseWebviewMessage(DetailsInboundSchema, m).ok, false, JSON.stringify(m));
  });

  test('deeply nested state is refused', () => {
    let state: unknown = 'x';
    for (let i = 0; i < 100; i++) state = [state];
    assert.equal(parseInbound({ type: 'validate', input: { mode: 'form', state } }).ok, false);
  });
});
