// What the timeline shows of one item when it is clicked (both frames, redacted and folded, and
// what is linked to it), the call-history entry a span is, and the frames of a selection as a
// recording (a shareable bug report that `mcp-host replay` reads). No `vscode`.
import type { Frame } from '../protocol/connection';
import { isRecord, TOO_DEEP_MARKER } from '../protocol/jsonShape';
import type { HistoryEntry } from '../usecases/history';
import { keptMessage, type KeptFrame, type Timeline, type TimelineItem } from './timelineModel';

/** How much of a frame the details show; the rest is folded with a note of how much. */
export interface FoldLimits {
  readonly maxString: number;
  readonly maxItems: number;
  readonly maxDepth: number;
  /** Characters of strings shown in all (a 50 MiB result shows its start). */
  readonly budget: number;
}

export const DETAIL_FOLD_LIMITS: FoldLimits = { maxString: 4000, maxItems: 200, maxDepth: 40, budget: 256 * 1024 };

/**
 * A copy of `value` small enough to show: every string redacted *before* it is cut (a cut never
 * leaves half a secret), long strings and arrays shortened with a note, deep nesting replaced,
 * and the whole once more through `redact` as text (secrets that span keys and values, such as an
 * `"authorization": "Bearer …"` pair). `cut` says whether anything was left out.
 */
export function foldForDisplay(value: unknown, redact: (text: string) => string, limits: FoldLimits = DETAIL_FOLD_LIMITS): { readonly value: unknown; readonly cut: boolean } {
  let budget = limits.budget;
  let cut = false;
  const fold = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const text = redact(v);
      const room = Math.max(0, Math.min(limits.maxString, budget));
      if (text.length <= room) {
        budget -= text.length;
        return text;
      }
      cut = true;
      budget -= room;
      return `${text.slice(0, room)}… [${(text.length - room).toLocaleString('en-US')} more characters]`;
    }
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= limits.maxDepth) {
      cut = true;
      return TOO_DEEP_MARKER;
    }
    if (Array.isArray(v)) {
      const shown = v.slice(0, limits.maxItems).map((x) => fold(x, depth + 1));
      if (v.length > limits.maxItems) {
        cut = true;
        shown.push(`… ${(v.length - limits.maxItems).toLocaleString('en-US')} more items`);
      }
      return shown;
    }
    const out: Record<string, unknown> = {};
    const keys = Object.keys(v);
    for (const key of keys.slice(0, limits.maxItems)) out[redact(key)] = fold((v as Record<string, unknown>)[key], depth + 1);
    if (keys.length > limits.maxItems) {
      cut = true;
      out['…'] = `${(keys.length - limits.maxItems).toLocaleString('en-US')} more keys`;
    }
    return out;
  };
  const folded = fold(value, 0);
  const text = JSON.stringify(folded);
  if (text === undefined) return { value: folded, cut };
  const redacted = redact(text);
  if (redacted === text) return { value: folded, cut };
  try {
    return { value: JSON.parse(redacted) as unknown, cut };
  } catch {
    return { value: redacted, cut };
  }
}

/** One frame of an item as the details show it. */
export interface FrameDetails {
  readonly direction: 'send' | 'receive';
  readonly time: number;
  readonly bytes: number;
  /** The frame, folded and redacted; absent when its payload was let go. */
  readonly json?: unknown;
  readonly cut: boolean;
  readonly dropped: boolean;
}

/** A linked item, as a line of the details. */
export interface LinkedItem {
  readonly id: number;
  readonly label: string;
  readonly time: number;
}

export interface ItemDetails {
  readonly server: string;
  readonly id: number;
  readonly kind: TimelineItem['kind'];
  readonly method: string;
  readonly name?: string;
  readonly status: TimelineItem['status'];
  readonly start: number;
  readonly end?: number;
  readonly errorText?: string;
  readonly frames: readonly FrameDetails[];
  /** The call this item belongs to. */
  readonly parent?: LinkedItem;
  /** What belongs to this call (its progress, input rounds, server requests, task status), the first ones. */
  readonly links: readonly LinkedItem[];
  /** How many linked items there are in all (more than `links` holds when there are many). */
  readonly linkCount: number;
}

/** Linked items listed at most. */
const MAX_LINKS = 200;

/** The details of an item; undefined when it left the ring. */
export function itemDetails(timeline: Timeline, server: string, id: number, redact: (text: string) => string): ItemDetails | undefined {
  const item = timeline.item(server, id);
  if (!item) return undefined;
  const frame = (f: KeptFrame): FrameDetails => {
    if (f.dropped) return { direction: f.direction, time: f.time, bytes: f.bytes, cut: false, dropped: true };
    const folded = foldForDisplay(keptMessage(f), redact);
    return { direction: f.direction, time: f.time, bytes: f.bytes, json: folded.value, cut: folded.cut, dropped: false };
  };
  const linked = (other: TimelineItem): LinkedItem => ({ id: other.id, label: itemLabel(other), time: other.start });
  const parent = item.parent !== undefined ? timeline.item(server, item.parent) : undefined;
  const children = (item.children ?? []).map((c) => timeline.item(server, c)).filter((c): c is TimelineItem => c !== undefined);
  return {
    server,
    id,
    kind: item.kind,
    method: item.method,
    ...(item.name !== undefined ? { name: redact(item.name) } : {}),
    status: item.status,
    start: item.start,
    ...(item.end !== undefined ? { end: item.end } : {}),
    ...(item.errorText !== undefined ? { errorText: redact(item.errorText) } : {}),
    frames: [item.first, item.second].filter((f): f is KeptFrame => f !== undefined).map(frame),
    ...(parent ? { parent: linked(parent) } : {}),
    links: children.slice(0, MAX_LINKS).map(linked),
    linkCount: children.length,
  };
}

