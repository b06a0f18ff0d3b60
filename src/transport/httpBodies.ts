// What a server's HTTP answer holds, read and parsed: a JSON body whole, or an SSE event stream
// event by event (parsed by eventsource-parser), each capped at the largest message we accept,
// and the check that a payload is JSON-RPC. A bad event is skipped and logged; an oversize one
// ends its stream.
import type { EventSourceMessage } from 'eventsource-parser' with { 'resolution-mode': 'import' };
import { McpLocalError } from '../protocol/errors';
import type { Emitter } from '../protocol/events';
import type { TransportLog } from '../protocol/transport';
import { formatByteLimit } from '../protocol/text';
import type { Exchange } from './httpExchange';
import { QUOTE_CHARS, quote } from './httpErrors';
import type { HttpResponse } from './nodeHttpClient';

/** One message as the server sent it: parsed JSON and its size in bytes. */
export interface InboundMessage {
  readonly message: unknown;
  readonly bytes: number;
  /** The id of our request on whose response stream it came (a server's request caused by it); null when it came on the GET stream. */
  readonly relatedRequestId?: string | number | null;
}

/** Handlers of one SSE stream. */
export interface EventStreamHandlers {
  /** An event with data. `event` is the type (undefined means `message`). */
  onEvent(event: EventSourceMessage): void;
  /** Every event id, including that of a priming event (an id and an empty data line). */
  onId?(id: string): void;
  onRetry?(ms: number): void;
}

/** The counters a body reader adds to. */
export interface BodyCounters {
  bytesReceived: number;
  messagesReceived: number;
  invalidMessages: number;
}

/** What the readers need of the channel they read for. */
export interface BodySource {
  readonly url: URL;
  readonly displayUrl: string;
  readonly maxMessageBytes: number;
  readonly counters: BodyCounters;
  readonly log: Emitter<TransportLog>;
  networkError(exchange: Exchange, method: string, url: URL, error: unknown): Error;
}

type EventSourceModule = typeof import('eventsource-parser', { with: { 'resolution-mode': 'import' } });
let parserModule: Promise<EventSourceModule> | undefined;
/** eventsource-parser is ESM only; loaded once, on the first stream. */
function loadEventSourceParser(): Promise<EventSourceModule> {
  return (parserModule ??= import('eventsource-parser'));
}

/**
 * Reads a JSON body whole, refusing more than `maxMessageBytes` (the read stops there), and
 * parses it once. Rejects with McpLocalError('transport') for an oversize or non-JSON body.
 */
export async function readJsonBody(source: BodySource, exchange: Exchange, label: string, response: HttpResponse): Promise<InboundMessage> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const body = response.body;
  const counters = source.counters;
  if (body) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        counters.bytesReceived += value.byteLength;
        if (bytes > source.maxMessageBytes) {
          const text = `${label} ${source.displayUrl}: the answer is larger than the ${formatByteLimit(source.maxMessageBytes)} limit; dropped`;
          const error = new McpLocalError('transport', text, { url: source.displayUrl, limitBytes: source.maxMessageBytes });
          exchange.fail(error);
          source.log.fire({ kind: 'oversize', text });
          throw error;
        }
        chunks.push(value);
      }
    } catch (error) {
      throw McpLocalError.is(error) ? error : source.networkError(exchange, label, source.url, error);
    } finally {
      reader.releaseLock();
    }
  }
  // The usual small answer arrives in one chunk: decoded where it lies, not copied first.
  const text = chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength).toString('utf8') : Buffer.concat(chunks, bytes).toString('utf8');
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    counters.invalidMessages++;
    throw new McpLocalError('transport', `${label} ${source.displayUrl} answered with a body that is not JSON (${(error as Error).message}): ${quote(text.slice(0, QUOTE_CHARS))}`, { url: source.displayUrl, status: response.status });
  }
  if (!isJsonRpcPayload(message)) {
    counters.invalidMessages++;
    throw new McpLocalError('transport', `${label} ${source.displayUrl} answered with JSON that is not a JSON-RPC message: ${quote(text.slice(0, QUOTE_CHARS))}`, { url: source.displayUrl, status: response.status });
  }
  counters.messagesReceived += Array.isArray(message) ? message.length : 1;
  return { message, bytes };
}

/**
 * Reads an SSE body to its end, calling the handlers per event. Resolves when the stream
 * ended; rejects with the exchange's abort reason, a network error, or an oversize event
 * (McpLocalError('transport'), also logged as `oversize`).
 */
export async function readEventStream(source: BodySource, exchange: Exchange, what: string, response: HttpResponse, handlers: EventStreamHandlers): Promise<void> {
  const { createParser } = await loadEventSourceParser();
  let oversize = false;
  const limit = source.maxMessageBytes;
  const parser = createParser({
    onEvent: (event) => {
      // eventsource-parser 3 (the line that runs on Node 20) reports ids with their event; the
      // priming event of a resumable stream has an empty data line, so it is reported too.
      if (event.id !== undefined) handlers.onId?.(event.id);
      // A UTF-8 byte is at least one character: only a long event needs its bytes counted.
      if (event.data.length * 3 > limit && Buffer.byteLength(event.data) > limit) {
        oversize = true;
        return;
      }
      handlers.onEvent(event);
    },
    onRetry: handlers.onRetry,
    // Unknown fields and bad `retry` values are ignored as the SSE standard says; only the cap matters.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversize = true;
    },
    maxBufferSize: limit,
  });
  const decoder = new TextDecoder('utf-8');
  const body = response.body;
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw source.networkError(exchange, what, source.url, error);
      }
      if (chunk.done) {
        const rest = decoder.decode();
        if (rest) parser.feed(rest);
        return;
      }
      source.counters.bytesReceived += chunk.value.byteLength;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (oversize) {
        const text = `${what}: an event from ${source.displayUrl} is larger than the ${formatByteLimit(limit)} limit; the stream was closed`;
        const error = new McpLocalError('transport', text, { url: source.displayUrl, limitBytes: limit });
        exchange.fail(error);
        source.log.fire({ kind: 'oversize', text });
        throw error;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Parses one SSE `data` as a JSON-RPC message. Returns undefined (and logs it) when it is not
 * one: a bad event is skipped, it does not end the stream.
 */
export function parseEventData(source: BodySource, what: string, data: string): InboundMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch (error) {
    source.counters.invalidMessages++;
    source.log.fire({ kind: 'invalid-json', text: `${what}: skipped an event that is not JSON (${(error as Error).message}): ${quote(data.slice(0, QUOTE_CHARS))}` });
    return undefined;
  }
  if (!isJsonRpcPayload(message)) {
    source.counters.invalidMessages++;
    source.log.fire({ kind: 'invalid-json', text: `${what}: skipped an event that is not a JSON-RPC message: ${quote(data.slice(0, QUOTE_CHARS))}` });
    return undefined;
  }
  source.counters.messagesReceived += Array.isArray(message) ? message.length : 1;
  return { message, bytes: Buffer.byteLength(data) };
}

/** True for a JSON-RPC message object, or a non-empty array of them (a batch). */
export function isJsonRpcPayload(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isJsonRpcObject);
  return isJsonRpcObject(value);
}

function isJsonRpcObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

/** True when `payload` holds the response (result or error) to request `id`. */
export function answers(payload: unknown, id: string | number): boolean {
  if (Array.isArray(payload)) return payload.some((m) => answers(m, id));
  const m = payload as { id?: unknown; method?: unknown };
  return m.id === id && m.method === undefined;
}
