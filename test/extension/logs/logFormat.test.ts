import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { LoggingLevels } from '../../../src/client/schemas';
import {
  LogLevel,
  REDACTED,
  Redactor,
  cutPayload,
  formatEarlierFrames,
  formatFrame,
  formatLogData,
  logLevelToMcpLevel,
  mcpLevelToLogMethod,
  redactAuthorization,
} from '../../../src/extension/logs/logFormat';
import { formatBytes } from '../../../src/protocol/text';
import { displayCommandLine, formatCommandLine, maskEnvValue, maskUrlCredentials } from '../../../src/protocol/redaction';

describe('level mapping', () => {
  test('every MCP level maps to a channel method, errors and worse to error', () => {
    const mapped = Object.fromEntries(LoggingLevels.map((l) => [l, mcpLevelToLogMethod(l)]));
    assert.deepEqual(mapped, {
      debug: 'debug',
      info: 'info',
      notice: 'info',
      warning: 'warn',
      error: 'error',
      critical: 'error',
      alert: 'error',
      emergency: 'error',
    });
  });

  test('channel levels map to the logging/setLevel level that sends no more than is shown', () => {
    assert.equal(logLevelToMcpLevel(LogLevel.Trace), 'debug');
    assert.equal(logLevelToMcpLevel(LogLevel.Debug), 'debug');
    assert.equal(logLevelToMcpLevel(LogLevel.Info), 'info');
    assert.equal(logLevelToMcpLevel(LogLevel.Warning), 'warning');
    assert.equal(logLevelToMcpLevel(LogLevel.Error), 'error');
    assert.equal(logLevelToMcpLevel(LogLevel.Off), 'emergency');
  });
});

describe('Redactor', () => {
  test('hides every occurrence of a secret, longest first, in raw and JSON-escaped form', () => {
    const r = new Redactor();
    r.add('s3cr"et', 'abcd', 'abcdefgh', '', 'ab');
    assert.equal(r.redact('token=abcdefgh and abcd, ab stays'), `token=${REDACTED} and ${REDACTED}, ab stays`);
    const json = JSON.stringify({ env: { PASS: 's3cr"et' } });
    assert.ok(json.includes('s3cr\\"et'));
    assert.equal(r.redact(json).includes('s3cr'), false);
    r.clear();
    assert.equal(r.redact('abcd'), 'abcd');
  });

  test('hides a secret in a shell-quoted command line and a URL too', () => {
    const r = new Redactor(["it's a secret"]);
    const line = formatCommandLine('server', ["--password=it's a secret", "it's a secret"]);
    assert.equal(r.redact(line), `server '--password=${REDACTED}' '${REDACTED}'`);
    assert.equal(r.redact(`https://x.example/?k=${encodeURIComponent("it's a secret")}`), `https://x.example/?k=${REDACTED}`);
  });

  test('the command line a person is shown: ".." resolved only where it names the same file, never through a symbolic link', () => {
    const w = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-host-display-')));
    try {
      mkdirSync(join(w, 'demo'));
      mkdirSync(join(w, 'node_modules', 'e'), { recursive: true });
      writeFileSync(join(w, 'node_modules', 'e', 'index.js'), '');
      // A crafted workspace: demo/evil links elsewhere, so demo/evil/../payload.js is elsewhere's payload.
      mkdirSync(join(w, 'elsewhere', 'sub'), { recursive: true });
      writeFileSync(join(w, 'elsewhere', 'payload.js'), '');
      writeFileSync(join(w, 'demo', 'payload.js'), '');
      symlinkSync(join(w, 'elsewhere', 'sub'), join(w, 'demo', 'evil'));
      assert.equal(displayCommandLine('node', [`${w}/demo/../node_modules/./e/index.js`, 'stdio', '../rel', 'it is']), `node ${w}/node_modules/e/index.js stdio ../rel 'it is'`);
      assert.equal(displayCommandLine('node', [`${w}/demo/evil/../payload.js`]), `node ${w}/demo/evil/../payload.js`, 'through a link: as written');
      assert.equal(displayCommandLine(`${w}/demo/../missing`, []), `${w}/demo/../missing`, 'a path that does not exist: as written');
      assert.equal(displayCommandLine(`${w}//demo/./payload.js`, []), `${w}/demo/payload.js`, '"." and "//" are always safe to drop');
      assert.equal(displayCommandLine('C:\\w\\.\\s.js', []), "'C:\\w\\s.js'");
      assert.equal(formatCommandLine(`${w}/demo/../x`, []), `${w}/demo/../x`, 'logs keep the exact command');
    } finally {
      rmSync(w, { recursive: true, force: true });
    }
  });

  test('hides the credentials of Authorization headers in text and JSON, keeping the scheme', () => {
    assert.equal(redactAuthorization('Authorization: Bearer eyJabc.def'), `Authorization: Bearer ${REDACTED}`);
    assert.equal(redactAuthorization('{"authorization":"Basic dXNlcjpwYXNz","x":1}'), `{"authorization":"Basic ${REDACTED}","x":1}`);
    assert.equal(redactAuthorization('{\\"Authorization\\": \\"token123\\"}'), `{\\"Authorization\\": \\"${REDACTED}\\"}`);
    assert.equal(redactAuthorization('nothing to see'), 'nothing to see');
  });
});

