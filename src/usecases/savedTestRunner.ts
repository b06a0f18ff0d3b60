// Running a saved test: the tool call through the one tool-call use case, a read or a prompt, then
// the checks of savedTests.ts; and a test made from a call in the history. Apart from the file's
// format so the editor loads the use case only when a test runs, not at activation.
import type { McpClient } from '../client/client';
import type { Tool } from '../client/schemas';
import type { LogSeverity } from '../protocol/logging';
import { isRecord } from '../protocol/jsonShape';
import { truncate } from '../protocol/text';
import { callTool } from './callTool';
import type { HistoryEntry, NewHistoryEntry } from './history';
import { SavedTest, SavedTestResult, answerText, checkExpectations, testResult } from './savedTests';

/** What running a test needs from its caller. */
export interface SavedTestPorts {
  /** The server's client (started when needed); throws when the server cannot run. */
  client(): Promise<McpClient>;
  /** Who runs it, for the log and the history ("the Testing view", "mcp-host test"). */
  readonly origin: string;
  readonly signal?: AbortSignal;
  /** Keeps tool calls in the call history, as a hand call is kept. */
  record?(entry: NewHistoryEntry): void;
  log?(level: LogSeverity, text: string): void;
  /** Asks before a call of a tool that may change things, as a hand call asks (see toolPolicy); false: not run. Absent: never asks. */
  confirm?(tool: Tool): Promise<boolean>;
}

/**
 * Runs one test: the tool call through the one tool-call use case (history, log and confirmation
 * as for a hand call), a read or a prompt;
 * then checks what came back.
 */
export async function runSavedTest(test: SavedTest, ports: SavedTestPorts): Promise<SavedTestResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const client = await ports.client();
    const action = test.action;
    if (action.kind === 'tool') {
      // Listed for the outputSchema and so the arguments are checked as in the tool panel.
      const tool = client.serverCapabilities?.tools ? (await client.listTools(ports.signal ? { signal: ports.signal } : {})).find((t) => t.name === action.tool) : undefined;
      if (!tool) throw new Error(`the server does not list the tool ${action.tool}`);
      const callStarted = performance.now();
      const outcome = await callTool(
        { serverId: test.server, tool, arguments: { mode: 'value', value: action.arguments }, origin: ports.origin, ...(ports.signal ? { signal: ports.signal } : {}) },
        { client: () => client, ...(ports.record ? { record: ports.record } : {}), ...(ports.log ? { log: ports.log } : {}), ...(ports.confirm ? { confirm: (t: Tool) => ports.confirm!(t) } : {}) },
      );
      if (outcome.kind === 'invalid') throw new Error(`the arguments do not fit the tool's inputSchema: ${outcome.errors.map((e) => `${e.path || '(root)'} ${e.message}`).join('; ')}`);
      if (outcome.kind !== 'answered') throw outcome.kind === 'declined' ? new Error('the call was not confirmed') : outcome.error;
      const ms = outcome.durationMs ?? performance.now() - callStarted;
      return testResult(test, checkExpectations(test, outcome.result, ms, tool), ms);
    }
    const requestStarted = performance.now();
    const answer = action.kind === 'read' ? await client.readResource(action.uri, ports.signal ? { signal: ports.signal } : {}) : await client.getPrompt(action.prompt, action.arguments, ports.signal ? { signal: ports.signal } : {});
    const ms = performance.now() - requestStarted;
    return testResult(test, checkExpectations(test, answer, ms), ms);
  } catch (error) {
    return testResult(test, [], elapsed(), error);
  }
}

/**
 * A test made from a call in the history: the same call, expecting what it got then (no error,
 * or the error; the start of its text; its structured content against the outputSchema).
 */
export function testFromHistory(entry: HistoryEntry, serverName: string, hasOutputSchema: boolean): Record<string, unknown> {
  const result = isRecord(entry.result) ? entry.result : undefined;
  const text = result ? answerText(result) : '';
  const firstLine = text.split('\n').find((line) => line.trim() !== '')?.trim();
  const expect: Record<string, unknown> = {};
  if (entry.kind === 'tool') expect.isError = result?.isError === true;
  if (firstLine) expect.textContains = truncate(firstLine, 80).replace(/…$/, '');
  if (entry.kind === 'tool' && hasOutputSchema && result && 'structuredContent' in result) expect.outputSchema = true;
  const action = entry.kind === 'tool' ? { tool: entry.name, arguments: entry.arguments ?? {} } : entry.kind === 'prompt' ? { prompt: entry.name, arguments: entry.arguments ?? {} } : { read: entry.name };
  return { name: `${entry.name} (${new Date(entry.time).toISOString().slice(0, 19).replace('T', ' ')})`, server: serverName, ...action, expect };
}

