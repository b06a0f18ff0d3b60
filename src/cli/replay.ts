// `mcp-host replay FILE`: sends the client's side of a recording to a server again and compares
// each answer with the recorded one; `--record FILE` writes recordings on any command.
import { closeSync, writeSync } from 'node:fs';
import type { McpClient } from '../client/client';
import type { RequestHandler } from '../protocol/connection';
import { ResponseError, errorMessage } from '../protocol/errors';
import * as z from '../protocol/zod';
import { JsonChange, describeJsonChange } from '../schema/jsonDiff';
import { RecordedAnswer, RecordedReply, Recording, RecordingWriter, ReplayStep, TaskIdMap, compareAnswers, parseRecording, replayPlan, wholeLines } from '../usecases/recording';
import { UsageError } from './arguments';
import { readInputFile } from './inputFiles';
import { createRecordingFile, recordedServerLabel } from '../usecases/recordingFile';
import type { DisposableStore } from '../protocol/disposable';
import type { Redactor } from '../protocol/redaction';
import type { ResolvedServer } from '../config/variables';

/** Reads a recording file; a missing or malformed one is a usage error that names it. */
export function readRecording(path: string): Recording {
  return readInputFile(path, (text) => parseRecording(text, path));
}

/** Creates FILE for a recording (new, mode 0600, never through a link: frames hold the session's data). */
export function openRecordingFile(path: string): { readonly write: (line: string) => void; readonly close: () => void } {
  let fd: number;
  try {
    fd = createRecordingFile(path);
  } catch (error) {
    throw new UsageError(`--record: cannot write ${path}: ${errorMessage(error)}`);
  }
  return {
    write: (line) => void writeSync(fd, line + '\n'),
    close: () => closeSync(fd),
  };
}

/** `--record FILE`: the file created (closed with `store`) and the writer of its frames, redacted. */
export function openRecorder(path: string, resolved: ResolvedServer, redactor: Redactor, store: DisposableStore): RecordingWriter {
  const file = openRecordingFile(path);
  store.add({ dispose: () => file.close() });
  return new RecordingWriter(wholeLines(file.write), (text) => redactor.redact(text), { server: recordedServerLabel(resolved) });
}

/** The answers of a recording's client, ready to give a server: handlers by method and the capabilities they need. */
export interface RecordedReplies {
  readonly handlers: Map<string, RequestHandler>;
  readonly capabilities: Record<string, unknown>;
}

/** A recording read for a replay: its requests in order, and the client's answers to the server's requests. */
export interface LoadedReplay {
  readonly steps: ReplayStep[];
  readonly replies: RecordedReplies;
  /** The server the recording names (its header), masked as recordings write it. */
  readonly server?: string;
}

/** Reads a recording file for `mcp-host replay` (a usage error that names it when it cannot). */
export function loadReplay(path: string): LoadedReplay {
  const recording = readRecording(path);
  const plan = replayPlan(recording);
  const server = recording.header.server;
  return { steps: plan.steps, replies: recordedReplies(plan.replies), ...(typeof server === 'string' ? { server } : {}) };
}

/**
 * Handlers that give the server the answers the client gave in the recording, method by method in
 * order (the last one again when the server asks more often), and the capabilities they need.
 */
export function recordedReplies(replies: readonly RecordedReply[]): RecordedReplies {
  const byMethod = new Map<string, RecordedAnswer[]>();
  for (const reply of replies) byMethod.set(reply.method, [...(byMethod.get(reply.method) ?? []), reply.answer]);
  const handlers = new Map<string, RequestHandler>();
  for (const [method, answers] of byMethod) {
    let next = 0;
    handlers.set(method, () => {
      const answer = answers[Math.min(next++, answers.length - 1)];
      if ('error' in answer) throw new ResponseError(method, Number(answer.error.code), String(answer.error.message), answer.error.data);
      return answer.result;
    });
  }
  const capabilities: Record<string, unknown> = {};
  if (byMethod.has('sampling/createMessage')) capabilities.sampling = {};
  if (byMethod.has('elicitation/create')) capabilities.elicitation = { form: {}, url: {} };
  return { handlers, capabilities };
}

/** One replayed request and how its answer differs from the recorded one. */
export interface ReplayedRequest {
  readonly method: string;
  /** The line of the request in the recording. */
  readonly line: number;
  /** `unrecorded`: the recording has no answer to compare with (the call was cancelled or cut). */
  readonly outcome: 'same' | 'different' | 'unrecorded';
  readonly changes: readonly JsonChange[];
}

const ANY = z.unknown();

/** Sends each request of the plan in order and compares the answers. Notifications of the client are not sent again (they answer moments of the recorded session). */
export async function replaySteps(client: McpClient, steps: readonly ReplayStep[], ignore: readonly string[], signal?: AbortSignal): Promise<ReplayedRequest[]> {
  const out: ReplayedRequest[] = [];
  const taskIds = new TaskIdMap();
  for (const step of steps) {
    if (step.kind !== 'request') continue;
    let actual: RecordedAnswer;
    try {
      actual = { result: await client.request(step.method, taskIds.params(step.params), ANY, signal ? { signal } : {}) };
    } catch (error) {
      if (!(error instanceof ResponseError)) throw error;
      actual = { error: { code: error.code, message: error.wireMessage, ...(error.data !== undefined ? { data: error.data } : {}) } };
    }
    taskIds.learn(step.expected, actual);
    actual = taskIds.asRecorded(actual);
    if (!step.expected) {
      out.push({ method: step.method, line: step.line, outcome: 'unrecorded', changes: [] });
      continue;
    }
    const changes = compareAnswers(step.expected, actual, ignore);
    out.push({ method: step.method, line: step.line, outcome: changes.length ? 'different' : 'same', changes });
  }
  return out;
}

/** The report: one line a difference (as `diff` prints them), then a summary; or `{"requests":[…]}` with --json. */
export function renderReplay(replayed: readonly ReplayedRequest[], json: boolean): string {
  if (json) return JSON.stringify({ requests: replayed }, null, 2);
  const lines: string[] = [];
  for (const r of replayed) {
    if (r.outcome === 'unrecorded') lines.push(`${r.method} (line ${r.line}): no recorded answer to compare with`);
    for (const change of r.changes) lines.push(`${r.method} (line ${r.line}): ${describeJsonChange(change)}`);
  }
  const different = replayed.filter((r) => r.outcome === 'different').length;
  lines.push(`${replayed.length} request${replayed.length === 1 ? '' : 's'} replayed, ${different} with different answers`);
  return lines.join('\n');
}
