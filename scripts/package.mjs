// Builds the bundle and packs it into dist/mcp-host.vsix (the path the end-to-end tests and the
// demo install). esbuild bundles every dependency, so vsce runs with --no-dependencies and
// .vscodeignore lets in only what runs.
//   node scripts/package.mjs              build, then package
//   node scripts/package.mjs --no-build   package what is already in dist/
//   node scripts/package.mjs --out FILE   write the VSIX somewhere else
//   node scripts/package.mjs --release    refuse while package.json is not ready to publish
//                                         (the placeholder repository); without it, a warning
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const defaultVsixPath = join(repoRoot, 'dist', 'mcp-host.vsix');

/** Files allowed into the VSIX; a guard in case .vscodeignore is loosened by accident. */
const shipped = [/^dist\/(extension|cli)\.js$/, /^dist\/chunk-\w+\.js$/, /^dist\/vendor\/\w+\.m?js$/, /^media\/(?!readme\/|types\/|tsconfig\.json$)/, /^package\.json$/, /^README\.md$/, /^dist\/README\.vsix\.md$/, /^LICENSE$/, /^CHANGELOG\.md$/];

function run(args, what) {
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`${what} failed (${r.status ?? r.signal})`);
  }
  return r.stdout;
}

/** The README block only a developer with a clone can act on (npm, apt-get); the VSIX leaves it out. */
export const SOURCE_BLOCK = { start: '<!-- from-source -->', end: '<!-- /from-source -->' };

/**
 * The README as the VSIX's Details page carries it: README.md without the "Try it from source"
 * block. Its relative links and images become absolute (`contentUrls`, from the `repository` in
 * package.json) when vsce packages it, so they resolve on the Marketplace, on Open VSX and in the Extensions view.
 */
export function vsixReadme(text) {
  const start = text.indexOf(SOURCE_BLOCK.start);
  const end = text.indexOf(SOURCE_BLOCK.end);
  if (start < 0 || end < start) throw new Error(`README.md has no ${SOURCE_BLOCK.start} … ${SOURCE_BLOCK.end} block to leave out of the VSIX`);
  return `${text.slice(0, start).trimEnd()}\n\n${text.slice(end + SOURCE_BLOCK.end.length).trimStart()}`;
}

/**
 * Where the Details page's relative links and images point: the repository in package.json, the one
 * definition of it (`bugs` and `homepage` must agree; test/docs/vsix.test.ts checks). Passed to vsce
 * explicitly so the branch and the host are not guessed. Before publishing, a maintainer sets
 * `repository.url` to the repository the extension is published from.
 */
export function contentUrls(manifest) {
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  const match = /^https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(url ?? '');
  if (!match) throw new Error(`package.json's repository.url (${url}) is not an https://github.com/<owner>/<name> URL; the Details page's links cannot be made absolute`);
  const web = `https://github.com/${match[1]}/${match[2]}`;
  return { repository: web, baseContentUrl: `${web}/blob/HEAD`, baseImagesUrl: `${web}/raw/HEAD`, bugs: `${web}/issues`, homepage: `${web}#readme` };
}

/** The repository package.json names until a maintainer sets the real one (CONTRIBUTING.md, "Before publishing"). */
export const PLACEHOLDER_REPOSITORY = 'https://github.com/mcp-host/mcp-host';

/** Why `manifest` is not ready to publish; empty when it is. */
export function publishingProblems(manifest) {
  if (contentUrls(manifest).repository !== PLACEHOLDER_REPOSITORY) return [];
  return [
    `package.json's repository.url is the placeholder ${PLACEHOLDER_REPOSITORY}: the Details page's links and images, ` +
      'bugs and homepage would point there. Set repository.url, bugs.url and homepage to the repository the extension ' +
      'is published from (CONTRIBUTING.md, "Before publishing").',
  ];
}

function shippedReadme() {
  const file = join(repoRoot, 'dist', 'README.vsix.md');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, vsixReadme(readFileSync(join(repoRoot, 'README.md'), 'utf8')));
  return file;
}

/** Builds (unless `build` is false) and packages; returns the VSIX path. */
export function packageExtension({ build = true, out = defaultVsixPath } = {}) {
  if (build) run(['esbuild.mjs'], 'build (node esbuild.mjs)');
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');

  const files = run([vsce, 'ls', '--no-dependencies'], 'vsce ls').split('\n').map((l) => l.trim()).filter(Boolean);
  const stray = files.filter((f) => !shipped.some((re) => re.test(f)));
  if (stray.length > 0) throw new Error(`.vscodeignore lets in files that do not run:\n  ${stray.join('\n  ')}`);
  if (!files.includes('dist/extension.js')) throw new Error('dist/extension.js is missing; build first');

  const urls = contentUrls(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')));
  const readme = relative(repoRoot, shippedReadme());
  run([vsce, 'package', '--no-dependencies', '--readme-path', readme, '--baseContentUrl', urls.baseContentUrl, '--baseImagesUrl', urls.baseImagesUrl, '--out', out], 'vsce package');
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const outIndex = argv.indexOf('--out');
  try {
    const problems = publishingProblems(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')));
    if (problems.length > 0 && argv.includes('--release')) throw new Error(`not ready to publish:\n  ${problems.join('\n  ')}`);
    for (const problem of problems) console.error(`package: warning: ${problem}`);
    const out = packageExtension({
      build: !argv.includes('--no-build'),
      out: outIndex >= 0 ? resolve(argv[outIndex + 1]) : defaultVsixPath,
    });
    const kib = (statSync(out).size / 1024).toFixed(0);
    console.log(`packaged ${relative(process.cwd(), out) || out} (${kib} KiB)`);
  } catch (err) {
    console.error(`package: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
