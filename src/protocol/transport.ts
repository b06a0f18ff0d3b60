import { Disposable } from './disposable';
import { Event } from './events';

/** Why a transport closed. `code`/`signal` are set when a process exited. */
export interface TransportCloseInfo {
  readonly reason: 'exited' | 'closed' | 'error';
  readonly code?: number | null;
  readonly signal?: string | null;
  /** The last lines the server wrote to stderr, oldest first (stdio only). */
  readonly stderrTail?: readonly string[];
  readonly error?: Error;
}

/** A diagnostic line from the transport that is not a protocol message. */
export interface TransportLog {
  readonly kind: 'stderr' | 'noise' | 'oversize' | 'invalid-json' | 'lifecycle';
  readonly text: string;
}

/** Byte counters and process facts a transport can report. */
export interface TransportStats {
  readonly bytesSent: number;
  readonly bytesReceived: number;
  readonly messagesSent: number;
  readonly messagesReceived: number;
  readonly noiseLines: number;
  readonly pid?: number;
  /** Epoch milliseconds when the transport started. */
  readonly startedAt?: number;
}

/**
 * Moves JSON-RPC messages between the client and a server. The client owns the transport
 * after `start()`; it is the only caller of `send` and `close`.
 */
export interface Transport extends Disposable {
  /** Connects (for stdio: spawns the process). Rejects with a clear error when that fails. */
  start(): Promise<void>;
  /**
   * Sends one serialised JSON-RPC message (no trailing newline). Resolves when the bytes were
   * handed to the OS, respecting back-pressure. Rejects when the transport is closed.
   */
  send(json: string): Promise<void>;
  /** Closes gracefully (for stdio: end stdin, SIGTERM, SIGKILL of the tree). Idempotent. */
  close(): Promise<void>;
  /** One parsed JSON value per inbound frame (an object, or an array for a batch), with its size in bytes. */
  readonly onMessage: Event<{ readonly message: unknown; readonly bytes: number }>;
  readonly onClose: Event<TransportCloseInfo>;
  readonly onLog: Event<TransportLog>;
  stats(): TransportStats;
}
