// What the era probe costs a legacy server, measured through the real CLI (`node dist/cli.js
// tools -- …`) against test/fixtures/servers/probeEras.mjs: the median time of a run in `auto`
// minus the median of the same run pinned to `--protocol-version legacy` (no probe at all).
// "First run" starts with an empty cache directory each time; "later runs" share one that the
// first run filled. Not a test: `npm run bench:probe` prints a table for the README.
//
//   node scripts/probe-cost.mjs [--reps N]     (default 5 runs per row; build first: node esbuild.mjs --drivers)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'servers', 'probeEras.mjs');
const repsIndex = process.argv.indexOf('--reps');
const REPS = repsIndex > 0 ? Number(process.argv[repsIndex + 1]) : 5;

const scratch = mkdtempSync(join(tmpdir(), 'mcp-host-probe-cost-'));
let dirs = 0;
const freshCache = () => mkdtempSync(join(scratch, `cache-${dirs++}-`));

/** One CLI run; its wall time in ms. Throws when it fails (a measurement of a failure is worth nothing). */
function run(mode, cache, extra = []) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'tools', ...extra, '--', process.execPath, FIXTURE, '--mode', mode], { env: { ...process.env, XDG_CACHE_HOME: cache }, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${mode} ${extra.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { ms, stderr: r.stderr };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function measure(label, mode, kind) {
  const times = [];
  const shared = freshCache();
  if (kind === 'later') run(mode, shared); // fills the cache
  for (let i = 0; i < REPS; i++) {
    const cache = kind === 'first' ? freshCache() : kind === 'later' ? shared : freshCache();
    times.push(run(mode, cache, kind === 'pinned' ? ['--protocol-version', 'legacy'] : []).ms);
  }
  return { label, mode, kind, ms: median(times) };
}

const rows = [];
try {
  for (const [label, mode] of [
    ['answers -32601 (SDK-like)', 'refuse-unknown'],
    ['ignores unknown requests', 'ignore-unknown'],
    ['exits on unknown requests', 'exit-unknown'],
  ]) {
    const pinned = measure(label, mode, 'pinned');
    const first = measure(label, mode, 'first');
    const later = measure(label, mode, 'later');
    rows.push([label, pinned.ms, first.ms, later.ms]);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const f = (ms) => `${Math.round(ms)} ms`;
const d = (ms, base) => `${ms - base >= 0 ? '+' : ''}${Math.round(ms - base)} ms`;
console.log(`Era probe cost, \`mcp-host tools\` against a legacy server (median of ${REPS} runs, default --connect-timeout 3000)\n`);
console.log('| legacy server | pinned legacy (no probe) | auto, first run | auto, later runs |');
console.log('|---|---|---|---|');
for (const [label, pinned, first, later] of rows) console.log(`| ${label} | ${f(pinned)} | ${f(first)} (${d(first, pinned)}) | ${f(later)} (${d(later, pinned)}) |`);
