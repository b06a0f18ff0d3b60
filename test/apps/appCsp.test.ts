// The policies of an MCP App's view (appCsp.ts), the reading of its resource (appResource.ts), what
// it may reach (appPolicy.ts), its permissions, and the checks on its messages (appGuard.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { appResourceUriOf, toolVisibility } from '../../src/client/apps';
import { appContentSecurityPolicy, injectAppCsp, inlineCode, mergeCsp, pageCspAdditions, readAppCsp, refuseSource } from '../../src/apps/appCsp';
import { AppResourceError, appDocumentFrom } from '../../src/apps/appResource';
import { allowedPermissions, grantPermissions, readAppPermissions } from '../../src/apps/appPermissions';
import { refuseAppResourceRead, refuseAppToolCall } from '../../src/apps/appPolicy';
import { RateLimiter, checkAppMessage, MAX_APP_MESSAGE_BYTES } from '../../src/apps/appGuard';
import { contentSecurityPolicy } from '../../src/extension/webview/webviewPage';

const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the view’s own policy', () => {
  test('without _meta.ui.csp: the specification’s restrictive default', () => {
    const policy = appContentSecurityPolicy(readAppCsp(undefined).csp);
    assert.equal(directive(policy, 'default-src'), "default-src 'none'");
    assert.equal(directive(policy, 'script-src'), "script-src 'self' 'unsafe-inline'");
    assert.equal(directive(policy, 'connect-src'), "connect-src 'none'");
    assert.equal(directive(policy, 'frame-src'), "frame-src 'none'");
    assert.equal(directive(policy, 'object-src'), "object-src 'none'");
    assert.equal(directive(policy, 'img-src'), "img-src 'self' data:");
    assert.equal(directive(policy, 'base-uri'), "base-uri 'self'");
  });

  test('declared domains widen only their directives', () => {
    const { csp, refused } = readAppCsp({ connectDomains: ['https://api.example.com', 'wss://rt.example.com'], resourceDomains: ['https://*.cdn.example.net'], frameDomains: ['https://www.youtube.com'], baseUriDomains: ['https://cdn.example.com'] });
    assert.deepEqual(refused, []);
    const policy = appContentSecurityPolicy(csp);
    assert.equal(directive(policy, 'connect-src'), 'connect-src https://api.example.com wss://rt.example.com');
    assert.equal(directive(policy, 'script-src'), "script-src 'self' 'unsafe-inline' https://*.cdn.example.net");
    assert.equal(directive(policy, 'font-src'), "font-src 'self' https://*.cdn.example.net");
    assert.equal(directive(policy, 'frame-src'), 'frame-src https://www.youtube.com');
    assert.equal(directive(policy, 'base-uri'), 'base-uri https://cdn.example.com');
  });

  test('sources that would loosen the policy or break it are refused and named', () => {
    for (const bad of ['*', "'unsafe-eval'", 'data:', 'https:', 'https://evil.com; script-src *', 'https://a.com https://b.com', 'javascript:alert(1)', 'http://example.com', 'https://*', 'ftp://x.example.com', 'https://localhost:99999999']) {
      assert.ok(refuseSource(bad), `${bad} is refused`);
    }
    for (const good of ['https://api.example.com', 'https://*.example.com', 'wss://x.example.com:8443', 'http://localhost:3000', 'http://127.0.0.1:8080', 'https://cdn.example.com/lib/']) {
      assert.equal(refuseSource(good), undefined, `${good} is accepted`);
    }
    const { csp, refused } = readAppCsp({ connectDomains: ['https://ok.example.com', "'unsafe-inline'", 42], resourceDomains: 'https://x.com' });
    assert.deepEqual(csp.connectDomains, ['https://ok.example.com']);
    assert.equal(refused.length, 3);
    assert.ok(refused.some((r) => r.startsWith('resourceDomains: not a list')));
    assert.equal(appContentSecurityPolicy(csp).includes('unsafe-inline\'' + ' ' + 'https'), false);
  });

  test('the policy is the document’s first element, after the doctype, before any script', () => {
    const policy = "default-src 'none'";
    assert.equal(injectAppCsp('<!DOCTYPE html><html><head><script>1</script>', policy), `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><html><head><script>1</script>`);
    assert.ok(injectAppCsp('<script>evil()</script><html>', policy).startsWith('<meta http-equiv="Content-Security-Policy"'));
    // Quotes in a policy cannot end the attribute; CRLF is read as the parser reads it.
    assert.match(injectAppCsp('<p>\r\n</p>', 'a "b"'), /content="a &quot;b&quot;"><p>\n<\/p>/);
  });
});

