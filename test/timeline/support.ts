import type { Frame } from '../../src/protocol/connection';
import { Timeline, TimelineItem } from '../../src/timeline/timelineModel';

/** Frames of JSON-RPC messages and a timeline fed them, for the timeline's tests. */
export const T0 = 1_700_000_000_000;
export const frame = (direction: 'send' | 'receive', message: unknown, time: number, bytes?: number): Frame => ({ direction, message, time: T0 + time, bytes: bytes ?? JSON.stringify(message).length });
export const request = (id: number | string, method: string, params?: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
export const notification = (method: string, params?: Record<string, unknown>) => ({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
export const result = (id: number | string, value: unknown) => ({ jsonrpc: '2.0', id, result: value });
export const failure = (id: number | string, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

/** A timeline fed a list of [direction, message, ms] frames for server `s`. */
export function feed(frames: Array<['send' | 'receive', unknown, number]>, limits = { maxFrames: 1000, maxPayloadBytes: 1 << 20 }): Timeline {
  const timeline = new Timeline(() => limits);
  for (const [direction, message, time] of frames) timeline.push('s', frame(direction, message, time));
  return timeline;
}

export const summary = (item: TimelineItem) => `${item.kind} ${item.method}${item.name ? ` ${item.name}` : ''} ${item.status}${item.end !== undefined ? ` ${item.end - item.start}ms` : ''}${item.parent !== undefined ? ` ↑${item.parent}` : ''}`;
