// The test command: lints (`npm run lint`, beside the compile), type-checks (src, test, and the
// webview scripts in media/) and compiles to out/, builds the bundle and the VSIX when the
// end-to-end suites run, and meanwhile installs Node 24 (and code-server, for the end-to-end
// suites) into the cache; then runs the suites with `node --test` (the streams are below) and ends
// with the retries the end-to-end suites took ("retries: N (…)") and one line over all of them:
// "N passed, N failed". With MCP_HOST_UNIT_COVERAGE=1, a run of every unit suite also says how much
// of the editor layer they ran and fails under a third (editorCoverageFloor, below).
//   node scripts/test.mjs            unit + integration + end-to-end
//   node scripts/test.mjs --unit     without the end-to-end suites (no VS Code needed; Node 24 for conformance)
//   node scripts/test.mjs --e2e      only the end-to-end suites
//   node scripts/test.mjs --unit --only=client/,support/   only the files whose path contains one of these
//   node scripts/test.mjs --e2e --e2e-jobs=2   two end-to-end files at a time (default one; see e2eLanes)
//   extra arguments after `--` go to node --test (for example --test-name-pattern)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { e2eLanes } from './e2eLanes.mjs';
import { EDITOR_COVERAGE_FLOOR, describeEditorCoverage, editorCoverage } from './editor-coverage.mjs';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const flags = dash >= 0 ? argv.slice(0, dash) : argv;
const passThrough = dash >= 0 ? argv.slice(dash + 1) : [];
const unitOnly = flags.includes('--unit');
// --only=a,b: only the test files whose path (under out/test/) contains one of these.
const only = flags.find((f) => f.startsWith('--only='))?.slice('--only='.length).split(',').filter(Boolean);
const e2eOnly = flags.includes('--e2e');
// --e2e-jobs=N: end-to-end files N at a time, in N lanes (default 1: one at a time).
const e2eJobs = Math.max(1, Math.floor(Number(flags.find((f) => f.startsWith('--e2e-jobs='))?.slice('--e2e-jobs='.length) ?? 1)) || 1);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

/** Runs a command without blocking; resolves with its status (the install, beside the compile). */
function runAsync(cmd, args, opts = {}) {
  return new Promise((resolve) => spawn(cmd, args, { stdio: 'inherit', ...opts }).on('close', (code, signal) => resolve({ cmd, args, status: code ?? (signal ? 1 : 0) })));
}

/**
 * Runs ESLint over the tree without blocking, its report kept (printed only when it fails, so it
 * does not interleave with the compile's). Resolves with its status, report, a one-line summary of
 * the problems and how long it took.
 */
