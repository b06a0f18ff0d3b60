// Bundles the extension, the CLI, the benchmark and the conformance driver. `--watch` rebuilds on change.
// The shipped bundles are minified; their source maps stay in dist/ for debugging and out of
// the VSIX (.vscodeignore).
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';

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
 * Libraries only some panels need (<folder>/vendor/*.ts, required inside the function that
 * first needs them) become files of their own beside the bundle, so activation neither loads
 * nor parses them: `require('./vendor/ajv')` stays a require of dist/vendor/ajv.js.
 * Each maps to the folder whose code requires it.
 */
const vendorModules = { ajv: 'src/schema', markdownIt: 'src/usecases', re2: 'src/schema' };
const lazyVendor = {
  name: 'lazy-vendor',
  setup(build) {
    build.onResolve({ filter: /^\.\/vendor\/\w+$/ }, (args) => {
      const name = args.path.slice('./vendor/'.length);
      if (!Object.hasOwn(vendorModules, name) || !args.importer.includes(vendorModules[name])) return undefined;
      return { path: `./vendor/${name}.js`, external: true };
    });
  },
};
/**
 * `import * as vscode from 'vscode'` in a CommonJS bundle copies every property of the API object
 * onto a new object, once per importing file (23 files, ~200 names each: thousands of getters
 * defined at load). Instead 'vscode' becomes one ES module that reads each name of the stable API
 * (from its typings) once; importers bind to it directly.
 */
const vscodeApi = {
  name: 'vscode-api',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.kind === 'require-call' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-api' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => {
      const typings = readFileSync('node_modules/@types/vscode/index.d.ts', 'utf8');
      const names = [...new Set([...typings.matchAll(/^\texport (?:namespace|class|enum|const|function|let) (\w+)/gm)].map((m) => m[1]))];
      return { contents: `const api = require('vscode');\n${names.map((n) => `export const ${n} = api.${n};`).join('\n')}\n`, loader: 'js' };
    });
  },
};
/**
 * oauth4webapi (ESM only, ~50 KiB) is needed only when a remote server asks for sign-in: in the
 * shipped bundles its dynamic `import()` (src/auth/oauth.ts) stays a dynamic import of
 * dist/vendor/oauth.mjs, an ES module of its own, so activation neither loads nor parses it.
 */
const lazyOAuth = {
  name: 'lazy-oauth',
  setup(build) {
    build.onResolve({ filter: /^oauth4webapi$/ }, (args) => (args.kind === 'dynamic-import' ? { path: './vendor/oauth.mjs', external: true } : undefined));
  },
};
const shipped = { ...common, minify: true, plugins: [lazyVendor, lazyOAuth] };
const builds = [
  { ...shipped, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', plugins: [lazyVendor, lazyOAuth, vscodeApi] },
  { ...shipped, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { ...common, format: 'esm', minify: true, entryPoints: ['oauth4webapi'], outfile: 'dist/vendor/oauth.mjs' },
  ...Object.entries(vendorModules).map(([name, folder]) => ({ ...common, minify: true, entryPoints: [`${folder}/vendor/${name}.ts`], outfile: `dist/vendor/${name}.js` })),
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
