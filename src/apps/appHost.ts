// The host side of the MCP Apps protocol for one view: JSON-RPC over postMessage, relayed by the
// webview, spoken by our own JsonRpcConnection (the one every server connection uses) over a
// transport whose "wire" is `ports.deliver` out and `receive()` in.
//
// What a view may ask is answered through ports the caller provides (the tool-call use case with
// its confirmation, history and log; the server's own resources; the URL-safety dialog; ...).
// Everything from the view is checked first (appGuard.ts: shape, size, rate) and logged at Trace
// as `[app → host]` / `[host → app]`. Notifications to the view wait until it said
// `ui/notifications/initialized`, as the specification requires. No `vscode` here.
import type { CallToolResult, ReadResourceResult } from '../client/schemas';
import { JsonRpcConnection } from '../protocol/connection';
import { Disposable } from '../protocol/disposable';
import { McpLocalError, ResponseError, WireError, errorMessage } from '../protocol/errors';
import { Emitter, Event } from '../protocol/events';
import type { LogSeverity } from '../protocol/logging';
import { ErrorCodes } from '../protocol/messages';
import type { OutboundFrame, Transport, TransportCloseInfo, TransportLog, TransportStats } from '../protocol/transport';
import * as z from '../protocol/zod';
import { APP_RATE, RateLimiter, checkAppMessage } from './appGuard';
import type { AppConversation } from './appConversation';
import { AppDisplayMode, AppHostContext, HOST_DISPLAY_MODES } from './hostContext';
import type { McpUiHostCapabilities, McpUiInitializeResult } from '@modelcontextprotocol/ext-apps' with { 'resolution-mode': 'import' };

/** The protocol versions of MCP Apps this host speaks, newest first. */
export const APP_PROTOCOL_VERSIONS = ['2026-01-26'] as const;

/** What the session needs from the host around it. */
export interface AppHostPorts {
  /** Sends one message to the view (through the webview). */
  deliver(message: Record<string, unknown>): void;
  /** Calls a tool of the view's own server, with the approval a call by hand needs; throws WireError when refused. */
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  /** Reads a resource of the view's own server; throws WireError when refused. */
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  /** Opens a link after the user agrees (the URL-safety dialog); throws WireError when refused or declined. */
  openLink(url: string, signal: AbortSignal): Promise<void>;
  readonly conversation: AppConversation;
  /** The view asks for another display mode; resolves with the mode it is in afterwards. */
  requestDisplayMode(mode: AppDisplayMode): Promise<AppDisplayMode>;
  /** The view's content size changed (CSS pixels). */
  sizeChanged(size: { readonly width?: number; readonly height?: number }): void;
  /** The view asks to be closed. */
  requestTeardown(): void;
  /** A line in the server's log. */
  log(level: LogSeverity, text: string): void;
  /** True while the server's log shows Trace: only then are the view's frames formatted. */
  tracing(): boolean;
}

export interface AppHostOptions {
  readonly hostInfo: { readonly name: string; readonly title?: string; readonly version: string };
  readonly hostCapabilities: McpUiHostCapabilities;
  /** The context the view starts with; later changes go through `updateContext`. */
  readonly hostContext: AppHostContext;
  /** How the view is named in the log ("the app of get-time"). */
  readonly label: string;
  /** Requests from the host to the view (teardown) give up after this long (ms). */
  readonly requestTimeoutMs?: number;
  readonly rate?: { readonly burst: number; readonly perSecond: number };
  readonly now?: () => number;
}

const MAX_TRACE_CHARS = 4000;

// ---- what the view may send, checked before its handler runs ----