function lint() {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/eslint/bin/eslint.js', '--max-warnings=0', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const kept = [];
    child.stdout.on('data', (chunk) => kept.push(chunk));
    child.stderr.on('data', (chunk) => kept.push(chunk));
    // A compile that fails ends this process first: the linter goes with it.
    const stop = () => child.kill();
    process.on('exit', stop);
    child.on('close', (code, signal) => {
      process.off('exit', stop);
      const report = Buffer.concat(kept);
      // The stylish formatter's last line: "✖ 12 problems (12 errors, 0 warnings)".
      const counted = /✖ (\d+ problems? \(\d+ errors?, \d+ warnings?\))/.exec(report.toString('utf8'));
      const status = code ?? (signal ? 1 : 0);
      const summary = counted ? counted[1] : `eslint exited with ${code ?? signal}`;
      resolve({ status, report, summary, seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

/** The test sources under `dir` (`*.test.ts`), as the paths tsc compiles them to under out/. */
function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.ts')) out.push(join('out', p.slice(0, -'.ts'.length) + '.js'));
  }
  return out.sort();
}

// The files to run, from the sources (a compiled test whose source is gone, a renamed or moved
// suite tsc left in out/, is not run): known before the compile, so the install can run beside it.
const all = findTests('test');
const isE2e = (f) => f.includes(`${join('out', 'test', 'e2e')}`);
const isConformance = (f) => f.includes(join('out', 'test', 'conformance') + sep);
// Two lanes side by side, once the cache holds what the suites need (Node 24 for the conformance
// suite; code-server too for the end-to-end suites):
//   - the unit and integration suites and the conformance suite, UNIT_CONCURRENCY files at a time
//     (they mostly wait on the servers they start), then the fresh-clone suite (e2e/freshClone:
//     the README's commands in a clone; `npm run demo` finds code-server installed);
//   - the end-to-end suites, one at a time (each drives a whole VS Code and Chromium), or in
//     `--e2e-jobs` lanes side by side (e2eLanes).
// Side by side, not one after the other: the end-to-end stream is most of the run, and it mostly
// waits too (on the window, its servers, timers). Measured in CONTRIBUTING.md ("The tests").
const isFirst = (f) => f.endsWith(join('e2e', 'freshClone.test.js'));
const files = all
  .filter((f) => (unitOnly ? !isE2e(f) : e2eOnly ? isE2e(f) : true))
  .filter((f) => !only || only.some((part) => f.slice(join('out', 'test').length + 1).includes(part)));
const needsCodeServer = files.some(isE2e);
const needsNode24 = files.some(isConformance) && Number(process.versions.node.split('.')[0]) < 22;
// Node 24 and code-server (or Node 24 alone: the conformance suite needs no VS Code), with their
// progress on stderr (minutes on an empty cache), beside the compile.
const installing = needsCodeServer || needsNode24 ? runAsync('bash', ['scripts/install-code-server.sh', ...(needsCodeServer ? [] : ['node24'])], { stdio: ['ignore', 'ignore', 'inherit'] }) : undefined;
// The linter (eslint.config.mjs), beside the compile, on every run over the whole tree: not on a
// part (--only) nor on the end-to-end suites alone (--e2e), which lint nothing they change.
const linting = !only && !e2eOnly ? lint() : undefined;
run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.']);
// The webview scripts (plain JS, loaded by the pages as they are) against the DOM and the messages
// the extension posts: media/tsconfig.json.
run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'media']);
run(process.execPath, ['esbuild.mjs', '--drivers']);
if (needsCodeServer) run(process.execPath, ['scripts/package.mjs', '--no-build']);
const linted = await linting;
if (linted && linted.status !== 0) {
  process.stdout.write(linted.report);
  console.error(`\nthe linter failed: ${linted.summary} (above; \`npm run lint\` runs it alone)`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (linted) console.log(`lint: no problems (${linted.seconds} s)`);
const installed = await installing;
if (installed && installed.status !== 0) {
  console.error(`\n${installed.cmd} ${installed.args.join(' ')} failed (${installed.status})`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// A test without a timeout of its own that never ends fails after this long instead of holding CI
// until its limit (a test waiting on a promise that cannot settle once hung the whole run).
const TEST_TIMEOUT_MS = 10 * 60_000;
// A file of end-to-end tests counts as one test of its own (node --test runs each file as one), and
// its tests each have their own bound: the file's is the sum of many.
const E2E_FILE_TIMEOUT_MS = 40 * 60_000;
// Each run's report goes through a pipe (its counts are read from it): on a terminal, keep the
// readable reporter a terminal would have had.
const reporter = process.stdout.isTTY ? ['--test-reporter=spec'] : [];

/**
 * Runs `node --test` over `list`. Its report is printed as it comes (`live`), or kept for the
 * caller to print (`report`), so that two runs side by side do not interleave. Resolves to its exit
 * status, the counts of its summary and the kept report.
 */
function runTests(list, { concurrency = 1, live = true, timeoutMs = TEST_TIMEOUT_MS, env = process.env } = {}) {
  if (list.length === 0) return Promise.resolve({ status: 0, passed: 0, failed: 0, retries: [], failures: [], report: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeoutMs}`, ...reporter, ...passThrough, ...list], {
      stdio: ['inherit', 'pipe', 'inherit'],
      env,
    });
    const kept = [];
    let tail = '';
    const summary = { pass: 0, fail: 0, cancelled: 0 };
    const retries = [];
    const failures = [];
    // TAP: "# Subtest: <name>" opens a test at its indent; "not ok N - <name>" ends one that failed,
    // and its YAML block (to "...") says why. Kept for the run's closing lines.
    const names = [];
    let failure;
    child.stdout.on('data', (chunk) => {
      if (live) process.stdout.write(chunk);
      else kept.push(chunk);
      // The summary's lines, last in the report: "# pass N" (TAP) or "ℹ pass N" (spec). The last
      // of each wins; cancelled tests count as failed.
      const lines = (tail + chunk.toString('utf8')).split('\n');
      tail = lines.pop();
      for (const raw of lines) {
        const line = raw.replace(/\x1b\[[0-9;]*m/g, '');
        const m = /^(?:#|ℹ) (pass|fail|cancelled) (\d+)\s*$/.exec(line);
        if (m) summary[m[1]] = Number(m[2]);
        // test/e2e/retries.ts: "retry: <what> — <why>", a `# ` diagnostic in TAP.
        const retry = /^\s*(?:# )?retry: (.+?) — /.exec(line);
        if (retry) retries.push(retry[1]);
        const subtest = /^( *)# Subtest: (.*)$/.exec(line);
        if (subtest) names[subtest[1].length / 4] = subtest[2];
        const notOk = /^( *)not ok \d+ - (.*)$/.exec(line);
        // A failing `todo` test is said as such ("# TODO …") and does not fail the run.
        if (notOk && /# TODO\b/.test(notOk[2])) continue;
        if (notOk) {
          failure = { path: [...names.slice(0, notOk[1].length / 4), notOk[2]], why: [] };
          continue;
        }
        if (failure) {
          if (/^\s*\.\.\.$/.test(line)) {
            // A suite that failed because its tests did is said by those tests.
            if (!failure.why.some((l) => /failureType: 'subtestsFailed'/.test(l))) failures.push(failure);
            failure = undefined;
          } else if (failure.why.length < 40) failure.why.push(line);
        }
      }
    });
    child.on('close', (code, signal) => {
      resolve({ status: code ?? (signal ? 1 : 0), passed: summary.pass, failed: summary.fail + summary.cancelled, retries, failures, report: Buffer.concat(kept) });
    });
  });
}

/** The end-to-end stream: one `node --test` per lane, the first printed live; one result over all. */
async function runE2e(list, jobs, live) {
  if (jobs <= 1) return runTests(list, { live, timeoutMs: E2E_FILE_TIMEOUT_MS });
  const lanes = e2eLanes(list, jobs, (compiled) => readFileSync(compiled.slice('out'.length + 1).replace(/\.js$/, '.ts'), 'utf8'));
  const results = await Promise.all(lanes.map((lane, i) => runTests(lane, { live: live && i === 0, timeoutMs: E2E_FILE_TIMEOUT_MS })));
  // Each lane's retries, to compare a run of N lanes with a run of one (issue 35).
  lanes.forEach((lane, i) => console.log(`e2e lane ${i + 1} (${lane.map((f) => f.split(sep).pop()).join(', ')}): retries ${results[i].retries.length}`));
  return {
    status: results.find((r) => r.status !== 0)?.status ?? 0,
    passed: results.reduce((n, r) => n + r.passed, 0),
    failed: results.reduce((n, r) => n + r.failed, 0),
    retries: results.flatMap((r) => r.retries),
    failures: results.flatMap((r) => r.failures),
    report: Buffer.concat(results.map((r) => r.report)),
  };
}

const firstFiles = files.filter(isFirst);
const e2eFiles = files.filter((f) => !isFirst(f) && isE2e(f));
const unitFiles = files.filter((f) => !isE2e(f));
// Two unit files at a time beside the end-to-end stream (three when it has none): on two cores a
// VS Code window beside three unit files and a clone's `npm ci` once missed its 15 s bounds.
const UNIT_CONCURRENCY = e2eFiles.length > 0 ? 2 : 3;
// The end-to-end stream, the longest, prints as it runs; the others' reports are kept and follow
// it, so that reports side by side do not interleave. The fresh-clone suite (its `npm ci` and
// demo are CPU-heavy) runs after the unit stream, beside the end-to-end stream, which outlasts both.
const liveStream = e2eFiles.length > 0 ? 'e2e' : unitFiles.length > 0 ? 'unit' : 'first';
// Asked for (MCP_HOST_UNIT_COVERAGE=1), the unit stream of a whole run leaves V8's coverage here,
// for the editor layer's floor below (issue 34; scripts/editor-coverage.mjs). Not by default:
// every process of the stream records it (the servers and CLIs the tests start too), which on
// this 2-core machine costs about a third more CPU and over a gigabyte of files. Not on a part
// (--only), which holds no floor.
const coverageWanted = process.env.MCP_HOST_UNIT_COVERAGE === '1';
const coverageDir = coverageWanted && unitFiles.length > 0 && !only ? mkdtempSync(join(tmpdir(), 'mcp-host-unit-coverage-')) : undefined;
const unitEnv = coverageDir ? { ...process.env, NODE_V8_COVERAGE: coverageDir } : process.env;
const [[unit, first], e2e] = await Promise.all([
  runTests(unitFiles, { concurrency: UNIT_CONCURRENCY, live: liveStream === 'unit', env: unitEnv }).then(async (unitRun) => [unitRun, await runTests(firstFiles, { live: liveStream === 'first', timeoutMs: E2E_FILE_TIMEOUT_MS })]),
  runE2e(e2eFiles, e2eJobs, liveStream === 'e2e'),
]);
for (const r of [e2e, unit, first]) process.stdout.write(r.report);
const floor = coverageDir ? editorCoverageFloor(coverageDir) : undefined;
if (coverageWanted && unitFiles.length > 0 && only) console.log('\neditor coverage: not measured on a part of the unit suites (--only); `npm test` and `--unit` hold the floor');
const runs = [first, unit, e2e, ...(floor ? [floor] : [])];
const streams = [[first, 'the fresh-clone suite (test/e2e/freshClone.test.ts)'], [unit, 'the unit and conformance suites'], [e2e, 'the end-to-end suites'], ...(floor ? [[floor, 'the editor coverage floor']] : [])];
const failedStreams = streams.filter(([r]) => r.status !== 0);
for (const [, name] of failedStreams) console.error(`\n${name} failed; its report is above`);
// The failed tests again, last, where a reader of the log's tail (CI shows the end) finds them:
// each by its suites' names, with the error lines of its report.
const failures = runs.flatMap((r) => r.failures);
if (failures.length > 0) {
  console.log(`\nfailed tests (${failures.length}):`);
  for (const f of failures.slice(0, 20)) {
    console.log(`\n  ✖ ${f.path.join(' › ')}`);
    const errorAt = f.why.findIndex((l) => /^\s*(error|failureType|location):/.test(l));
    for (const l of f.why.slice(Math.max(0, errorAt), Math.max(0, errorAt) + 14)) console.log(`    ${l.trim()}`);
  }
}
const passed = runs.reduce((n, r) => n + r.passed, 0);
const failed = runs.reduce((n, r) => n + r.failed, 0);
// Each retry a test took, by what was retried (the first word: runCommand, clickReached, …).
const retries = runs.flatMap((r) => r.retries);
const byKind = new Map();
for (const what of retries) byKind.set(what.split(' ')[0], (byKind.get(what.split(' ')[0]) ?? 0) + 1);
const kinds = [...byKind].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind} ${n}`);
console.log(`\nretries: ${retries.length}${kinds.length ? ` (${kinds.join(', ')})` : ''}`);
// A run that failed without a failed test (a file that would not load, a crash) still fails.
const status = runs.find((r) => r.status !== 0)?.status ?? 0;
console.log(`${passed} passed, ${failed || (status ? 1 : 0)} failed`);
process.exit(status);

/**
 * The editor layer's share of lines the unit stream ran (scripts/editor-coverage.mjs), said in one
 * line, as a run of one check: failed, and named in the closing list, under EDITOR_COVERAGE_FLOOR.
 * No coverage files (every unit suite failed to start, say): said, and not held to the floor.
 */
function editorCoverageFloor(dir) {
  try {
    const figure = editorCoverage(dir);
    const pass = { status: 0, passed: 0, failed: 0, retries: [], failures: [], report: Buffer.alloc(0) };
    if (!figure) {
      console.log('\neditor coverage: the unit stream left no V8 coverage, so the floor was not checked');
      return pass;
    }
    const floor = `${(100 * EDITOR_COVERAGE_FLOOR).toFixed(1)} %`;
    console.log(`\n${describeEditorCoverage(figure)}; the floor is ${floor}`);
    if (figure.share >= EDITOR_COVERAGE_FLOOR) return { ...pass, passed: 1 };
    const why = [`error: 'the unit suites run ${(100 * figure.share).toFixed(1)} % of the editor layer (src/extension), under the floor of ${floor}: add unit tests of the editor layer (node scripts/editor-coverage.mjs --no-build --files lists each file)'`];
    return { ...pass, status: 1, failed: 1, failures: [{ path: ['editor coverage floor (scripts/editor-coverage.mjs)'], why }] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
