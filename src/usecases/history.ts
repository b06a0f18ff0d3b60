// Per-server call history: the last N calls (tools, prompts, resource reads) with their
// arguments, a one-line result summary, how long they took, how they ended and a capped copy of
// the result (so an old result can be shown again). Plain JSON, so the VS Code layer keeps it in
// workspaceState; what it restores is validated, never trusted.
import * as z from '../protocol/zod';
import { Emitter, Event } from '../protocol/events';
import type { CallFailure } from './resultModel';
import { foldJson } from '../protocol/jsonShape';
import { TASK_STATUSES, type TaskStatus } from '../client/schemas';

export type HistoryKind = 'tool' | 'prompt' | 'resource';

/** How a call ended: `tool-error` is a result with `isError`, `error` a protocol or local failure. */
export type HistoryOutcome = 'ok' | 'tool-error' | 'error' | 'cancelled' | 'timeout';

export interface HistoryEntry {
  readonly id: string;
  readonly serverId: string;
  readonly kind: HistoryKind;
  /** Tool or prompt name, or the resource URI. */
  readonly name: string;
  /** What was sent; absent when it was too large to keep (then the entry cannot be re-run). */
  readonly arguments?: Record<string, unknown>;
  readonly argumentsOmitted?: boolean;
  readonly outcome: HistoryOutcome;
  /** One line, e.g. the start of the first text part or the error message. */
  readonly summary: string;
  readonly durationMs: number;
  /** Epoch milliseconds when the call started. */
  readonly time: number;
  /** The result as the server sent it, or a copy cut to fit (`resultCut`); absent when not kept. */
  readonly result?: unknown;
  /** Long strings in `result` were shortened and binary payloads dropped to fit the cap. */
  readonly resultCut?: boolean;
  /** There was a result, but it was not kept (too large, or dropped for the server's budget). */
  readonly resultOmitted?: boolean;
  /** How a call that did not return a result failed. */
  readonly failure?: CallFailure;
  /** The call ran as a task: its id, and the status it ended in. */
  readonly task?: { readonly id: string; readonly status: TaskStatus };
  /** Who made the call: "the tool panel", "chat (@mcp)", "Server Time (from app)". */
  readonly origin?: string;
}

export type NewHistoryEntry = Omit<HistoryEntry, 'id' | 'argumentsOmitted' | 'resultCut' | 'resultOmitted'>;

export interface HistoryOptions {
  /** Entries kept per server (default 50). */
  readonly limit?: number;
  /** Arguments larger than this (as JSON) are not kept (default 64 KiB). */
  readonly maxArgumentChars?: number;
  /** Longest summary kept (default 300). */
  readonly maxSummaryChars?: number;
  /** Largest result kept per entry, as JSON characters (default 256 KiB); larger ones are cut. */
  readonly maxResultChars?: number;
  /** All kept results of one server together (default 2 MiB): the oldest results go first. */
  readonly maxResultCharsPerServer?: number;
}

// Built on first use (z.lazy): building zod schemas is most of what loading the extension runs,
// and activation needs these only when the workspace has a stored history to restore.
const FailureSchema = z.lazy(() => z.union([
  z.object({ kind: z.literal('protocol'), code: z.number(), message: z.string(), data: z.optional(z.unknown()) }),
  z.object({ kind: z.literal('local'), reason: z.string(), message: z.string() }),
  z.object({ kind: z.literal('other'), message: z.string() }),
]));

const EntrySchema = z.lazy(() => z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  serverId: z.string().check(z.minLength(1)),
  kind: z.enum(['tool', 'prompt', 'resource']),
  name: z.string(),
  arguments: z.optional(z.record(z.string(), z.unknown())),
  argumentsOmitted: z.optional(z.boolean()),
  outcome: z.enum(['ok', 'tool-error', 'error', 'cancelled', 'timeout']),
  summary: z.string(),
  durationMs: z.number().check(z.gte(0)),
  time: z.number(),
  result: z.optional(z.unknown()),
  resultCut: z.optional(z.boolean()),
  resultOmitted: z.optional(z.boolean()),
  failure: z.optional(FailureSchema),
  task: z.optional(z.object({ id: z.string().check(z.minLength(1), z.maxLength(500)), status: z.enum(TASK_STATUSES) })),
  origin: z.optional(z.string().check(z.maxLength(500))),
}));

/** The serialised form: a version and every server's entries, newest first. */
export interface SerializedHistory {
  readonly version: 1;
  readonly servers: Record<string, HistoryEntry[]>;
}

let counter = 0;

