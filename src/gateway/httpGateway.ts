// The loopback Streamable HTTP endpoint other MCP clients use to reach MCP Host's connections:
// one path per shared server (`/mcp/<key>`), bound to 127.0.0.1 only. Every request must carry
// this run's random secret in a header (or as a bearer token), a Host naming the loopback address (DNS rebinding) and no
// foreign Origin; bodies are capped; nothing is served while the workspace is untrusted.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isSupportedVersion } from '../client/schemas';
import { McpLocalError, errorMessage } from '../protocol/errors';
import { Redact, redactKnownShapes } from '../protocol/redaction';
import type { LogSeverity } from '../protocol/logging';
import { ErrorCodes, Message } from '../protocol/messages';
import { RefusalLog } from './refusalLog';
import { ResponseStream } from './responseStream';
import { GatewayFrame, ServerRelay, SharedServer } from './serverRelay';
import type { GatewaySession } from './session';

/** The header that carries the secret. */
export const GATEWAY_SECRET_HEADER = 'x-mcp-host-gateway-secret';
const SESSION_HEADER = 'mcp-session-id';
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** See McpGatewayOptions.sessionIdleMs. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** See McpGatewayOptions.maxSessions. */
export const DEFAULT_MAX_SESSIONS = 256;
/** See McpGatewayOptions.maxSessionsPerClient. */
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 32;

/** No session can be opened: the limit is reached and every session counted against it is in use. */
export class SessionLimitError extends Error {}

export interface McpGatewayOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Largest request body accepted, bytes (4 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number;
  /**
   * A session with nothing in flight and no GET stream open for this long is closed, its
   * subscriptions and requests freed; its client then gets 404 and initializes again, as the
   * Streamable HTTP transport says. 30 minutes by default; 0 never expires sessions.
   */
  readonly sessionIdleMs?: number;
  /**
   * Most sessions open at once, over every server (256), and per client name (32). At a limit the
   * oldest idle session counted against it is closed to make room; when none is idle the new
   * session is refused with 429.
   */
  readonly maxSessions?: number;
  readonly maxSessionsPerClient?: number;
  /** Refused requests are logged in full once per this many ms; the rest are counted in one line (10 s). */
  readonly refusalLogWindowMs?: number;
  /** The servers shared now; asked on every request, so un-sharing takes effect at once. */
  servers(): readonly SharedServer[];
  /** Undefined while the gateway may serve; otherwise why not (the workspace is untrusted). */
  notServing?(): string | undefined;
  /** Lines for the log; `serverKey` when they are about one server. Never given the secret. */
  log(level: LogSeverity, text: string, serverKey?: string): void;
  /** Every frame relayed to and from gateway clients (for the server's trace). */
  onFrame?(frame: GatewayFrame): void;
  /** Removes known secrets from the error texts clients get (the logs' redaction); URL credentials and Authorization headers always go. */
  redact?(text: string): string;
}

