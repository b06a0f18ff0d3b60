// The official MCP conformance suite, client mode, as part of `npm test`: scripts/conformance.mjs
// runs every client scenario once against dist/conformance-client.js (the product's core) and judges
// the result against test/conformance/expected-failures.yml, the required scenarios and both
// protocol revisions' frozen lists. Needs the driver (esbuild.mjs --drivers, which
// scripts/test.mjs runs first) and a Node 22+ for the suite (the Node 24 of the e2e tests).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface ScenarioSummary {
  readonly ok: boolean;
  readonly passed: number;
  readonly failed: number;
  readonly warnings: number;
}

interface RevisionList {
  readonly scored: string[];
  readonly unscored: string[];
}

interface ConformanceScript {
  readonly REVISIONS: readonly string[];
  runConformance(options?: { requirements?: string }): Promise<{ code: number; stdout: string; scenarios: Map<string, ScenarioSummary>; logFile: string }>;
  requiredProblems(scenarios: Map<string, ScenarioSummary>, ranAll?: boolean): string[];
  parseRequirementsList(text: string, revision?: string): RevisionList;
  revisionClientScenarios(revision: string): RevisionList;
  judgeRevision(scenarios: Map<string, ScenarioSummary>, list: RevisionList): { problems: string[]; passing: number; scored: number; passedChecks: number; failedChecks: number };
  SKILLS_HOST_CHECKS: Record<string, string>;
  scenarioChecks(scenario: string): Array<{ id: string; status: string }>;
}

/** `<repo>/scripts/conformance.mjs`, from `<repo>/out/test/conformance/`. */
const SCRIPT = path.resolve(__dirname, '../../../scripts/conformance.mjs');

// One run of every client scenario, judged against the baseline, the required scenarios and both
// revisions' frozen lists (a run per revision repeated most of it: 3 suite runs became 1).
test('the official conformance suite, run once: the required client scenarios pass, the rest are as the baseline expects, and both revisions\' lists are covered', { timeout: 300_000 }, async (t) => {
  const script = (await import(pathToFileURL(SCRIPT).href)) as ConformanceScript;
  const { code, stdout, scenarios, logFile } = await script.runConformance();
  // The suite's own summary in the test report: a line per scenario, its total and the baseline
  // verdict (not the list of expected failures, which repeats the ✗ lines).
  const lines = stdout.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const from = lines.findIndex((line) => line.includes('=== SUITE SUMMARY ==='));
  const total = lines.findIndex((line) => line.startsWith('Total:'));
  for (const line of [...lines.slice(Math.max(0, from), total + 1), ...lines.filter((line) => /^Baseline|^Unexpected|^Stale|^\s+✗|^\s+✓/.test(line))]) {
    if (line.trim()) t.diagnostic(line);
  }
  assert.deepEqual(script.requiredProblems(scenarios), [], `required scenarios failed (details: ${logFile})`);
  // Skills: the host check of each scenario judged the host (SUCCESS), not SKIPPED for never listing skills.
  for (const [scenario, check] of Object.entries(script.SKILLS_HOST_CHECKS)) {
    assert.deepEqual(script.scenarioChecks(scenario), [{ id: check, status: 'SUCCESS' }], `${scenario}: its host check ${check}`);
  }
  assert.equal(code, 0, `the suite found failures outside the baseline, or baseline entries that now pass (details: ${logFile})`);
  // The suite's frozen lists per protocol revision: the legacy era's newest and the modern era.
  for (const revision of script.REVISIONS) {
    const verdict = script.judgeRevision(scenarios, script.revisionClientScenarios(revision));
    t.diagnostic(`requirements ${revision}: ${verdict.passing} of ${verdict.scored} scored scenarios pass (${verdict.passedChecks} checks passed, ${verdict.failedChecks} failed)`);
    assert.deepEqual(verdict.problems, [], `the run does not cover what protocol ${revision} requires`);
  }
});

test('a revision\'s list is read from the suite\'s `list --requirements` text, and a listed scenario the run lacks is named', async () => {
  const script = (await import(pathToFileURL(SCRIPT).href)) as ConformanceScript;
  const text = [
    'Required for 2099-01-01 (4 scenarios, frozen; run at the 2099-01-01 wire):',
    '',
    'Server scenarios (test against a server):',
    '  - server-initialize',
    '',
    'Client scenarios (test against a client):',
    '  - initialize',
    '  - tools_call',
    '',
    'Run and reported, but never scored:',
    '  extension (2):',
    '    - auth/dpop [client]',
    '    - tasks-lifecycle [server]',
  ].join('\n');
  const list = script.parseRequirementsList(text);
  assert.deepEqual(list, { scored: ['initialize', 'tools_call'], unscored: ['auth/dpop'] });
  const ran = new Map<string, ScenarioSummary>([
    ['initialize', { ok: true, passed: 3, failed: 0, warnings: 0 }],
    ['auth/dpop', { ok: false, passed: 1, failed: 2, warnings: 0 }],
  ]);
  const verdict = script.judgeRevision(ran, list);
  assert.deepEqual(verdict.problems, ["tools_call: on the list but not in the run's summary"]);
  assert.deepEqual({ passing: verdict.passing, scored: verdict.scored, passedChecks: verdict.passedChecks, failedChecks: verdict.failedChecks }, { passing: 1, scored: 2, passedChecks: 3, failedChecks: 0 });
  assert.throws(() => script.parseRequirementsList('Server scenarios (test against a server):\n  - ping\n'), /no "Client scenarios" section/);
});
