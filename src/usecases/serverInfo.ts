// Pure text about a server for the server-level actions: its configuration entry as JSON (for
// Copy Server Entry) and the Server Details document. No `vscode` import.
import type { McpClient } from '../client/client';
import type { RemoteServerConfig, ServerEntry } from '../config/types';
import type { ResolvedRemoteServer, ResolvedServer } from '../config/variables';
import type { SignInState } from '../auth/session';
import type { ConnectionStats } from '../protocol/stats';
import type { ServerHealth } from '../registry/health';
import { displayCommandLine, displayPath, maskEnvValue, maskHeaderValue, maskUrlCredentials, transportLabel } from '../protocol/redaction';
import { connectionWord } from '../registry/connectionStatus';

/** What Server Details need of a server (the registry's `ServerHandle` has this shape). */
export interface ServerDetailsSource {
  readonly id: string;
  readonly entry: ServerEntry;
  readonly status: { readonly kind: string; readonly reconnecting?: boolean; readonly message?: string };
  readonly pid?: number;
  /** Epoch ms when the current process was initialized. */
  readonly startedAt?: number;
  readonly resolved?: ResolvedServer;
  readonly stderrTail?: readonly string[];
  readonly restarts?: number;
}


export type EntryFormat = 'mcpServers' | 'vscode';

/**
 * The JSON of a server's configuration entry as written (variables such as `${input:…}` are
 * not resolved, so secrets that come from inputs stay references). What is written in clear is
 * masked as everywhere else: a credential in a header (a literal `Authorization` value), an `env`
 * value that may be a secret (`maskEnvValue`), and a URL's userinfo and secret query parameters.
 */
export function serverEntryJson(entry: ServerEntry, format: EntryFormat): string {
  const c = entry.config;
  let body: Record<string, unknown>;
  if (c.type === 'stdio') {
    body = {
      ...(format === 'vscode' ? { type: 'stdio' } : {}),
      command: c.command,
      ...(c.args.length ? { args: [...c.args] } : {}),
      ...(Object.keys(c.env).length ? { env: Object.fromEntries(Object.entries(c.env).map(([name, value]) => [name, value === null ? null : maskEnvValue(value)])) } : {}),
      ...(c.envFile !== undefined ? { envFile: c.envFile } : {}),
      ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
    };
  } else {
    const headers = Object.entries(c.headers ?? {}).map(([name, value]) => [name, maskHeaderValue(name, value)]);
    // The client secret is always a variable reference (the parser refuses a literal one).
    body = { type: c.type, url: maskUrlCredentials(c.url), ...(headers.length ? { headers: Object.fromEntries(headers) } : {}), ...(c.oauth ? { oauth: { ...c.oauth } } : {}) };
  }
  if (format === 'mcpServers') return JSON.stringify({ mcpServers: { [entry.name]: body } }, null, 2);
  const inputs = entry.inputs.map((i) => ({
    id: i.id,
    type: i.type,
    ...(i.description !== undefined ? { description: i.description } : {}),
    ...(i.password !== undefined ? { password: i.password } : {}),
    ...(i.options !== undefined ? { options: [...i.options] } : {}),
    ...(i.default !== undefined ? { default: i.default } : {}),
  }));
  return JSON.stringify({ ...(inputs.length ? { inputs } : {}), servers: { [entry.name]: body } }, null, 2);
}

