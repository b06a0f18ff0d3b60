// Builds the bundle and packs it into dist/mcp-host.vsix (the path the end-to-end tests and the
// demo install). esbuild bundles every dependency, so vsce runs with --no-dependencies and
// .vscodeignore lets in only what runs.
//   node scripts/package.mjs              build, then package
//   node scripts/package.mjs --no-build   package what is already in dist/
//   node scripts/package.mjs --out FILE   write the VSIX somewhere else
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const defaultVsixPath = join(repoRoot, 'dist', 'mcp-host.vsix');

/** Files allowed into the VSIX; a guard in case .vscodeignore is loosened by accident. */
const shipped = [/^dist\/(extension|cli)\.js$/, /^dist\/chunk-\w+\.js$/, /^dist\/vendor\/\w+\.m?js$/, /^media\/(?!readme\/)/, /^package\.json$/, /^README\.md$/, /^dist\/README\.vsix\.md$/, /^LICENSE$/, /^CHANGELOG\.md$/];

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
 * block. Its relative links and images become absolute (the `repository` in package.json) when
 * vsce packages it, so they resolve on the Marketplace, on Open VSX and in the Extensions view.
 */
export function vsixReadme(text) {
  const start = text.indexOf(SOURCE_BLOCK.start);
  const end = text.indexOf(SOURCE_BLOCK.end);
  if (start < 0 || end < start) throw new Error(`README.md has no ${SOURCE_BLOCK.start} … ${SOURCE_BLOCK.end} block to leave out of the VSIX`);
  return `${text.slice(0, start).trimEnd()}\n\n${text.slice(end + SOURCE_BLOCK.end.length).trimStart()}`;
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

  run([vsce, 'package', '--no-dependencies', '--readme-path', relative(repoRoot, shippedReadme()), '--out', out], 'vsce package');
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const outIndex = argv.indexOf('--out');
  try {
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