/** Keys whose string values are base64 payloads: cutting them leaves garbage, so they are emptied. */
const BINARY_KEYS = new Set(['data', 'blob']);

/**
 * A JSON copy of `value` of at most `maxChars` characters: as it is when it fits, else folded —
 * long strings keep their start (the allowance per string halving until the copy fits), binary
 * payloads are emptied, and once `maxChars` is spent the rest of each array or object is one
 * marker. Only the kept part is visited, so a 50 MiB result costs what its first `maxChars`
 * cost. Undefined when nothing fits (or it is not JSON).
 */
export function capJson(value: unknown, maxChars: number): { value: unknown; chars: number; cut: boolean } | undefined {
  for (let perString = maxChars; perString >= 16; perString = perString === maxChars ? Math.floor(maxChars / 2) : Math.floor(perString / 2)) {
    let text: string | undefined;
    let cut: boolean;
    try {
      const folded = foldJson(value, { maxChars, maxStringChars: perString, maxItems: Number.MAX_SAFE_INTEGER, maxDepth: 256, emptyKeys: BINARY_KEYS });
      cut = folded.folded || folded.cutDeep;
      text = JSON.stringify(folded.value);
    } catch {
      return undefined;
    }
    if (text === undefined) return undefined;
    if (text.length <= maxChars) return { value: JSON.parse(text) as unknown, chars: text.length, cut };
  }
  return undefined;
}