describe('the page around the view', () => {
  const html = '<!doctype html><html><head><script type="module">console.log(1)\r\n</script><script src="https://cdn.example.com/x.js"></script></head><body><button onclick="go(&quot;x&quot;)">Go</button><div onmouseover=\'hover()\'></div></body></html>';

  test('admits exactly the app’s inline code by hash (scripts and handlers, as the parser reads them)', () => {
    const code = inlineCode(html);
    assert.deepEqual(code.scripts, ['console.log(1)\n']);
    assert.deepEqual(code.handlers, ['go("x")', 'hover()']);
    const additions = pageCspAdditions(html, readAppCsp({ resourceDomains: ['https://cdn.example.com'] }).csp);
    assert.deepEqual(additions['script-src'], ["'unsafe-hashes'", sha('console.log(1)\n'), sha('go("x")'), sha('hover()'), 'https://cdn.example.com']);
    assert.deepEqual(additions['connect-src'], []);
  });

  test('merged into the strict page policy: the nonce stays, no inline script, nothing else widened', () => {
    const base = contentSecurityPolicy('https://webview.example', 'NONCE');
    const merged = mergeCsp(base, pageCspAdditions(html, readAppCsp({ connectDomains: ['https://api.example.com'] }).csp));
    const script = directive(merged, 'script-src')!;
    assert.ok(script.startsWith("script-src 'nonce-NONCE' 'unsafe-hashes' 'sha256-"));
    assert.ok(!script.includes("'unsafe-inline'"));
    assert.equal(directive(merged, 'connect-src'), 'connect-src https://api.example.com');
    assert.equal(directive(merged, 'frame-src'), "frame-src 'none'", 'no frame domains declared: still none (srcdoc needs none)');
    assert.equal(directive(merged, 'default-src'), "default-src 'none'");
    assert.equal(directive(merged, 'form-action'), "form-action 'none'");
    assert.equal(mergeCsp(base, undefined), base);
  });
});

describe('reading the view', () => {
  const uri = 'ui://app/main.html';
  const text = '<!doctype html><p>hi</p>';

  test('text or base64, content _meta.ui over the listing’s', () => {
    const listed = { _meta: { ui: { csp: { connectDomains: ['https://listed.example.com'] }, prefersBorder: true } } };
    const fromContent = appDocumentFrom(uri, { contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text, _meta: { ui: { csp: { connectDomains: ['https://content.example.com'] }, permissions: { camera: {}, teleport: {} } } } }] }, listed);
    assert.deepEqual(fromContent.csp.connectDomains, ['https://content.example.com']);
    assert.deepEqual(fromContent.permissions, ['camera']);
    assert.ok(fromContent.warnings.some((w) => w.includes('teleport')));
    assert.ok(fromContent.html.includes('<p>hi</p>') && fromContent.html.includes('Content-Security-Policy'));
    const fromListing = appDocumentFrom(uri, { contents: [{ uri, mimeType: 'text/html;profile=mcp-app', blob: Buffer.from(text).toString('base64') }] }, listed);
    assert.deepEqual(fromListing.csp.connectDomains, ['https://listed.example.com']);
    assert.equal(fromListing.prefersBorder, true);
    assert.ok(fromListing.html.endsWith('<p>hi</p>'));
  });

  test('what is not an app view is refused with why', () => {
    assert.throws(() => appDocumentFrom('https://x.example/app', { contents: [] }), AppResourceError);
    assert.throws(() => appDocumentFrom(uri, { contents: [] }), /no content/);
    assert.throws(() => appDocumentFrom(uri, { contents: [{ uri, mimeType: 'text/html', text }] }), /not text\/html;profile=mcp-app/);
    assert.throws(() => appDocumentFrom(uri, { contents: [{ uri, mimeType: 'text/html;profile=mcp-app' } as never] }), /neither text nor blob/);
    assert.throws(() => appDocumentFrom(uri, { contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: 'x'.repeat(9 * 1024 * 1024) }] }), /larger than 8 MiB/);
  });

  test('the tool’s view: _meta.ui.resourceUri, or the older flat key; visibility', () => {
    assert.equal(appResourceUriOf({ _meta: { ui: { resourceUri: uri } } }), uri);
    assert.equal(appResourceUriOf({ _meta: { 'ui/resourceUri': uri } }), uri);
    assert.equal(appResourceUriOf({ _meta: { ui: { resourceUri: 'https://x.example/' } } }), undefined);
    assert.equal(appResourceUriOf({}), undefined);
    assert.deepEqual(toolVisibility({}), { model: true, app: true });
    assert.deepEqual(toolVisibility({ _meta: { ui: { visibility: ['app'] } } }), { model: false, app: true });
  });
});

