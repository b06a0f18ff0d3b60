import { ErrorCodes, RequestId, WireErrorObject } from './messages';
import type { TransportCloseReason } from './transport';

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
    const meaning = explainWireError(code, data);
    super(`${method}: server error ${code}: ${wireMessage}${meaning ? ` (${meaning})` : ''}`);
  }
  toWire(): WireErrorObject {
    return this.data === undefined ? { code: this.code, message: this.wireMessage } : { code: this.code, message: this.wireMessage, data: this.data };
  }
}

/** What every local error may name: the request it ended (the connection adds it). */
interface RequestDetails {
  readonly method?: string;
}

/**
 * How the connection ended, for the requests it ended (`JsonRpcConnection`): the transport's reason,
 * a process's last stderr lines (and the lines that explain its exit).
 */
export interface ConnectionEndDetails extends RequestDetails {
  readonly reason?: TransportCloseReason;
  readonly stderrTail?: readonly string[];
  readonly stderrExcerpt?: readonly string[];
}

/** An HTTP exchange that failed (the transports' `transport` errors): always the URL (credentials removed). */
export interface HttpFailureDetails extends ConnectionEndDetails {
  readonly url?: string;
  readonly status?: number;
  /** The server's own words, quoted briefly, and its JSON-RPC error code when it sent one. */
  readonly serverMessage?: string;
  readonly jsonRpcCode?: number;
  /** A network failure: the cause in words, the socket's code, and whether the server cannot be reached at all. */
  readonly detail?: string;
  readonly code?: string;
  readonly unreachable?: boolean;
  /** A redirect or an SSE endpoint to another origin. */
  readonly redirect?: string;
  readonly endpointOrigin?: string;
  readonly contentType?: string;
  readonly timeoutMs?: number;
  /** A body over the size cap. */
  readonly limitBytes?: number;
  /** Reconnects of the GET stream that failed in a row. */
  readonly attempts?: number;
  /** Streamable HTTP refused and the HTTP+SSE fallback failed too: what the fallback said. */
  readonly fallbackError?: string;
}

/**
 * The kinds of local failure (the one list of them), each with its `details`: what readers (the
 * doctor, the CLI's failure lines, the transports' fallbacks) may read. Every field is optional.
 */
export interface LocalErrorDetailsByKind {
  timeout: RequestDetails & { readonly timeoutMs?: number; readonly elapsedMs?: number };
  /** `inputMethod`: the input request (a modern server's input round) that was cancelled. */
  cancelled: RequestDetails & { readonly inputMethod?: string };
  /** The capability the server (or, for an input request, the client: `inputMethod`) did not declare. */
  capability: RequestDetails & { readonly capability?: string; readonly inputMethod?: string };
  /** The exit's code or signal; what the negotiation found (client/eraProbe.ts): the server failed at start, or exited on the `server/discover` probe. */
  'server-exited': ConnectionEndDetails & { readonly code?: number | null; readonly signal?: string | null; readonly failedAtStart?: true; readonly exitedOnProbe?: true };
  closed: ConnectionEndDetails & { readonly cause?: Error };
  /** The result that failed its shape, how many items a list had, or how many input rounds ran. */
  'invalid-result': RequestDetails & { readonly result?: unknown; readonly items?: number; readonly rounds?: number };
  /** What was offered and answered, the pinned version not taken, or the versions a modern server supports. */
  version: RequestDetails & { readonly offered?: string; readonly answered?: string; readonly pinned?: string; readonly supported?: readonly string[] };
  'not-initialized': RequestDetails;
  /** The command that did not start: where it was looked for, and why a sandbox could not start. */
  spawn: RequestDetails & {
    readonly command?: string;
    readonly cwd?: string;
    readonly cause?: unknown;
    readonly path?: string;
    readonly searched?: readonly string[];
    readonly sandbox?: 'unsupported-platform' | 'bwrap-missing' | 'bwrap-failed';
    readonly exitCode?: number | null;
  };
  /** The transport could not deliver or receive: an HTTP status, a body that is not JSON-RPC, the network. */
  transport: HttpFailureDetails;
  usage: RequestDetails;
}

/** Kinds of local failures; a discriminant for exhaustive handling. */
export type LocalErrorKind = keyof LocalErrorDetailsByKind;

/** The details of a local error of kind `K` (of any kind when `K` is the union). */
export type LocalErrorDetails<K extends LocalErrorKind = LocalErrorKind> = LocalErrorDetailsByKind[K];

/** A local error of one of the kinds `K`, as a union, so that checking `kind` narrows `details`. */
export type LocalErrorOf<K extends LocalErrorKind = LocalErrorKind> = K extends LocalErrorKind ? McpLocalError<K> : never;

/** An error raised by this client, never received on the wire. */
export class McpLocalError<K extends LocalErrorKind = LocalErrorKind> extends Error {
  override readonly name = 'McpLocalError';
  readonly details: LocalErrorDetails<K>;
  constructor(
    readonly kind: K,
    message: string,
    details?: LocalErrorDetails<K>,
  ) {
    super(message);
    // Every field of every kind's details is optional, so none is a valid value of each.
    this.details = details ?? ({} as LocalErrorDetails<K>);
  }
  static is<K extends LocalErrorKind = LocalErrorKind>(e: unknown, kind?: K): e is LocalErrorOf<K> {
    return e instanceof McpLocalError && (kind === undefined || e.kind === kind);
  }
}

/** How the connection ended, as `error` tells it: closed, server-exited and transport errors carry it, other kinds nothing. */
export function connectionEndOf(error: LocalErrorOf): ConnectionEndDetails {
  switch (error.kind) {
    case 'closed':
    case 'server-exited':
    case 'transport':
      return error.details;
    default:
      return {};
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

/** The error itself, or an Error whose message is what was thrown (a string, a number…). */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export function describeId(id: RequestId | null | undefined): string {
  return id === null || id === undefined ? 'null' : JSON.stringify(id);
}

/**
 * What a wire error code means, with the facts its `data` carries, for codes whose number alone
 * says little (the 2026-07-28 ones, resource not found). Undefined for the others.
 */
export function explainWireError(code: number, data?: unknown): string | undefined {
  const d = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  switch (code) {
    case ErrorCodes.HeaderMismatch:
      return 'an HTTP Mcp-* header did not match the request body';
    case ErrorCodes.MissingClientCapability: {
      const caps = typeof d.requiredCapabilities === 'object' && d.requiredCapabilities !== null ? Object.keys(d.requiredCapabilities) : [];
      return caps.length ? `the server needs the client capability ${caps.join(', ')}, which this client did not declare` : 'the server needs a client capability this client did not declare';
    }
    case ErrorCodes.UnsupportedProtocolVersion: {
      const supported = Array.isArray(d.supported) ? d.supported.filter((v) => typeof v === 'string') : [];
      const requested = typeof d.requested === 'string' ? `${d.requested} is not supported` : 'unsupported protocol version';
      return supported.length ? `${requested}; the server supports ${supported.join(', ')}` : requested;
    }
    case ErrorCodes.ResourceNotFound:
      return 'resource not found';
    default:
      return undefined;
  }
}
