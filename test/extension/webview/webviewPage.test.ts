import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { COMMON_SCRIPT, COMMON_STYLE, PANEL_ASSETS, DIALOG_ASSETS, contentSecurityPolicy, makeNonce, pageHtml } from '../../../src/extension/webview/webviewPage';

const ROOT = join(__dirname, '..', '..', '..', '..');

describe('webview page', () => {
  test('nonces are 128 random bits, fresh each time', () => {
    const a = makeNonce();
    assert.equal(Buffer.from(a, 'base64').length, 16);
    assert.notEqual(a, makeNonce());
  });

  test('the CSP allows nothing by default, scripts only with the nonce, styles only from the webview source', () => {
    const csp = contentSecurityPolicy('https://src.example', 'N0nce');
    const directives = new Map(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    assert.equal(directives.get('default-src'), "'none'");
    assert.equal(directives.get('script-src'), "'nonce-N0nce'");
    assert.equal(directives.get('style-src'), 'https://src.example');
    assert.equal(directives.get('img-src'), 'data:', 'images only as data: URIs');
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  test('every script tag carries the nonce, in the order given; nothing inline; the title is escaped', () => {
    const html = pageHtml({ cspSource: 'https://src.example', nonce: 'N0nce', title: '<img src=x onerror=alert(1)> & "q"', styles: ['https://src.example/common.css', 'https://src.example/f.css'], scripts: ['https://src.example/common.js', 'https://src.example/f.js'] });
    const scripts = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    assert.deepEqual(
      scripts.map((m) => m[1]),
      [' nonce="N0nce" src="https://src.example/common.js"', ' nonce="N0nce" src="https://src.example/f.js"'],
    );
    assert.ok(scripts.every((m) => m[2] === ''), 'no inline script');
    assert.deepEqual([...html.matchAll(/<link rel="stylesheet" href="([^"]*)">/g)].map((m) => m[1]), ['https://src.example/common.css', 'https://src.example/f.css']);
    assert.doesNotMatch(html, /<style|<img/);
    assert.match(html, /<title>&#60;img src=x onerror=alert\(1\)&#62; &#38; &#34;q&#34;<\/title>/);
  });

  test('the files every page loads exist under media/', () => {
    for (const path of [COMMON_STYLE, COMMON_SCRIPT, PANEL_ASSETS.style, PANEL_ASSETS.script, DIALOG_ASSETS.style, DIALOG_ASSETS.script]) {
      assert.ok(readFileSync(join(ROOT, 'media', path), 'utf8').length > 0, path);
    }
  });
});
