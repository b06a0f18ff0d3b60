// The extension's footprint (test/bench/bench.ts --only footprint): bundle sizes, load + activate times in fresh processes.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { reportMiss } from './misses';
import { median, ms } from './benchFormat';

export const DIST = __dirname;
export const EXTENSION_BUNDLE = join(DIST, 'extension.js');
export const KiB = 1024;
/** Fresh processes that load and activate the bundle; the median is reported. */
export const ACTIVATION_RUNS = 11;

/**
 * A stand-in for the `vscode` module: every property is a callable, constructible object again,
 * `get(key, fallback)` (settings, mementos) answers the fallback, awaiting it gives undefined,
 * and it is an empty list. Enough for activate() to build its objects; nothing happens on screen.
 */
export function inertVscode(): unknown {
  const empty = function* () {};
  const handler: ProxyHandler<() => unknown> = {
    get(_target, key) {
      // A thenable API result settles at once, with nothing.
      if (key === 'then') return (onFulfilled?: (value: undefined) => unknown) => Promise.resolve(undefined).then(onFulfilled);
      if (key === Symbol.iterator) return empty;
      if (key === Symbol.toPrimitive) return (hint: string) => (hint === 'number' ? 0 : '');
      if (key === 'length' || key === 'size') return 0;
      if (key === 'get') return (_key: unknown, fallback: unknown) => fallback;
      return inert;
    },
    apply: () => inert,
    construct: () => inert as object,
    set: () => true, // writes go nowhere
    defineProperty: () => true,
  };
  const inert: unknown = new Proxy(function inertVscodeObject() {}, handler);
  // The bundle copies the module's own properties (esbuild's interop): list the API's names, from
  // the typings the extension is built against.
  const typings = readFileSync(join(DIST, '..', 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  const api: Record<string, unknown> = {};
  for (const m of typings.matchAll(/^\texport (?:namespace|class|enum|const|function|let) (\w+)/gm)) api[m[1]] = inert;
  return api;
}

/**
 * In a fresh process: require() the bundle and run activate(); prints the two times as JSON, and
 * the files of dist/ that were read (the bundle, the shared chunks it needs; never a lazy chunk).
 */
export function loadAndActivate(bundle: string): void {
  const Module = require('node:module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
  };
  const vscode = inertVscode();
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode } as NodeJS.Module;
  // The work activate() starts but does not wait for (reading config, timers) may fail on the stand-in: not measured.
  process.on('unhandledRejection', () => {});
  const inert = (vscode as { window: Record<string, unknown> }).window;
  const context = new Proxy(
    // A storage folder is a path the extension joins to (the sign-in refresh lock): a real one.
    { subscriptions: [] as unknown[], extension: { packageJSON: { version: 'bench' } }, globalStorageUri: { scheme: 'file', fsPath: join(tmpdir(), 'mcp-host-bench-storage') } },
    { get: (target, key) => (key in target ? target[key as keyof typeof target] : inert[key as string]) },
  );
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const extension = require(bundle) as { activate(context: unknown): void };
  const loaded = performance.now();
  extension.activate(context);
  const activated = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  // The chunks merged into the bundle (esbuild.mjs) are in require.cache under paths with no file: not read.
  const files = Object.keys(require.cache).filter((f) => f.startsWith(DIST) && f !== __filename && existsSync(f)).map((f) => f.slice(DIST.length + 1));
  process.stdout.write(JSON.stringify({ loadMs: loaded - started, activateMs: activated - loaded, cpuMs: (cpu.user + cpu.system) / 1000, files }) + '\n');
  process.exit(0);
}

/** The footprint section: bundle sizes, then load + activate times over fresh processes. */
export function footprint(): string[] {
  const lines = ['Footprint of the extension bundle (minified, as shipped in the VSIX):', ''];
  if (!existsSync(EXTENSION_BUNDLE)) return [...lines, `not measured: ${EXTENSION_BUNDLE} is missing (run node esbuild.mjs --drivers)`];
  const size = statSync(EXTENSION_BUNDLE).size;
  const vendorDir = join(DIST, 'vendor');
  const vendor = existsSync(vendorDir) ? readdirSync(vendorDir).filter((f) => f.endsWith('.js')).map((f) => `${f} ${(statSync(join(vendorDir, f)).size / KiB).toFixed(0)} KiB`) : [];
  const runs: { loadMs: number; activateMs: number; cpuMs: number; files: string[] }[] = [];
  let error: string | undefined;
  for (let i = 0; i < ACTIVATION_RUNS && !error; i++) {
    const r = spawnSync(process.execPath, [__filename, '--load-extension', EXTENSION_BUNDLE], { encoding: 'utf8', timeout: 30_000 });
    const line = r.stdout?.trim().split('\n').pop();
    if (r.status === 0 && line) runs.push(JSON.parse(line) as { loadMs: number; activateMs: number; cpuMs: number; files: string[] });
    else error = `exit ${r.status ?? r.signal}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}`;
  }
  const total = runs.map((r) => r.loadMs + r.activateMs);
  lines.push('| Measure | Value | Goal |', '|---|---|---|');
  // esbuild.mjs merges the chunks activation needs into the bundle: its size is what activation reads.
  const merged = (readFileSync(EXTENSION_BUNDLE, 'utf8').match(/^"chunk-\w+\.js":function/gm) ?? []).length;
  lines.push(`| dist/extension.js (with the ${merged} chunks activation needs merged in) | ${(size / KiB).toFixed(0)} KiB | <= 400 KiB (${size <= 400 * KiB ? 'PASS' : 'MISS'}) |`);
  if (size > 400 * KiB) reportMiss(`footprint: dist/extension.js is ${(size / KiB).toFixed(0)} KiB (target <= 400 KiB)`);
  // The bundle's shared chunks are read with it; its lazy chunks (panels, HTTP transports) and
  // dist/vendor/ only on first use.
  const read = runs[0]?.files ?? [];
  const readBytes = read.reduce((sum, f) => sum + statSync(join(DIST, f)).size, 0);
  if (read.length > 1) lines.push(`| read at activation (the bundle and ${read.length - 1} shared chunks) | ${(readBytes / KiB).toFixed(0)} KiB | |`);
  const lazy = readdirSync(DIST).filter((f) => /^chunk-\w+\.js$/.test(f) && !read.includes(f));
  if (lazy.length) lines.push(`| loaded on first use (dist/chunk-*.js: panels, HTTP transports) | ${lazy.length} files, ${(lazy.reduce((sum, f) => sum + statSync(join(DIST, f)).size, 0) / KiB).toFixed(0)} KiB | |`);
  if (vendor.length) lines.push(`| loaded on first use (dist/vendor/) | ${vendor.join(', ')} | |`);
  if (error || runs.length === 0) {
    lines.push(`| load + activate() | fails: ${error ?? 'no runs'} | <= 30 ms |`);
    reportMiss(`footprint: load + activate() not measured: ${error ?? 'no runs'}`);
  } else {
    const t = median(total);
    lines.push(`| require() of the bundle (median of ${runs.length} fresh processes) | ${ms(median(runs.map((r) => r.loadMs)))} ms | |`);
    lines.push(`| activate() (median) | ${ms(median(runs.map((r) => r.activateMs)))} ms | |`);
    lines.push(`| load + activate() (median) [best] | ${ms(t)} ms [${ms(Math.min(...total))}] | <= 30 ms (${t <= 30 ? 'PASS' : 'MISS'}) |`);
    if (t > 30) reportMiss(`footprint: load + activate() median ${ms(t)} ms (target <= 30 ms)`);
    // CPU time is what the load of a shared machine distorts least.
    lines.push(`| load + activate() CPU time (median) | ${ms(median(runs.map((r) => r.cpuMs)))} ms | |`);
  }
  lines.push('', 'Activation in code-server, as VS Code measures it, is logged by test/bench/startupBench.ts (npm run bench:editor).', '');
  return lines;
}
