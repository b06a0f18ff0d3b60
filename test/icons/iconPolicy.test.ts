// The icon rules that need no network: which sources are accepted, which addresses count as
// public, what an image's header says, and which variant a theme gets.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { classifyIconSource, isPublicAddress } from '../../src/icons/iconSource';
import { readImageHeader } from '../../src/icons/imageHeader';
import { iconCandidates, iconsOf } from '../../src/icons/iconChoice';
import { checkIconBytes } from '../../src/icons/iconResolver';
import { iconImages } from './iconImages';
import { serverIconOrigins } from '../../src/icons/serverIconOrigins';

const origins = { serverOrigin: 'https://mcp.example.com', allowed: ['https://cdn.example.org'] };

describe('icon sources', () => {
  test('https on the server’s own origin or a declared one is accepted', () => {
    assert.equal(classifyIconSource('https://mcp.example.com/icon.png', origins).kind, 'https');
    assert.equal(classifyIconSource('https://cdn.example.org/a/b.webp', origins).kind, 'https');
  });

  test('everything else is refused, with the reason', () => {
    const refused: Record<string, RegExp> = {
      'http://mcp.example.com/icon.png': /http: icons are not fetched/,
      'file:///etc/passwd': /file: icons are not fetched/,
      'javascript:alert(1)': /javascript: icons/,
      'https://user:pw@mcp.example.com/icon.png': /credentials/,
      'https://127.0.0.1:9/icon.png': /private network/,
      'https://[::1]:9/icon.png': /private network/,
      'https://[::ffff:127.0.0.1]/i.png': /private network/,
      'https://10.1.2.3/i.png': /private network/,
      'https://169.254.169.254/latest/meta-data': /private network/,
      'https://localhost:8443/i.png': /this machine/,
      'https://evil.example.net/track.png': /neither the server's own origin/,
      'https://mcp.example.com:444/icon.png': /neither the server's own origin/,
      'data:image/svg+xml;base64,PHN2Zz4=': /SVG is not shown/,
      'data:image/png,rawbytes': /not base64/,
      'data:text/html;base64,PGI+': /not a PNG, JPEG, GIF or WebP/,
      'data:image/png;base64,<script>': /outside base64/,
      [`data:image/png;base64,${'A'.repeat(400 * 1024)}`]: /larger than 256 KiB/,
    };
    for (const [src, reason] of Object.entries(refused)) {
      const got = classifyIconSource(src, origins);
      assert.equal(got.kind, 'refused', src.slice(0, 60));
      assert.match(got.kind === 'refused' ? got.reason : '', reason, src.slice(0, 60));
    }
    assert.equal(classifyIconSource('https://mcp.example.com/i.png', { allowed: [] }).kind, 'refused', 'no server origin (a stdio server): only declared origins');
  });

  test('public and not-public addresses', () => {
    for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) assert.ok(isPublicAddress(a), a);
    for (const a of ['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', 'localhost', 'not-an-ip']) assert.ok(!isPublicAddress(a), a);
  });
});

describe('icon images', () => {
  test('a real PNG passes with its size; huge dimensions, wrong magic and SVG are refused', async () => {
    const { png, pngClaiming, SCRIPTED_SVG } = await iconImages();
    assert.deepEqual(readImageHeader(png(16, 24, [0, 128, 255])), { kind: 'image', type: 'image/png', width: 16, height: 24 });
    assert.match(JSON.stringify(readImageHeader(pngClaiming(40000, 40000))), /40000×40000 pixels is larger than 1024×1024/);
    assert.match(JSON.stringify(readImageHeader(Buffer.from(SCRIPTED_SVG))), /SVG is not shown/);
    assert.match(JSON.stringify(readImageHeader(Buffer.from('<html><script>x</script>'))), /not a PNG, JPEG, GIF or WebP/);
    // GIF, JPEG and WebP headers.
    const gif = Buffer.from('GIF89a\x20\x00\x10\x00\x00\x00\x00', 'latin1');
    assert.deepEqual(readImageHeader(gif), { kind: 'image', type: 'image/gif', width: 32, height: 16 });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x30, 0x00, 0x40, 0x03]);
    assert.deepEqual(readImageHeader(jpeg), { kind: 'image', type: 'image/jpeg', width: 64, height: 48 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(4999, 24, 3);
    webp.writeUIntLE(9, 27, 3);
    assert.match(JSON.stringify(readImageHeader(webp)), /5000×10 pixels is larger/);
  });

  test('the declared type must be what the bytes are', async () => {
    const { png } = await iconImages();
    const bytes = png(8, 8, [1, 2, 3]);
    assert.deepEqual(checkIconBytes(bytes, ['image/png', 'image/PNG; q=1', '']), { kind: 'image', type: 'image/png' });
    assert.match(JSON.stringify(checkIconBytes(bytes, ['image/jpeg'])), /claims to be image\/jpeg but its bytes are image\/png/);
    assert.match(JSON.stringify(checkIconBytes(Buffer.from('GIF89a\x10\x00\x10\x00', 'latin1'), ['image/png'])), /claims to be image\/png but its bytes are image\/gif/);
  });
});

describe('choosing an icon', () => {
  test('malformed entries are skipped; the theme’s own variant comes first, then any-theme, then the other', () => {
    const icons = iconsOf([null, 7, { src: 5 }, { src: 'https://a/light.png', theme: 'light' }, { src: 'https://a/any.png' }, { src: 'https://a/dark.png', theme: 'dark', sizes: ['48x48'] }, { src: 'https://a/x.svg', mimeType: 'image/svg+xml' }]);
    assert.equal(icons.length, 4);
    assert.deepEqual(iconCandidates(icons, 'dark').map((i) => i.src), ['https://a/dark.png', 'https://a/any.png', 'https://a/x.svg']);
    assert.deepEqual(iconCandidates(icons, 'light').map((i) => i.src), ['https://a/light.png', 'https://a/any.png', 'https://a/x.svg']);
    assert.deepEqual(iconCandidates(iconsOf([{ src: 'https://a/dark.png', theme: 'dark' }]), 'light').map((i) => i.src), ['https://a/dark.png']);
    assert.deepEqual(iconsOf('nope'), []);
  });
});

describe('whose icons are looked at', () => {
  test('only a running server’s; a remote server’s own https origin, never a stdio one’s', () => {
    const declared = ['https://cdn.example.org', 'http://plain.example', 'nonsense'];
    for (const kind of ['stopped', 'starting', 'waiting', 'blocked', 'error', 'stopping']) {
      assert.equal(serverIconOrigins({ status: { kind }, resolved: { type: 'http', url: 'https://mcp.example.com/mcp' } }, declared), undefined, kind);
    }
    assert.deepEqual(serverIconOrigins({ status: { kind: 'running' }, resolved: { type: 'http', url: 'https://mcp.example.com:8443/mcp' } }, declared), { serverOrigin: 'https://mcp.example.com:8443', allowed: ['https://cdn.example.org'] });
    assert.deepEqual(serverIconOrigins({ status: { kind: 'running' }, resolved: { type: 'http', url: 'http://127.0.0.1:3000/mcp' } }, []), { allowed: [] });
    assert.deepEqual(serverIconOrigins({ status: { kind: 'running' }, resolved: { type: 'stdio' } }, []), { allowed: [] });
  });
});
