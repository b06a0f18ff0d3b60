// The test command: type-checks and compiles to out/, builds the bundle and the VSIX when the
// end-to-end suites run, then runs the suites with `node --test`: the fresh-clone suite first, on
// its own, then every other suite in one run (one summary).
//   node scripts/test.mjs            unit + integration + end-to-end
//   node scripts/test.mjs --unit     without the end-to-end suites (no VS Code needed)
//   node scripts/test.mjs --e2e      only the end-to-end suites
//   node scripts/test.mjs --unit --only=client/,support/   only the files whose path contains one of these
//   extra arguments after `--` go to node --test (for example --test-name-pattern)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
// The README's commands in a fresh clone (e2e/freshClone) run first, on their own (node --test
// orders the files it is given by name): with an empty MCP_HOST_CACHE, as .ci/run gives, it is
// `npm run demo` that installs code-server, and the later suites reuse it.
const isFirst = (f) => f.endsWith(join('e2e', 'freshClone.test.js'));
const files = all
  .filter((f) => (unitOnly ? !isE2e(f) : e2eOnly ? isE2e(f) : true))
  .filter((f) => !only || only.some((part) => f.slice(join('out', 'test').length + 1).includes(part)));
if (files.some(isE2e)) run(process.execPath, ['scripts/package.mjs']);

// A test without a timeout of its own that never ends fails after this long instead of holding CI
// until its limit (a test waiting on a promise that cannot settle once hung the whole run).
const TEST_TIMEOUT_MS = 10 * 60_000;
const runTests = (list) => (list.length ? spawnSync(process.execPath, ['--test', '--test-concurrency=1', `--test-timeout=${TEST_TIMEOUT_MS}`, ...passThrough, ...list], { stdio: 'inherit' }).status ?? 1 : 0);
const firstStatus = runTests(files.filter(isFirst));
const restStatus = runTests(files.filter((f) => !isFirst(f)));
if (firstStatus !== 0) console.error('\nthe fresh-clone suite (test/e2e/freshClone.test.ts) failed; its report is above the others');
process.exit(firstStatus || restStatus);
