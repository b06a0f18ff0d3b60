import { Disposable } from './disposable';
import { Event } from './events';
import type { ToolHeaderDeclaration } from './httpHeaders';
import { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from './messages';

/**
 * The first protocol version of the modern era (per-request `_meta`, no `initialize`, on HTTP no
 * sessions and the `Mcp-*` request headers). Versions compare as dates, so any later one is modern too.
 */
export const FIRST_MODERN_PROTOCOL_VERSION = '2026-07-28';

/** True for a protocol version of the modern era (2026-07-28 or later). */
export function isModernProtocolVersion(version: string | undefined): boolean {
  return version !== undefined && version >= FIRST_MODERN_PROTOCOL_VERSION;
}

/** What an outbound message is, so a transport need not parse it again (HTTP routes by it). */
export type OutboundKind =
  | { readonly kind: 'request'; readonly id: RequestId; readonly method: string }
  | { readonly kind: 'notification'; readonly method: string }
  | { readonly kind: 'response'; readonly id: RequestId };

/** One outbound message, serialised once by the connection. */
export interface OutboundFrame {
  /** The message as JSON, without a trailing newline. */
  readonly json: string;
  readonly message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;
  readonly info: OutboundKind;
}

/** Why a transport closed. */
export type TransportCloseReason =
  | { readonly kind: 'process-exited'; readonly code: number | null; readonly signal: string | null }
  | { readonly kind: 'http-status'; readonly status: number; readonly url: string; readonly message: string }
  /** The server no longer knows our session (404 on a request carrying `Mcp-Session-Id`): start a new one. */
  | { readonly kind: 'session-expired'; readonly url: string }
  | { readonly kind: 'authorization-required'; readonly status: 401 | 403; readonly url: string; readonly wwwAuthenticate?: string }
  | { readonly kind: 'closed-by-client' }
  | { readonly kind: 'network-error'; readonly url?: string; readonly message: string }
  | { readonly kind: 'start-failed'; readonly message: string };

export namespace TransportCloseReason {
  /** A short phrase that completes "the server …" / "the connection …", e.g. "exited with code 3". */
  export function describe(reason: TransportCloseReason): string {
    switch (reason.kind) {
      case 'process-exited':
        return reason.signal ? `exited on signal ${reason.signal}` : `exited with code ${reason.code}`;
      case 'http-status':
        return `answered HTTP ${reason.status} at ${reason.url}: ${reason.message}`;
      case 'session-expired':
        return `ended the session (HTTP 404 at ${reason.url})`;
      case 'authorization-required':
        return `requires authorization (HTTP ${reason.status} at ${reason.url})`;
      case 'closed-by-client':
        return 'was closed by the client';
      case 'network-error':
        return `could not be reached${reason.url ? ` at ${reason.url}` : ''}: ${reason.message}`;
      case 'start-failed':
        return `could not start: ${reason.message}`;
      default: {
        const never: never = reason;
        return String(never);
      }
    }
  }
}

/** Facts about the server process, for transports that run one (stdio). */
export interface ProcessFacts {
  readonly pid?: number;
  /** The last lines the server wrote to stderr, oldest first. */
  readonly stderrTail: readonly string[];
  /** The lines of all it wrote to stderr that explain an exit (first, telling and last lines: StderrExcerpt). */
  readonly stderrExcerpt?: readonly string[];
}

/** Why and how a transport closed. */
export interface TransportCloseInfo {
  readonly reason: TransportCloseReason;
  readonly error?: Error;
  /** Set by transports that run a process. */
  readonly process?: ProcessFacts;
}

/** A diagnostic line from the transport that is not a protocol message. */
export interface TransportLog {
  readonly kind: 'stderr' | 'noise' | 'oversize' | 'invalid-json' | 'lifecycle' | 'http';
  readonly text: string;
  /** How much it matters; `http` events use it (POST status and latency are debug). Default info. */
  readonly level?: 'debug' | 'info' | 'warn';
}

/** HTTP facts of a remote transport. */
export interface HttpTransportStats {
  readonly url: string;
  readonly transport: 'streamable-http' | 'sse';
  readonly sessionId?: string;
  /** Responses per HTTP status ("200", "202", "404"…). */
  readonly statusCounts: Readonly<Record<string, number>>;
  readonly streamsOpened: number;
  readonly streamResumptions: number;
}

/** Counters a transport can report. */
export interface TransportStats {
  readonly bytesSent: number;
  readonly bytesReceived: number;
  readonly messagesSent: number;
  readonly messagesReceived: number;
  readonly noiseLines: number;
  /** Epoch milliseconds when the transport started. */
  readonly startedAt?: number;
  /** Set by transports that run a process. */
  readonly process?: { readonly pid?: number };
  /** Set by HTTP transports. */
  readonly http?: HttpTransportStats;
}

/**
 * Moves JSON-RPC messages between the client and a server. The client owns the transport
 * after `start()`; it is the only caller of `send` and `close`.
 */
export interface Transport extends Disposable {
  /** Connects (for stdio: spawns the process). Rejects with a clear error when that fails. */
  start(): Promise<void>;
  /**
   * Sends one message. Resolves when it was handed on (for stdio: to the OS, respecting
   * back-pressure; for HTTP: when the server accepted the POST). Rejects when the transport is
   * closed or the message could not be delivered.
   */
  send(frame: OutboundFrame): Promise<void>;
  /**
   * Tells the transport the protocol version (HTTP sends it as a header). Streamable HTTP switches
   * era with it: a modern version (see isModernProtocolVersion) before the first modern request
   * makes every POST carry `Mcp-Method`/`Mcp-Name`, drops sessions, the GET stream and DELETE, and
   * delivers a JSON-RPC error answered with an HTTP error status as that request's error response
   * (so the client can read -32020/-32021/-32022 and decide); a legacy version switches back (a
   * client falling back sets the version it offers in `initialize`).
   */
  setProtocolVersion?(version: string): void;
  /**
   * True while the transport mirrors tool arguments marked `x-mcp-header` into `Mcp-Param-*`
   * headers (Streamable HTTP in the modern era). The client then drops listed tools whose
   * declarations are invalid (validateToolHeaders) and hands the rest over with setToolHeaders.
   * Undefined or false elsewhere: stdio and legacy HTTP ignore the annotation, as the spec allows.
   */
  readonly mirrorsToolHeaders?: boolean;
  /**
   * The `x-mcp-header` declarations per tool name, from the latest complete `tools/list`
   * (replacing earlier ones); a `tools/call` for a tool named here gets its `Mcp-Param-*` headers.
   * Kept in the transport, beside the other headers it derives from a frame, so the connection
   * and the frames stay free of HTTP.
   */
  setToolHeaders?(declarations: ReadonlyMap<string, readonly ToolHeaderDeclaration[]>): void;
  /** Closes gracefully (for stdio: end stdin, SIGTERM, SIGKILL of the tree). Idempotent. */
  close(): Promise<void>;
  /**
   * One parsed JSON value per inbound frame (an object, or an array for a batch), with its size in
   * bytes; `relatedRequestId` when the transport knows the frame came with one of our requests (on
   * Streamable HTTP: on that request's own response stream), null when it knows it came with none
   * (the GET stream), undefined when it cannot tell (stdio). `text` is the JSON text the value was
   * parsed from, when the transport had it as one line (stdio): whoever keeps or prints the frame
   * keeps that flat string instead of the parsed tree, and need not serialise it again.
   */
  readonly onMessage: Event<{ readonly message: unknown; readonly bytes: number; readonly relatedRequestId?: RequestId | null; readonly text?: string }>;
  /** Fires once. */
  readonly onClose: Event<TransportCloseInfo>;
  readonly onLog: Event<TransportLog>;
  stats(): TransportStats;
}
