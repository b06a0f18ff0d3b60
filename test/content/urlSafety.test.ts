import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { URI } from 'vscode-uri';
import { assessUrl, registrableDomain } from '../../src/content/urlSafety';

function openable(raw: string) {
  const a = assessUrl(raw);
  assert.equal(a.kind, 'openable', `${raw}: ${a.kind === 'blocked' ? a.reason : ''}`);
  return a as Extract<typeof a, { kind: 'openable' }>;
}

const kinds = (raw: string) => openable(raw).warnings.map((w) => w.kind);

/**
 * What the browser gets from `vscode.env.openExternal(vscode.Uri.parse(href, true))`: VS Code's
 * opener sends `encodeURI(uri.toString(true))` (OpenerService._doOpenExternal). vscode-uri is
 * the URI implementation VS Code uses.
 */
const openedThroughUri = (href: string) => encodeURI(URI.parse(href, true).toString(true));

/** The host the browser goes to through a Uri; undefined when that path breaks the URL (encodeURI turns IPv6 brackets into %5B…%5D). */
function hostThroughUri(href: string): string | undefined {
  try {
    return new URL(openedThroughUri(href)).hostname;
  } catch {
    return undefined;
  }
}

/** URLs whose authority VS Code's URI and the WHATWG parser read differently, and relatives. */
const CRAFTED_AUTHORITIES = [
  'https://evil.example%2F@good.example/',
  'https://evil.example%2f@good.example/path',
  'https://evil.example%5C@good.example/',
  'https://a%40evil.example@good.example/',
  'https://good.example%40evil.example/',
  'https://good.example%3A443@evil.example/',
  'https://evil.example%3A@good.example/',
  'https://user:pa%2Fss@good.example/',
  'https://good.example\\@evil.example/',
  'https://good.example\\evil.example/',
  'https://evil.example%2F%2E%2E@good.example/',
  'https://good.example%2Eevil.example/',
  'https://good.example%20@evil.example/',
  'https://good .example/',
  'https://evil.example\u3000@good.example/',
  'https://goo\u200bgle.com/',
  'https://good.example\u00a0/',
  'https://ev\u0456l.example%2F@good.example/',
];

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

  test('anything before @ is refused: the real host is after it', () => {
    for (const raw of ['https://www.bank.com@evil.example/login', 'https://user:pass@good.example/', 'https://@good.example/', 'https://:@good.example/']) {
      const a = assessUrl(raw);
      assert.equal(a.kind, 'blocked', raw);
      assert.match(a.kind === 'blocked' ? a.reason : '', /before "@"/);
    }
  });

  test('the host VS Code opens is the host assessed: crafted authorities are refused', () => {
    for (const raw of CRAFTED_AUTHORITIES) {
      const a = assessUrl(raw);
      if (a.kind === 'blocked') continue;
      // Whatever is let through must open at the host the user approved, on either path.
      assert.equal(hostThroughUri(a.href) ?? a.host, a.host, `${raw}: VS Code's URI would open another host`);
    }
    const a = assessUrl('https://evil.example%2F@good.example/');
    assert.equal(a.kind, 'blocked', 'the case from the review');
    assert.equal(hostThroughUri('https://evil.example%2F@good.example/'), 'evil.example', 'why: the Uri path decodes %2F');
  });

  test('ordinary URLs stay openable, the assessed href is a fixed point and spells its segments', () => {
    const ordinary = [
      'https://auth.example.com/authorize?redirect_uri=https%3A%2F%2Fapp.example%2Fcb%3Fa%3D1%26b%3D2&state=a%2Bb%3D',
      'https://例え.jp/パス?q=%2F#frag',
      'https://p\u0430ypal.com/signin',
      'http://localhost:3000/callback?code=x%20y',
      'https://[2001:db8::1]:8443/x',
      'HTTPS://Example.COM/A',
      'https://www.paypal.com./login',
    ];
    for (const raw of ordinary) {
      const a = openable(raw);
      assert.equal(openable(a.href).href, a.href, `${raw}: assessing the href again gives the same URL`);
      assert.equal(hostThroughUri(a.href) ?? a.host, a.host, `${raw}: same host even through a Uri`);
      assert.equal(a.segments.map((s) => s.text).join(''), a.href, `${raw}: the segments spell the URL that opens`);
    }
  });

  test('a fully qualified host (trailing dot) is shown as written', () => {
    const a = openable('https://www.paypal.com./login');
    assert.deepEqual(a.segments, [
      { role: 'scheme', text: 'https://' },
      { role: 'subdomain', text: 'www.' },
      { role: 'domain', text: 'paypal.com.' },
      { role: 'path', text: '/login' },
    ]);
    assert.equal(a.domain, 'paypal.com');
  });

  test('an IPv4 address written as a number, in octal, hex or short form is flagged, loopback too', () => {
    for (const [raw, address] of [
      ['https://0x7f.1/', '127.0.0.1'],
      ['https://2130706433/', '127.0.0.1'],
      ['https://0177.0.0.1/', '127.0.0.1'],
      ['https://127.1/', '127.0.0.1'],
      ['http://0x7f000001:8080/', '127.0.0.1'],
      ['https://\uff11\uff12\uff17.0.0.1/', '127.0.0.1'],
      ['https://0xc0.0.2.7/', '192.0.2.7'],
      ['https://3221225991./x', '192.0.2.7'],
    ]) {
      const a = openable(raw);
      assert.equal(a.host, address, raw);
      const ip = a.warnings.filter((w) => w.kind === 'ip-address');
      assert.equal(ip.length, 1, `${raw}: one IP warning`);
      assert.match(ip[0].text, new RegExp(address.replace(/\./g, '\\.')), raw);
    }
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
