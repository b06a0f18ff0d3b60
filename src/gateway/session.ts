// One gateway client's session (one `Mcp-Session-Id`): what it declared, its log level and
// subscriptions, the requests it has in flight (so its `notifications/cancelled` reaches the
// server) and the requests the gateway sent it (a modern server's input requests, forwarded).
// Sessions never share ids or streams, and each reaches only the tasks it created, so one client
// never sees another's traffic (log messages and list changes go to every session).
import type { ServerResponse } from 'node:http';
import type { McpClient, ServerRequestHandlers } from '../client/client';
import { DEFAULT_REQUEST_TIMEOUT_MS, RequestHandler } from '../protocol/connection';
import { LoggingLevel, LoggingLevels } from '../client/schemas';
import { McpLocalError, ResponseError, WireError, errorMessage } from '../protocol/errors';
import { redactWireError } from '../protocol/redaction';
import { ErrorCodes, JsonRpcRequest, JsonRpcResponse, RequestId } from '../protocol/messages';
import { legacyResult } from './eraBridge';
import { refuseHiddenToolCall, withoutHiddenTools } from './modelToolFilter';
import { ResponseStream, writeSseEvent } from './responseStream';
import { SessionTasks } from './sessionTasks';

/** What a session needs from the server it belongs to. */
export interface SessionHost {
  /** MCP Host's client of the server, started if need be. */
  upstream(signal: AbortSignal): Promise<McpClient>;
  subscribe(session: GatewaySession, uri: string, signal: AbortSignal): Promise<void>;
  unsubscribe(session: GatewaySession, uri: string, signal: AbortSignal): Promise<void>;
  /** Removes secrets from an error text before the client gets it. */
  redact(text: string): string;
  /** A frame this session received (`from-client`) or sent (`to-client`), for the server's trace. */
  trace(session: GatewaySession, direction: 'from-client' | 'to-client', message: unknown): void;
  /** True for a tool the user switched off for models: not listed, not callable. */
  toolHidden(name: string): boolean;
}

/** Client capabilities that let the gateway forward an input request of that method. */
const FORWARDABLE: Readonly<Record<string, string>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

interface Outbound {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

/** A request of the client's in flight: how to cancel it, and the stream its answer goes to. */
interface Inflight {
  readonly abort: AbortController;
  readonly stream: ResponseStream;
  /** The client sent notifications/cancelled for it: it gets no answer. */
  cancelledByClient?: boolean;
}

export class GatewaySession {
  readonly subscriptions = new Set<string>();
  /** The standalone GET stream, where notifications not tied to a request go. */
  private standalone: ServerResponse | undefined;
  private logLevel: LoggingLevel | undefined;
  private readonly inflight = new Map<RequestId, Inflight>();
  private readonly outbound = new Map<RequestId, Outbound>();
  private nextOutboundId = 1;
  /** The tasks this session created: the only ones it may reach. */
  private readonly tasks = new SessionTasks();
  private closed = false;
  /** Whether the client declared any capability whose requests the gateway forwards to it. */
  private readonly forwardsAny: boolean;
  /** When the client last sent anything or had anything in flight (epoch ms), for the idle expiry. */
  private lastActive = Date.now();

  constructor(
    readonly id: string,
    /** `clientInfo.name` from its `initialize` (or "a gateway client"). */
    readonly clientName: string,
    readonly clientCapabilities: Readonly<Record<string, unknown>>,
    readonly protocolVersion: string,
    private readonly host: SessionHost,
  ) {
    this.forwardsAny = Object.values(FORWARDABLE).some((capability) => clientCapabilities[capability] !== undefined);
  }

  /** Takes the GET stream; false when the session has one already (a second would be ambiguous). */
  attachStream(res: ServerResponse): boolean {
    if (this.standalone && !this.standalone.writableEnded) return false;
    this.standalone = res;
    this.lastActive = Date.now();
    res.once('close', () => {
      if (this.standalone !== res) return;
      this.standalone = undefined;
      this.lastActive = Date.now();
    });
    return true;
  }

  /**
   * Since when the session has been idle (epoch ms), or undefined while it is in use: a request
   * in flight whose answer can still reach the client, a request to the client waiting (it is
   * bounded by the request timeout), or the GET stream open (a client that holds it is still there).
   */
  idleSince(): number | undefined {
    if (this.outbound.size > 0) return undefined;
    for (const { stream } of this.inflight.values()) if (stream.open) return undefined;
    if (this.standalone && !this.standalone.writableEnded && !this.standalone.destroyed) return undefined;
    return this.lastActive;
  }

