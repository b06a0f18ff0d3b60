// What `mcp-host test FILE` checks and prints beyond running the tests: the user's yes before a
// test file's own servers start and before its calls of tools that may change things run, and
// the results as JSON with --json.
import type { McpClient } from '../../client/client';
import type { RequestOptions } from '../../protocol/connection';
import { SavedTest, SavedTestResult } from '../../usecases/savedTests';
import { recordedServerLabel } from '../../usecases/recordingFile';
import { callsNeedingApproval } from '../../usecases/runApproval';
import type { CliTarget } from '../configServers';
import { testSummary } from '../savedTests';
import { RunApproval, approveRun, describeRun } from './approval';

/** The tool calls of `tests`, as the approval lists them. */
function toolCalls(tests: readonly SavedTest[]): { tool: string; arguments: Record<string, unknown>; from: string }[] {
  return tests.flatMap((t) => (t.action.kind === 'tool' ? [{ tool: t.action.tool, arguments: t.action.arguments, from: `test ${JSON.stringify(t.name)}` }] : []));
}

/**
 * Before the servers a test file brings itself start: shows them and every tool call of the file
 * (what a tool does is only known once its server runs) and gets the user's yes.
 */
export async function approveOwnServers(targets: readonly CliTarget[], tests: readonly SavedTest[], approval: RunApproval, stderr: (text: string) => void): Promise<void> {
  const servers = targets.map((t) => `${t.name ?? 'server'}: ${recordedServerLabel(t.resolved)}`);
  const calls = toolCalls(tests).map((c) => ({ ...c, reason: 'what it does is known only once its server runs' }));
  await approveRun('this test file', describeRun({ servers, calls }), approval, stderr);
}

/** Once a server runs: gets the user's yes for its tests' calls of tools that may change things (as a hand call of each would ask). */
export async function approveServerTests(client: McpClient, tests: readonly SavedTest[], approval: RunApproval, stderr: (text: string) => void, req: RequestOptions): Promise<void> {
  const calls = toolCalls(tests);
  if (calls.length === 0) return;
  const tools = client.serverCapabilities?.tools ? await client.listTools(req) : undefined;
  await approveRun('this test file', describeRun({ calls: callsNeedingApproval(calls, tools) }), approval, stderr);
}

/** `--json`: every result (with each failed assertion's expected and actual values) and the counts. */
export function testResultsJson(results: readonly SavedTestResult[]): string {
  const count = (outcome: SavedTestResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  return JSON.stringify({ results, summary: { tests: results.length, passed: count('passed'), failed: count('failed'), errors: count('error'), text: testSummary(results) } }, null, 2);
}
