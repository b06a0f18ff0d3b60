import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonRpcSchemas, Message } from '../../src/protocol/messages';

/** What the zod schemas alone say a value is: the reference the fast path must agree with. */
function zodKind(v: any): string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'invalid';
  if (typeof v.method === 'string') {
    if ('id' in v && v.id !== undefined) return jsonRpcSchemas().request.safeParse(v).success ? 'request' : 'invalid';
    return jsonRpcSchemas().notification.safeParse(v).success ? 'notification' : 'invalid';
  }
  if ('result' in v) return jsonRpcSchemas().success.safeParse(v).success ? 'response' : 'invalid';
  if ('error' in v) return jsonRpcSchemas().failure.safeParse(v).success ? 'response' : 'invalid';
  return 'invalid';
}

describe('Message.classify', () => {
  // Every combination of the envelope's fields over good and bad values.
  const ids = [undefined, 1, 0, 'a', '', null, true, {}, 1.5];
  const jsonrpcs = ['2.0', '1.0', undefined, 2];
  const params = [undefined, {}, { a: 1 }, [], 'x', null];
  const results = [{}, { tools: [] }, [], null, 'x', 1];
  const errors = [{ code: -1, message: 'm' }, { code: -1, message: 'm', data: [1] }, { code: '1', message: 'm' }, { code: 1 }, null, 'e', []];
  const corpus: unknown[] = ['text', 42, null, [], {}];
  for (const jsonrpc of jsonrpcs)
    for (const id of ids) {
      const base: any = { jsonrpc };
      if (id !== undefined) base.id = id;
      for (const p of params) corpus.push({ ...base, method: 'm', ...(p === undefined ? {} : { params: p }) });
      corpus.push({ ...base, method: 7 });
      for (const r of results) corpus.push({ ...base, result: r });
      for (const e of errors) corpus.push({ ...base, error: e });
    }

  test('the hand-written fast path accepts exactly what the zod schemas accept', () => {
    for (const v of corpus) assert.equal(Message.classify(v).kind, zodKind(v), JSON.stringify(v));
    assert.ok(corpus.length > 300);
  });

  test('valid messages keep unknown fields; invalid ones explain the field', () => {
    const m = { jsonrpc: '2.0', id: 1, result: { a: 1 }, extra: true };
    const c = Message.classify(m);
    assert.equal(c.kind, 'response');
    assert.equal((c as any).message.extra, true);
    const bad = Message.classify({ jsonrpc: '2.0', id: 1, method: 'x', params: 'nope' });
    assert.equal(bad.kind, 'invalid');
    assert.match((bad as any).reason, /message\.params must be/);
  });
});
