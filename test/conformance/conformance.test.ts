// The official MCP conformance suite, client mode, as part of `npm test`: scripts/conformance.mjs
// runs every client scenario against dist/conformance-client.js (the product's core) and judges
// the result against test/conformance/expected-failures.yml. Needs the driver (esbuild.mjs --drivers, which
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

interface ConformanceScript {
  runConformance(options?: { requirements?: string }): Promise<{ code: number; stdout: string; scenarios: Map<string, ScenarioSummary>; logFile: string }>;
  requiredProblems(scenarios: Map<string, ScenarioSummary>, ranAll?: boolean): string[];
  SKILLS_HOST_CHECKS: Record<string, string>;
  scenarioChecks(scenario: string): Array<{ id: string; status: string }>;
}

/** `<repo>/scripts/conformance.mjs`, from `<repo>/out/test/conformance/`. */
const SCRIPT = path.resolve(__dirname, '../../../scripts/conformance.mjs');

test('the official conformance suite: the required client scenarios pass, the rest are as the baseline expects', { timeout: 300_000 }, async (t) => {
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
});

// The suite's frozen lists per protocol revision: the legacy era's newest and the modern era.
for (const requirements of ['2025-11-25', '2026-07-28']) {
  test(`the official conformance suite: the scenarios protocol ${requirements} requires pass, or are in the baseline`, { timeout: 300_000 }, async (t) => {
    const script = (await import(pathToFileURL(SCRIPT).href)) as ConformanceScript;
    const { code, stdout, scenarios, logFile } = await script.runConformance({ requirements });
    for (const line of stdout.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) if (/^Total:|^Baseline|^Unexpected|^Stale/.test(line)) t.diagnostic(line);
    assert.deepEqual(script.requiredProblems(scenarios, false), [], `required scenarios failed (details: ${logFile})`);
    assert.equal(code, 0, `the suite found failures outside the baseline, or baseline entries that now pass (details: ${logFile})`);
  });
}
