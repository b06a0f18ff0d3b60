// JsonRpcConnection: JSON-RPC 2.0 over a Transport (ids, timeouts with one sweep timer, progress,
// cancellation, dispatch of the peer's requests). Frames, request options, handler contracts and
// the records of requests in flight are in their own modules beside it.
import type * as z from './zod';
import { Disposable, DisposableStore } from './disposable';
import { McpLocalError, ResponseError, WireError, describeId, errorMessage } from './errors';
import { Emitter, Event } from './events';
import {
  ErrorCodes,
  JsonRpcFailure,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Message,
  RequestId,
  formatZodIssues,
} from './messages';
import { ConnectionStatsCollector, ConnectionStats } from './stats';
import { OutboundKind, Transport, TransportCloseInfo, TransportCloseReason, TransportLog } from './transport';
import { excerptOf } from './stderrExcerpt';
import { frameMessageOf } from './heldFrames';
import type { Frame } from './frame';
import { endUserWait, Inbound, peerHandlerOf, Pending, timesOf } from './pendingRequest';
import type { RequestOptions } from './requestOptions';
import type { NotificationHandler, RequestContext, RequestHandler } from './requestHandlers';

// The connection's parts, named here for its callers (one import path, as before the split).
export { frameJson, frameToKeep } from './frame';
export type { Frame } from './frame';
export type { PeerRequestHandlers, Progress, RequestOptions } from './requestOptions';
export type { NotificationHandler, RequestContext, RequestHandler } from './requestHandlers';

/** Something noteworthy the connection dropped or could not use; never fatal. */
export interface ConnectionDiagnostic {
  readonly kind: 'stray-response' | 'late-response' | 'invalid-message' | 'unhandled-notification' | 'handler-error' | 'batch';
  readonly text: string;
}

export interface ConnectionOptions {
  /** Default per-request timeout; 60 s when not set. */
  defaultTimeoutMs?: number;
  /** Methods for which a timeout or abort must not send `notifications/cancelled`. */
  uncancellableMethods?: readonly string[];
}

/** A request's timeout when neither the request nor the connection names one. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** How many abandoned ids we remember, to tell a late answer from a stray one. */
const ABANDONED_MEMORY = 1024;

/**
 * A JSON-RPC 2.0 connection over a Transport: correlation, timeouts, progress, cancellation,
 * inbound dispatch and envelope validation. Knows nothing of MCP's lifecycle (see McpClient).
 */
export class JsonRpcConnection implements Disposable {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly abandoned = new Set<RequestId>();
  private readonly progressRoutes = new Map<string | number, Pending>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly inbound = new Map<RequestId, Inbound>();
  /** Open holds of every timeout (pauseTimeouts(), a peer's request of no call of ours); all timeouts are paused while > 0. */
  private userWaits = 0;
  private readonly store = new DisposableStore();
  private readonly statsCollector = new ConnectionStatsCollector();
  private closedInfo: TransportCloseInfo | undefined;
  private closing = false;
  /** One timer for all request deadlines, armed for the earliest: a timer per request costs more than the request. */
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweepAt = Infinity;

  private readonly _onFrame = this.store.add(new Emitter<Frame>());
  /** Every frame in both directions. Payloads are only captured while someone listens. */
  readonly onFrame: Event<Frame> = this._onFrame.event;
  private readonly _onDiagnostic = this.store.add(new Emitter<ConnectionDiagnostic>());
  readonly onDiagnostic: Event<ConnectionDiagnostic> = this._onDiagnostic.event;
  private readonly _onClose = this.store.add(new Emitter<TransportCloseInfo>());
  /** Fires once when the transport closed, after every pending request was rejected. */
  readonly onClose: Event<TransportCloseInfo> = this._onClose.event;
  /** Diagnostics from the transport itself (stderr lines, stdout noise). */
  readonly onTransportLog: Event<TransportLog>;

  private readonly defaultTimeoutMs: number;
  private readonly uncancellable: ReadonlySet<string>;

