// Running a saved test: the tool call through the one tool-call use case, a read or a prompt, then
// the checks of savedTests.ts; and a test made from a call in the history. Apart from the file's
// format so the editor loads the use case only when a test runs, not at activation.
import type { McpClient } from '../client/client';
import type { Tool } from '../client/schemas';
import type { LogSeverity } from '../protocol/logging';
import { isRecord } from '../protocol/jsonShape';
import { truncate } from '../protocol/text';
import { Redact, redactKnownShapes } from '../protocol/redaction';
import { errorMessage } from '../protocol/errors';
import { callTool } from './callTool';
import { summarizeFailure } from './resultModel';
import type { HistoryEntry, NewHistoryEntry } from './history';
import { SavedTest, SavedTestResult, answerText, checkExpectations, jsonTypeOf, testResult } from './savedTests';

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
  /** Removes secrets from an error text before the result keeps it (the logs' redaction). Absent: URL credentials and Authorization headers only. */
  redact?(text: string): string;
}

/**
 * Runs one test: the tool call through the one tool-call use case (history, log and confirmation
 * as for a hand call), a read or a prompt;
 * then checks what came back.
 */
export async function runSavedTest(test: SavedTest, ports: SavedTestPorts): Promise<SavedTestResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const redact: Redact = ports.redact ? (text) => ports.redact!(redactKnownShapes(text)) : redactKnownShapes;
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
        { client: () => client, ...(ports.record ? { record: ports.record } : {}), ...(ports.log ? { log: ports.log } : {}), ...(ports.confirm ? { confirm: (t: Tool) => ports.confirm!(t) } : {}), redact },
      );
      if (outcome.kind === 'invalid') throw new Error(`the arguments do not fit the tool's inputSchema: ${outcome.errors.map((e) => `${e.path || '(root)'} ${e.message}`).join('; ')}`);
      if (outcome.kind === 'declined') throw new Error('the call was not confirmed');
      // The failure as callTool redacted it, not the raw error (a URL with a key, a token on stderr).
      if (outcome.kind !== 'answered') throw new Error(summarizeFailure(outcome.failure));
      const ms = outcome.durationMs ?? performance.now() - callStarted;
      return testResult(test, checkExpectations(test, outcome.result, ms, tool), ms);
    }
    const requestStarted = performance.now();
    const answer = action.kind === 'read' ? await client.readResource(action.uri, ports.signal ? { signal: ports.signal } : {}) : await client.getPrompt(action.prompt, action.arguments, ports.signal ? { signal: ports.signal } : {});
    const ms = performance.now() - requestStarted;
    return testResult(test, checkExpectations(test, answer, ms), ms);
  } catch (error) {
    return testResult(test, [], elapsed(), new Error(redact(errorMessage(error))));
  }
}

/** A kind of assertion a test made from a call may hold, and whether it survives an answer that changes. */
export interface AssertionKind {
  readonly kind: 'isError' | 'outputSchema' | 'types' | 'pattern' | 'text';
  readonly label: string;
  /** Picked by default: it holds when only the answer's values change from run to run. */
  readonly survives: boolean;
}

/** The kinds of assertion a call from the history offers (what its answer has), the ones that survive changing values first. */
export function assertionKinds(entry: HistoryEntry, hasOutputSchema: boolean): AssertionKind[] {
  const result = isRecord(entry.result) ? entry.result : undefined;
  const kinds: AssertionKind[] = [];
  if (entry.kind === 'tool') kinds.push({ kind: 'isError', label: `It ${result?.isError === true ? 'reports an error' : 'does not report an error'} (isError)`, survives: true });
  const structured = result && isRecord(result.structuredContent) ? result.structuredContent : undefined;
  if (entry.kind === 'tool' && hasOutputSchema && structured) kinds.push({ kind: 'outputSchema', label: 'Its structured content matches the outputSchema', survives: true });
  if (structured && Object.keys(structured).length) kinds.push({ kind: 'types', label: 'The fields of its structured content keep their types (JSON pointer and type)', survives: true });
  const text = result ? firstTextLine(result) : undefined;
  if (text) {
    kinds.push({ kind: 'pattern', label: `Its text keeps its shape, numbers may change (pattern ${textPattern(text)})`, survives: true });
    kinds.push({ kind: 'text', label: `Its text contains exactly "${truncate(text, 60)}" (fails when the answer changes)`, survives: false });
  }
  return kinds;
}

/**
 * A test made from a call in the history: the same call, with the assertions of the kinds picked
 * (by default those that survive an answer whose values change, see assertionKinds).
 */
export function testFromHistory(entry: HistoryEntry, serverName: string, hasOutputSchema: boolean, picked: readonly AssertionKind['kind'][] = assertionKinds(entry, hasOutputSchema).filter((k) => k.survives).map((k) => k.kind)): Record<string, unknown> {
  const result = isRecord(entry.result) ? entry.result : undefined;
  const expect: Record<string, unknown> = {};
  const json: Record<string, unknown>[] = [];
  const text = result ? firstTextLine(result) : undefined;
  const structured = result && isRecord(result.structuredContent) ? result.structuredContent : undefined;
  for (const kind of picked) {
    if (kind === 'isError' && entry.kind === 'tool') expect.isError = result?.isError === true;
    if (kind === 'outputSchema' && entry.kind === 'tool' && hasOutputSchema && structured) expect.outputSchema = true;
    if (kind === 'types' && structured) for (const [key, value] of Object.entries(structured).slice(0, 20)) json.push({ pointer: `/structuredContent/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, type: jsonTypeOf(value) === 'integer' ? 'number' : jsonTypeOf(value) });
    if (kind === 'pattern' && text) json.push({ pointer: textPointer(result!), pattern: textPattern(text) });
    if (kind === 'text' && text) expect.textContains = truncate(text, 80).replace(/…$/, '');
  }
  if (json.length) expect.json = json;
  const action = entry.kind === 'tool' ? { tool: entry.name, arguments: entry.arguments ?? {} } : entry.kind === 'prompt' ? { prompt: entry.name, arguments: entry.arguments ?? {} } : { read: entry.name };
  return { name: `${entry.name} (${new Date(entry.time).toISOString().slice(0, 19).replace('T', ' ')})`, server: serverName, ...action, expect };
}

function firstTextLine(result: Record<string, unknown>): string | undefined {
  return answerText(result).split('\n').find((line) => line.trim() !== '')?.trim();
}

/** Where the first text is: the first text block of a result, of a read's contents, or of a prompt's messages. */
function textPointer(result: Record<string, unknown>): string {
  for (const [list, inner] of [['content', ''], ['contents', ''], ['messages', '/content']] as const) {
    const items = result[list];
    if (!Array.isArray(items)) continue;
    const index = items.findIndex((item) => isRecord(item) && (typeof item.text === 'string' || (isRecord(item.content) && typeof item.content.text === 'string')));
    if (index >= 0) return `/${list}/${index}${inner}/text`;
  }
  return '/content/0/text';
}

/** The first line of a text as a pattern: its words as they are, each run of digits any number (`^Added note \d+`). */
function textPattern(line: string): string {
  const shown = truncate(line, 80).replace(/…$/, '');
  return `^${shown.split(/\d+/).map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('\\d+')}`;
}
