// Recordings of a session: one JSON-RPC frame a line (JSON Lines), with direction, time and
// size, secrets redacted before anything is written. A recording replays the client's side
// against another build of the server (`mcp-host replay`) and opens in the timeline.
import type { Frame } from '../protocol/connection';
import { isRecord } from '../protocol/jsonShape';
import { JsonChange, jsonDiff } from '../schema/jsonDiff';

/** The first line of a recording. */
export interface RecordingHeader {
  readonly mcpHostRecording: 1;
  /** Epoch ms of the first frame's clock. */
  readonly startedAt: number;
  /** The server as the user knows it: a command line or URL (secrets redacted). */
  readonly server?: string;
  readonly protocolVersion?: string;
}

/** One frame of a recording. */
export interface RecordedFrame {
  /** ms since `startedAt`. */
  readonly t: number;
  /** `send`: from the client (the host) to the server. */
  readonly dir: 'send' | 'receive';
  readonly bytes: number;
  readonly message: unknown;
}

/**
 * Where a recording's lines go. A line is `head`, then `message` and `tail` when given: a frame's
 * own text is handed over as it arrived, not copied into one string with its fields first (in a
 * flood of frames that copy was most of what recording allocated).
 */
export type RecordingSink = (head: string, message?: string, tail?: string) => void;

/** A sink for whole lines, for a writer that takes one string a line (a file written by line, a list). */
export function wholeLines(write: (line: string) => void): RecordingSink {
  return (head, message, tail = '') => write(message === undefined ? head : head + message + tail);
}

/**
 * Turns frames into recording lines. `redact` removes secrets from each line's text (values of
 * inputs, headers, tokens); what it returns must still be JSON, which a text redactor that
 * replaces whole values keeps.
 */
export class RecordingWriter {
  private readonly startedAt: number;
  private headerWritten = false;

  constructor(
    private readonly write: RecordingSink,
    private readonly redact: (text: string) => string,
    private readonly header: Omit<RecordingHeader, 'mcpHostRecording' | 'startedAt'> = {},
    now = Date.now(),
  ) {
    this.startedAt = now;
  }

  /** Writes one frame (and the header before the first). */
  frame(frame: Frame): void {
    if (!this.headerWritten) {
      this.headerWritten = true;
      const header: RecordingHeader = { mcpHostRecording: 1, startedAt: this.startedAt, ...this.header };
      this.write(this.redact(JSON.stringify(header)));
    }
    const t = Math.max(0, frame.time - this.startedAt);
    // A frame's own text (one line of JSON) is written as it is, in the RecordedFrame's shape; only
    // the text is redacted, the fields before it are numbers and a direction.
    if (frame.text !== undefined) this.write(`{"t":${JSON.stringify(t)},"dir":${JSON.stringify(frame.direction)},"bytes":${JSON.stringify(frame.bytes)},"message":`, this.redact(frame.text), '}');
    else {
      const line: RecordedFrame = { t, dir: frame.direction, bytes: frame.bytes, message: frame.message };
      this.write(this.redact(JSON.stringify(line)));
    }
  }
}

/** A recording read back. */
export interface Recording {
  readonly header: RecordingHeader;
  readonly frames: readonly RecordedFrame[];
}

/** Reads a recording's text; throws an Error naming the line that is wrong. */
export function parseRecording(text: string, where: string): Recording {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new Error(`${where} is empty: not a recording`);
  const parse = (line: string, n: number): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`${where}:${n}: not JSON`);
    }
  };
  const header = parse(lines[0], 1);
  if (!isRecord(header) || header.mcpHostRecording !== 1) throw new Error(`${where} is not an MCP Host recording (its first line has no "mcpHostRecording": 1)`);
  const frames: RecordedFrame[] = [];
  lines.slice(1).forEach((line, i) => {
    const value = parse(line, i + 2);
    if (!isRecord(value) || (value.dir !== 'send' && value.dir !== 'receive') || typeof value.t !== 'number' || !('message' in value)) {
      throw new Error(`${where}:${i + 2}: not a recorded frame (expected {"t", "dir", "bytes", "message"})`);
    }
    frames.push({ t: value.t, dir: value.dir, bytes: typeof value.bytes === 'number' ? value.bytes : 0, message: value.message });
  });
  return { header: header as unknown as RecordingHeader, frames };
}

/** Methods of the lifecycle: the replaying client makes its own handshake. */
const HANDSHAKE = new Set(['initialize', 'notifications/initialized', 'server/discover']);

/** One step of a replay: a request the client sent, with the answer it got, or a notification. */
export type ReplayStep =
  | { readonly kind: 'request'; readonly method: string; readonly params: Record<string, unknown> | undefined; readonly expected: RecordedAnswer | undefined; readonly line: number }
  | { readonly kind: 'notification'; readonly method: string; readonly params: Record<string, unknown> | undefined };

/** What a request got: its result or its error (the JSON-RPC envelope without id). */
export type RecordedAnswer = { readonly result: unknown } | { readonly error: { readonly code: unknown; readonly message: unknown; readonly data?: unknown } };

/** A server-to-client request's recorded answer, to give again when the server asks the same. */
export interface RecordedReply {
  readonly method: string;
  readonly answer: RecordedAnswer;
}

/**
 * The client's side of a recording, in order: every request (but the handshake) with the answer
 * it got, every notification; and the answers the client gave to the server's own requests.
 */