  constructor(
    private readonly transport: Transport,
    options: ConnectionOptions = {},
  ) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.uncancellable = new Set(options.uncancellableMethods ?? []);
    this.onTransportLog = transport.onLog;
    this.store.add(transport.onMessage(({ message, bytes, relatedRequestId, text }) => this.receive(message, bytes, relatedRequestId, text)));
    this.store.add(transport.onClose((info) => this.handleClose(info)));
  }

  /** True until the transport closed. */
  get isOpen(): boolean {
    return this.closedInfo === undefined;
  }

  /** Why the transport closed, once it has. */
  get closeInfo(): TransportCloseInfo | undefined {
    return this.closedInfo;
  }

  stats(): ConnectionStats {
    return this.statsCollector.snapshot(this.transport.stats(), this.pending.size);
  }

  /**
   * Pauses every request's timeout (as a peer's waitOnUser() does) until the returned Disposable
   * is disposed: for a wait on the user this side started, such as a sign-in in the browser
   * while a request waits for its authorization.
   */
  pauseTimeouts(): Disposable {
    return this.holdForUser();
  }

  /**
   * Sends a request and resolves with its result, validated by `schema` when given.
   * Rejects with ResponseError for a wire error, McpLocalError for a local failure.
   */
  request<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> | undefined,
    schema?: z.ZodMiniType<T>,
    options: RequestOptions = {},
  ): Promise<T> {
    if (this.closedInfo || this.closing) return Promise.reject(this.closedError(method));
    if (options.signal?.aborted) return Promise.reject(new McpLocalError('cancelled', `${method}: cancelled before it was sent`));
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const entry = new Pending(id, method, Date.now(), schema, options.onProgress, timeoutMs, options.maxTotalTimeoutMs, options.resetTimeoutOnProgress === true, options.mayAskUser === true, options.onTimeoutPaused);
    const promise = new Promise<T>((resolve, reject) => {
      entry.resolve = resolve as (value: unknown) => void;
      entry.reject = reject;
    });
    if (options.peerRequestHandlers) entry.peerHandlers = options.peerRequestHandlers;
    entry.holdAnswer = options.holdAnswerFromFrames === true;
    this.pending.set(id, entry);
    if (entry.onProgress) this.progressRoutes.set(id, entry);
    this.statsCollector.requestSent(method);
    if (entry.hasTimeout) this.arm(entry);
    if (options.signal) this.watchSignal(entry, options.signal);
    options.onRequestId?.(id);
    this.sendRequest(entry, params);
    return promise;
  }

  /** Serialises and writes a request; a write that fails fails that request. */
  private sendRequest(entry: Pending, params: Record<string, unknown> | undefined): void {
    const { id, method } = entry;
    let outParams = params;
    if (entry.onProgress) {
      // The request id doubles as the progress token: it is unique for the session.
      outParams = { ...params, _meta: { ...(params?._meta as object | undefined), progressToken: id } };
    }
    const message: JsonRpcRequest = outParams === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: outParams };
    this.write(message, { kind: 'request', id, method }).then(undefined, (error: Error) => {
      if (this.pending.get(id) === entry) {
        this.settle(entry);
        this.statsCollector.failed(method, ...timesOf(entry));
        entry.reject(this.sendError(method, error));
      }
    });
  }

  /**
   * (Re)starts the request's timeout: `timeoutMs` from now, capped by its maximum total time.
   * While the peer waits on the user the timeout stays paused (with all of it left) and only the
   * maximum total time runs.
   */
  private arm(entry: Pending): void {
    const hardDeadline = entry.maxTotalMs !== undefined ? entry.started + entry.maxTotalMs : Infinity;
    if (this.userWaits > 0 || entry.holds > 0) {
      const wasPaused = entry.pausedRemaining !== undefined;
      entry.pausedRemaining = entry.timeoutMs;
      this.setDeadline(entry, hardDeadline);
      if (!wasPaused) this.tellPaused(entry, true);
      return;
    }
    this.setDeadline(entry, Math.min(Date.now() + entry.timeoutMs, hardDeadline));
  }

  private setDeadline(entry: Pending, deadline: number): void {
    entry.deadline = deadline === Infinity ? undefined : deadline;
    if (entry.deadline !== undefined) this.scheduleSweep(entry.deadline);
  }

  private tellPaused(entry: Pending, paused: boolean): void {
    try {
      entry.onTimeoutPaused?.(paused);
    } catch (error) {
      this.diagnose('handler-error', `timeout pause listener failed: ${(error as Error).message}`);
    }
  }

  /**
   * A hold on the user. Given the requests of ours a peer's request belongs to, it pauses only
   * their timeouts (a gateway client answering one call's form must not stop every other
   * request's clock); without, every timeout (a wait this side started, a request of no call).
   * The last hold's end restarts each timeout with what it had left.
   */
  private holdForUser(only?: ReadonlySet<Pending>): Disposable {
    if (only && only.size > 0) {
      const held = [...only];
      const now = Date.now();
      for (const entry of held) if (entry.holds++ === 0 && this.userWaits === 0) this.pauseEntry(entry, now);
      return Disposable.from(() => {
        const end = Date.now();
        for (const entry of held) if (--entry.holds === 0 && this.userWaits === 0 && this.pending.get(entry.id) === entry) this.resumeEntry(entry, end);
      });
    }
    if (this.userWaits++ === 0) {
      const now = Date.now();
      for (const entry of this.pending.values()) if (entry.holds === 0) this.pauseEntry(entry, now);
    }
    return Disposable.from(() => {
      if (--this.userWaits > 0) return;
      const now = Date.now();
      for (const entry of this.pending.values()) if (entry.holds === 0) this.resumeEntry(entry, now);
    });
  }

  private pauseEntry(entry: Pending, now: number): void {
    if (entry.mayAskUser) entry.userWaitSince = now;
    if (!entry.hasTimeout || entry.deadline === undefined || entry.pausedRemaining !== undefined) return;
    entry.pausedRemaining = Math.max(0, entry.deadline - now);
    this.setDeadline(entry, entry.maxTotalMs !== undefined ? entry.started + entry.maxTotalMs : Infinity);
    this.tellPaused(entry, true);
  }

  private resumeEntry(entry: Pending, now: number): void {
    endUserWait(entry, now);
    if (entry.pausedRemaining === undefined) return;
    const hardDeadline = entry.maxTotalMs !== undefined ? entry.started + entry.maxTotalMs : Infinity;
    this.setDeadline(entry, Math.min(now + entry.pausedRemaining, hardDeadline));
    entry.pausedRemaining = undefined;
    this.tellPaused(entry, false);
  }

  private expire(entry: Pending): void {
    const total = Date.now() - entry.started;
    const max = entry.maxTotalMs;
    const why = max !== undefined && total >= max ? `exceeded its maximum total time of ${max} ms` : `timed out after ${entry.timeoutMs} ms`;
    this.statsCollector.timedOut(entry.method);
    this.abandon(entry, 'timeout', new McpLocalError('timeout', `${entry.method} ${why} (request id ${entry.id})`, { timeoutMs: entry.timeoutMs, elapsedMs: total }));
  }

  private watchSignal(entry: Pending, signal: AbortSignal): void {
    const onAbort = () => {
      const reason = signal.reason instanceof Error ? signal.reason.message : typeof signal.reason === 'string' ? signal.reason : 'cancelled by the user';
      this.statsCollector.cancelled(entry.method);
      this.abandon(entry, reason, new McpLocalError('cancelled', `${entry.method} was cancelled: ${reason}`));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    entry.cleanup = () => signal.removeEventListener('abort', onAbort);
  }

  /** Sends a notification. Resolves when it was written. */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closedInfo) return Promise.reject(this.closedError(method));
    const message: JsonRpcNotification = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return this.write(message, { kind: 'notification', method });
  }

  /** Handles requests the peer sends for `method`. One handler per method; the last one wins. */
  onRequest(method: string, handler: RequestHandler): Disposable {
    this.requestHandlers.set(method, handler);
    return Disposable.from(() => {
      if (this.requestHandlers.get(method) === handler) this.requestHandlers.delete(method);
    });
  }

  /** Handles notifications the peer sends for `method`. */
  onNotification(method: string, handler: NotificationHandler): Disposable {
    this.notificationHandlers.set(method, handler);
    return Disposable.from(() => {
      if (this.notificationHandlers.get(method) === handler) this.notificationHandlers.delete(method);
    });
  }

  /**
   * Closes the connection: every pending request is cancelled on the wire first (so the server
   * can stop work), then rejected locally, then the transport closes.
   */
  async close(reason = 'the client is shutting down'): Promise<void> {
    if (this.closing) return this.transport.close();
    this.closing = true;
    const pending = [...this.pending.values()];
    for (const entry of pending) {
      this.abandon(entry, reason, new McpLocalError('closed', `${entry.method} was cancelled: ${reason}`));
    }
    await this.transport.close();
  }

  dispose(): void {
    void this.close().catch(() => {});
    this.store.dispose();
  }

  // ---- outbound ----

  /** Serialises a message once and hands it to the transport with what it is. */
  private write(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse, info: OutboundKind): Promise<void> {
    const json = JSON.stringify(message);
    if (this._onFrame.hasListeners) {
      this._onFrame.fire({ direction: 'send', message, bytes: Buffer.byteLength(json), time: Date.now(), text: json });
    }
    return this.transport.send({ json, message, info });
  }

  /** Gives up on a request: removes it, tells the server (unless forbidden) and rejects. */
  private abandon(entry: Pending, reason: string, error: Error): void {
    if (this.pending.get(entry.id) !== entry) return;
    this.settle(entry);
    this.rememberAbandoned(entry.id);
    if (!this.uncancellable.has(entry.method) && !this.closedInfo) {
      this.notify('notifications/cancelled', { requestId: entry.id, reason }).catch(() => {});
    }
    entry.reject(error);
  }

  private scheduleSweep(deadline: number): void {
    if (deadline >= this.sweepAt) return;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepAt = deadline;
    this.sweepTimer = setTimeout(() => this.sweep(), Math.max(0, deadline - Date.now()));
    this.sweepTimer.unref?.();
  }

  /** Fails every request past its deadline and re-arms for the next one. */
  private sweep(): void {
    this.sweepTimer = undefined;
    this.sweepAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    const expired: Pending[] = [];
    for (const entry of this.pending.values()) {
      if (entry.deadline === undefined) continue;
      if (entry.deadline <= now) expired.push(entry);
      else if (entry.deadline < next) next = entry.deadline;
    }
    for (const entry of expired) this.expire(entry);
    if (next < Infinity) this.scheduleSweep(next);
  }

  private settle(entry: Pending): void {
    this.pending.delete(entry.id);
    this.progressRoutes.delete(entry.id);
    entry.cleanup?.();
    if (entry.mayAskUser) this.endOrigin(entry);
  }

  /** Our request ended: a request of the peer's that asks the user and only it could have caused is closed. */
  private endOrigin(entry: Pending): void {
    for (const [id, inbound] of this.inbound) {
      if (!inbound.origins.delete(entry) || inbound.origins.size > 0 || !inbound.asksUser) continue;
      this.inbound.delete(id);
      const reason = new McpLocalError('cancelled', `the ${entry.method} request (id ${describeId(entry.id)}) that it came with has ended`);
      inbound.controller.abort(reason);
      // The peer did not cancel it, so it still waits for an answer.
      if (!this.closedInfo) this.respondError(id, ErrorCodes.InternalError, `Cancelled by the client: ${reason.message}`);
    }
  }

  private rememberAbandoned(id: RequestId): void {
    this.abandoned.add(id);
    if (this.abandoned.size > ABANDONED_MEMORY) {
      const oldest = this.abandoned.values().next().value as RequestId;
      this.abandoned.delete(oldest);
    }
  }

  // ---- inbound ----

  private receive(value: unknown, bytes: number, relatedRequestId?: RequestId | null, text?: string): void {
    if (this._onFrame.hasListeners) {
      const shown = frameMessageOf(value, (id) => this.pending.get(id as RequestId)?.holdAnswer === true);
      this._onFrame.fire({ direction: 'receive', message: shown, bytes, time: Date.now(), text: shown === value && text !== undefined && !text.includes('\\') ? text : undefined });
    }
    if (Array.isArray(value)) {
      // JSON-RPC batches (allowed by 2025-03-26 only): unpack and handle each member in order.
      if (value.length === 0) {
        this.diagnose('invalid-message', 'received an empty batch');
        return;
      }
      this.diagnose('batch', `received a batch of ${value.length} messages`);
      for (const item of value) this.dispatch(item);
      return;
    }
    this.dispatch(value, relatedRequestId);
  }

  private dispatch(value: unknown, relatedRequestId?: RequestId | null): void {
    const c = Message.classify(value);
    switch (c.kind) {
      case 'response':
        this.handleResponse(c.message);
        return;
      case 'request':
        this.handleRequest(c.message, relatedRequestId);
        return;
      case 'notification':
        this.handleNotification(c.message);
        return;
      case 'invalid':
        this.diagnose('invalid-message', c.reason);
        if (c.id !== undefined && typeof (value as { method?: unknown }).method === 'string') {
          this.respondError(c.id, ErrorCodes.InvalidRequest, c.reason);
        } else if (c.id !== undefined && this.pending.has(c.id)) {
          // A malformed answer to one of ours: fail that call, not the connection.
          const entry = this.pending.get(c.id)!;
          this.settle(entry);
          this.statsCollector.failed(entry.method, ...timesOf(entry));
          entry.reject(new McpLocalError('invalid-result', `${entry.method}: ${c.reason}`));
        }
        return;
      default: {
        const never: never = c;
        return never;
      }
    }
  }

  private handleResponse(message: JsonRpcResponse): void {
    const id = message.id;
    const entry = id === null ? undefined : this.pending.get(id);
    if (!entry) {
      if (id !== null && this.abandoned.has(id)) {
        this.diagnose('late-response', `ignored a late response to request ${describeId(id)}, which was already cancelled or timed out`);
      } else if (Message.isFailure(message)) {
        this.diagnose('stray-response', `dropped an error response with unknown id ${describeId(id)}: ${message.error.code} ${message.error.message}`);
      } else {
        this.diagnose('stray-response', `dropped a response with unknown or already answered id ${describeId(id)}`);
      }
      return;
    }
    this.settle(entry);
    const latency = timesOf(entry);
    if (Message.isFailure(message)) {
      this.statsCollector.failed(entry.method, ...latency);
      const { code, message: text, data } = (message as JsonRpcFailure).error;
      entry.reject(new ResponseError(entry.method, code, text, data));
      return;
    }
    if (entry.schema) {
      const parsed = entry.schema.safeParse(message.result);
      if (!parsed.success) {
        this.statsCollector.failed(entry.method, ...latency);
        entry.reject(new McpLocalError('invalid-result', `${entry.method}: ${formatZodIssues(parsed.error, 'result', message.result)}`, { result: message.result }));
        return;
      }
      this.statsCollector.succeeded(entry.method, ...latency);
      entry.resolve(parsed.data);
      return;
    }
    this.statsCollector.succeeded(entry.method, ...latency);
    entry.resolve(message.result);
  }

  private handleNotification(message: JsonRpcNotification): void {
    const params = message.params;
    if (message.method === 'notifications/progress') {
      const token = params?.progressToken as string | number | undefined;
      const route = token === undefined ? undefined : this.progressRoutes.get(token);
      if (route?.onProgress && typeof params?.progress === 'number') {
        if (route.resetOnProgress && route.deadline !== undefined) this.arm(route);
        try {
          route.onProgress({
            progress: params.progress,
            total: typeof params.total === 'number' ? params.total : undefined,
            message: typeof params.message === 'string' ? params.message : undefined,
          });
        } catch (error) {
          this.diagnose('handler-error', `progress listener failed: ${(error as Error).message}`);
        }
      }
    } else if (message.method === 'notifications/cancelled') {
      const requestId = params?.requestId as RequestId | undefined;
      const inbound = requestId === undefined ? undefined : this.inbound.get(requestId);
      if (inbound) {
        this.inbound.delete(requestId!);
        inbound.controller.abort(typeof params?.reason === 'string' ? params.reason : 'cancelled by the server');
      }
    }
    const handler = this.notificationHandlers.get(message.method);
    if (handler) {
      try {
        handler(params);
      } catch (error) {
        this.diagnose('handler-error', `handler for ${message.method} failed: ${(error as Error).message}`);
      }
    } else if (message.method !== 'notifications/progress' && message.method !== 'notifications/cancelled') {
      this.diagnose('unhandled-notification', `no handler for notification ${message.method}`);
    }
  }

  /** `relatedRequestId`: see Transport.onMessage (null: it came with none of our requests). */
  private handleRequest(message: JsonRpcRequest, relatedRequestId?: RequestId | null): void {
    const origins = new Set<Pending>();
    const related = relatedRequestId === undefined || relatedRequestId === null ? undefined : this.pending.get(relatedRequestId);
    if (related?.mayAskUser) origins.add(related);
    else for (const entry of this.pending.values()) if (entry.mayAskUser) origins.add(entry);
    const handler = (relatedRequestId === null ? undefined : peerHandlerOf(origins, message.method)) ?? this.requestHandlers.get(message.method);
    if (!handler) {
      this.respondError(message.id, ErrorCodes.MethodNotFound, `Method not found: ${message.method}`);
      return;
    }
    const controller = new AbortController();
    const inbound = new Inbound(controller, origins);
    this.inbound.set(message.id, inbound);
    const holds = new DisposableStore();
    // However the request ends (answered, failed, cancelled), its holds on the timeouts go.
    controller.signal.addEventListener('abort', () => holds.dispose(), { once: true });
    const context: RequestContext = {
      id: message.id,
      method: message.method,
      signal: controller.signal,
      waitOnUser: () => {
        if (controller.signal.aborted) return Disposable.None;
        inbound.asksUser = true;
        return holds.add(this.holdForUser(inbound.origins));
      },
    };
    Promise.resolve()
      .then(() => (controller.signal.aborted ? undefined : handler(message.params, context)))
      .then(
        (result) => {
          if (controller.signal.aborted) return; // cancelled: the spec says not to answer
          holds.dispose();
          this.inbound.delete(message.id);
          const body = result && typeof result === 'object' ? (result as Record<string, unknown>) : {};
          this.write({ jsonrpc: '2.0', id: message.id, result: body }, { kind: 'response', id: message.id }).catch(() => {});
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          holds.dispose();
          this.inbound.delete(message.id);
          // Only the message crosses the wire: never a stack trace.
          if (error instanceof WireError) this.respondError(message.id, error.code, error.message, error.data);
          else if (error instanceof ResponseError) this.respondError(message.id, error.code, error.wireMessage, error.data);
          else {
            const text = errorMessage(error);
            this.diagnose('handler-error', `handler for ${message.method} failed: ${text}`);
            this.respondError(message.id, ErrorCodes.InternalError, text || 'Internal error');
          }
        },
      );
  }

  private respondError(id: RequestId, code: number, message: string, data?: unknown): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.write({ jsonrpc: '2.0', id, error }, { kind: 'response', id }).catch(() => {});
  }

  private handleClose(info: TransportCloseInfo): void {
    if (this.closedInfo) return;
    this.closedInfo = info;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    for (const inbound of this.inbound.values()) inbound.controller.abort('the connection closed');
    this.inbound.clear();
    const pending = [...this.pending.values()];
    for (const entry of pending) {
      this.settle(entry);
      entry.reject(this.closedError(entry.method));
    }
    this._onClose.fire(info);
  }

  private closedError(method: string): McpLocalError {
    const info = this.closedInfo;
    if (!info || this.closing) return new McpLocalError('closed', `${method}: the connection is closed`);
    const { reason } = info;
    const details = { method, reason, ...(info.process ? { stderrTail: info.process.stderrTail, stderrExcerpt: info.process.stderrExcerpt ?? excerptOf(info.process.stderrTail) } : {}) };
    if (reason.kind === 'process-exited') {
      // The lines that explain the exit (a missing variable named early survives a long stack trace).
      const tail = details.stderrExcerpt?.length ? `; stderr: ${details.stderrExcerpt.join(' | ')}` : '';
      return new McpLocalError('server-exited', `${method}: the server ${TransportCloseReason.describe(reason)}${tail}`, { ...details, code: reason.code, signal: reason.signal });
    }
    if (reason.kind === 'closed-by-client') return new McpLocalError('closed', `${method}: the connection is closed`, details);
    return new McpLocalError(reason.kind === 'start-failed' ? 'closed' : 'transport', `${method}: the server ${TransportCloseReason.describe(reason)}`, details);
  }

  /** The error for a request whose message the transport could not deliver. */
  private sendError(method: string, error: Error): McpLocalError {
    if (this.closedInfo) return this.closedError(method);
    // A transport failure that names its cause (an HTTP status, a body that is not JSON-RPC) is kept as it is.
    if (McpLocalError.is(error) && error.kind !== 'closed') return new McpLocalError(error.kind, `${method}: ${error.message}`, { method, ...error.details });
    return new McpLocalError('closed', `${method}: could not send: ${error.message}`);
  }

  private diagnose(kind: ConnectionDiagnostic['kind'], text: string): void {
    this._onDiagnostic.fire({ kind, text });
  }
}