describe('frames', () => {
  test('a frame line names the direction, the size and the JSON', () => {
    const line = formatFrame({ direction: 'send', message: { jsonrpc: '2.0', id: 1, method: 'ping' }, bytes: 40 }, 4000);
    assert.equal(line, '[editor → server] 40 B {"jsonrpc":"2.0","id":1,"method":"ping"}');
    const back = formatFrame({ direction: 'receive', message: { jsonrpc: '2.0', id: 1, result: {} }, bytes: 2048 }, 4000);
    assert.ok(back.startsWith('[server → editor] 2.0 KiB {"jsonrpc"'));
  });

  test("a frame with its own text prints the text as it went over the wire, redacted", () => {
    const r = new Redactor();
    r.add('SECRET-VALUE');
    const text = '{ "id": 1, "jsonrpc": "2.0", "result": {"token": "SECRET-VALUE"} }';
    const line = formatFrame({ direction: 'receive', message: JSON.parse(text), text, bytes: text.length }, 4000, r);
    assert.equal(line, `[server → editor] ${text.length} B { "id": 1, "jsonrpc": "2.0", "result": {"token": "${REDACTED}"} }`);
  });

  test('large payloads are cut with a note of the full size, after redaction', () => {
    const r = new Redactor();
    r.add('SECRET-VALUE');
    const message = { text: 'x'.repeat(10) + 'SECRET-VALUE' + 'y'.repeat(100) };
    const line = formatFrame({ direction: 'receive', message, bytes: 200 }, 20, r);
    const full = JSON.stringify(message).replace('SECRET-VALUE', REDACTED);
    assert.ok(line.endsWith(`… (cut: ${full.length} chars in full)`), line);
    assert.equal(line.includes('SECRET'), false);
    assert.equal(cutPayload('abc', 0), 'abc');
  });

  test('sizes read as B, KiB, MiB', () => {
    assert.equal(formatBytes(123), '123 B');
    assert.equal(formatBytes(4300), '4.2 KiB');
    assert.equal(formatBytes(3 * 1024 * 1024), '3.0 MiB');
  });

  test('log data: strings as is, objects as JSON, with the logger name', () => {
    assert.equal(formatLogData(undefined, 'hello', 100), 'hello');
    assert.equal(formatLogData('db', { n: 1 }, 100), '[db] {"n":1}');
  });
});