/** How a client reaches one shared server. */
export interface GatewayEndpoint {
  readonly key: string;
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export class McpGateway {
  private server: Server | undefined;
  private boundPort = 0;
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly secretBytes = Buffer.from(this.secret);
  private readonly relays = new Map<string, ServerRelay>();
  /** The Host values a request may carry (and `http://` + one of them as its Origin); set once listening. */
  private allowedHosts: readonly string[] = [];
  private expiryTimer: NodeJS.Timeout | undefined;
  /** Every error text a client gets goes through it. */
  private readonly redact: Redact = (text) => (this.options.redact ?? redactKnownShapes)(redactKnownShapes(text));
  private readonly refusals: RefusalLog;

  constructor(private readonly options: McpGatewayOptions) {
    this.refusals = new RefusalLog((level, text, key) => options.log(level, text, key), options.refusalLogWindowMs);
  }

  /** Listens on 127.0.0.1; resolves with the port. */
  async start(): Promise<number> {
    if (this.server) return this.boundPort;
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        this.options.log('error', `gateway: ${req.method} ${req.url}: ${errorMessage(error)}`);
        if (!res.headersSent) plain(res, 500, 'internal error');
        else res.end();
      });
    });
    // fetch-based clients open a socket per request in flight and keep them pooled between
    // bursts: a short keep-alive would close a socket just as the client reuses it ("fetch
    // failed"), and a small backlog drops a burst of connections.
    server.keepAliveTimeout = 60_000;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: this.options.port ?? 0, host: '127.0.0.1', backlog: 4096 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.boundPort = (server.address() as AddressInfo).port;
    this.allowedHosts = [`127.0.0.1:${this.boundPort}`, `localhost:${this.boundPort}`];
    const idleMs = this.options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    if (idleMs > 0 && Number.isFinite(idleMs)) {
      // One sweep for every session: a session expires at most a quarter of the idle time late (a minute at most).
      this.expiryTimer = setInterval(() => this.expireIdle(idleMs), Math.min(60_000, Math.max(50, idleMs / 4)));
      this.expiryTimer.unref();
    }
    return this.boundPort;
  }

  get port(): number {
    return this.boundPort;
  }

  /** The headers a client must send (they carry the secret: give them only to the client). */
  get headers(): Readonly<Record<string, string>> {
    return { [GATEWAY_SECRET_HEADER]: this.secret };
  }

  /** Where `key` is served. */
  endpoint(server: Pick<SharedServer, 'key' | 'name'>): GatewayEndpoint {
    return { key: server.key, name: server.name, url: `http://127.0.0.1:${this.boundPort}/mcp/${encodeURIComponent(server.key)}`, headers: this.headers };
  }

  /** How many clients are connected, per server key. */
  sessionCounts(): Record<string, number> {
    return Object.fromEntries([...this.relays].map(([key, relay]) => [key, relay.sessionCount]));
  }

  /** Closes the sessions of servers no longer shared (call when the shared set changes). */
  prune(why = 'the server is no longer shared'): void {
    const shared = new Set(this.options.servers().map((s) => s.key));
    for (const [key, relay] of this.relays) {
      if (shared.has(key)) continue;
      relay.dispose(why);
      this.relays.delete(key);
    }
  }

  /** Ends every session and stops listening. */
  async close(): Promise<void> {
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    this.expiryTimer = undefined;
    for (const relay of this.relays.values()) relay.dispose('the gateway stopped');
    this.relays.clear();
    this.refusals.dispose();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private expireIdle(idleMs: number): void {
    const now = Date.now();
    for (const relay of this.relays.values()) relay.expireIdle(idleMs, now);
  }

  /** Makes room for a new session of `clientName` under both limits (see McpGatewayOptions.maxSessions). */
  private admit(clientName: string): void {
    const open = () => [...this.relays.values()].flatMap((relay) => [...relay.openSessions()].map((session) => ({ relay, session })));
    const perClient = this.options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT;
    makeRoom(open().filter(({ session }) => session.clientName === clientName), perClient, `${clientName} has ${perClient} sessions open, the most one client may have`);
    const max = this.options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    makeRoom(open(), max, `the gateway has ${max} sessions open, the most it serves`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends its own Host and Origin.
    const allowed = this.allowedHosts;
    if (!allowed.includes(req.headers.host ?? '')) return this.refuse(req, res, 403, `Host ${JSON.stringify(req.headers.host ?? '')} is not the gateway's loopback address`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.some((a) => origin === `http://${a}`)) return this.refuse(req, res, 403, `Origin ${JSON.stringify(origin)} may not use the gateway`);
    if (!this.hasSecret(req)) return this.refuse(req, res, 401, `no valid ${GATEWAY_SECRET_HEADER} header or bearer token`);
    const untrusted = this.options.notServing?.();
    if (untrusted !== undefined) return this.refuse(req, res, 503, untrusted);
    const relay = this.relayFor(req.url ?? '');
    if (!relay) return this.refuse(req, res, 404, 'no server is shared at this path');
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !isSupportedVersion(version)) return jsonError(res, 400, ErrorCodes.InvalidRequest, `unsupported MCP-Protocol-Version ${JSON.stringify(version)}`);
    switch (req.method) {
      case 'POST':
        return this.post(req, res, relay);
      case 'GET':
        return this.get(req, res, relay);
      case 'DELETE': {
        const id = sessionIdOf(req);
        if (id === undefined || !relay.closeSession(id, 'the client ended the session')) return jsonError(res, 404, ErrorCodes.InvalidRequest, 'unknown session');
        return plain(res, 200, '');
      }
      default:
        res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
    }
  }

  private async post(req: IncomingMessage, res: ServerResponse, relay: ServerRelay): Promise<void> {
    const body = await readBody(req, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    if (body === 'too-large') {
      this.refusals.refused(413, 'warn', `gateway: refused a body over ${this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes`, relay.server.key);
      // The rest of the body is not read: the connection closes once the answer is out.
      res.once('finish', () => req.destroy());
      res.writeHead(413, { connection: 'close', 'content-type': 'text/plain' }).end('request body too large');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return jsonError(res, 400, ErrorCodes.ParseError, 'the body is not JSON');
    }
    if (Array.isArray(value)) return jsonError(res, 400, ErrorCodes.InvalidRequest, 'JSON-RPC batches are not accepted (removed in protocol 2025-06-18); send one message per POST');
    const classified = Message.classify(value);
    if (classified.kind === 'invalid') return jsonError(res, 400, ErrorCodes.InvalidRequest, classified.reason);
    if (classified.kind === 'request' && classified.message.method === 'initialize') {
      // The wait for MCP Host's connection (a start, consent, a sign-in) ends if the client goes away.
      const gone = new AbortController();
      res.once('close', () => gone.abort(new McpLocalError('cancelled', 'the gateway client went away')));
      try {
        const { session, result } = await relay.initialize(classified.message.params, gone.signal);
        relay.trace(session, 'from-client', classified.message);
        const answer = { jsonrpc: '2.0', id: classified.message.id, result };
        relay.trace(session, 'to-client', answer);
        new ResponseStream(res, { [SESSION_HEADER]: session.id }).answer(answer);
      } catch (error) {
        if (error instanceof SessionLimitError) return this.refuse(req, res, 429, error.message);
        const why = this.redact(McpLocalError.is(error) ? error.message : errorMessage(error));
        this.options.log('warn', `gateway: could not connect a client: ${why}`, relay.server.key);
        new ResponseStream(res, {}).answer({ jsonrpc: '2.0', id: classified.message.id, error: { code: ErrorCodes.InternalError, message: `MCP Host could not reach ${relay.server.name}: ${why}` } });
      }
      return;
    }
    const id = sessionIdOf(req);
    if (id === undefined) return jsonError(res, 400, ErrorCodes.InvalidRequest, `a ${SESSION_HEADER} header is required (send initialize first)`);
    const session = relay.session(id);
    if (!session) return jsonError(res, 404, ErrorCodes.InvalidRequest, 'unknown session (it ended, or belongs to another server)');
    switch (classified.kind) {
      case 'notification':
        session.handleNotification(classified.message.method, classified.message.params);
        return void res.writeHead(202).end();
      case 'response':
        session.handleResponse(classified.message);
        return void res.writeHead(202).end();
      case 'request':
        return session.handleRequest(classified.message, new ResponseStream(res, {}));
    }
  }

  private get(req: IncomingMessage, res: ServerResponse, relay: ServerRelay): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
    const id = sessionIdOf(req);
    const session = id === undefined ? undefined : relay.session(id);
    if (!session) return jsonError(res, id === undefined ? 400 : 404, ErrorCodes.InvalidRequest, 'unknown or missing session');
    if (!session.attachStream(res)) return jsonError(res, 409, ErrorCodes.InvalidRequest, 'this session has a GET stream open already');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
  }

  private relayFor(url: string): ServerRelay | undefined {
    const match = /^\/mcp\/([^/?#]+)(?:[?#].*)?$/.exec(url);
    if (!match) return undefined;
    let key: string;
    try {
      key = decodeURIComponent(match[1]);
    } catch {
      return undefined;
    }
    const server = this.options.servers().find((s) => s.key === key);
    if (!server) return undefined;
    let relay = this.relays.get(key);
    if (!relay) {
      relay = new ServerRelay(server, { log: (level, text) => this.options.log(level, text, key), onFrame: this.options.onFrame, redact: (text) => this.redact(text), admit: (clientName) => this.admit(clientName) });
      this.relays.set(key, relay);
    }
    relay.server = server;
    return relay;
  }

  /**
   * Whether the request carries the secret: in GATEWAY_SECRET_HEADER, or as a bearer token
   * (`Authorization: Bearer …`) for clients that can send no other header (the Inspector CLI).
   */
  private hasSecret(req: IncomingMessage): boolean {
    const given = req.headers[GATEWAY_SECRET_HEADER];
    if (typeof given === 'string') return this.isSecret(given);
    const bearer = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    return bearer !== null && this.isSecret(bearer[1]);
  }

  private isSecret(given: string): boolean {
    const a = Buffer.from(given);
    return a.length === this.secretBytes.length && timingSafeEqual(a, this.secretBytes);
  }

  /**
   * Refuses a request with a log line that names what was wrong (never the secret or the headers'
   * values beyond Host/Origin), rate-limited: a flood is counted, not logged line by line.
   */
  private refuse(req: IncomingMessage, res: ServerResponse, status: number, why: string): void {
    this.refusals.refused(status, status === 503 ? 'info' : 'warn', `gateway: refused ${req.method} ${(req.url ?? '').slice(0, 200)} with ${status}: ${why}`);
    req.resume();
    plain(res, status, why);
  }
}

/** At `max` sessions, closes the one idle the longest; throws SessionLimitError when none is idle. */
function makeRoom(sessions: readonly { relay: ServerRelay; session: GatewaySession }[], max: number, full: string): void {
  if (sessions.length < max) return;
  let oldest: { relay: ServerRelay; session: GatewaySession; since: number } | undefined;
  for (const { relay, session } of sessions) {
    const since = session.idleSince();
    if (since !== undefined && (oldest === undefined || since < oldest.since)) oldest = { relay, session, since };
  }
  if (!oldest) throw new SessionLimitError(`${full}, and none of them is idle`);
  oldest.relay.closeSession(oldest.session.id, `${full}: this session, idle the longest, was closed to make room`);
}

function sessionIdOf(req: IncomingMessage): string | undefined {
  const id = req.headers[SESSION_HEADER];
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** The body, or 'too-large' as soon as it passes `max` bytes (by Content-Length or by counting). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve('too-large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off('data', onData);
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    // The usual small body is one chunk: used where it lies, not copied.
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}
