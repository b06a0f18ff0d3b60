// The logic of the server-level actions, apart from the editor: Ping (with its round-trip time),
// Set Log Level, Show Capabilities, and the periodic health ping that marks a server that stops
// answering. The VS Code layer (src/extension/panels/serverActions.ts) only asks and shows.
// No `vscode` import.
import type { McpClient } from '../client/client';
import { LoggingLevel, LoggingLevels } from '../client/schemas';
import { Disposable } from '../protocol/disposable';
import { McpLocalError, ResponseError, errorMessage } from '../protocol/errors';
import { Emitter, Event } from '../protocol/events';
import { cutDeepJson } from '../protocol/jsonShape';
import { MAX_SHOWN_DEPTH } from './resultModel';
import type { ServerHealth } from '../registry/health';

/** A manual ping waits at most this long, whatever the server's request timeout. */
export const PING_TIMEOUT_CAP_MS = 30_000;
/** A health ping waits at most this long (and never longer than the interval). */
export const HEALTH_PING_TIMEOUT_CAP_MS = 10_000;

// ---- Ping ----

export interface PingOutcome {
  readonly rttMs: number;
  /** For a notification: `<name> answered ping in 1.2 ms.` */
  readonly message: string;
}

/** `<name> answered ping in <rtt> ms.` (one decimal). */
export function formatPing(name: string, rttMs: number): string {
  return `${name} answered ping in ${rttMs.toFixed(1)} ms.`;
}

/**
 * Pings a server and measures the round trip. A failure's message names the server: a local
 * failure stays an McpLocalError of its kind (`<name> did not answer ping: ping timed out after
 * … ms (request id 3)`), an error answer becomes `<name> answered ping with error <code>: …`.
 */
export async function pingServer(client: McpClient, name: string, timeoutMs: number = PING_TIMEOUT_CAP_MS): Promise<PingOutcome> {
  let rttMs: number;
  try {
    rttMs = await client.ping({ timeoutMs: Math.min(timeoutMs, PING_TIMEOUT_CAP_MS) });
  } catch (error) {
    if (error instanceof ResponseError) throw new Error(`${name} answered ping with error ${error.code}: ${error.wireMessage}`, { cause: error });
    const text = `${name} did not answer ping: ${errorMessage(error)}`;
    throw McpLocalError.is(error) ? new McpLocalError(error.kind, text, error.details) : new Error(text, { cause: error });
  }
  return { rttMs, message: formatPing(name, rttMs) };
}

// ---- Set Log Level ----

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && (LoggingLevels as readonly string[]).includes(value);
}

/**
 * Refuses (before anyone is asked for a level) a server that did not declare `logging`:
 * `logging/setLevel` would only earn a Method-not-found.
 */
export function requireLogging(client: McpClient, name: string): void {
  if (!client.serverCapabilities?.logging) {
    throw new McpLocalError('capability', `${name} does not declare the logging capability, so its log level cannot be set`, { capability: 'logging' });
  }
}

/** Sends `logging/setLevel`; an unknown level (from a script's command argument) is refused unsent. */
export async function setLogLevel(client: McpClient, name: string, level: unknown, timeoutMs?: number): Promise<LoggingLevel> {
  requireLogging(client, name);
  if (!isLoggingLevel(level)) throw new Error(`${JSON.stringify(level)} is not a log level; use one of ${LoggingLevels.join(', ')}`);
  await client.setLoggingLevel(level, timeoutMs === undefined ? undefined : { timeoutMs });
  return level;
}

// ---- Show Capabilities ----

/**
 * The capabilities document: the server's initialize result (a modern server's discover result)
 * as it arrived (versions, capabilities, server info, instructions, unknown fields kept) and
 * what this client declared.
 */
export function capabilitiesJson(client: McpClient): string {
  const initializeResult = client.initializeResult;
  const discoverResult = client.discoverResult;
  if (!initializeResult && !discoverResult) throw new McpLocalError('not-initialized', 'the server has not finished initializing, so there are no capabilities to show');
  const shown = initializeResult ? { initializeResult } : { protocolVersion: client.protocolVersion, discoverResult };
  // Cut like a result: a deep `experimental` or `_meta` would overflow JSON.stringify.
  return JSON.stringify(cutDeepJson({ ...shown, clientCapabilities: client.clientCapabilities }, MAX_SHOWN_DEPTH).value, null, 2);
}

// ---- Health ping ----

export type { ServerHealth } from '../registry/health';

/** What the monitor needs of a client: its state and a ping. `McpClient` has this shape. */
export type PingableClient = Pick<McpClient, 'state' | 'ping'>;

