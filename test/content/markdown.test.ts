import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isOpenableUrl, looksLikeMarkdown, openableHref, plainTextHtml, renderMarkdown } from '../../src/content/markdown';

/** Tags and attributes the sanitised output may contain; anything else fails the test. */
const TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'em', 'strong', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'span', 'blockquote', 'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 's']);
const ATTRS = new Set(['class', 'data-href', 'title', 'tabindex', 'role', 'start']);

/** Scans HTML the way a browser tokenizer would for tags; returns what breaks the allowlist. */
function violations(html: string): string[] {
  const out: string[] = [];
  const tag = /<\/?([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
  for (const m of html.matchAll(tag)) {
    const name = m[1].toLowerCase();
    if (!TAGS.has(name)) out.push(`tag <${name}>`);
    for (const a of m[2].matchAll(/([^\s=>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const attr = a[1].toLowerCase();
      if (!ATTRS.has(attr)) out.push(`attribute ${attr} on <${name}>`);
      const value = (a[2] ?? '').replace(/^["']|["']$/g, '');
      if (attr === 'data-href' && !/^https?:\/\//.test(value)) out.push(`data-href ${value}`);
      if (attr === 'class' && !/^[a-z0-9 _-]*$/i.test(value)) out.push(`class ${value}`);
    }
  }
  // A raw "<" followed by a letter that is not one of our tags means unescaped markup.
  for (const m of html.matchAll(/<([a-zA-Z!?/])/g)) {
    const rest = html.slice(m.index!);
    if (!/^<\/?[a-z][a-z0-9]*[\s>/]/i.test(rest)) out.push(`raw "<${m[1]}"`);
  }
  return out;
}

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](  javascript:alert(1) )',
  '[x](&#106;avascript:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](vbscript:msgbox(1))',
  '[x](file:///etc/passwd)',
  '[x](command:workbench.action.terminal.new)',
  '[x](vscode://ms-vscode.something)',
  '<javascript:alert(1)>',
  '<command:workbench.action.openSettings>',
  '![img](https://evil.example/pixel.png)',
  '![img](javascript:alert(1))',
  '[x](https://ok.example "a\\" onclick=\\"alert(1)")',
  '[x](https://ok.example/"onmouseover="alert(1))',
  '[ref]\n\n[ref]: javascript:alert(1)',
  '```"><script>alert(1)</script>\ncode\n```',
  '`<script>alert(1)</script>`',
  '<style>body{display:none}</style>',
  '<details open ontoggle=alert(1)>',
  '<<script>script>alert(1)<</script>/script>',
  '<!-- comment --><b>bold</b>',
  '| a | b |\n|:-|-:|\n| <img src=x onerror=alert(1)> | 2 |',
  'www.example.com and https://example.com/path?q=1&r=<2>',
  'x'.repeat(10) + '<' + 'div'.repeat(3) + ' onclick=alert(1)>',
];

describe('markdown sanitiser', () => {
  for (const payload of PAYLOADS) {
    test(`XSS payload stays inert: ${JSON.stringify(payload).slice(0, 60)}`, () => {
      const html = renderMarkdown(payload);
      assert.deepEqual(violations(html), [], html);
      assert.doesNotMatch(html, /<script|<img|<svg|<iframe|<style|<details/i, html);
    });
  }

  test('the markup it supports: headings, emphasis, code, lists, quotes, tables', () => {
    const html = renderMarkdown('# Title\n\nSome *em* and **strong** and `code`.\n\n- one\n- two\n\n1. first\n\n> quote\n\n```js\nlet a = 1 < 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    for (const part of ['<h1>Title</h1>', '<em>em</em>', '<strong>strong</strong>', '<code>code</code>', '<ul>', '<li>one</li>', '<ol>', '<blockquote>', '<pre><code class="language-js">let a = 1 &lt; 2;', '<table>', '<td>1</td>']) {
      assert.ok(html.includes(part), `${part} in ${html}`);
    }
    assert.deepEqual(violations(html), []);
  });

  test('http(s) links become click-to-open anchors without href; others stay text', () => {
    const html = renderMarkdown('[docs](https://example.com/a?b=1&c=2 "Title") and [bad](ftp://x.y/z) and https://auto.example/p');
    assert.match(html, /<a class="md-link" data-href="https:\/\/example\.com\/a\?b=1&amp;c=2" title="Title\nhttps:\/\/example\.com\/a\?b=1&amp;c=2" tabindex="0" role="link">docs<\/a>/);
    assert.match(html, /\[bad\]\(ftp:\/\/x\.y\/z\)/, 'an ftp link is left as text');
    assert.match(html, /data-href="https:\/\/auto\.example\/p"/, 'bare URLs are linked');
    assert.doesNotMatch(html, / href=/);
  });

  test('links whose host part VS Code and a browser read differently are not links; data-href is the URL that opens', () => {
    // vscode.Uri decodes %2F in the userinfo: the first would open evil.example, not good.example.
    for (const url of ['https://evil.example%2F@good.example/', 'https://www.bank.com@evil.example/', 'https://a%40evil.example@good.example/', 'https://good.example%5C@evil.example/']) {
      const html = renderMarkdown(`[good](${url}) and ${url}`);
      assert.doesNotMatch(html, /md-link"/, url);
      assert.doesNotMatch(html, /data-href/, url);
      assert.equal(openableHref(url), undefined, url);
    }
    const html = renderMarkdown('[x](HTTPS://Example.COM/a%20b)');
    assert.match(html, /data-href="https:\/\/example\.com\/a%20b"/, 'the normalised URL, exactly what is opened');
    assert.equal(openableHref('HTTPS://Example.COM/a%20b'), 'https://example.com/a%20b');
  });

  test('images are never rendered; the alt text and URL stay visible as text', () => {
    const html = renderMarkdown('![a cat](https://cats.example/cat.png)');
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /a cat/);
  });

  test('huge text is not parsed, just escaped', () => {
    const big = '<b>'.repeat(100_000);
    const html = renderMarkdown(big);
    assert.ok(html.startsWith('<pre class="md-plain">&lt;b&gt;'));
    assert.deepEqual(violations(html), []);
  });

  test('isOpenableUrl: only absolute http/https with a host', () => {
    for (const ok of ['https://example.com', 'http://127.0.0.1:8080/x', 'HTTPS://EXAMPLE.COM/']) assert.ok(isOpenableUrl(ok), ok);
    for (const bad of ['javascript:alert(1)', 'https:/x', 'https://', '//example.com', 'command:x', 'file:///etc', ' https://x.y', 'https://x.y/\n', 'data:text/html,x', 'vscode://x', 'mailto:a@b.c', 42, undefined]) {
      assert.ok(!isOpenableUrl(bad), String(bad));
    }
  });

  test('looksLikeMarkdown tells documents from plain text and JSON', () => {
    assert.ok(looksLikeMarkdown('# Heading\n\ntext'));
    assert.ok(looksLikeMarkdown('See [the docs](https://x.y) for **more**'));
    assert.ok(!looksLikeMarkdown('Echo: hello world'));
    assert.ok(!looksLikeMarkdown('{"a": 1, "b": [1, 2]}'));
    assert.ok(!looksLikeMarkdown('2 * 3 * 4 = 24'));
  });
});

test('a long multi-line plain description keeps its paragraphs and line breaks, escaped', () => {
  const text = 'Searches the notes.\n\nArguments:\n- query: words\n  <b>not bold</b>\n\n\nReturns matches.';
  assert.equal(looksLikeMarkdown('Searches the notes.\n\nReturns matches.'), false);
  assert.equal(plainTextHtml(text), '<p>Searches the notes.</p><p>Arguments:<br>- query: words<br>  &lt;b&gt;not bold&lt;/b&gt;</p><p>Returns matches.</p>');
});
