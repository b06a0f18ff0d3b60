import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assessUrl, registrableDomain } from '../../src/serve/urlSafety';

function openable(raw: string) {
  const a = assessUrl(raw);
  assert.equal(a.kind, 'openable', `${raw}: ${a.kind === 'blocked' ? a.reason : ''}`);
  return a as Extract<typeof a, { kind: 'openable' }>;
}

const kinds = (raw: string) => openable(raw).warnings.map((w) => w.kind);

describe('URL safety', () => {
  test('a plain https URL is openable without warnings; the registrable domain is highlighted', () => {
    const a = openable('https://accounts.example.com/login?next=%2F#top');
    assert.deepEqual(a.warnings, []);
    assert.equal(a.domain, 'example.com');
    assert.deepEqual(a.segments, [
      { role: 'scheme', text: 'https://' },
      { role: 'subdomain', text: 'accounts.' },
      { role: 'domain', text: 'example.com' },
      { role: 'path', text: '/login?next=%2F#top' },
    ]);
    assert.equal(a.segments.map((s) => s.text).join(''), a.href, 'the segments spell the URL that opens');
  });

  test('http is warned about (milder for localhost)', () => {
    assert.deepEqual(kinds('http://example.com/'), ['not-https']);
    const local = openable('http://localhost:3000/callback');
    assert.deepEqual(local.warnings.map((w) => w.kind), ['not-https']);
    assert.match(local.warnings[0].text, /local address/);
  });

  test('punycode hosts are flagged and shown decoded', () => {
    const a = openable('https://xn--80ak6aa92e.com/');
    assert.ok(a.warnings.some((w) => w.kind === 'punycode'));
    assert.equal(a.unicodeHost, 'аррӏе.com');
    assert.ok(a.warnings.some((w) => w.kind === 'homograph'), 'all-Cyrillic look-alike of "apple"');
  });

  test('a Unicode host is parsed to punycode, flagged as punycode, homograph and mixed script', () => {
    // "pаypal" with a Cyrillic а.
    const a = openable('https://p\u0430ypal.com/signin');
    assert.match(a.host, /^xn--/);
    assert.deepEqual(new Set(a.warnings.map((w) => w.kind)), new Set(['punycode', 'mixed-script', 'homograph']));
    assert.equal(a.domain, a.host, 'the punycode form is highlighted, not the look-alike');
  });

  test('a genuine non-Latin IDN gets the punycode warning only', () => {
    assert.deepEqual(kinds('https://例え.jp/'), ['punycode']);
  });

  test('credentials before @ are flagged: the real host is after it', () => {
    const a = openable('https://www.bank.com@evil.example/login');
    assert.equal(a.host, 'evil.example');
    assert.equal(a.domain, 'evil.example');
    assert.ok(a.warnings.some((w) => w.kind === 'userinfo' && /evil\.example/.test(w.text)));
    assert.deepEqual(a.segments.slice(0, 3), [
      { role: 'scheme', text: 'https://' },
      { role: 'userinfo', text: 'www.bank.com@' },
      { role: 'domain', text: 'evil.example' },
    ]);
  });

  test('IP addresses and unusual ports are flagged', () => {
    assert.deepEqual(kinds('https://192.0.2.7/x'), ['ip-address']);
    assert.deepEqual(kinds('https://example.com:8443/'), ['unusual-port']);
    assert.deepEqual(kinds('https://127.0.0.1:8443/'), [], 'loopback with a port is normal for local callbacks');
  });

  test('other schemes, garbage and control characters are blocked', () => {
    for (const raw of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>x</b>', 'vscode://ext/cmd', 'command:workbench.action.quit', 'not a url', '', 'https://exa\u0000mple.com/', '/relative/path']) {
      assert.equal(assessUrl(raw).kind, 'blocked', raw);
    }
  });

  test('registrable domain, approximately', () => {
    assert.equal(registrableDomain('a.b.example.co.uk'), 'example.co.uk');
    assert.equal(registrableDomain('login.example.com'), 'example.com');
    assert.equal(registrableDomain('localhost'), 'localhost');
    assert.equal(registrableDomain('10.0.0.1'), '10.0.0.1');
  });
});