export interface HealthChange {
  readonly serverId: string;
  readonly name: string;
  readonly health: ServerHealth;
  readonly previous: ServerHealth | undefined;
}

export interface HealthMonitorOptions {
  /** The servers to watch (read on every tick). */
  listServers(): readonly { readonly id: string; readonly name: string }[];
  /** The client of a server, if it runs. Only `ready` clients are pinged. */
  getClient(serverId: string): PingableClient | undefined;
  /** The interval, read when (re)scheduling; 0 turns the ping off. */
  intervalMs(): number;
  /** How long one health ping may take; default min(10 s, the interval). */
  pingTimeoutMs?(intervalMs: number): number;
  /** A line in the server's log. */
  log?(serverId: string, level: 'info' | 'warn', text: string): void;
  now?(): number;
}

/**
 * Pings every ready server each interval and keeps each one's verdict: `ok` with the round
 * trip, `unresponsive` (since when, how many failures in a row) after a ping failed or timed
 * out, `unknown` once it stops running. A server answering again is `ok` again.
 * At most one health ping per server is in flight, so a slow server never piles them up.
 */
export class HealthMonitor implements Disposable {
  private timer: NodeJS.Timeout | undefined;
  private intervalInUse = 0;
  private disposed = false;
  private readonly health = new Map<string, ServerHealth>();
  private readonly inFlight = new Set<string>();
  private readonly _onDidChange = new Emitter<HealthChange>();
  /** Fires when a server's verdict changes kind (e.g. ok → unresponsive), not on every ping. */
  readonly onDidChange: Event<HealthChange> = this._onDidChange.event;

  constructor(private readonly options: HealthMonitorOptions) {
    this.reschedule();
  }

  get(serverId: string): ServerHealth | undefined {
    return this.health.get(serverId);
  }

  /** True while the periodic ping runs. */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Re-reads the interval and restarts the timer (or stops it at 0). */
  reschedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.disposed) return;
    const ms = this.options.intervalMs();
    if (!(ms > 0) || !Number.isFinite(ms)) return;
    this.intervalInUse = ms;
    this.timer = setInterval(() => void this.tick(), ms);
    // The health ping alone must never keep the process (a CLI, a test) alive.
    this.timer.unref?.();
  }

  /** One round of pings; resolves when every ping of the round settled. */
  async tick(): Promise<void> {
    if (this.disposed) return;
    const interval = this.intervalInUse || this.options.intervalMs() || 30_000;
    const timeoutMs = this.options.pingTimeoutMs?.(interval) ?? Math.min(HEALTH_PING_TIMEOUT_CAP_MS, interval);
    await Promise.all(this.options.listServers().map((server) => this.check(server, timeoutMs)));
  }

  private async check(server: { readonly id: string; readonly name: string }, timeoutMs: number): Promise<void> {
    const client = this.options.getClient(server.id);
    if (!client || client.state.kind !== 'ready') {
      if (this.health.has(server.id)) this.set(server, { kind: 'unknown' });
      return;
    }
    // The previous ping still waits (a slow or stuck server): let it finish or time out.
    if (this.inFlight.has(server.id)) return;
    this.inFlight.add(server.id);
    try {
      const rtt = await client.ping({ timeoutMs });
      if (this.disposed) return;
      if (this.health.get(server.id)?.kind === 'unresponsive') this.options.log?.(server.id, 'info', `Answering pings again (${rtt.toFixed(1)} ms).`);
      this.set(server, { kind: 'ok', rttMs: rtt, time: this.now() });
    } catch (error) {
      // A server that stopped or is stopping (or a monitor that did) is not "unresponsive":
      // close() rejects the ping while the client still reads 'ready'; the next tick says unknown.
      if (this.disposed || client.state.kind !== 'ready' || McpLocalError.is(error, 'closed') || McpLocalError.is(error, 'server-exited')) return;
      const was = this.health.get(server.id);
      const message = errorMessage(error);
      const failures = was?.kind === 'unresponsive' ? was.failures + 1 : 1;
      this.set(server, { kind: 'unresponsive', since: was?.kind === 'unresponsive' ? was.since : this.now(), failures, error: message });
      this.options.log?.(server.id, 'warn', `Health ping failed (${failures} in a row): ${message}`);
    } finally {
      this.inFlight.delete(server.id);
    }
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  private set(server: { readonly id: string; readonly name: string }, health: ServerHealth): void {
    const previous = this.health.get(server.id);
    this.health.set(server.id, health);
    if (previous?.kind !== health.kind) this._onDidChange.fire({ serverId: server.id, name: server.name, health, previous });
  }

  /** Stops the timer; pings still in flight are ignored when they settle. */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this._onDidChange.dispose();
  }
}
