// Bundles the extension, the CLI and the benchmark. `--watch` rebuilds on change.
// The shipped bundles are minified; their source maps stay in dist/ for debugging and out of
// the VSIX (.vscodeignore).
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

/**
 * Libraries only some panels need (src/inspect/vendor/*.ts, required inside the function that
 * first needs them) become files of their own beside the bundle, so activation neither loads
 * nor parses them: `require('./vendor/ajv')` stays a require of dist/vendor/ajv.js.
 */
const vendorModules = ['ajv', 'markdownIt'];
const lazyVendor = {
  name: 'lazy-vendor',
  setup(build) {
    build.onResolve({ filter: /^\.\/vendor\/\w+$/ }, (args) => {
      const name = args.path.slice('./vendor/'.length);
      if (!vendorModules.includes(name) || !args.importer.includes('src/inspect')) return undefined;
      return { path: `./vendor/${name}.js`, external: true };
    });
  },
};
const shipped = { ...common, minify: true, plugins: [lazyVendor] };
const builds = [
  { ...shipped, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...shipped, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  ...vendorModules.map((name) => ({ ...common, minify: true, entryPoints: [`src/inspect/vendor/${name}.ts`], outfile: `dist/vendor/${name}.js` })),
  // The benchmark loads the official SDK as a peer for comparison; it is never shipped.
  { ...common, entryPoints: ['test/bench/bench.ts'], outfile: 'dist/bench.js', packages: 'external' },
];
if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