export function replayPlan(recording: Recording): { readonly steps: ReplayStep[]; readonly replies: RecordedReply[] } {
  const answers = new Map<string, RecordedAnswer>();
  const serverRequests = new Map<string, string>();
  const replies: RecordedReply[] = [];
  for (const frame of recording.frames) {
    const m = frame.message;
    if (!isRecord(m)) continue;
    const id = m.id;
    if (id === undefined || id === null) continue;
    const key = JSON.stringify(id);
    if (frame.dir === 'receive' && typeof m.method === 'string') serverRequests.set(key, m.method);
    else if (frame.dir === 'receive' && ('result' in m || 'error' in m)) answers.set(key, answerOf(m));
    else if (frame.dir === 'send' && ('result' in m || 'error' in m)) {
      const method = serverRequests.get(key);
      if (method) replies.push({ method, answer: answerOf(m) });
    }
  }
  const steps: ReplayStep[] = [];
  recording.frames.forEach((frame, index) => {
    const m = frame.message;
    if (frame.dir !== 'send' || !isRecord(m) || typeof m.method !== 'string' || HANDSHAKE.has(m.method)) return;
    const params = isRecord(m.params) ? withoutProtocolMeta(m.params) : undefined;
    if (m.id === undefined || m.id === null) steps.push({ kind: 'notification', method: m.method, params });
    else steps.push({ kind: 'request', method: m.method, params, expected: answers.get(JSON.stringify(m.id)), line: index + 2 });
  });
  return { steps, replies };
}

/** What names an item of a list answer (tools and prompts by name, resources by URI, templates by theirs): items are matched on it. */
const LIST_ITEM_KEYS = ['uri', 'uriTemplate', 'name', 'taskId'];

/** Pointers every comparison leaves out: where the protocol itself puts per-session values. */
export const ALWAYS_IGNORED = ['/result/_meta', '/error/data/_meta'];

/**
 * The differences between a recorded answer and a new one. Items of lists are matched by name or
 * URI, not position. Ids are not compared (the replay sends under its own), nor the pointers given, nor two date-time strings (timestamps differ
 * from run to run by nature).
 */
export function compareAnswers(expected: RecordedAnswer, actual: RecordedAnswer, ignore: readonly string[] = []): JsonChange[] {
  return jsonDiff(expected, actual, { ignore: [...ALWAYS_IGNORED, ...ignore], matchItemsBy: LIST_ITEM_KEYS }).filter((c) => !(c.kind === 'changed' && isTimestamp(c.before) && isTimestamp(c.after)));
}

function answerOf(m: Record<string, unknown>): RecordedAnswer {
  if ('error' in m && isRecord(m.error)) return { error: { code: m.error.code, message: m.error.message, ...('data' in m.error ? { data: m.error.data } : {}) } };
  return { result: m.result };
}

/** Modern requests carry the protocol's fields in `_meta`; the replaying client adds its own. */
function withoutProtocolMeta(params: Record<string, unknown>): Record<string, unknown> | undefined {
  const { _meta, ...rest } = params;
  if (!isRecord(_meta)) return params;
  const kept = Object.fromEntries(Object.entries(_meta).filter(([key]) => !key.startsWith('io.modelcontextprotocol/') && key !== 'progressToken'));
  return Object.keys(kept).length ? { ...rest, _meta: kept } : rest;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function isTimestamp(value: unknown): boolean {
  return typeof value === 'string' && DATE_TIME.test(value);
}

/**
 * The task ids of a replay: a server gives a task a new id each run, so the recorded id in a later
 * `tasks/get` or `tasks/result` would name no task. Ids are learnt from each answer (the recorded
 * `taskId`s and the new ones, in document order), put in place of the recorded ones in the
 * requests that follow, and put back in the new answers before they are compared.
 */
export class TaskIdMap {
  private readonly fresh = new Map<string, string>();
  private readonly recorded = new Map<string, string>();

  /** Pairs the task ids of a recorded answer with those of the new one. */
  learn(expected: RecordedAnswer | undefined, actual: RecordedAnswer): void {
    if (!expected) return;
    const before = taskIds(expected);
    const after = taskIds(actual);
    before.forEach((id, i) => {
      if (after[i] === undefined || after[i] === id) return;
      this.fresh.set(id, after[i]);
      this.recorded.set(after[i], id);
    });
  }

  /** A request's params with the recorded task ids replaced by the server's new ones. */
  params<T>(params: T): T {
    return this.fresh.size ? (replaceTaskIds(params, this.fresh) as T) : params;
  }

  /** A new answer with the server's new task ids written back as recorded, for the comparison. */
  asRecorded(answer: RecordedAnswer): RecordedAnswer {
    return this.recorded.size ? (replaceTaskIds(answer, this.recorded) as RecordedAnswer) : answer;
  }
}

function taskIds(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 16) return out;
  if (Array.isArray(value)) value.forEach((v) => taskIds(v, out, depth + 1));
  else if (isRecord(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'taskId' && typeof v === 'string') out.push(v);
      else taskIds(v, out, depth + 1);
    }
  }
  return out;
}

function replaceTaskIds(value: unknown, ids: ReadonlyMap<string, string>, depth = 0): unknown {
  if (depth > 16) return value;
  if (Array.isArray(value)) return value.map((v) => replaceTaskIds(v, ids, depth + 1));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, key === 'taskId' && typeof v === 'string' ? (ids.get(v) ?? v) : replaceTaskIds(v, ids, depth + 1)]));
}