  /** A notification not tied to a request: on the GET stream when there is one, else dropped (as the transport allows). */
  notify(method: string, params?: Record<string, unknown>): void {
    const stream = this.standalone;
    if (this.closed || !stream || stream.writableEnded) return;
    const message = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    this.host.trace(this, 'to-client', message);
    writeSseEvent(stream, message);
  }

  /** A server log message, when at or above the level this client set. */
  log(level: LoggingLevel, params: Record<string, unknown>): void {
    if (this.logLevel && LoggingLevels.indexOf(level) < LoggingLevels.indexOf(this.logLevel)) return;
    this.notify('notifications/message', params);
  }

  /** A request from the client; its answer goes to `stream`. */
  async handleRequest(request: JsonRpcRequest, stream: ResponseStream): Promise<void> {
    this.host.trace(this, 'from-client', request);
    const abort = new AbortController();
    const inflight: Inflight = { abort, stream };
    this.inflight.set(request.id, inflight);
    let answer: JsonRpcResponse;
    try {
      const result = await this.dispatch(request, stream, abort);
      answer = { jsonrpc: '2.0', id: request.id, result: result as Record<string, unknown> };
    } catch (error) {
      answer = { jsonrpc: '2.0', id: request.id, error: redactWireError(wireErrorOf(request.method, error), (text) => this.host.redact(text)) };
    }
    this.inflight.delete(request.id);
    this.lastActive = Date.now();
    // The spec: a request its sender cancelled is not answered; its stream just ends.
    if (inflight.cancelledByClient) return stream.end();
    this.host.trace(this, 'to-client', answer);
    stream.answer(answer);
  }

  /** A notification from the client. */
  handleNotification(method: string, params: Record<string, unknown> | undefined): void {
    this.lastActive = Date.now();
    this.host.trace(this, 'from-client', params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
    if (method === 'notifications/cancelled') {
      const id = params?.requestId;
      const inflight = typeof id === 'string' || typeof id === 'number' ? this.inflight.get(id) : undefined;
      if (inflight) inflight.cancelledByClient = true;
      inflight?.abort.abort(new McpLocalError('cancelled', `the gateway client cancelled: ${typeof params?.reason === 'string' ? params.reason : 'no reason given'}`));
    }
    // initialized, roots/list_changed (MCP Host owns the roots it gives servers) and the rest need nothing.
  }

  /** An answer from the client to a request the gateway sent it; false when no such request is waiting. */
  handleResponse(response: JsonRpcResponse): boolean {
    const waiting = response.id === null ? undefined : this.outbound.get(response.id);
    if (!waiting) return false;
    this.lastActive = Date.now();
    this.host.trace(this, 'from-client', response);
    this.outbound.delete(response.id!);
    if ('error' in response) waiting.reject(new WireError(response.error.code, response.error.message, response.error.data));
    else waiting.resolve(response.result);
    return true;
  }

  /** Ends the session: requests in flight are cancelled upstream, requests to the client fail, streams close. */
  close(why: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const { abort } of this.inflight.values()) abort.abort(new McpLocalError('cancelled', why));
    for (const waiting of this.outbound.values()) waiting.reject(new McpLocalError('closed', why));
    this.outbound.clear();
    this.standalone?.end();
  }

