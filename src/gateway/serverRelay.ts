// One shared server behind the gateway: its sessions, MCP Host's client of it (taken through the
// usual start path each time it is needed, so a restart is followed), and what comes from the
// server for every client: list changes, resource updates (to the sessions that subscribed; one
// upstream subscription per URI however many clients asked), log messages.
import { randomUUID } from 'node:crypto';
import type { McpClient } from '../client/client';
import { DisposableStore } from '../protocol/disposable';
import { errorMessage } from '../protocol/errors';
import type { LogSeverity } from '../protocol/logging';
import { GatewaySession, SessionHost } from './session';
import { initializeResultFor } from './eraBridge';

/** "42 s", "30 min". */
function formatDuration(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

/** A server the gateway serves, as its owner describes it. */
export interface SharedServer {
  /** The id in the endpoint's path (`/mcp/<key>`). */
  readonly key: string;
  /** The name the user knows it by: `serverInfo.name` in the `initialize` answer. */
  readonly name: string;
  /** MCP Host's client of the server, started (with trust and consent as usual) when it is not running. */
  acquire(signal: AbortSignal): Promise<McpClient>;
  /** False while nobody reads this server's relayed frames: they are then not handed to `onFrame` at all. */
  traced?(): boolean;
  /** True for a tool the user switched off for models: gateway clients neither see nor call it. */
  toolHidden?(name: string): boolean;
}

/** A relayed frame, for the server's trace: which gateway client, which way. */
export interface GatewayFrame {
  readonly serverKey: string;
  readonly clientName: string;
  readonly sessionId: string;
  readonly direction: 'from-client' | 'to-client';
  readonly message: unknown;
}

export interface ServerRelayOptions {
  log(level: LogSeverity, text: string): void;
  /** Makes room for one more session of `clientName`, or throws (SessionLimitError) when there is none. */
  admit?(clientName: string): void;
  onFrame?(frame: GatewayFrame): void;
  /** Removes secrets from the error texts sessions send their clients. */
  redact(text: string): string;
}

export class ServerRelay implements SessionHost {
  private readonly sessions = new Map<string, GatewaySession>();
  private readonly subscribers = new Map<string, Set<GatewaySession>>();
  private wired: McpClient | undefined;
  private wiring = new DisposableStore();

  constructor(
    public server: SharedServer,
    private readonly options: ServerRelayOptions,
  ) {}

  get sessionCount(): number {
    return this.sessions.size;
  }

  session(id: string): GatewaySession | undefined {
    return this.sessions.get(id);
  }

  /** Every open session. */
  openSessions(): IterableIterator<GatewaySession> {
    return this.sessions.values();
  }

  /** Answers `initialize`: starts (or reuses) MCP Host's connection and opens a session for the client. */
  async initialize(params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<{ session: GatewaySession; result: Record<string, unknown> }> {
    const upstream = await this.upstream(signal);
    const info = params?.clientInfo as { name?: unknown } | undefined;
    const clientName = typeof info?.name === 'string' && info.name.length > 0 ? info.name.slice(0, 100) : 'a gateway client';
    const capabilities = (params?.capabilities && typeof params.capabilities === 'object' ? params.capabilities : {}) as Record<string, unknown>;
    const result = initializeResultFor(upstream, params?.protocolVersion, this.server.name);
    // Checked right before the session is made (no await between): concurrent initializes cannot pass the limits together.
    this.options.admit?.(clientName);
    const session = new GatewaySession(randomUUID(), clientName, capabilities, result.protocolVersion as string, this);
    this.sessions.set(session.id, session);
    this.options.log('info', `gateway: ${clientName} connected (session ${session.id.slice(0, 8)}, protocol ${session.protocolVersion}, server speaks ${upstream.era ?? 'unknown'} era)`);
    return { session, result };
  }

  closeSession(id: string, why: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    session.close(why);
    for (const uri of session.subscriptions) void this.unsubscribe(session, uri, AbortSignal.timeout(10_000)).catch(() => {});
    this.options.log('info', `gateway: ${session.clientName} disconnected (${why})`);
    return true;
  }

  /** Closes the sessions idle for `idleMs` or longer (their clients then get 404 and initialize again); returns how many. */
  expireIdle(idleMs: number, now = Date.now()): number {
    let expired = 0;
    for (const [id, session] of this.sessions) {
      const since = session.idleSince();
      if (since === undefined || now - since < idleMs) continue;
      this.closeSession(id, `idle for ${formatDuration(now - since)}; the session expired`);
      expired++;
    }
    return expired;
  }

  async upstream(signal: AbortSignal): Promise<McpClient> {
    // The connection the sessions already follow, while it is up: no round through the owner per call.
    const wired = this.wired;
    if (wired?.state.kind === 'ready') return wired;
    const client = await this.server.acquire(signal);
    if (client !== this.wired) this.wire(client);
    return client;
  }

  async subscribe(session: GatewaySession, uri: string, signal: AbortSignal): Promise<void> {
    const upstream = await this.upstream(signal);
    let set = this.subscribers.get(uri);
    if (!set) {
      await upstream.subscribeResource(uri, { signal });
      set = this.subscribers.get(uri) ?? new Set();
      this.subscribers.set(uri, set);
    }
    set.add(session);
    session.subscriptions.add(uri);
  }

  async unsubscribe(session: GatewaySession, uri: string, signal: AbortSignal): Promise<void> {
    session.subscriptions.delete(uri);
    const set = this.subscribers.get(uri);
    if (!set?.delete(session) || set.size > 0) return;
    this.subscribers.delete(uri);
    const upstream = this.wired;
    if (upstream?.state.kind === 'ready') await upstream.unsubscribeResource(uri, { signal });
  }

  redact(text: string): string {
    return this.options.redact(text);
  }

  toolHidden(name: string): boolean {
    return this.server.toolHidden?.(name) === true;
  }

  trace(session: GatewaySession, direction: 'from-client' | 'to-client', message: unknown): void {
    if (!this.options.onFrame || this.server.traced?.() === false) return;
    this.options.onFrame({ serverKey: this.server.key, clientName: session.clientName, sessionId: session.id, direction, message });
  }

  /** Closes every session (the server is no longer shared, or the gateway stops). */
  dispose(why: string): void {
    for (const id of [...this.sessions.keys()]) this.closeSession(id, why);
    this.wiring.dispose();
  }

  /** Follows a (new) client of the server: its notifications reach the sessions; subscriptions are made again on it. */
  private wire(client: McpClient): void {
    this.wiring.dispose();
    this.wiring = new DisposableStore();
    this.wired = client;
    const broadcast = (method: string) => () => {
      for (const s of this.sessions.values()) s.notify(method);
    };
    this.wiring.add(client.onToolsListChanged(broadcast('notifications/tools/list_changed')));
    this.wiring.add(client.onResourcesListChanged(broadcast('notifications/resources/list_changed')));
    this.wiring.add(client.onPromptsListChanged(broadcast('notifications/prompts/list_changed')));
    this.wiring.add(
      client.onResourceUpdated((uri) => {
        for (const s of this.subscribers.get(uri) ?? []) s.notify('notifications/resources/updated', { uri });
      }),
    );
    this.wiring.add(
      client.onLogMessage((m) => {
        for (const s of this.sessions.values()) s.log(m.level, m as unknown as Record<string, unknown>);
      }),
    );
    for (const uri of this.subscribers.keys()) {
      client.subscribeResource(uri).catch((error) => this.options.log('warn', `gateway: could not subscribe to ${uri} again after the server restarted: ${errorMessage(error)}`));
    }
  }
}
