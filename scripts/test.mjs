// The test command: type-checks and compiles to out/, builds the bundle and the VSIX when the
// end-to-end suites run, then runs the suites with `node --test` (the streams are below) and ends
// with one line over all of them: "N passed, N failed".
//   node scripts/test.mjs            unit + integration + end-to-end
//   node scripts/test.mjs --unit     without the end-to-end suites (no VS Code needed)
//   node scripts/test.mjs --e2e      only the end-to-end suites
//   node scripts/test.mjs --unit --only=client/,support/   only the files whose path contains one of these
//   extra arguments after `--` go to node --test (for example --test-name-pattern)
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const flags = dash >= 0 ? argv.slice(0, dash) : argv;
const passThrough = dash >= 0 ? argv.slice(dash + 1) : [];
const unitOnly = flags.includes('--unit');
// --only=a,b: only the test files whose path (under out/test/) contains one of these.
const only = flags.find((f) => f.startsWith('--only='))?.slice('--only='.length).split(',').filter(Boolean);
const e2eOnly = flags.includes('--e2e');

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.']);
run(process.execPath, ['esbuild.mjs']);
const all = findTests('out/test');
const isE2e = (f) => f.includes(`${join('out', 'test', 'e2e')}`);
// Three streams, by what they need:
//   - the fresh-clone suite (e2e/freshClone): the README's commands in a clone. With an empty
//     MCP_HOST_CACHE, as .ci/run gives, it is `npm run demo` there that installs code-server;
//   - the unit and integration suites, which need no code-server: they run beside the fresh-clone
//     suite, two files at a time (they mostly wait on the servers they start);
//   - then the suites that use the cache the demo filled: the end-to-end suites (one at a time:
//     each drives a whole VS Code and Chromium on the machine's cores) and the conformance suite
//     (it runs on the cache's Node 24).
const isFirst = (f) => f.endsWith(join('e2e', 'freshClone.test.js'));
const usesCache = (f) => isE2e(f) || f.includes(join('out', 'test', 'conformance') + sep);
const files = all
  .filter((f) => (unitOnly ? !isE2e(f) : e2eOnly ? isE2e(f) : true))
  .filter((f) => !only || only.some((part) => f.slice(join('out', 'test').length + 1).includes(part)));
if (files.some(isE2e)) run(process.execPath, ['scripts/package.mjs']);

// A test without a timeout of its own that never ends fails after this long instead of holding CI
// until its limit (a test waiting on a promise that cannot settle once hung the whole run).
const TEST_TIMEOUT_MS = 10 * 60_000;
// Each run's report goes through a pipe (its counts are read from it): on a terminal, keep the
// readable reporter a terminal would have had.
const reporter = process.stdout.isTTY ? ['--test-reporter=spec'] : [];

/**
 * Runs `node --test` over `list`. Its report is printed as it comes (`live`), or kept for the
 * caller to print (`report`), so that two runs side by side do not interleave. Resolves to its exit
 * status, the counts of its summary and the kept report.
 */
function runTests(list, { concurrency = 1, live = true } = {}) {
  if (list.length === 0) return Promise.resolve({ status: 0, passed: 0, failed: 0, report: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, `--test-timeout=${TEST_TIMEOUT_MS}`, ...reporter, ...passThrough, ...list], {
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    const kept = [];
    let tail = '';
    const summary = { pass: 0, fail: 0, cancelled: 0 };
    child.stdout.on('data', (chunk) => {
      if (live) process.stdout.write(chunk);
      else kept.push(chunk);
      // The summary's lines, last in the report: "# pass N" (TAP) or "ℹ pass N" (spec). The last
      // of each wins; cancelled tests count as failed.
      const lines = (tail + chunk.toString('utf8')).split('\n');
      tail = lines.pop();
      for (const line of lines) {
        const m = /^(?:#|ℹ) (pass|fail|cancelled) (\d+)\s*$/.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
        if (m) summary[m[1]] = Number(m[2]);
      }
    });
    child.on('close', (code, signal) => {
      resolve({ status: code ?? (signal ? 1 : 0), passed: summary.pass, failed: summary.fail + summary.cancelled, report: Buffer.concat(kept) });
    });
  });
}

const firstFiles = files.filter(isFirst);
const unitFiles = files.filter((f) => !isFirst(f) && !usesCache(f));
const cacheFiles = files.filter((f) => !isFirst(f) && usesCache(f));
const [first, unit] = await Promise.all([
  runTests(firstFiles, { live: unitFiles.length === 0 }),
  runTests(unitFiles, { concurrency: 2 }),
]);
// The fresh-clone suite's report, kept while the unit suites' printed, follows theirs whole.
process.stdout.write(first.report);
const rest = await runTests(cacheFiles);
if (first.status !== 0) console.error('\nthe fresh-clone suite (test/e2e/freshClone.test.ts) failed; its report follows the unit suites\' summary');
const runs = [first, unit, rest];
const passed = runs.reduce((n, r) => n + r.passed, 0);
const failed = runs.reduce((n, r) => n + r.failed, 0);
// A run that failed without a failed test (a file that would not load, a crash) still fails.
const status = runs.find((r) => r.status !== 0)?.status ?? 0;
console.log(`\n${passed} passed, ${failed || (status ? 1 : 0)} failed`);
process.exit(status);
