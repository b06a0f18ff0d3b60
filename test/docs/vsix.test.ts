// The VSIX a user installs: its Details page (the README inside it) has nothing a user of the
// installed extension cannot act on — no npm, apt-get or benchmark — and its links and images are
// absolute, so they resolve on the Marketplace, Open VSX and in the Extensions view; the
// walkthrough's pictures and the icon are inside; and no page quotes a VSIX size or file count
// other than the packaged one. Packs the built dist/ (node esbuild.mjs runs before the tests).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ROOT, docPages, linkTargets, read } from './markdown';

// yauzl comes with @vscode/vsce (a devDependency), which reads VSIX files with it.
const yauzl = require('yauzl') as {
  open(path: string, options: { lazyEntries: boolean }, cb: (err: Error | null, zip: ZipFile) => void): void;
};
interface ZipEntry {
  fileName: string;
}
interface ZipFile {
  readEntry(): void;
  close(): void;
  on(event: 'entry', cb: (entry: ZipEntry) => void): void;
  on(event: 'end' | 'error', cb: (err?: Error) => void): void;
  openReadStream(entry: ZipEntry, cb: (err: Error | null, stream: NodeJS.ReadableStream) => void): void;
}

/** The names of a zip's entries, and the text of the ones `wanted` names. */
function readZip(file: string, wanted: (name: string) => boolean): Promise<{ names: string[]; texts: Map<string, string> }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const names: string[] = [];
      const texts = new Map<string, string>();
      zip.on('error', reject);
      zip.on('end', () => resolve({ names, texts }));
      zip.on('entry', (entry) => {
        names.push(entry.fileName);
        if (!wanted(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            texts.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** What a user of the installed extension cannot act on: a clone's set-up and the benchmarks. */
const DEVELOPER_SETUP = /\bnpm (ci|test|run|install)\b|apt-get|\bbench(mark)?s?\b|prerequisites\.sh|\bnode_modules\b/i;

/** A quoted VSIX size or file count: "637 KiB VSIX", "the VSIX (637 KiB)", "VSIX … 100 files". */
const QUOTED_VSIX_FIGURE = /VSIX[^.\n]{0,40}?\b(\d[\d,.]*)\s*(KiB|MiB|KB|MB|files)\b|\b(\d[\d,.]*)\s*(KiB|MiB|KB|MB)\s+VSIX/gi;

describe('the VSIX a user installs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-vsix-'));
  const vsix = join(dir, 'mcp-host.vsix');
  let names: string[] = [];
  let readme = '';
  let vsixManifest = '';
  let packageStderr = '';
  before(async () => {
    assert.ok(existsSync(join(ROOT, 'dist', 'extension.js')), 'dist/ is not built: run node esbuild.mjs');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs'), '--no-build', '--out', vsix], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    packageStderr = r.stderr;
    const zip = await readZip(vsix, (name) => name === 'extension/readme.md' || name === 'extension.vsixmanifest');
    names = zip.names;
    readme = zip.texts.get('extension/readme.md') ?? '';
    vsixManifest = zip.texts.get('extension.vsixmanifest') ?? '';
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('its Details page is the user README: install and first server, no developer set-up', () => {
    assert.match(readme, /## Install\n/);
    assert.match(readme, /## Add your first server\n/);
    assert.match(readme, /code --install-extension mcp-host-<version>\.vsix/);
    assert.doesNotMatch(readme, DEVELOPER_SETUP);
    assert.match(read('README.md'), DEVELOPER_SETUP, "the repository's README keeps its Try it from source block");
  });

  test('its links and images are absolute (they resolve wherever the page is shown)', () => {
    const relative = linkTargets(readme).filter((t) => !/^(https:|mailto:|#)/.test(t));
    assert.deepEqual(relative, []);
    assert.ok(linkTargets(readme).some((t) => /^https:\/\/.+\/media\/readme\/first-screen\.png$/.test(t)), 'the first picture is linked from the repository');
  });

  test("it holds the icon, the walkthrough's pictures and the manifest's marketplace fields", () => {
    const pkg = JSON.parse(read('package.json')) as Record<string, unknown> & { icon: string; contributes: { walkthroughs: Array<{ steps: Array<{ media: { svg?: string; image?: string } }> }> } };
    assert.ok(names.includes(`extension/${pkg.icon}`), pkg.icon);
    for (const step of pkg.contributes.walkthroughs[0].steps) {
      const media = step.media.svg ?? step.media.image ?? '';
      assert.ok(names.includes(`extension/${media}`), `${media} is in the VSIX`);
    }
    for (const field of ['repository', 'bugs', 'homepage', 'license', 'icon', 'galleryBanner', 'categories', 'keywords', 'qna', 'pricing']) {
      assert.ok(pkg[field] !== undefined, `package.json has ${field}`);
    }
    assert.deepEqual(pkg.extensionKind, ['workspace']);
    assert.ok(!names.some((n) => n.startsWith('extension/docs/') || n.startsWith('extension/test/')), 'no docs or tests inside');
  });

  test('its links, bugs and homepage are the one repository in package.json', async () => {
    const pkg = JSON.parse(read('package.json')) as { repository: { url: string }; bugs: { url: string }; homepage: string };
    const { contentUrls } = (await import(pathToFileURL(join(ROOT, 'scripts', 'package.mjs')).href)) as {
      contentUrls(manifest: unknown): { repository: string; baseContentUrl: string; baseImagesUrl: string; bugs: string; homepage: string };
    };
    const urls = contentUrls(pkg);
    assert.equal(pkg.bugs.url, urls.bugs);
    assert.equal(pkg.homepage, urls.homepage);
    for (const target of linkTargets(readme).filter((t) => t.startsWith('https://github.com/'))) {
      if (/\/(media|docs)\/|\/(CONTRIBUTING|SECURITY|CHANGELOG)\.md|\/LICENSE$/.test(target)) {
        assert.ok(target.startsWith(`${urls.baseContentUrl}/`) || target.startsWith(`${urls.baseImagesUrl}/`), `${target} is not under ${urls.repository}`);
      }
    }
    assert.throws(() => contentUrls({ repository: { url: 'git@example.com:a/b.git' } }), /not an https:\/\/github\.com/);
  });

  test('while repository.url is the placeholder, packaging warns and --release refuses', async () => {
    const pkg = JSON.parse(read('package.json')) as { repository: { url: string } };
    const { publishingProblems, PLACEHOLDER_REPOSITORY } = (await import(pathToFileURL(join(ROOT, 'scripts', 'package.mjs')).href)) as {
      publishingProblems(manifest: unknown): string[];
      PLACEHOLDER_REPOSITORY: string;
    };
    assert.deepEqual(publishingProblems({ repository: { url: 'https://github.com/someone/mcp-host.git' } }), []);
    assert.match(publishingProblems({ repository: { url: `${PLACEHOLDER_REPOSITORY}.git` } }).join(''), /placeholder .*CONTRIBUTING\.md, "Before publishing"/);
    if (publishingProblems(pkg).length === 0) return; // a maintainer set the real repository
    assert.match(packageStderr, /package: warning: package\.json's repository\.url is the placeholder/);
    const refused = join(dir, 'refused.vsix');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs'), '--no-build', '--release', '--out', refused], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /not ready to publish/);
    assert.ok(!existsSync(refused), 'no VSIX written');
  });

  // ovsx has no offline check (it packs with vsce and uploads): these are the checks Open VSX and
  // the Marketplace make of an upload that can be made here.
  test('Open VSX and the Marketplace accept it: names, version, engines, licence, icon, activation, links', () => {
    const pkg = JSON.parse(read('package.json')) as {
      name: string; publisher: string; version: string; displayName: string; description: string; license: string; icon: string;
      engines: { vscode: string }; activationEvents: string[]; categories: string[]; keywords: string[]; galleryBanner: { color: string; theme: string };
      qna: string | false; pricing: string; repository: { url: string }; bugs: { url: string }; homepage: string;
    };
    // Lower-case names, the namespace and extension names both registries take.
    assert.match(pkg.publisher, /^[a-z0-9][a-z0-9-]*$/);
    assert.match(pkg.name, /^[a-z0-9][a-z0-9-]*$/);
    assert.match(pkg.version, /^\d+\.\d+\.\d+$/, 'a release version (no pre-release suffix)');
    assert.match(pkg.engines.vscode, /^\^\d+\.\d+\.\d+$/, 'engines.vscode is a range, never *');
    assert.ok(pkg.displayName.length <= 255 && pkg.description.length > 0 && pkg.description.length <= 2048);
    // A licence both in the manifest and as a file: Open VSX takes only open-source licences.
    assert.equal(pkg.license, 'MIT');
    assert.ok(names.includes('extension/LICENSE.txt'), 'LICENSE is inside the VSIX');
    assert.match(vsixManifest, /<License>extension\/LICENSE\.txt<\/License>/);
    assert.ok(names.includes('extension/changelog.md') && names.includes('extension/readme.md'));
    // A PNG icon of at least 128×128 (neither registry takes an SVG icon).
    assert.match(pkg.icon, /\.png$/);
    const icon = readFileSync(join(ROOT, pkg.icon));
    assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(icon.readUInt32BE(16) >= 128 && icon.readUInt32BE(20) >= 128, 'the icon is at least 128×128');
    assert.match(pkg.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(pkg.galleryBanner.theme));
    // No activation on everything: the extension wakes for its own views, files and commands.
    assert.ok(!pkg.activationEvents.includes('*') && !pkg.activationEvents.includes('onStartupFinished'), pkg.activationEvents.join(', '));
    const categories = ['AI', 'Azure', 'Chat', 'Data Science', 'Debuggers', 'Education', 'Extension Packs', 'Formatters', 'Keymaps', 'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Others', 'Programming Languages', 'SCM Providers', 'Snippets', 'Testing', 'Themes', 'Visualization'];
    assert.deepEqual(pkg.categories.filter((c) => !categories.includes(c)), []);
    assert.ok(pkg.keywords.length > 0 && pkg.keywords.length <= 30, 'at most 30 keywords');
    assert.ok(pkg.qna === 'marketplace' || pkg.qna === false || /^https:\/\//.test(pkg.qna));
    assert.ok(['Free', 'Trial'].includes(pkg.pricing));
    for (const url of [pkg.repository.url, pkg.bugs.url, pkg.homepage]) assert.match(url, /^https:\/\/[^\s]+$/);
    // The VSIX manifest carries what the gallery shows.
    assert.match(vsixManifest, new RegExp(`Id="${pkg.name}"[^>]*Publisher="${pkg.publisher}"`));
    assert.match(vsixManifest, /Microsoft\.VisualStudio\.Services\.Links\.Source/);
    assert.match(vsixManifest, /Microsoft\.VisualStudio\.Services\.Icons\.Default/);
  });

  test('no page quotes a VSIX size or file count other than the packaged one', () => {
    const kib = statSync(vsix).size / 1024;
    const files = names.filter((n) => n.startsWith('extension/')).length;
    const wrong: string[] = [];
    for (const page of docPages()) {
      for (const m of read(page).matchAll(QUOTED_VSIX_FIGURE)) {
        const value = Number((m[1] ?? m[3]).replace(/,/g, ''));
        const unit = (m[2] ?? m[4]).toLowerCase();
        const actual = unit === 'files' ? files : unit.startsWith('m') ? kib / 1024 : kib;
        if (Math.abs(value - actual) > Math.max(1, actual * 0.01)) wrong.push(`${page}: "${m[0]}" (packaged: ${Math.round(kib)} KiB, ${files} files)`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.equal([...'the VSIX is 440 KiB'.matchAll(QUOTED_VSIX_FIGURE)].length, 1, 'the pattern finds a quoted size');
  });

  test('the README block the VSIX leaves out is the one between the from-source markers', async () => {
    const { vsixReadme } = (await import(pathToFileURL(join(ROOT, 'scripts', 'package.mjs')).href)) as { vsixReadme(text: string): string };
    assert.equal(vsixReadme('# A\n\nkept\n\n<!-- from-source -->\nnpm ci\n<!-- /from-source -->\n\n## B\n'), '# A\n\nkept\n\n## B\n');
    assert.throws(() => vsixReadme('# A\nno markers\n'), /no <!-- from-source -->/);
  });
});