describe('what a view may reach', () => {
  const tools = [
    { name: 'get-time', inputSchema: { type: 'object' as const } },
    { name: 'secret', inputSchema: { type: 'object' as const }, _meta: { ui: { visibility: ['model'] } } },
  ];
  test('its server’s tools offered to apps', () => {
    assert.equal(refuseAppToolCall('get-time', tools, 'basic'), undefined);
    assert.match(refuseAppToolCall('secret', tools, 'basic')!, /not offered to apps/);
    assert.match(refuseAppToolCall('delete', tools, 'basic')!, /not a tool of basic/);
  });
  test('its server’s resources: ui://, listed, or under a template', () => {
    const server = { name: 'fs', resources: [{ uri: 'mem://notes/1', name: 'n' }], templates: [{ uriTemplate: 'mem://notes/{id}', name: 't' }, { uriTemplate: '{anything}', name: 'wide' }] };
    assert.equal(refuseAppResourceRead('ui://fs/view.html', server), undefined);
    assert.equal(refuseAppResourceRead('mem://notes/1', server), undefined);
    assert.equal(refuseAppResourceRead('mem://notes/7', server), undefined);
    assert.match(refuseAppResourceRead('file:///etc/passwd', server)!, /not a resource fs lists/);
    assert.match(refuseAppResourceRead('demo://resource/static/document/1', server)!, /not a resource fs lists/);
  });
  test('permissions: declared and allowed by the user', () => {
    const declared = readAppPermissions({ camera: {}, clipboardWrite: {}, microphone: {} }).declared;
    const granted = grantPermissions(declared, allowedPermissions(['clipboardWrite', 'geolocation', 'bogus']));
    assert.deepEqual(granted.granted, ['clipboardWrite']);
    assert.deepEqual(granted.denied, ['camera', 'microphone']);
    assert.equal(granted.allow, 'clipboard-write');
    assert.equal(grantPermissions(declared, allowedPermissions('camera')).allow, '', 'a malformed setting allows nothing');
  });
});

describe('messages from a view', () => {
  test('only JSON-RPC 2.0 objects within the size cap', () => {
    assert.equal(checkAppMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }).ok, true);
    assert.equal(checkAppMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }).ok, true);
    assert.equal(checkAppMessage({ jsonrpc: '2.0', id: 'a', result: {} }).ok, true);
    const bad: Array<[unknown, RegExp]> = [
      ['x', /not a JSON-RPC object/],
      [[], /batches/],
      [{ jsonrpc: '1.0', id: 1, method: 'ping' }, /jsonrpc/],
      [{ jsonrpc: '2.0', id: {}, method: 'ping' }, /id/],
      [{ jsonrpc: '2.0', id: 1, method: '' }, /method/],
      [{ jsonrpc: '2.0', id: 1, method: 'x', params: [1] }, /params is not an object/],
      [{ jsonrpc: '2.0', id: 1 }, /neither/],
      [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { big: 'x'.repeat(MAX_APP_MESSAGE_BYTES) } }, /larger than/],
    ];
    for (const [value, why] of bad) {
      const checked = checkAppMessage(value);
      assert.equal(checked.ok, false);
      assert.match((checked as { reason: string }).reason, why);
    }
    // A refused request keeps its id, so it can be answered.
    assert.equal((checkAppMessage({ jsonrpc: '1.0', id: 7, method: 'ping' }) as { id?: number }).id, 7);
  });

  test('a token bucket: a burst, then the steady rate; refusals counted', () => {
    let now = 0;
    const limiter = new RateLimiter(3, 2, () => now);
    assert.deepEqual([limiter.take(), limiter.take(), limiter.take(), limiter.take()], [true, true, true, false]);
    now += 500; // one token back
    assert.deepEqual([limiter.take(), limiter.take()], [true, false]);
    assert.equal(limiter.drained(), 2);
    assert.equal(limiter.drained(), 0);
    now += 10_000; // never more than the burst
    assert.deepEqual([limiter.take(), limiter.take(), limiter.take(), limiter.take()], [true, true, true, false]);
  });
});