const Implementation = z.looseObject({ name: z.string().check(z.maxLength(200)), version: z.string().check(z.maxLength(100)) });
const InitializeParams = z.looseObject({
  protocolVersion: z.string().check(z.maxLength(50)),
  appInfo: Implementation,
  appCapabilities: z.optional(z.looseObject({ availableDisplayModes: z.optional(z.array(z.string().check(z.maxLength(40))).check(z.maxLength(10))) })),
});
const ToolCallParams = z.looseObject({ name: z.string().check(z.minLength(1), z.maxLength(500)), arguments: z.optional(z.record(z.string(), z.unknown())) });
const ReadParams = z.looseObject({ uri: z.string().check(z.minLength(1), z.maxLength(8192)) });
const OpenLinkParams = z.looseObject({ url: z.string().check(z.minLength(1), z.maxLength(8192)) });
const Block = z.looseObject({ type: z.string().check(z.maxLength(40)) });
const MessageParams = z.looseObject({ role: z.literal('user'), content: z.array(Block).check(z.maxLength(100)) });
const ContextParams = z.looseObject({ content: z.optional(z.array(Block).check(z.maxLength(100))), structuredContent: z.optional(z.record(z.string(), z.unknown())) });
const DisplayModeParams = z.looseObject({ mode: z.enum(['inline', 'fullscreen', 'pip']) });
const SizeParams = z.looseObject({ width: z.optional(z.number().check(z.gte(0), z.lte(100_000))), height: z.optional(z.number().check(z.gte(0), z.lte(100_000))) });
const LogParams = z.looseObject({ level: z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']), logger: z.optional(z.string().check(z.maxLength(200))), data: z.unknown() });

function parse<T>(schema: z.ZodMiniType<T>, params: unknown, method: string): T {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new WireError(ErrorCodes.InvalidParams, `${method}: invalid params${issue ? ` (${issue.path.join('.') || 'params'}: ${issue.message})` : ''}`);
}

/** The view's log levels, as the server log's. */
const LEVEL: Record<string, LogSeverity> = { debug: 'debug', info: 'info', notice: 'info', warning: 'warn', error: 'error', critical: 'error', alert: 'error', emergency: 'error' };

/** The transport of one view: out through the port, in through `push()`. */
class ViewTransport implements Transport {
  private readonly _onMessage = new Emitter<{ readonly message: unknown; readonly bytes: number }>();
  readonly onMessage = this._onMessage.event;
  private readonly _onClose = new Emitter<TransportCloseInfo>();
  readonly onClose = this._onClose.event;
  private readonly _onLog = new Emitter<TransportLog>();
  readonly onLog = this._onLog.event;
  private closed = false;
  private sent = 0;
  private received = 0;

  constructor(private readonly out: (frame: OutboundFrame) => void) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(frame: OutboundFrame): Promise<void> {
    if (this.closed) return Promise.reject(new McpLocalError('closed', 'the app view is closed'));
    this.sent++;
    this.out(frame);
    return Promise.resolve();
  }

  push(message: unknown, bytes: number): void {
    if (this.closed) return;
    this.received++;
    this._onMessage.fire({ message, bytes });
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this._onClose.fire({ reason: { kind: 'closed-by-client' } });
    }
    return Promise.resolve();
  }

  stats(): TransportStats {
    return { bytesSent: 0, bytesReceived: 0, messagesSent: this.sent, messagesReceived: this.received, noiseLines: 0 };
  }

  dispose(): void {
    void this.close();
    this._onMessage.dispose();
    this._onClose.dispose();
    this._onLog.dispose();
  }
}

/** One view's session; dispose it when the view goes (after `teardown` when there is time). */
export class AppHostSession implements Disposable {
  private readonly transport: ViewTransport;
  private readonly connection: JsonRpcConnection;
  private readonly limiter: RateLimiter;
  private context: AppHostContext;
  private appModes: readonly string[] | undefined;
  private initialized = false;
  /** Notifications that wait for `initialized`, in order. */
  private readonly queued: Array<{ method: string; params: Record<string, unknown> }> = [];
  private readonly inflight = new Set<AbortController>();
  private floodTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly _onDidInitialize = new Emitter<{ readonly appInfo: { readonly name: string; readonly version: string } }>();
  /** The view finished `ui/initialize` and said `initialized`. */
  readonly onDidInitialize: Event<{ readonly appInfo: { readonly name: string; readonly version: string } }> = this._onDidInitialize.event;

  constructor(
    private readonly options: AppHostOptions,
    private readonly ports: AppHostPorts,
  ) {
    this.context = options.hostContext;
    const rate = options.rate ?? APP_RATE;
    this.limiter = new RateLimiter(rate.burst, rate.perSecond, options.now);
    this.transport = new ViewTransport((frame) => {
      if (this.ports.tracing()) this.ports.log('trace', `[host → app] ${frame.json.length > MAX_TRACE_CHARS ? `${frame.json.slice(0, MAX_TRACE_CHARS)}… (${frame.json.length} chars)` : frame.json}`);
      this.ports.deliver(frame.message as unknown as Record<string, unknown>);
    });
    this.connection = new JsonRpcConnection(this.transport, { defaultTimeoutMs: options.requestTimeoutMs ?? 5000 });
    this.connection.onDiagnostic((d) => this.ports.log('warn', `${options.label}: ${d.text}`));
    this.register();
  }

  /** Whether the view has completed the handshake. */
  get isInitialized(): boolean {
    return this.initialized;
  }

  /** The context as the view knows it (or will, at `ui/initialize`). */
  get hostContext(): AppHostContext {
    return this.context;
  }

  /** A message the webview relayed from the view: checked, rate-limited, logged, then handled. */
  receive(raw: unknown): void {
    if (this.disposed) return;
    if (!this.limiter.take()) {
      this.reportFlood();
      const checked = checkAppMessage(raw);
      // A refused request is still answered, so the view's SDK does not wait for it.
      if (checked.ok && checked.method && 'id' in checked.message) void this.transport.send(this.errorFrame(checked.message.id as string | number, ErrorCodes.TooManyRequests, 'Rate limited: the view sends too many messages'));
      return;
    }
    const checked = checkAppMessage(raw);
    if (!checked.ok) {
      this.ports.log('warn', `${this.options.label}: refused a message: ${checked.reason}`);
      if (checked.id !== undefined) void this.transport.send(this.errorFrame(checked.id, ErrorCodes.InvalidRequest, `Invalid message: ${checked.reason}`));
      return;
    }
    if (this.ports.tracing()) {
      const json = JSON.stringify(checked.message);
      this.ports.log('trace', `[app → host] ${json.length > MAX_TRACE_CHARS ? `${json.slice(0, MAX_TRACE_CHARS)}… (${json.length} chars)` : json}`);
    }
    this.transport.push(checked.message, checked.bytes);
  }

  private errorFrame(id: string | number, code: number, message: string): OutboundFrame {
    const response = { jsonrpc: '2.0' as const, id, error: { code, message } };
    return { json: JSON.stringify(response), message: response, info: { kind: 'response', id } };
  }

  /** One warning per second of flooding, with the count. */
  private reportFlood(): void {
    if (this.floodTimer) return;
    this.floodTimer = setTimeout(() => {
      this.floodTimer = undefined;
      const n = this.limiter.drained();
      if (n > 0 && !this.disposed) this.ports.log('warn', `${this.options.label}: rate limit: refused ${n} message(s) in the last second (more than ${(this.options.rate ?? APP_RATE).perSecond} a second)`);
    }, 1000);
    this.floodTimer.unref?.();
  }

  /** Sends a notification now, or once the view is initialized. */
  private notifyView(method: string, params: Record<string, unknown>): void {
    if (this.disposed) return;
    if (!this.initialized) {
      this.queued.push({ method, params });
      return;
    }
    void this.connection.notify(method, params).catch(() => {});
  }

  /** The arguments of the call the view shows (sent once, before its result). */
  toolInput(args: Record<string, unknown>): void {
    this.notifyView('ui/notifications/tool-input', { arguments: args });
  }

  toolResult(result: CallToolResult): void {
    this.notifyView('ui/notifications/tool-result', result as unknown as Record<string, unknown>);
  }

  toolCancelled(reason: string): void {
    this.notifyView('ui/notifications/tool-cancelled', { reason });
  }

  /** Merges a change into the host context and tells the view (host-context-changed) what changed. */
  updateContext(change: Partial<AppHostContext>): void {
    const changed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(change)) {
      if (JSON.stringify(this.context[key]) === JSON.stringify(value)) continue;
      changed[key] = value;
    }
    if (Object.keys(changed).length === 0) return;
    this.context = { ...this.context, ...changed };
    // Before initialize the view gets the whole context in its result; no notification needed.
    if (this.initialized) this.notifyView('ui/notifications/host-context-changed', changed);
  }

  /**
   * Asks the view to finish (`ui/resource-teardown`) and waits for its answer, at most the
   * request timeout; then the session closes. A view that never initialized is just closed.
   */
  async teardown(reason: string): Promise<void> {
    if (this.disposed) return;
    if (this.initialized) {
      try {
        // The package's schema (and its types) give this request empty params; the reason is logged here.
        this.ports.log('info', `${this.options.label}: tearing down (${reason})`);
        const asked = Date.now();
        await this.connection.request('ui/resource-teardown', {});
        this.ports.log('info', `${this.options.label}: the view answered ui/resource-teardown in ${Date.now() - asked} ms`);
      } catch (error) {
        this.ports.log('info', `${this.options.label}: ui/resource-teardown was not answered (${errorMessage(error)}); closing anyway`);
      }
    }
    this.dispose();
  }

  private register(): void {
    const c = this.connection;
    c.onRequest('ui/initialize', (params) => {
      const p = parse(InitializeParams, params, 'ui/initialize');
      this.appModes = p.appCapabilities?.availableDisplayModes;
      this.appInfo = { name: p.appInfo.name, version: p.appInfo.version };
      const version = (APP_PROTOCOL_VERSIONS as readonly string[]).includes(p.protocolVersion) ? p.protocolVersion : APP_PROTOCOL_VERSIONS[0];
      this.ports.log('info', `${this.options.label}: ${p.appInfo.name} ${p.appInfo.version} initializes (protocol ${p.protocolVersion}${version === p.protocolVersion ? '' : `, answered ${version}`})`);
      const result: McpUiInitializeResult = { protocolVersion: version, hostInfo: this.options.hostInfo, hostCapabilities: this.options.hostCapabilities, hostContext: this.context };
      return result;
    });
    c.onNotification('ui/notifications/initialized', () => {
      if (this.initialized) return;
      this.initialized = true;
      for (const q of this.queued.splice(0)) void c.notify(q.method, q.params).catch(() => {});
      this._onDidInitialize.fire({ appInfo: this.appInfo ?? { name: 'app', version: '' } });
    });
    c.onRequest('ping', () => ({}));
    c.onRequest('tools/call', (params, ctx) => {
      const p = parse(ToolCallParams, params, 'tools/call');
      return this.withAbort(ctx.signal, (signal) => this.ports.callTool(p.name, p.arguments ?? {}, signal));
    });
    c.onRequest('resources/read', (params, ctx) => {
      const p = parse(ReadParams, params, 'resources/read');
      return this.withAbort(ctx.signal, (signal) => this.ports.readResource(p.uri, signal));
    });
    c.onRequest('ui/open-link', async (params, ctx) => {
      const p = parse(OpenLinkParams, params, 'ui/open-link');
      await this.withAbort(ctx.signal, (signal) => this.ports.openLink(p.url, signal));
      return {};
    });
    c.onRequest('ui/message', async (params) => {
      const p = parse(MessageParams, params, 'ui/message');
      await this.ports.conversation.receive({ kind: 'message', role: p.role, content: p.content });
      return {};
    });
    c.onRequest('ui/update-model-context', async (params) => {
      const p = parse(ContextParams, params, 'ui/update-model-context');
      await this.ports.conversation.receive({ kind: 'context', ...(p.content ? { content: p.content } : {}), ...(p.structuredContent ? { structuredContent: p.structuredContent } : {}) });
      return {};
    });
    c.onRequest('ui/request-display-mode', async (params) => {
      const p = parse(DisplayModeParams, params, 'ui/request-display-mode');
      const current = (this.context.displayMode ?? 'inline') as AppDisplayMode;
      // Only a mode both sides offer; otherwise the view stays as it is (and is told so).
      const offered = HOST_DISPLAY_MODES.includes(p.mode) && (this.appModes === undefined || this.appModes.includes(p.mode));
      if (!offered) {
        this.ports.log('info', `${this.options.label}: display mode ${p.mode} requested; not offered, stays ${current}`);
        return { mode: current };
      }
      const mode = p.mode === current ? current : await this.ports.requestDisplayMode(p.mode);
      return { mode };
    });
    c.onNotification('ui/notifications/size-changed', (params) => {
      const parsed = SizeParams.safeParse(params ?? {});
      if (parsed.success) this.ports.sizeChanged(parsed.data);
    });
    c.onNotification('ui/notifications/request-teardown', () => this.ports.requestTeardown());
    c.onNotification('notifications/message', (params) => {
      const parsed = LogParams.safeParse(params ?? {});
      if (!parsed.success) return;
      const { level, logger, data } = parsed.data;
      let text: string;
      try {
        text = typeof data === 'string' ? data : JSON.stringify(data);
      } catch {
        text = String(data);
      }
      this.ports.log(LEVEL[level] ?? 'info', `${this.options.label} log ${level}${logger ? ` (${logger})` : ''}: ${text.slice(0, 2000)}`);
    });
    // The view's own tools list changing: MCP Host does not call app tools (yet); noted at Trace only.
    c.onNotification('notifications/tools/list_changed', () => {});
  }

  private appInfo: { name: string; version: string } | undefined;

  /** Runs a port call that stops when the view's request is cancelled or the session closes. */
  private async withAbort<T>(signal: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    const stop = () => abort.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    this.inflight.add(abort);
    try {
      return await run(abort.signal);
    } catch (error) {
      if (error instanceof WireError || error instanceof ResponseError) throw error;
      throw new WireError(ErrorCodes.InternalError, errorMessage(error));
    } finally {
      signal.removeEventListener('abort', stop);
      this.inflight.delete(abort);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.floodTimer) clearTimeout(this.floodTimer);
    for (const a of this.inflight) a.abort('the app view was closed');
    this.inflight.clear();
    this.connection.dispose();
    this.transport.dispose();
    this._onDidInitialize.dispose();
  }
}