function newId(time: number): string {
  counter = (counter + 1) % 1_000_000;
  return `${time.toString(36)}-${counter.toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
}

/** The call history of every server, newest first, bounded per server. */
export class CallHistory {
  private readonly servers = new Map<string, HistoryEntry[]>();
  private readonly limit: number;
  private readonly maxArgumentChars: number;
  private readonly maxSummaryChars: number;
  private readonly maxResultChars: number;
  private readonly maxResultCharsPerServer: number;
  /** JSON size of each kept result, by entry id. */
  private readonly resultSizes = new Map<string, number>();
  private readonly _onDidChange = new Emitter<string>();
  /** Fires with the server id whose history changed. */
  readonly onDidChange: Event<string> = this._onDidChange.event;

  constructor(options: HistoryOptions = {}) {
    this.limit = Math.max(1, options.limit ?? 50);
    this.maxArgumentChars = options.maxArgumentChars ?? 64 * 1024;
    this.maxSummaryChars = options.maxSummaryChars ?? 300;
    this.maxResultChars = options.maxResultChars ?? 256 * 1024;
    this.maxResultCharsPerServer = Math.max(this.maxResultChars, options.maxResultCharsPerServer ?? 2 * 1024 * 1024);
  }

  /** Rebuilds a history from what `toJSON` wrote; invalid entries are dropped, limits applied. */
  static restore(data: unknown, options: HistoryOptions = {}): CallHistory {
    const history = new CallHistory(options);
    if (typeof data !== 'object' || data === null || (data as { version?: unknown }).version !== 1) return history;
    const servers = (data as { servers?: unknown }).servers;
    if (typeof servers !== 'object' || servers === null) return history;
    for (const [serverId, list] of Object.entries(servers as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue;
      const entries: HistoryEntry[] = [];
      for (const item of list) {
        const parsed = EntrySchema.safeParse(item);
        if (parsed.success && parsed.data.serverId === serverId) entries.push(history.keepResult(parsed.data as HistoryEntry));
        if (entries.length >= history.limit) break;
      }
      if (entries.length > 0) {
        history.servers.set(serverId, entries);
        history.enforceBudget(serverId);
      }
    }
    return history;
  }

  /** The entry with its result capped (or dropped), its size remembered. */
  private keepResult(entry: HistoryEntry): HistoryEntry {
    if (entry.result === undefined) return entry;
    const { result, resultCut, resultOmitted, ...rest } = entry;
    const capped = capJson(result, this.maxResultChars);
    if (!capped) return { ...rest, resultOmitted: true };
    this.resultSizes.set(entry.id, capped.chars);
    return { ...rest, result: capped.value, ...(capped.cut || resultCut ? { resultCut: true } : {}), ...(resultOmitted ? { resultOmitted } : {}) };
  }

  /** Drops the results of a server's oldest entries while its kept results are over budget. */
  private enforceBudget(serverId: string): void {
    const list = this.servers.get(serverId);
    if (!list) return;
    let total = 0;
    for (let i = 0; i < list.length; i++) {
      const size = this.resultSizes.get(list[i].id);
      if (size === undefined) continue;
      if (total + size <= this.maxResultCharsPerServer) {
        total += size;
        continue;
      }
      const { result, resultCut, ...rest } = list[i];
      list[i] = { ...rest, resultOmitted: true };
      this.resultSizes.delete(rest.id);
    }
  }

  /** Records a call; returns the stored entry (arguments dropped when too large, summary and result cut). */
  add(entry: NewHistoryEntry): HistoryEntry {
    let args = entry.arguments;
    let omitted = false;
    if (args !== undefined) {
      let json: string | undefined;
      try {
        json = JSON.stringify(args);
      } catch {
        json = undefined;
      }
      if (json === undefined || json.length > this.maxArgumentChars) {
        args = undefined;
        omitted = true;
      } else {
        args = JSON.parse(json) as Record<string, unknown>;
      }
    }
    const oneLine = entry.summary.replace(/\s+/g, ' ').trim();
    const summary = oneLine.length > this.maxSummaryChars ? `${oneLine.slice(0, this.maxSummaryChars - 1)}…` : oneLine;
    const stored: HistoryEntry = this.keepResult({
      id: newId(entry.time),
      serverId: entry.serverId,
      kind: entry.kind,
      name: entry.name,
      ...(args !== undefined ? { arguments: args } : {}),
      ...(omitted ? { argumentsOmitted: true } : {}),
      outcome: entry.outcome,
      summary,
      durationMs: Math.max(0, Math.round(entry.durationMs)),
      time: entry.time,
      ...(entry.result !== undefined ? { result: entry.result } : {}),
      ...(entry.failure !== undefined ? { failure: entry.failure } : {}),
      ...(entry.task !== undefined ? { task: { id: entry.task.id, status: entry.task.status } } : {}),
      ...(entry.origin !== undefined ? { origin: entry.origin.slice(0, 500) } : {}),
    });
    const list = this.servers.get(entry.serverId) ?? [];
    list.unshift(stored);
    for (const dropped of list.splice(this.limit)) this.resultSizes.delete(dropped.id);
    this.servers.set(entry.serverId, list);
    this.enforceBudget(entry.serverId);
    this._onDidChange.fire(entry.serverId);
    return stored;
  }

  /** A server's entries, newest first, optionally only those of one kind and name. */
  list(serverId: string, filter: { kind?: HistoryKind; name?: string } = {}): readonly HistoryEntry[] {
    return (this.servers.get(serverId) ?? []).filter((e) => (filter.kind === undefined || e.kind === filter.kind) && (filter.name === undefined || e.name === filter.name));
  }

  get(id: string): HistoryEntry | undefined {
    for (const list of this.servers.values()) {
      const hit = list.find((e) => e.id === id);
      if (hit) return hit;
    }
    return undefined;
  }

  /**
   * What re-running an entry sends: its kind, name and a copy of its arguments; undefined when
   * the entry is unknown or its arguments were not kept.
   */
  rerun(id: string): { serverId: string; kind: HistoryKind; name: string; arguments: Record<string, unknown> } | undefined {
    const entry = this.get(id);
    if (!entry || entry.argumentsOmitted) return undefined;
    return { serverId: entry.serverId, kind: entry.kind, name: entry.name, arguments: structuredClone(entry.arguments ?? {}) };
  }

  /** Forgets one server's history (or only its entries of one kind and name), or everything. */
  clear(serverId?: string, filter?: { kind?: HistoryKind; name?: string }): void {
    if (serverId !== undefined && filter !== undefined) {
      const list = this.servers.get(serverId);
      if (!list) return;
      const keep = list.filter((e) => !((filter.kind === undefined || e.kind === filter.kind) && (filter.name === undefined || e.name === filter.name)));
      if (keep.length === list.length) return;
      for (const e of list) if (!keep.includes(e)) this.resultSizes.delete(e.id);
      if (keep.length) this.servers.set(serverId, keep);
      else this.servers.delete(serverId);
      this._onDidChange.fire(serverId);
      return;
    }
    if (serverId === undefined) {
      const ids = [...this.servers.keys()];
      this.servers.clear();
      this.resultSizes.clear();
      for (const id of ids) this._onDidChange.fire(id);
    } else if (this.servers.has(serverId)) {
      for (const e of this.servers.get(serverId)!) this.resultSizes.delete(e.id);
      this.servers.delete(serverId);
      this._onDidChange.fire(serverId);
    }
  }

  toJSON(): SerializedHistory {
    const servers: Record<string, HistoryEntry[]> = {};
    for (const [id, list] of this.servers) servers[id] = list.slice();
    return { version: 1, servers };
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