function ms(v: number | undefined): string {
  return v === undefined ? '—' : v < 1000 ? `${v.toFixed(1)} ms` : `${(v / 1000).toFixed(2)} s`;
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

function duration(msTotal: number): string {
  const s = Math.floor(msTotal / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${s} s`;
}

/** Server Details as the details panel draws it; every string is shown as text, never as HTML. */
export interface ServerDetailsView {
  readonly name: string;
  /** Label and value rows: status, source, process, protocol, server, restarts, health. */
  readonly facts: ReadonlyArray<readonly [string, string]>;
  readonly capabilities?: string;
  /** The server's `instructions` from its initialize result (untrusted text). */
  readonly instructions?: string;
  /** A modern server's `server/discover` result, as indented JSON (untrusted text). */
  readonly discover?: string;
  readonly command?: {
    /** The command line as it runs (secrets redacted), or as configured before the first start. */
    readonly line: string;
    readonly resolved: boolean;
    readonly cwd?: string;
    readonly envFile?: string;
    /** Names of the variables the configuration sets; their values are never shown. */
    readonly envNames: readonly string[];
    /** PATH as the server gets it (long: the panel puts it behind a disclosure). */
    readonly path?: string;
  };
  /** A remote server: URL, transport, session, headers (secrets masked), HTTP statuses, streams. */
  readonly connection?: ReadonlyArray<readonly [string, string]>;
  /** A server that uses MCP authorization: issuer, granted scopes, expiry, registration (nothing secret). */
  readonly signIn?: ReadonlyArray<readonly [string, string]>;
  readonly traffic?: {
    readonly facts: ReadonlyArray<readonly [string, string]>;
    readonly methods: ReadonlyArray<{ readonly method: string; readonly requests: number; readonly errors: number; readonly timeouts: number; readonly cancelled: number; readonly p50: string; readonly p95: string; readonly max: string }>;
  };
  /** The roots the server was given when it last asked (`roots/list`), and when. */
  readonly roots?: { readonly askedAt?: number; readonly roots: ReadonlyArray<{ readonly name?: string; readonly uri: string }> };
  readonly noise: readonly string[];
  readonly stderr: readonly string[];
}

/** Server Details: process, protocol, capabilities, the resolved command, traffic, roots. */
export function serverDetails(input: {
  server: ServerDetailsSource;
  client: Pick<McpClient, 'protocolVersion' | 'serverInfo' | 'instructions' | 'rootsListed'> & Partial<Pick<McpClient, 'era' | 'discoverResult'>> | undefined;
  /** The capabilities in words (the caller's formatting). */
  capabilities?: string;
  stats: ConnectionStats | undefined;
  health: ServerHealth | undefined;
  /** The server's sign-in, when it asked for authorization; `required` when it waits for the user. */
  signIn?: SignInState & { readonly required: boolean };
  /** The state as the server's row words it ("waiting for consent"); else the registry's word. */
  stateText?: string;
  /** A stdio server's sandbox in plain lines (`describeSandbox`), or the line saying it has none. */
  sandbox?: readonly string[];
  noise: readonly string[];
  redact: (text: string) => string;
  now: number;
}): ServerDetailsView {
  const { server, client, stats, health, noise, redact, now } = input;
  const facts: Array<readonly [string, string]> = [];
  facts.push(['Status', `${input.stateText ?? connectionWord(server.status)}${server.status.reconnecting && server.status.message ? `: ${redact(server.status.message)}` : ''}`], ['Defined in', server.entry.source.label]);
  if (input.sandbox) facts.push(['Sandbox', input.sandbox.join(' ')]);
  const pid = server.pid ?? stats?.process?.pid;
  if (pid !== undefined) facts.push(['Process id', String(pid)]);
  const uptime = stats?.uptimeMs ?? (server.startedAt !== undefined ? now - server.startedAt : undefined);
  if (uptime !== undefined && server.status.kind === 'running') facts.push(['Uptime', duration(uptime)]);
  if (client?.serverInfo) facts.push(['Server', `${client.serverInfo.name} ${client.serverInfo.version}`]);
  if (client?.protocolVersion) facts.push(['Protocol version', client.protocolVersion]);
  if (client?.era) facts.push(['Protocol era', client.era === 'modern' ? 'modern (server/discover, per-request _meta)' : 'legacy (initialize handshake)']);
  if (server.restarts) facts.push(['Restarts', String(server.restarts)]);
  if (health && health.kind !== 'unknown') facts.push(['Health', health.kind === 'ok' ? `answering (ping ${ms(health.rttMs)})` : `not answering since ${new Date(health.since).toLocaleTimeString()} (${health.failures} failed ping${health.failures === 1 ? '' : 's'}: ${health.error})`]);

  const config = server.entry.config;
  const r = server.resolved;
  const command: ServerDetailsView['command'] =
    r?.type === 'stdio'
    ? {
        line: redact(displayCommandLine(r.command, r.args)),
        resolved: true,
        cwd: redact(displayPath(r.cwd)),
        ...(r.envFile ? { envFile: redact(r.envFile) } : {}),
        envNames: [...r.envNames].sort(),
        ...((r.env.PATH ?? r.env.Path) !== undefined ? { path: redact((r.env.PATH ?? r.env.Path)!) } : {}),
      }
    : config.type === 'stdio'
      ? { line: [config.command, ...config.args].join(' '), resolved: false, envNames: Object.keys(config.env).sort() }
      : undefined;

  let traffic: ServerDetailsView['traffic'];
  if (stats) {
    // A legacy server answers the era probe (`server/discover`) with an error: counted, as it is
    // one, but said to be expected, so a healthy server does not look faulty at first sight.
    const probes = client?.era === 'legacy' ? (stats.byMethod['server/discover']?.errors ?? 0) : 0;
    const which = probes === stats.errors ? (probes === 1 ? 'the error is' : 'the errors are') : `${probes} of the errors ${probes === 1 ? 'is' : 'are'}`;
    const probeNote = probes === 0 ? '' : ` — ${which} the era probe a legacy server refuses (expected)`;
    traffic = {
      facts: [
        ['Requests', `${stats.requestsSent} (${stats.inFlight} in flight)`],
        ['Errors · timeouts · cancelled', `${stats.errors} · ${stats.timeouts} · ${stats.cancelled}${probeNote}`],
        ['Latency p50 / p95 / p99', `${ms(stats.latency.p50)} / ${ms(stats.latency.p95)} / ${ms(stats.latency.p99)}${stats.userWait.requests > 0 ? ' (without the time you spent answering)' : ''}`],
        ...(stats.userWait.requests > 0 ? [['Waiting for your answers', `${ms(stats.userWait.totalMs)} in ${stats.userWait.requests} request${stats.userWait.requests === 1 ? '' : 's'} (forms, sampling dialogs)`] as const] : []),
        ['Sent', `${bytes(stats.bytesSent)} in ${stats.messagesSent} messages`],
        ['Received', `${bytes(stats.bytesReceived)} in ${stats.messagesReceived} messages`],
        ...(config.type === 'stdio' ? [['stdout noise lines', String(stats.noiseLines)] as const] : []),
      ],
      methods: Object.entries(stats.byMethod)
        .sort((a, b) => b[1].requests - a[1].requests)
        .map(([method, m]) => ({ method, requests: m.requests, errors: m.errors, timeouts: m.timeouts, cancelled: m.cancelled, p50: ms(m.p50), p95: ms(m.p95), max: ms(m.max) })),
    };
  }
  const listed = client?.rootsListed;
  return {
    name: server.entry.name,
    facts,
    ...(input.capabilities !== undefined ? { capabilities: input.capabilities } : {}),
    ...(client?.instructions ? { instructions: client.instructions } : {}),
    ...(client?.discoverResult ? { discover: JSON.stringify(client.discoverResult, null, 2) } : {}),
    ...(command ? { command } : {}),
    ...(config.type !== 'stdio' ? { connection: connectionFacts(config, r?.type === 'stdio' ? undefined : r, stats, redact) } : {}),
    ...(input.signIn ? { signIn: signInFacts(input.signIn, now) } : {}),
    ...(traffic ? { traffic } : {}),
    ...(listed ? { roots: { askedAt: listed.time, roots: listed.roots.map((x) => ({ ...(x.name !== undefined ? { name: x.name } : {}), uri: x.uri })) } } : {}),
    noise: noise.map(redact),
    stderr: (server.stderrTail ?? []).slice(-20).map(redact),
  };
}

const REGISTRATION_WORDS: Record<NonNullable<SignInState['registration']>, string> = {
  'pre-registered': 'pre-registered client (from the configuration)',
  'metadata-document': 'Client ID Metadata Document',
  dynamic: 'dynamic client registration (RFC 7591)',
};

/** The Sign-in section: state, issuer, granted scopes, expiry, how the client was registered, the last failure. */
export function signInFacts(state: SignInState & { readonly required: boolean }, now: number): Array<readonly [string, string]> {
  const facts: Array<readonly [string, string]> = [];
  facts.push(['State', state.signedIn ? 'signed in' : state.required ? 'sign in required' : 'not signed in']);
  if (state.issuer) facts.push(['Authorization server', state.issuer]);
  if (state.signedIn) facts.push(['Granted scopes', state.scope ?? 'as the server chose (none named)']);
  if (state.signedIn) {
    const expires = state.expiresAt;
    facts.push(['Access token expires', expires === undefined ? 'no expiry given' : expires <= now ? `expired at ${new Date(expires).toLocaleTimeString()}${state.canRefresh ? ' (refreshed on the next request)' : ''}` : `in ${duration(expires - now)} (${new Date(expires).toLocaleTimeString()})`]);
    facts.push(['Refresh', state.renewsByGrant ? 'automatic, shortly before it expires (the configured grant runs again)' : state.canRefresh ? 'automatic, shortly before it expires (a refresh token is held)' : 'not possible (no refresh token): sign in again when it expires']);
  }
  if (state.registration) facts.push(['Client registration', REGISTRATION_WORDS[state.registration]]);
  if (state.lastError) facts.push(['Last failure', state.lastError]);
  return facts;
}

/** The sign-in in one line, for the server row's tooltip: expiry and refresh, or why a sign-in is needed. */
export function signInSummary(state: SignInState & { readonly required: boolean }, now: number): string {
  if (state.refreshRefused && !state.signedIn) return 'the sign-in expired or was revoked: sign in again';
  if (!state.signedIn) return state.required ? 'sign in required' : 'not signed in';
  const expires = state.expiresAt;
  const when = expires === undefined ? 'no expiry given' : expires <= now ? `token expired at ${new Date(expires).toLocaleTimeString()}` : `token expires in ${duration(expires - now)} (${new Date(expires).toLocaleTimeString()})`;
  return `signed in, ${when}, ${state.canRefresh ? 'refreshed automatically' : 'no refresh token: sign in again when it expires'}`;
}

/**
 * The Connection section of a remote server: URL, transport in use, session, the headers it
 * sends (secret values masked), HTTP status counts and streams.
 */
function connectionFacts(config: RemoteServerConfig, resolved: ResolvedRemoteServer | undefined, stats: ConnectionStats | undefined, redact: (text: string) => string): Array<readonly [string, string]> {
  const http = stats?.http;
  const facts: Array<readonly [string, string]> = [];
  facts.push(['URL', redact(http?.url ?? resolved?.url ?? config.url)]);
  facts.push(['Transport', `${transportLabel(config.type, http?.transport)}${http || config.type === 'sse' ? '' : ' (Streamable HTTP, falling back to HTTP+SSE)'}`]);
  if (http?.sessionId) facts.push(['Session id', http.sessionId]);
  const secret = new Set(resolved?.secretHeaderNames ?? []);
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    facts.push([`Header ${name}`, resolved && !secret.has(name) ? redact(resolved.headers[name] ?? value) : maskHeaderValue(name, value)]);
  }
  if (http) {
    const statuses = Object.entries(http.statusCounts).sort(([a], [b]) => a.localeCompare(b));
    facts.push(['HTTP statuses', statuses.length ? statuses.map(([status, n]) => `${status} × ${n}`).join(', ') : '—']);
    facts.push(['Streams opened', `${http.streamsOpened} (${http.streamResumptions} resumed)`]);
  }
  return facts;
}
