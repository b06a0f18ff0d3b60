// What McpClient takes and what its events carry: its options (and the roots, handlers and
// extension scopes they name), its lifecycle state, an input round and a roots answer. Apart from
// client.ts so the era codecs (client/eras/) and the subscription stream read them without
// importing the client.
import type { RequestHandler } from '../protocol/connection';
import type { TransportCloseInfo } from '../protocol/transport';
import type { EraMemory, ProtocolPreference } from './era';
import type { DiscoverResult, Implementation, InitializeResult, ProtocolEra, ProtocolVersion, SessionVersion } from './schemas';

/** A root the client exposes to servers. */
export interface Root {
  readonly uri: string;
  readonly name?: string;
}

/** Supplies the current roots whenever a server asks for them. */
export interface RootsProvider {
  listRoots(): readonly Root[] | Promise<readonly Root[]>;
}

/**
 * Answers for the requests a server makes of the client (`sampling/createMessage`,
 * `elicitation/create`, `roots/list`, ...), by method. The same handler answers a legacy server's
 * request and a modern server's input request (multi round-trip), so both eras share one policy.
 */
export type ServerRequestHandlers = Readonly<Record<string, RequestHandler>>;

/** A modern request is waiting while the client answers the server's input requests. */
export interface InputRound {
  /** The request being answered (`tools/call`, `prompts/get`, ...). */
  readonly method: string;
  /** Its `name` or `uri`, when it has one. */
  readonly target?: string;
  /** 1 for the first round of input. */
  readonly round: number;
  /** The methods of the input requests, by the server's key. */
  readonly requests: Readonly<Record<string, string>>;
  /** True while the answers are being made; false once they are (the retry follows). */
  readonly waiting: boolean;
  /**
   * The task whose input requests these are (2026-07-28 tasks extension), set by the caller that
   * follows it: the answers go back with tasks/update and the request is not sent again.
   */
  readonly taskId?: string;
}

/**
 * What one modern request declares beyond the client's own capabilities: the requests of an
 * extension the client speaks only where it is ready for its results (client/modernTasks.ts).
 */
export interface ExtensionScope {
  /** Declared in this request's `clientCapabilities.extensions`, beside the client's own. */
  readonly extensions: Readonly<Record<string, object>>;
  /** The result types these extensions add (`task`): such a result is returned as it came, unparsed. */
  readonly resultTypes?: readonly string[];
}

export interface McpClientOptions {
  readonly clientInfo: Implementation;
  /** The version offered in `initialize`. Setting it pins the legacy era at that version unless `protocol` says otherwise. */
  readonly protocolVersion?: ProtocolVersion;
  /** Which era and version to speak: `auto` (the default) finds out per server; see ProtocolPreference. */
  readonly protocol?: ProtocolPreference;
  /** Where the era each server spoke is remembered, and this server's key there (`http:<origin>`, `stdio:<id>`). */
  readonly eraMemory?: { readonly memory: EraMemory; readonly key: string };
  /**
   * How long a stdio server may stay quiet after its last sign of life (spawn, a line of output)
   * while the `server/discover` probe waits, before it is taken for legacy (3 s).
   */
  readonly probeTimeoutMs?: number;
  /** Answers for the server's requests of the client; they serve both eras. */
  readonly handlers?: ServerRequestHandlers;
  /** How many rounds of input one modern request may ask for before it fails (8). */
  readonly maxInputRounds?: number;
  /** Default timeout for every request, in ms (60 s). */
  readonly requestTimeoutMs?: number;
  /** Answers `roots/list`; when set, the client declares `roots: { listChanged: true }`. */
  readonly roots?: RootsProvider;
  /** Further client capabilities to declare (sampling, elicitation, ...). */
  readonly capabilities?: Record<string, unknown>;
  /** How many pages a list may have before the client stops following `nextCursor` (DEFAULT_MAX_PAGES). */
  readonly maxPages?: number;
}

/** How many pages any list (tools, resources, prompts, tasks) follows by default. */
export const DEFAULT_MAX_PAGES = 1000;

/** Where a client is in the MCP lifecycle. */
export type ClientState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'initializing' }
  /**
   * `result` is the initialize result, or for a modern server the same facts read from its
   * `server/discover` result (which `discover` holds as it came).
   */
  | { readonly kind: 'ready'; readonly era: ProtocolEra; readonly version: SessionVersion; readonly result: InitializeResult; readonly discover?: DiscoverResult }
  | { readonly kind: 'closed'; readonly error?: Error; readonly info?: TransportCloseInfo };

/** What a `roots/list` request from the server was answered with, and when. */
export interface RootsListed {
  readonly roots: readonly Root[];
  readonly time: number;
}
