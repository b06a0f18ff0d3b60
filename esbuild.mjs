// Bundles the product: the extension and the CLI. `--drivers` adds what runs beside it and never
// ships: the benchmark and the conformance driver (npm run bench / conformance and the tests build
// them). `--watch` rebuilds on change.
// The shipped bundles are minified; their source maps stay in dist/ for debugging and out of
// the VSIX (.vscodeignore).
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const drivers = process.argv.includes('--drivers');
// `--metafile`: esbuild's metafile of the extension in dist/extension.meta.json, and what activation reads, by module.
const metafile = process.argv.includes('--metafile');
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
 * Libraries only some panels need (<folder>/lazyChunks/*.ts: the entry points of lazy chunks,
 * required inside the function that first needs them) become files of their own beside the
 * bundle, so activation neither loads nor parses them: `require('./lazyChunks/ajv')` becomes a
 * require of dist/vendor/ajv.js. Each maps to the folder whose code requires it.
 */
const vendorModules = { ajv: 'src/schema', markdownIt: 'src/content', re2: 'src/schema', yaml: 'src/skills', zod: 'src/protocol' };
const lazyVendor = {
  name: 'lazy-vendor',
  setup(build) {
    build.onResolve({ filter: /^\.\/lazyChunks\/\w+$/ }, (args) => {
      const name = args.path.slice('./lazyChunks/'.length);
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

/**
 * The extension is built as ES modules with code splitting, then each file is turned into
 * CommonJS (VS Code loads extensions with require). So a module the extension loads with
 * `await import('./…')` (a panel, the HTTP transports, eventsource-parser) becomes a file of
 * its own beside dist/extension.js, read on first use, not at activation; code it shares with
 * the rest lands in a shared `chunk-*.js`, loaded once, so a class stays one class (instanceof
 * holds across files). The files sit in dist/ itself so `./vendor/…` and `__dirname` resolve
 * as from dist/extension.js.
 *
 * esbuild makes a shared chunk per set of entries that reach a module: some forty small ones
 * that activation needs anyway, each costing Node a file lookup, a read and a compile (about
 * half of the load time). Those are merged into dist/extension.js (mergeActivationChunks).
 */
const extensionWithLazyChunks = {
  name: 'extension-lazy-chunks',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length) return;
      const { readdirSync, unlinkSync } = await import('node:fs');
      for (const stale of readdirSync('dist').filter((f) => /^chunk-\w+\.js(\.map)?$/.test(f))) unlinkSync(`dist/${stale}`);
      const files = new Map();
      for (const file of result.outputFiles.filter((f) => f.path.endsWith('.js'))) {
        const name = file.path.slice(file.path.lastIndexOf('/') + 1);
        // The ESM output carries its source map inline; the CommonJS pass maps through it.
        const cjs = await esbuild.transform(file.text, { format: 'cjs', platform: 'node', target: 'node20', minify: true, sourcemap: 'external', sourcefile: name });
        // A chunk is CommonJS now, so its import() becomes a require; dist/vendor/oauth.mjs stays
        // an ES module and keeps its import(). (The source map is off by a few columns after
        // each such call, on its line only.)
        const code = cjs.code.replace(/\bimport\((["'`])(\.\/chunk-\w+\.js)\1\)/g, 'Promise.resolve().then(()=>require("$2"))');
        files.set(name, { code, map: cjs.map });
      }
      if (metafile) printActivationBytes(result.metafile);
      for (const [name, { code, map }] of mergeActivationChunks(files)) {
        writeFileSync(`dist/${name}`, `${code}//# sourceMappingURL=${name}.map\n`);
        writeFileSync(`dist/${name}.map`, map);
      }
    });
  },
};

const LAZY_REQUIRE = /Promise\.resolve\(\)\.then\(\(\)=>require\("\.\/(chunk-\w+\.js)"\)\)/g;
const CHUNK_REQUIRE = /\brequire\("\.\/(chunk-\w+\.js)"\)/g;
/** The chunks `code` requires when it runs (not those it loads later through a lazy import). */
function staticChunks(code) {
  return [...code.replace(LAZY_REQUIRE, '').matchAll(CHUNK_REQUIRE)].map((m) => m[1]);
}

/**
 * `files` (name → CommonJS code and source map) with every chunk extension.js needs at load
 * merged into it. Each merged chunk keeps its own module scope: a function run on its first
 * require, as Node would run its file, registered in `require.cache` under the path it would have
 * had, so a lazily loaded chunk that needs it finds that one instance there. The source map of
 * extension.js becomes an index map with one section per part.
 */
function mergeActivationChunks(files) {
  const merged = new Set();
  const visit = (name) => {
    for (const chunk of staticChunks(files.get(name).code)) {
      if (merged.has(chunk)) continue;
      merged.add(chunk);
      visit(chunk);
    }
  };
  visit('extension.js');
  const local = (code) => code.replace(CHUNK_REQUIRE, (whole, chunk) => (merged.has(chunk) ? `__mcpHostChunk("${chunk}")` : whole));
  const out = new Map();
  for (const [name, file] of files) {
    if (name === 'extension.js' || merged.has(name)) continue;
    const uses = staticChunks(file.code).some((chunk) => merged.has(chunk));
    // A lazy chunk finds a merged one where extension.js registered it.
    const prologue = uses ? 'const __mcpHostChunk=n=>{const m=require.cache[require("node:path").join(__dirname,n)];if(!m)throw new Error(`${n} is part of extension.js, which was not loaded`);return m.exports};\n' : '';
    out.set(name, { code: prologue + local(file.code), map: shiftLines(file.map, prologue ? 1 : 0) });
  }
  const lines = [
    '"use strict";',
    'const __mcpHostChunk=(()=>{const M=require("node:module"),P=require("node:path"),loaded={};return n=>{let m=loaded[n];if(m)return m.exports;const f=P.join(__dirname,n);m=loaded[n]=new M(f,module);m.filename=f;m.paths=module.paths;require.cache[f]=m;__mcpHostChunks[n].call(m.exports,m.exports,require,m,f,__dirname);m.loaded=true;return m.exports}})();',
    'const __mcpHostChunks={',
  ];
  const sections = [];
  for (const name of merged) {
    lines.push(`${JSON.stringify(name)}:function(exports,require,module,__filename,__dirname){`);
    sections.push({ offset: { line: lines.length, column: 0 }, map: JSON.parse(files.get(name).map) });
    lines.push(...local(files.get(name).code).split('\n'), '},');
  }
  lines.push('};');
  sections.push({ offset: { line: lines.length, column: 0 }, map: JSON.parse(files.get('extension.js').map) });
  lines.push(local(files.get('extension.js').code));
  out.set('extension.js', { code: lines.join('\n'), map: JSON.stringify({ version: 3, file: 'extension.js', sections }) });
  return out;
}

/**
 * Writes the metafile to dist/ and prints the modules of the files activation reads (extension.js
 * and the chunks it imports statically, merged into it) by their minified bytes, largest first.
 */
function printActivationBytes(meta) {
  writeFileSync('dist/extension.meta.json', JSON.stringify(meta));
  const outputs = meta.outputs;
  const read = new Set();
  const visit = (file) => {
    if (read.has(file) || !outputs[file]) return;
    read.add(file);
    for (const i of outputs[file].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(Object.keys(outputs).find((f) => f.endsWith('/extension.js')));
  const bytes = new Map();
  for (const file of read) for (const [input, { bytesInOutput }] of Object.entries(outputs[file].inputs)) bytes.set(input, (bytes.get(input) ?? 0) + bytesInOutput);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  const rows = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([input, n]) => `${String(n).padStart(8)}  ${input.replace(/^.*?node_modules\//, 'node_modules/')}`);
  console.log([`Read at activation (ES modules, before the CommonJS pass): ${(total / 1024).toFixed(1)} KiB in ${bytes.size} modules; the largest:`, ...rows].join('\n'));
}

/** A source map for code moved down by `lines` lines. */
function shiftLines(map, lines) {
  if (lines === 0) return map;
  const parsed = JSON.parse(map);
  parsed.mappings = ';'.repeat(lines) + parsed.mappings;
  return JSON.stringify(parsed);
}
const builds = [
  {
    ...shipped,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    chunkNames: 'chunk-[hash]',
    entryNames: '[name]',
    sourcemap: 'inline',
    write: false,
    metafile,
    plugins: [lazyVendor, lazyOAuth, vscodeApi, extensionWithLazyChunks],
  },
  { ...shipped, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { ...common, format: 'esm', minify: true, entryPoints: ['oauth4webapi'], outfile: 'dist/vendor/oauth.mjs' },
  ...Object.entries(vendorModules).map(([name, folder]) => ({ ...common, minify: true, entryPoints: [`${folder}/lazyChunks/${name}.ts`], outfile: `dist/vendor/${name}.js` })),
];
const driverBuilds = [
  // The benchmark loads the official SDK as a peer for comparison; it is never shipped.
  { ...common, entryPoints: ['test/bench/bench.ts'], outfile: 'dist/bench.js', packages: 'external' },
  // The client the official conformance suite drives (scripts/conformance.mjs); never shipped.
  { ...common, entryPoints: ['test/conformance/client.ts'], outfile: 'dist/conformance-client.js' },
];
if (drivers) builds.push(...driverBuilds);
if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