/** "tools/call echo · 12 ms · error", the way a list of linked items names one. */
export function itemLabel(item: TimelineItem): string {
  const parts = [item.name ? `${item.method} ${item.name}` : item.method];
  if (item.end !== undefined && item.kind !== 'progress') parts.push(`${formatMs(item.end - item.start)}`);
  if (item.kind === 'progress' && item.progress !== undefined) parts.push(`${Math.round(item.progress * 100)}%`);
  if (item.status !== 'ok' && item.status !== 'none') parts.push(item.status);
  return parts.join(' · ');
}

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/**
 * The call-history entry of a span: a `tools/call` of the editor, and the entry of the same server
 * and tool that started closest before it (the entry's clock starts before the request leaves).
 */
export function historyEntryFor(item: TimelineItem, entries: readonly HistoryEntry[]): HistoryEntry | undefined {
  if (item.kind !== 'call' || item.method !== 'tools/call' || item.name === undefined) return undefined;
  let best: HistoryEntry | undefined;
  for (const entry of entries) {
    if (entry.serverId !== item.server || entry.kind !== 'tool' || entry.name !== item.name) continue;
    const lead = item.start - entry.time;
    // Up to 5 s before (the panel may list tools first), a few ms after (the clocks are read apart).
    if (lead < -50 || lead > 5000) continue;
    if (!best || Math.abs(lead) < Math.abs(item.start - best.time)) best = entry;
  }
  return best;
}

/** What a selection of one server's timeline is: chosen items, and a time range. */
export interface TimelineSelection {
  readonly server: string;
  readonly ids?: readonly number[];
  readonly range?: { readonly from: number; readonly to: number };
}

/** Methods of the handshake: an export carries its session's, so the bug report says who spoke. */
const HANDSHAKE = new Set(['initialize', 'notifications/initialized', 'server/discover']);

/**
 * The frames of a selection, in time order, ready for a RecordingWriter: the chosen items and the
 * items that start in the range, each with what belongs to its call (the first round, the
 * server's requests and their answers, progress, task polls), and the handshake of their session.
 * Frames whose payload was let go cannot be written: `leftOut` counts them.
 */
export function selectionFrames(timeline: Timeline, selection: TimelineSelection): { readonly frames: Frame[]; readonly leftOut: number; readonly protocolVersion?: string } {
  // Items are told apart by id (a tick is a new object each time it is read).
  const all = timeline.items(selection.server);
  const byId = new Map(all.map((item) => [item.id, item]));
  const chosen = new Set<number>();
  const ids = new Set(selection.ids ?? []);
  const range = selection.range;
  for (const item of all) {
    if (ids.has(item.id) || (range && item.start >= range.from && item.start <= range.to)) chosen.add(item.id);
  }
  // The call each chosen item belongs to, then everything that belongs to those calls.
  for (const id of [...chosen]) {
    let root = byId.get(id)!;
    for (let parent = root.parent !== undefined ? byId.get(root.parent) : undefined; parent; parent = parent.parent !== undefined ? byId.get(parent.parent) : undefined) root = parent;
    chosen.add(root.id);
  }
  const queue = [...chosen];
  while (queue.length) {
    const item = byId.get(queue.pop()!)!;
    for (const id of item.children ?? []) {
      if (byId.has(id) && !chosen.has(id)) {
        chosen.add(id);
        queue.push(id);
      }
    }
  }
  const sessions = new Set([...chosen].map((id) => byId.get(id)!.session));
  let protocolVersion: string | undefined;
  for (const item of all) {
    if (!sessions.has(item.session) || !HANDSHAKE.has(item.method)) continue;
    chosen.add(item.id);
    const answer = item.second ? keptMessage(item.second) : undefined;
    const result = isRecord(answer) && isRecord(answer.result) ? answer.result : undefined;
    if (item.method === 'initialize' && typeof result?.protocolVersion === 'string') protocolVersion = result.protocolVersion;
  }
  const kept: KeptFrame[] = [];
  let leftOut = 0;
  for (const item of all) {
    if (!chosen.has(item.id)) continue;
    for (const f of [item.first, item.second]) {
      if (!f) continue;
      if (f.dropped) leftOut++;
      else kept.push(f);
    }
  }
  // Stable: frames of the same millisecond keep the ring's order.
  const frames = kept
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.time - b.f.time || a.i - b.i)
    .map(({ f }) => ({ direction: f.direction, message: f.text === undefined ? f.message : undefined, text: f.text, bytes: f.bytes, time: f.time }));
  return { frames, leftOut, ...(protocolVersion ? { protocolVersion } : {}) };
}