test('a frame kept only by its size (too large for the ring) says so instead of a payload', () => {
  assert.equal(formatFrame({ direction: 'receive', message: undefined, bytes: 5 * 1024 * 1024, omitted: true }, 100), '[server → editor] 5.0 MiB (payload not kept: larger than the frames kept from before Trace)');
});

describe('URL credentials and env values', () => {
  test('maskUrlCredentials hides userinfo and secret query values, keeps variable references and everything else as written', () => {
    assert.equal(maskUrlCredentials('https://user:hunter2pass@h.example/mcp?api_key=abc123&team=blue&access_token=t0k&X-Amz-Signature=s1g#frag'), 'https://••••:••••@h.example/mcp?api_key=••••&team=blue&access_token=••••&X-Amz-Signature=s1g#frag');
    assert.equal(maskUrlCredentials('http://${input:user}:${env:PASS}@127.0.0.1:3000/mcp?token=${input:t}&sig=x'), 'http://${input:user}:${env:PASS}@127.0.0.1:3000/mcp?token=${input:t}&sig=••••');
    assert.equal(maskUrlCredentials('https://example.com/mcp?page=2&q=a%20b'), 'https://example.com/mcp?page=2&q=a%20b');
    assert.equal(maskUrlCredentials('https://example.com/p@th'), 'https://example.com/p@th', 'an @ in the path is no userinfo');
  });

  test('the Redactor masks URL credentials in any logged text: logs, Server Details, tooltips', () => {
    const r = new Redactor();
    const line = 'GET stream https://u:hunter2pass@h.example/sse?session=abc&code=xyz123&x=1 failed; see "http://a:b@c/d?password=p4ss"';
    const out = r.redact(line);
    assert.ok(!out.includes('hunter2pass') && !out.includes('xyz123') && !out.includes('p4ss') && !out.includes('abc'), out);
    assert.equal(out, 'GET stream https://••••:••••@h.example/sse?session=••••&code=••••&x=1 failed; see "http://••••:••••@c/d?password=••••"');
    assert.equal(r.redact('no url here: a:b@c'), 'no url here: a:b@c');
  });

  test('maskEnvValue: literals that may be secrets become ••••; references, short values, numbers and booleans stay', () => {
    assert.equal(maskEnvValue('sk-literal-abcdef1234567'), REDACTED);
    assert.equal(maskEnvValue('${input:key}'), '${input:key}');
    assert.equal(maskEnvValue('${workspaceFolder}/src'), '${workspaceFolder}/src');
    assert.equal(maskEnvValue('Bearer ${env:TOKEN}'), 'Bearer ${env:TOKEN}');
    assert.equal(maskEnvValue('prefix-literal-secret-${env:X}'), `${REDACTED}\${env:X}`);
    for (const plain of ['info', 'true', '8080', '12345678901']) assert.equal(maskEnvValue(plain), plain);
  });
});

test('frames replayed from before Trace each carry the time they were sent or received, not the time of the switch', () => {
  const sent = new Date(2026, 10, 25, 2, 13, 5, 7).getTime();
  const answered = sent + 1_234;
  const lines = formatEarlierFrames(
    [
      { direction: 'send', message: { jsonrpc: '2.0', id: 1, method: 'initialize' }, bytes: 50, time: sent },
      { direction: 'receive', message: { jsonrpc: '2.0', id: 1, result: {} }, bytes: 40, time: answered },
    ],
    4000,
  );
  assert.equal(lines.length, 4);
  assert.match(lines[0], /^2 frames from before the level was Trace \(the first at 2026-11-2\dT/);
  assert.equal(lines[1], '2026-11-25 02:13:05.007 [editor → server] 50 B {"jsonrpc":"2.0","id":1,"method":"initialize"}');
  assert.equal(lines[2], '2026-11-25 02:13:06.241 [server → editor] 40 B {"jsonrpc":"2.0","id":1,"result":{}}');
  assert.match(lines[3], /^\(end of the earlier frames/);
  assert.deepEqual(formatEarlierFrames([], 4000), []);
});
