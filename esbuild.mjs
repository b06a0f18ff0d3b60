// Bundles the extension, the CLI, the benchmark and the conformance driver. `--watch` rebuilds on change.
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'info',
  // jsonc-parser's default (UMD) build loads its parts with a require() esbuild cannot follow;
  // its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
};
const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The benchmark loads the official SDK as a peer for comparison; it is never shipped.
  { ...common, entryPoints: ['test/bench/bench.ts'], outfile: 'dist/bench.js', packages: 'external' },
  // The client the official conformance suite drives (scripts/conformance.mjs); never shipped.
  { ...common, entryPoints: ['test/conformance/client.ts'], outfile: 'dist/conformance-client.js' },
];
if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
