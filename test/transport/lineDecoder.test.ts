import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TransportLog } from '../../src/protocol/transport';
import { LineDecoder, LineDecoderOptions } from '../../src/transport/lineDecoder';

/** A decoder that records what it delivers. */
function record(options?: LineDecoderOptions) {
  const messages: Array<{ message: unknown; bytes: number }> = [];
  const logs: TransportLog[] = [];
  const decoder = new LineDecoder({ message: (message, bytes) => messages.push({ message, bytes }), log: (log) => logs.push(log) }, options);
  return { decoder, messages, logs };
}

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('LineDecoder', () => {
  const value = { jsonrpc: '2.0', method: 'notifications/text', params: { text: 'héllo € 𝄞 日本 ü' } };
  const line = bytes(JSON.stringify(value) + '\n');

  test('a line split at every byte offset decodes the same (multi-byte characters included)', () => {
    for (let i = 0; i <= line.length; i++) {
      const { decoder, messages, logs } = record();
      decoder.push(line.subarray(0, i));
      decoder.push(line.subarray(i));
      assert.deepEqual(messages, [{ message: value, bytes: line.length - 1 }], `split at ${i}`);
      assert.deepEqual(logs, []);
    }
  });

  test('a line split in three at every pair of offsets decodes the same', () => {
    for (let i = 0; i <= line.length; i++) {
      for (let j = i; j <= line.length; j++) {
        const { decoder, messages } = record();
        decoder.push(line.subarray(0, i));
        decoder.push(line.subarray(i, j));
        decoder.push(line.subarray(j));
        assert.equal(messages.length, 1, `split at ${i}, ${j}`);
        assert.deepEqual(messages[0].message, value);
      }
    }
  });

  test('accepts \\r\\n, also when \\r and \\n arrive in different chunks', () => {
    const { decoder, messages, logs } = record();
    decoder.push(bytes('{"a":1}\r\n{"b":2}\r'));
    decoder.push(bytes('\n{"c":'));
    decoder.push(bytes('3}\r'));
    decoder.push(bytes('\n'));
    assert.deepEqual(messages, [
      { message: { a: 1 }, bytes: 7 },
      { message: { b: 2 }, bytes: 7 },
      { message: { c: 3 }, bytes: 7 },
    ]);
    assert.deepEqual(logs, []);
  });

  test('skips empty and blank lines silently', () => {
    const { decoder, messages, logs } = record();
    decoder.push(bytes('\n\n   \n\t\r\n\r\n{"a":1}\n\n'));
    decoder.push(bytes('  '));
    decoder.push(bytes(' \r\n'));
    assert.deepEqual(messages.map((m) => m.message), [{ a: 1 }]);
    assert.deepEqual(logs, []);
  });

  test('an oversize line is dropped without being buffered, reported once, and the next line works', () => {
    const { decoder, messages, logs } = record({ maxMessageBytes: 100 });
    decoder.push(bytes('{"data":"'));
    for (let i = 0; i < 20; i++) {
      decoder.push(bytes('x'.repeat(50)));
      // Never more than the cap is held, and nothing at all once over it.
      assert.ok(decoder.pendingBytes <= 100);
    }
    assert.equal(decoder.pendingBytes, 0);
    decoder.push(bytes('"}\n{"ok":true}\n'));
    assert.deepEqual(messages.map((m) => m.message), [{ ok: true }]);
    assert.equal(logs.length, 1);
    assert.equal(logs[0].kind, 'oversize');
    assert.match(logs[0].text, /100 bytes limit/);
    assert.match(logs[0].text, /at least 109 bytes dropped/);
    const stats = decoder.stats();
    assert.equal(stats.oversizeLines, 1);
    assert.equal(stats.droppedBytes, 9 + 20 * 50 + 2);
  });

  test('an oversize line inside one chunk is reported with its size', () => {
    const { decoder, messages, logs } = record({ maxMessageBytes: 10 });
    decoder.push(bytes('{"a":"0123456789"}\n{"b":1}\n'));
    assert.deepEqual(messages.map((m) => m.message), [{ b: 1 }]);
    assert.equal(logs.length, 1);
    assert.equal(logs[0].kind, 'oversize');
    assert.match(logs[0].text, /18 bytes, over the 10 bytes limit/);
  });

  test('a line of exactly the cap is accepted, also with \r\n split across chunks', () => {
    const { decoder, messages, logs } = record({ maxMessageBytes: 7 });
    decoder.push(bytes('{"a":1}\r\n{"a":'));
    decoder.push(bytes('2}\n{"a":3}'));
    decoder.push(bytes('\r'));
    decoder.push(bytes('\n{"a":44}\n'));
    assert.deepEqual(messages.map((m) => m.message), [{ a: 1 }, { a: 2 }, { a: 3 }]);
    assert.equal(logs.length, 1);
    assert.equal(logs[0].kind, 'oversize');
  });

  test('lines that do not start with { or [ are noise; broken JSON is invalid-json; neither is fatal', () => {
    const { decoder, messages, logs } = record();
    decoder.push(bytes('Server started on stdio\n{"a":1}\n{"a": }\n[INFO] ready\nnull\n42\n{"b":'));
    decoder.push(bytes('2}\n'));
    assert.deepEqual(messages.map((m) => m.message), [{ a: 1 }, { b: 2 }]);
    assert.deepEqual(
      logs.map((l) => l.kind),
      ['noise', 'invalid-json', 'invalid-json', 'noise', 'noise'],
    );
    assert.equal(logs[0].text, 'Server started on stdio');
    assert.match(logs[1].text, /not valid JSON.*\{"a": \}/);
    const stats = decoder.stats();
    assert.equal(stats.noiseLines, 3);
    assert.equal(stats.invalidJsonLines, 2);
  });

  test('a noise line split across chunks is quoted, long ones cut without breaking a character', () => {
    const { decoder, logs } = record();
    decoder.push(bytes('Wel'));
    decoder.push(bytes('come\n'));
    const long = 'é'.repeat(1000);
    decoder.push(bytes(long.slice(0, 300)));
    decoder.push(bytes(long.slice(300) + '\n'));
    assert.equal(logs[0].text, 'Welcome');
    assert.equal(logs[1].kind, 'noise');
    assert.match(logs[1].text, /^é+… \(2000 bytes\)$/);
    assert.ok(!logs[1].text.includes('\ufffd'));
  });

  test('many lines in one chunk arrive in order', () => {
    const { decoder, messages } = record();
    const n = 10_000;
    let text = '';
    for (let i = 0; i < n; i++) text += JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { i } }) + '\n';
    decoder.push(bytes(text));
    assert.equal(messages.length, n);
    messages.forEach((m, i) => assert.equal((m.message as { params: { i: number } }).params.i, i));
  });

  test('a batch (array) is a message', () => {
    const { decoder, messages } = record();
    decoder.push(bytes('[{"a":1},{"b":2}]\n'));
    assert.deepEqual(messages[0].message, [{ a: 1 }, { b: 2 }]);
  });

  test('end() delivers a final line without a newline', () => {
    const { decoder, messages } = record();
    decoder.push(bytes('{"a":1}\n{"b":'));
    decoder.push(bytes('2}'));
    assert.equal(messages.length, 1);
    decoder.end();
    assert.deepEqual(messages.map((m) => m.message), [{ a: 1 }, { b: 2 }]);
  });

  test('a 50 MiB line in 64 KiB chunks completes', { timeout: 30_000 }, () => {
    const payload = 'a'.repeat(50 * 1024 * 1024);
    const data = Buffer.from(`{"data":"${payload}"}\n`);
    const { decoder, messages } = record();
    for (let i = 0; i < data.length; i += 65536) decoder.push(data.subarray(i, i + 65536));
    assert.equal(messages.length, 1);
    assert.equal(messages[0].bytes, data.length - 1);
    assert.equal((messages[0].message as { data: string }).data.length, payload.length);
  });

  test('a 1 MiB line in 1-byte chunks finishes (time is linear in bytes)', { timeout: 30_000 }, () => {
    // A decoder that concatenates or rescans per chunk would copy ~500 GB here and never finish.
    const data = Buffer.from(`{"data":"${'b'.repeat(1024 * 1024)}"}\n`);
    const { decoder, messages } = record();
    for (let i = 0; i < data.length; i++) decoder.push(data.subarray(i, i + 1));
    assert.equal(messages.length, 1);
    assert.equal(messages[0].bytes, data.length - 1);
  });

  test('rejects a nonsense cap', () => {
    assert.throws(() => record({ maxMessageBytes: 0 }), RangeError);
  });
});
