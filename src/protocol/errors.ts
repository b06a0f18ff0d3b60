import { RequestId, WireErrorObject } from './messages';

/**
 * An error the server sent on the wire (a JSON-RPC error response). Kept apart from
 * local errors so callers never have to match message text.
 */
export class ResponseError extends Error {
  override readonly name = 'ResponseError';
  constructor(
    readonly method: string,
    readonly code: number,
    readonly wireMessage: string,
    readonly data?: unknown,
  ) {
    super(`${method}: server error ${code}: ${wireMessage}`);
  }
  toWire(): WireErrorObject {
    return this.data === undefined ? { code: this.code, message: this.wireMessage } : { code: this.code, message: this.wireMessage, data: this.data };
  }
}

/** Kinds of local failures; a discriminant for exhaustive handling. */
export type LocalErrorKind =
  | 'timeout'
  | 'cancelled'
  | 'capability'
  | 'server-exited'
  | 'closed'
  | 'invalid-result'
  | 'version'
  | 'not-initialized'
  | 'spawn'
  /** The transport could not deliver or receive: an HTTP status, a body that is not JSON-RPC, the network. `details` name the URL and status. */
  | 'transport'
  | 'usage';

/** An error raised by this client, never received on the wire. */
export class McpLocalError extends Error {
  override readonly name = 'McpLocalError';
  constructor(
    readonly kind: LocalErrorKind,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
  static is(e: unknown, kind?: LocalErrorKind): e is McpLocalError {
    return e instanceof McpLocalError && (kind === undefined || e.kind === kind);
  }
}

/** A handler error that should reach the peer with a specific wire code (otherwise -32603). */
export class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** What anything thrown says: an Error's message, otherwise its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function describeId(id: RequestId | null | undefined): string {
  return id === null || id === undefined ? 'null' : JSON.stringify(id);
}