  private async dispatch(request: JsonRpcRequest, stream: ResponseStream, abort: AbortController): Promise<unknown> {
    const signal = abort.signal;
    const params = request.params;
    switch (request.method) {
      case 'ping':
        return {};
      case 'logging/setLevel': {
        const level = params?.level;
        if (!(LoggingLevels as readonly unknown[]).includes(level)) throw new WireError(ErrorCodes.InvalidParams, `logging/setLevel: unknown level ${JSON.stringify(level)}`);
        this.logLevel = level as LoggingLevel;
        return {};
      }
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const uri = params?.uri;
        if (typeof uri !== 'string') throw new WireError(ErrorCodes.InvalidParams, `${request.method}: params.uri must be a string`);
        if (request.method === 'resources/subscribe') await this.host.subscribe(this, uri, signal);
        else await this.host.unsubscribe(this, uri, signal);
        return {};
      }
      case 'initialize':
        throw new WireError(ErrorCodes.InvalidRequest, 'initialize: this session is initialized already');
    }
    this.tasks.check(request.method, params);
    refuseHiddenToolCall(request.method, params, (name) => this.host.toolHidden(name));
    const upstream = await this.host.upstream(signal);
    const meta = params?._meta as Record<string, unknown> | undefined;
    const token = meta?.progressToken;
    let sent = params;
    if (token !== undefined) {
      // MCP Host's connection gives the request its own token; progress goes back under the client's.
      const { progressToken: _token, ...restMeta } = meta!;
      sent = { ...params, _meta: restMeta };
      if (Object.keys(restMeta).length === 0) delete sent._meta;
    }
    const onProgress =
      token === undefined || (typeof token !== 'string' && typeof token !== 'number')
        ? undefined
        : (p: { progress: number; total?: number; message?: string }) => {
            const message = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, ...p } };
            this.host.trace(this, 'to-client', message);
            stream.sendBefore(message);
          };
    const handlers = this.forwardedRequests(stream, abort, upstream.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    const result = await upstream.relay(request.method, sent, { signal, onProgress, resetTimeoutOnProgress: onProgress !== undefined, ...(handlers ? { peerRequestHandlers: { owner: this, handlers } } : {}) });
    return withoutHiddenTools(request.method, legacyResult(upstream, this.tasks.follow(request.method, result)), (name) => this.host.toolHidden(name));
  }

  /**
   * The server's requests this client can answer itself, forwarded to it as legacy requests on the
   * stream of the request that caused them: a modern server's input requests, and a legacy
   * server's own sampling, elicitation and roots requests that belong to the relayed call. The
   * rest fall to MCP Host's own dialogs and policies (the upstream client's handlers). While the
   * client answers, the timeout of the call it belongs to waits (its user may be answering a
   * form), no other; the client has the request timeout to answer, and a client whose stream
   * closes meanwhile is gone: the call is cancelled upstream (its answer could not reach it).
   */
  private forwardedRequests(stream: ResponseStream, call: AbortController, timeoutMs: number): ServerRequestHandlers | undefined {
    if (!this.forwardsAny) return undefined;
    const handlers: Record<string, RequestHandler> = {};
    for (const [method, capability] of Object.entries(FORWARDABLE)) {
      if (this.clientCapabilities[capability] === undefined) continue;
      handlers[method] = async (params, context) => {
        const hold = context.waitOnUser();
        try {
          return await this.requestClient(method, params, stream, context.signal, timeoutMs, call);
        } finally {
          hold.dispose();
        }
      };
    }
    return handlers;
  }

  /**
   * Sends the client a request and waits for its answer (POSTed back as a response), for at most
   * `timeoutMs`. When the stream that carried it closes first, the client is gone: the request
   * fails and `call` (the relayed request it belongs to) is cancelled.
   */
  private requestClient(method: string, params: Record<string, unknown> | undefined, stream: ResponseStream, signal: AbortSignal, timeoutMs: number, call: AbortController): Promise<unknown> {
    const id = `gateway-${this.nextOutboundId++}`;
    const message = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new McpLocalError('closed', `${method}: the gateway session is closed`));
      const carrier = stream.open ? stream.response : this.standalone && !this.standalone.writableEnded ? this.standalone : undefined;
      if (!carrier) return reject(new McpLocalError('closed', `${method}: the gateway client has no open stream to receive it`));
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        this.outbound.delete(id);
        signal.removeEventListener('abort', onAbort);
        carrier.off('close', onClose);
        clearTimeout(timer);
      };
      const giveUp = (error: Error, tellClient: boolean) => {
        if (!this.outbound.has(id)) return;
        done();
        if (tellClient) this.notify('notifications/cancelled', { requestId: id, reason: error.message });
        reject(error);
      };
      const onAbort = () => giveUp(signal.reason instanceof Error ? signal.reason : new McpLocalError('cancelled', `${method}: cancelled`), true);
      const onClose = () => {
        if (!this.outbound.has(id)) return;
        giveUp(new McpLocalError('closed', `${method}: the gateway client ${this.clientName} went away before answering`), false);
        call.abort(new McpLocalError('cancelled', `the gateway client ${this.clientName} went away while the server waited on its ${method} answer`));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      carrier.once('close', onClose);
      timer = setTimeout(() => giveUp(new McpLocalError('timeout', `${method}: the gateway client ${this.clientName} did not answer within ${timeoutMs} ms`), true), timeoutMs);
      timer.unref();
      this.outbound.set(id, {
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
      this.host.trace(this, 'to-client', message);
      if (carrier === stream.response) stream.sendBefore(message);
      else writeSseEvent(carrier, message);
    });
  }
}

/** A failure as the error object a gateway client gets: the server's own error as it came, ours with a code that says what kind. */
function wireErrorOf(method: string, error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof ResponseError) return error.toWire();
  if (error instanceof WireError) return error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data };
  if (McpLocalError.is(error, 'capability')) return { code: ErrorCodes.MethodNotFound, message: error.message };
  if (McpLocalError.is(error, 'not-initialized') || McpLocalError.is(error, 'closed')) return { code: ErrorCodes.InternalError, message: `${method}: the server is not available through the gateway: ${error.message}` };
  return { code: ErrorCodes.InternalError, message: errorMessage(error) };
}
