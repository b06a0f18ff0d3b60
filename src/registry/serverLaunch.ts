// One launch of a server, as VS Code's McpServerConnection is: the McpClient of one start, from
// its creation to its close, with the launch's own abort, subscriptions and "we are ending it"
// flag. A restart drops the launch and makes a new one; the server (ManagedServer, with its
// cached lists and crash history) outlives it. The registry decides when; this holds what.
import { McpClient, RootsProvider, ServerRequestHandlers } from '../client/client';
import { EraMemory, ProtocolPreference } from '../client/era';
import { Implementation } from '../client/schemas';
import { ServerEntry } from '../config/types';
import { ResolvedServer } from '../config/variables';
import { DisposableStore } from '../protocol/disposable';
import { McpLocalError, ResponseError, errorMessage } from '../protocol/errors';
import type { LogSeverity } from '../protocol/logging';
import { Transport, TransportLog } from '../protocol/transport';
import type { ListKind } from './serverHandle';

const STDERR_TAIL_LINES = 50;
/** The handshake's timeout when neither `startTimeoutMs` nor `requestTimeoutMs` is set. */
const DEFAULT_START_TIMEOUT_MS = 30_000;

/** The registry's settings every launch's client is made with (ServerRegistryOptions has them all). */
export interface LaunchSettings {
  readonly clientInfo: Implementation;
  readonly roots: RootsProvider;
  readonly requestTimeoutMs?: number;
  readonly startTimeoutMs?: number;
  readonly capabilities?: Record<string, unknown>;
  readonly protocol?: ProtocolPreference;
  readonly probeTimeoutMs?: number;
  serverRequests?(server: { readonly id: string; readonly name: string }): ServerRequestHandlers;
}

/** Where a launch's output goes: the server's stderr tail (kept to its last lines) and its log (already redacted). */
export interface LaunchOutput {
  readonly stderrTail: string[];
  log(level: LogSeverity, text: string): void;
}

export class ServerLaunch {
  readonly client: McpClient;
  /** Aborted when the launch is no longer wanted: ends a handshake in progress and list fetches. */
  readonly abort = new AbortController();
  readonly store = new DisposableStore();
  /** Set when we are the ones ending it: its exit is not a crash. */
  stopping = false;
  /** The handshake completed. */
  ready = false;

  constructor(
    private readonly settings: LaunchSettings,
    server: { readonly id: string; readonly entry: ServerEntry },
    resolved: ResolvedServer,
    eras: EraMemory,
    output: LaunchOutput,
  ) {
    this.client = new McpClient({
      clientInfo: settings.clientInfo,
      requestTimeoutMs: settings.requestTimeoutMs,
      roots: settings.roots,
      capabilities: settings.capabilities,
      protocol: server.entry.protocolVersion ?? settings.protocol ?? 'auto',
      eraMemory: { memory: eras, key: eraKey(server.id, resolved) },
      ...(settings.probeTimeoutMs === undefined ? {} : { probeTimeoutMs: settings.probeTimeoutMs }),
      ...(settings.serverRequests ? { handlers: settings.serverRequests({ id: server.id, name: server.entry.name }) } : {}),
    });
    this.store.add(this.client.onTransportLog((line) => routeTransportLog(line, output)));
  }

  /** How long the handshake may take, ms. */
  get startTimeoutMs(): number {
    return this.settings.startTimeoutMs ?? this.settings.requestTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  }

  /** Connects over `transport` and completes the handshake within `startTimeoutMs`; `stop()` aborts it. */
  async connect(transport: Transport): Promise<void> {
    await this.client.connect(transport, { timeoutMs: this.startTimeoutMs, signal: this.abort.signal });
  }

  /** Marks the launch as ended by us (its exit is no crash) and aborts what it is waiting for. */
  stop(): void {
    this.stopping = true;
    this.abort.abort();
  }

  /** Fetches a list again whenever the server says it changed (resources bring their templates). */
  watchLists(refresh: (kind: ListKind) => void): void {
    const client = this.client;
    this.store.add(client.onToolsListChanged(() => refresh('tools')));
    this.store.add(
      client.onResourcesListChanged(() => {
        refresh('resources');
        refresh('templates');
      }),
    );
    this.store.add(client.onPromptsListChanged(() => refresh('prompts')));
  }

  /** Closes the client (which kills the process tree) and releases the launch; a failing close is reported to `failed`. */
  async close(failed: (error: unknown) => void): Promise<void> {
    try {
      await this.client.close();
    } catch (error) {
      failed(error);
    }
    this.store.dispose();
    this.client.dispose();
  }

  /** Why the handshake failed, in words (a timeout names the time it waited). */
  describeStartError(error: unknown): string {
    if (McpLocalError.is(error, 'timeout')) return `the server did not answer initialize within ${this.startTimeoutMs} ms`;
    if (error instanceof ResponseError) return `initialize failed: ${error.wireMessage} (code ${error.code})`;
    return errorMessage(error);
  }
}

/** A transport's log line into the server's log: stderr also into the tail, stdout noise as a warning. */
function routeTransportLog(line: TransportLog, output: LaunchOutput): void {
  switch (line.kind) {
    case 'stderr': {
      const tail = output.stderrTail;
      tail.push(line.text);
      if (tail.length > STDERR_TAIL_LINES) tail.splice(0, tail.length - STDERR_TAIL_LINES);
      output.log('info', `stderr: ${line.text}`);
      break;
    }
    case 'lifecycle':
      output.log(line.level ?? 'debug', line.text);
      break;
    case 'http':
      output.log(line.level ?? 'info', line.text);
      break;
    case 'noise':
    case 'oversize':
    case 'invalid-json':
      output.log('warn', `stdout ${line.kind}: ${line.text}`);
      break;
    default: {
      const never: never = line.kind;
      output.log('warn', String(never));
    }
  }
}

/**
 * Where a server's era is remembered: an HTTP server by its origin (one server there speaks one
 * era), a stdio server by its entry and command line (a changed command may be another server).
 */
function eraKey(id: string, resolved: ResolvedServer): string {
  if (resolved.type !== 'stdio') {
    try {
      return `http:${new URL(resolved.url).origin}`;
    } catch {
      return `http:${resolved.url}`;
    }
  }
  return `stdio:${id}:${JSON.stringify([resolved.command, ...resolved.args])}`;
}
