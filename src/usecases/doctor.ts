// The connection doctor: walks the path to a server step by step and says where it breaks and
// what to do — the command on PATH, the process's exit and output, the era probe; for a URL: DNS,
// TCP, TLS, the HTTP answer, the 401 and its metadata, then the MCP handshake itself. The CLI's
// `mcp-host doctor` and the editor's Diagnose run it; neither shows a secret (the caller redacts).
import { promises as dns } from 'node:dns';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as tls from 'node:tls';
import { McpClient } from '../client/client';
import type { Implementation } from '../client/schemas';
import type { ResolvedServer } from '../config/variables';
import { McpLocalError, connectionEndOf, errorMessage } from '../protocol/errors';
import { isRecord } from '../protocol/jsonShape';
import type { Transport } from '../protocol/transport';
import { TransportCloseReason } from '../protocol/transport';
import { truncate } from '../protocol/text';
import { StderrExcerpt, namesMissingSetting } from '../protocol/stderrExcerpt';
import { exitedOnProbe, failedAtStart } from '../client/eraProbe';
import { getEnv, resolveCommand } from '../transport/commandResolver';

/** One step of a diagnosis. `warn`: works, but something is worth knowing. */
export interface DiagnosisStep {
  readonly step: string;
  readonly outcome: 'ok' | 'warn' | 'failed' | 'skipped';
  readonly detail: string;
  /** What to do, for a step that failed or warns. */
  readonly hint?: string;
  /** The server's own words the step quotes (its stderr), one line each. */
  readonly lines?: readonly string[];
}

export interface Diagnosis {
  readonly steps: readonly DiagnosisStep[];
  /** True when the handshake succeeded. */
  readonly healthy: boolean;
}

export interface DoctorPorts {
  /** The product's transport for the resolved server (with its sign-in when the caller has one). */
  createTransport(resolved: ResolvedServer): Transport;
  readonly clientInfo: Implementation;
  /** Bound for each network step and for the handshake (default 10 s). */
  readonly timeoutMs?: number;
  /** The sign-in state to report for a remote server ("signed in, token valid until …"), when the caller keeps one. */
  tokenState?(): string | undefined;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Most bytes of an HTTP body quoted in a step. */
const BODY_QUOTED = 300;

/** Diagnoses one server; never throws (a failure is a failed step). */
export async function diagnose(resolved: ResolvedServer, ports: DoctorPorts): Promise<Diagnosis> {
  const steps: DiagnosisStep[] = [];
  const timeoutMs = ports.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (resolved.type === 'stdio') {
    if (!(await stdioPrerequisites(resolved, steps))) return { steps, healthy: false };
  } else if (!(await networkPath(resolved.url, resolved.headers, timeoutMs, steps, ports))) {
    return { steps, healthy: false };
  }
  const healthy = await handshake(resolved, ports, timeoutMs, steps);
  return { steps, healthy };
}

/** The lines a diagnosis prints: a mark, the step, its detail, and the hint under a failed one. */
export function describeDiagnosis(d: Diagnosis): string[] {
  const mark = { ok: '✓', warn: '!', failed: '✗', skipped: '-' } as const;
  const lines: string[] = [];
  for (const s of d.steps) {
    lines.push(`${mark[s.outcome]} ${s.step}: ${s.detail}`);
    for (const line of s.lines ?? []) lines.push(`      ${line}`);
    if (s.hint && s.outcome !== 'ok') lines.push(`    → ${s.hint}`);
  }
  lines.push(d.healthy ? 'healthy: the server answers the MCP handshake' : `broken at: ${d.steps.find((s) => s.outcome === 'failed')?.step ?? 'the handshake'}`);
  return lines;
}

/**
 * The report as a Markdown document for the editor's rendered preview: a heading, the time, and
 * the lines in a code block whose fence is longer than any run of backticks in them (a server's
 * stderr quoted there cannot end the block and turn into links or images).
 */
export function diagnosisMarkdown(serverName: string, when: string, lines: readonly string[]): string {
  const longest = Math.max(0, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((run) => run.length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`# Diagnosis of ${serverName.replace(/[\\`*_[\]<>#!|]/g, '\\$&')}`, '', when, '', fence, ...lines, fence, ''].join('\n');
}

async function stdioPrerequisites(resolved: Extract<ResolvedServer, { type: 'stdio' }>, steps: DiagnosisStep[]): Promise<boolean> {
  try {
    const stat = await fs.stat(resolved.cwd);
    if (!stat.isDirectory()) throw new Error('not a directory');
    steps.push({ step: 'working directory', outcome: 'ok', detail: resolved.cwd });
  } catch (error) {
    steps.push({ step: 'working directory', outcome: 'failed', detail: `${resolved.cwd}: ${errorMessage(error)}`, hint: 'fix the entry\'s "cwd" (relative paths start at the folder that holds the config)' });
    return false;
  }
  try {
    const found = await resolveCommand(resolved.command, { env: resolved.env, cwd: resolved.cwd });
    steps.push({ step: 'command', outcome: 'ok', detail: found === resolved.command ? found : `${resolved.command} is ${found}` });
    return true;
  } catch (error) {
    const path = getEnv(resolved.env, 'PATH') ?? '';
    steps.push({ step: 'command', outcome: 'failed', detail: errorMessage(error), hint: `install ${resolved.command}, or give its full path in "command"${path ? '' : ' (the server gets no PATH)'}` });
    return false;
  }
}

/** DNS, TCP, TLS and the HTTP answer of a URL. False when the path is broken before HTTP. */
async function networkPath(url: string, headers: Readonly<Record<string, string>>, timeoutMs: number, steps: DiagnosisStep[], ports: DoctorPorts): Promise<boolean> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    steps.push({ step: 'url', outcome: 'failed', detail: `${url} is not a URL` });
    return false;
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  try {
    const addresses = net.isIP(host) ? [{ address: host }] : await withTimeout(dns.lookup(host, { all: true }), timeoutMs, 'no answer');
    steps.push({ step: 'dns', outcome: 'ok', detail: `${host} → ${addresses.map((a) => a.address).join(', ')}` });
  } catch (error) {
    steps.push({ step: 'dns', outcome: 'failed', detail: `${host}: ${errorMessage(error)}`, hint: 'check the host name in the URL, and this machine\'s network and DNS' });
    return false;
  }
  const tcp = await connectTcp(host, port, timeoutMs);
  if (tcp) {
    steps.push({ step: 'tcp', outcome: 'failed', detail: `${host}:${port}: ${tcp}`, hint: tcp.includes('refused') ? 'nothing listens there: is the server running, on this port?' : 'a firewall or proxy may be in the way' });
    return false;
  }
  steps.push({ step: 'tcp', outcome: 'ok', detail: `${host}:${port} accepts connections` });
  if (u.protocol === 'https:') {
    const cert = await tlsCertificate(host, port, timeoutMs);
    steps.push(cert);
    if (cert.outcome === 'failed') return false;
  }
  await httpAnswer(u, headers, timeoutMs, steps);
  const token = ports.tokenState?.();
  if (token) steps.push({ step: 'sign-in', outcome: 'ok', detail: token });
  return true;
}

function connectTcp(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (problem: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => done(`no answer within ${timeoutMs} ms`), timeoutMs);
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' ? 'connection refused' : errorMessage(error)));
  });
}

function tlsCertificate(host: string, port: number, timeoutMs: number): Promise<DiagnosisStep> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: false });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ step: 'tls', outcome: 'failed', detail: `no TLS handshake within ${timeoutMs} ms` });
    }, timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const cert = socket.getPeerCertificate();
      const names = cert.subjectaltname ?? `CN=${cert.subject?.CN ?? '?'}`;
      const until = cert.valid_to ? `, valid until ${new Date(cert.valid_to).toISOString().slice(0, 10)}` : '';
      const problem = socket.authorizationError ? String(socket.authorizationError) : undefined;
      socket.destroy();
      resolve(
        problem
          ? { step: 'tls', outcome: 'failed', detail: `the certificate (${names}${until}) is not trusted: ${problem}`, hint: 'use a certificate this system trusts, or add its authority (NODE_EXTRA_CA_CERTS for the CLI)' }
          : { step: 'tls', outcome: 'ok', detail: `certificate for ${names}${until}` },
      );
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const plain = /wrong version number|WRONG_VERSION_NUMBER|packet length too long/i.test(errorMessage(error));
      resolve({ step: 'tls', outcome: 'failed', detail: plain ? `${host}:${port} does not speak TLS` : errorMessage(error), hint: plain ? 'the port serves plain HTTP: use an http:// URL' : undefined });
    });
  });
}

/** What the endpoint answers a JSON-RPC POST (an initialize, then the session it may open is ended). */
async function httpAnswer(u: URL, headers: Readonly<Record<string, string>>, timeoutMs: number, steps: DiagnosisStep[]): Promise<void> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-host-doctor', version: '0' } } });
  let response: Response;
  try {
    response = await fetch(u, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
  } catch (error) {
    steps.push({ step: 'http', outcome: 'failed', detail: errorMessage(error) });
    return;
  }
  const type = response.headers.get('content-type') ?? 'no content type';
  const text = await response.text().catch(() => '');
  const session = response.headers.get('mcp-session-id');
  if (session) void fetch(u, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session }, signal: AbortSignal.timeout(timeoutMs) }).catch(() => {});
  const quoted = text.trim() ? `: ${JSON.stringify(truncate(text.trim().replace(/\s+/g, ' '), BODY_QUOTED))}` : '';
  if (response.status === 401) {
    const challenge = response.headers.get('www-authenticate') ?? '';
    steps.push({ step: 'http', outcome: 'warn', detail: `401 Unauthorized (${challenge ? `WWW-Authenticate: ${truncate(challenge, 200)}` : 'no WWW-Authenticate'})`, hint: 'the server wants a credential: sign in, or set an Authorization header' });
    await authorizationMetadata(u, challenge, timeoutMs, steps);
    return;
  }
  if (response.status >= 300 && response.status < 400) {
    steps.push({ step: 'http', outcome: 'failed', detail: `${response.status} redirect to ${response.headers.get('location') ?? '?'}`, hint: 'use the URL it redirects to' });
    return;
  }
  if (!response.ok) {
    steps.push({ step: 'http', outcome: response.status === 400 || response.status === 405 ? 'warn' : 'failed', detail: `${response.status} ${response.statusText} (${type})${quoted}`, hint: response.status === 404 ? 'no MCP endpoint at this path: check the URL (often …/mcp or …/sse)' : undefined });
    return;
  }
  const mcpLike = /application\/json|text\/event-stream/i.test(type);
  steps.push({ step: 'http', outcome: mcpLike ? 'ok' : 'failed', detail: `${response.status} ${response.statusText} (${type})${mcpLike ? '' : quoted}`, hint: mcpLike ? undefined : 'the endpoint answers, but not as an MCP server (an HTML page?): check the URL' });
}

async function authorizationMetadata(u: URL, challenge: string, timeoutMs: number, steps: DiagnosisStep[]): Promise<void> {
  const named = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  const candidates = named ? [named] : [new URL(`/.well-known/oauth-protected-resource${u.pathname === '/' ? '' : u.pathname}`, u).href, new URL('/.well-known/oauth-protected-resource', u).href];
  let issuer: string | undefined;
  for (const where of candidates) {
    const doc = await getJson(where, timeoutMs);
    if (!doc.ok) continue;
    const servers = isRecord(doc.value) && Array.isArray(doc.value.authorization_servers) ? doc.value.authorization_servers.filter((s): s is string => typeof s === 'string') : [];
    steps.push({ step: 'resource metadata', outcome: servers.length ? 'ok' : 'failed', detail: `${where}${servers.length ? ` names ${servers.join(', ')}` : ' names no authorization server'}` });
    issuer = servers[0];
    break;
  }
  if (!issuer) {
    steps.push({ step: 'resource metadata', outcome: 'failed', detail: named ? `${named} could not be read` : 'none (no resource_metadata in the challenge, no well-known document)', hint: 'the server does not offer sign-in: it needs a credential you give it (an Authorization header, e.g. from an ${input:…} password)' });
    return;
  }
  const base = new URL(issuer);
  const suffix = base.pathname === '/' ? '' : base.pathname;
  for (const where of [new URL(`/.well-known/oauth-authorization-server${suffix}`, base).href, new URL(`/.well-known/openid-configuration${suffix}`, base).href]) {
    const doc = await getJson(where, timeoutMs);
    if (!doc.ok || !isRecord(doc.value)) continue;
    const pkce = Array.isArray(doc.value.code_challenge_methods_supported) && doc.value.code_challenge_methods_supported.includes('S256');
    const registration = typeof doc.value.registration_endpoint === 'string';
    steps.push({
      step: 'authorization server',
      outcome: pkce ? 'ok' : 'failed',
      detail: `${where}: ${pkce ? 'PKCE S256' : 'no PKCE S256'}${registration ? ', dynamic registration' : ', no dynamic registration (a client id must be configured)'}`,
      hint: pkce ? undefined : 'MCP sign-in requires PKCE S256; the authorization server does not offer it',
    });
    return;
  }
  steps.push({ step: 'authorization server', outcome: 'failed', detail: `no metadata found for ${issuer}`, hint: 'the authorization server publishes no metadata: sign-in cannot start' });
}

async function getJson(url: string, timeoutMs: number): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    const r = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!r.ok) return { ok: false };
    const text = await r.text();
    // Metadata is small; a huge answer is no metadata.
    if (text.length > 1024 * 1024) return { ok: false };
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The MCP handshake through the product's own client and transport: what the era probe got, and what failed. */
async function handshake(resolved: ResolvedServer, ports: DoctorPorts, timeoutMs: number, steps: DiagnosisStep[]): Promise<boolean> {
  const first = await attemptHandshake(resolved, ports, timeoutMs, 'auto');
  if (first.ok || !exitedOnProbe(first.error)) return reportHandshake(first, steps);
  // The server exited on the probe itself (it said so on stderr): what a start with initialize
  // does is what the editor and the CLI do next, so that is what the diagnosis shows.
  steps.push({ step: 'era probe', outcome: 'warn', detail: 'the server exited when asked server/discover, as servers that allow nothing before initialize do; started again with initialize', lines: first.stderr, hint: 'nothing to do: MCP Host remembers to start this server with initialize' });
  return reportHandshake(await attemptHandshake(resolved, ports, timeoutMs, 'legacy'), steps);
}

/** What one start of the server showed. */
type HandshakeAttempt = { readonly stdoutNoise: readonly string[]; readonly stderr: readonly string[]; readonly probe?: string } & ({ readonly ok: true; readonly era: string; readonly viaInitialize: boolean; readonly version: string; readonly server: string; readonly offered: string } | { readonly ok: false; readonly error: unknown });

async function attemptHandshake(resolved: ResolvedServer, ports: DoctorPorts, timeoutMs: number, protocol: 'auto' | 'legacy'): Promise<HandshakeAttempt> {
  const client = new McpClient({ clientInfo: ports.clientInfo, requestTimeoutMs: timeoutMs, protocol });
  const stderr = new StderrExcerpt();
  const stdoutNoise: string[] = [];
  let probe: string | undefined;
  client.onTransportLog((log) => {
    if (log.kind === 'stderr') stderr.push(log.text);
    if ((log.kind === 'noise' || log.kind === 'invalid-json') && stdoutNoise.length < 5) stdoutNoise.push(log.text);
  });
  const probeIds = new Set<unknown>();
  client.onFrame((frame) => {
    const m = frame.message;
    if (!isRecord(m)) return;
    if (frame.direction === 'send' && m.method === 'server/discover') probeIds.add(m.id);
    else if (frame.direction === 'receive' && probeIds.has(m.id)) probe = isRecord(m.error) ? `refused (${String(m.error.code)} ${truncate(String(m.error.message), 80)}): a legacy server, initialize follows` : 'answered: the server speaks 2026-07-28';
  });
  const seen = () => ({ stdoutNoise, stderr: stderr.lines().map((l) => truncate(l, 200)), ...(probe ? { probe } : {}) });
  try {
    await client.connect(ports.createTransport(resolved), { timeoutMs });
    const info = client.serverInfo;
    const caps = client.serverCapabilities ?? {};
    const offered = ['tools', 'resources', 'prompts'].filter((k) => k in caps).join(', ') || 'nothing';
    return { ok: true, era: client.era ?? '?', viaInitialize: client.initializeResult !== undefined, version: client.protocolVersion ?? '?', server: `${info?.name ?? '?'} ${info?.version ?? ''}`, offered, ...seen() };
  } catch (error) {
    return { ok: false, error, ...seen() };
  } finally {
    await client.close().catch(() => {});
    client.dispose();
  }
}

function reportHandshake(attempt: HandshakeAttempt, steps: DiagnosisStep[]): boolean {
  const { stdoutNoise, probe } = attempt;
  if (!attempt.ok) {
    steps.push(...handshakeFailure(attempt.error, attempt.stderr, stdoutNoise, probe));
    return false;
  }
  if (probe) steps.push({ step: 'era probe', outcome: 'ok', detail: `server/discover ${probe}` });
  else if (attempt.viaInitialize && !steps.some((s) => s.step === 'era probe')) steps.push({ step: 'era probe', outcome: 'ok', detail: 'no answer to server/discover (or not sent: a pinned or remembered era); initialize was used' });
  steps.push({ step: 'handshake', outcome: 'ok', detail: `${attempt.server} speaks ${attempt.version} (${attempt.era}); offers ${attempt.offered}` });
  if (stdoutNoise.length) steps.push({ step: 'stdout', outcome: 'warn', detail: `lines that are not JSON-RPC: ${JSON.stringify(truncate(stdoutNoise[0], 160))}`, hint: 'a server must print only JSON-RPC on stdout; logs belong on stderr' });
  return true;
}

/**
 * The steps of a failed handshake. The server's stderr is shown once, as lines: the ones that
 * explain a start-up failure (StderrExcerpt), not only its last ones; the era probe is named
 * only for what it did.
 */
function handshakeFailure(error: unknown, stderr: readonly string[], stdoutNoise: readonly string[], probe: string | undefined): DiagnosisStep[] {
  const steps: DiagnosisStep[] = [];
  const local = McpLocalError.is(error) ? error : undefined;
  const exited = local?.kind === 'server-exited';
  const ended = local ? connectionEndOf(local) : {};
  const reason = ended.reason;
  const shown = local && exited ? (ended.stderrExcerpt?.map((l) => truncate(l, 200)) ?? stderr) : stderr;
  let detail = errorMessage(error);
  if (local && exited && reason) {
    const method = ended.method;
    detail = `the server ${TransportCloseReason.describe(reason)} ${failedAtStart(error) ? 'at start, before answering anything' : `during ${method ?? 'the handshake'}`}`;
  }
  if (failedAtStart(error)) steps.push({ step: 'era probe', outcome: 'skipped', detail: 'server/discover was sent, but the server exited before answering anything and its stderr does not speak of it: the failure is the start, not the probe' });
  else if (probe) steps.push({ step: 'era probe', outcome: 'ok', detail: `server/discover ${probe}` });
  const parts = [detail];
  if (stdoutNoise.length) parts.push(`first line on stdout that is not JSON-RPC: ${JSON.stringify(truncate(stdoutNoise[0], 200))}`);
  if (shown.length) parts.push(exited ? 'its stderr:' : 'its stderr so far:');
  let hint: string | undefined;
  if (local) {
    if (exited || reason?.kind === 'process-exited') {
      if (namesMissingSetting(shown)) hint = 'its stderr names what is missing: give it to the server (the entry\'s "env" or "args"), then try again';
      else if (shown.length) hint = 'the process ended before answering: its stderr above says why';
      else hint = 'the process ended before answering without a word on stderr: is it an MCP server? run the command in a terminal to see what it does';
    } else if (local.kind === 'timeout') hint = stdoutNoise.length ? 'the server printed something else than JSON-RPC on stdout' : 'the server never answered: is it an MCP server on stdio (or this URL)? a slow first start (npx, docker) may need a longer timeout';
    else if (reason?.kind === 'authorization-required') hint = 'sign in, or give the server its credential (an Authorization header)';
  }
  steps.push({ step: 'handshake', outcome: 'failed', detail: parts.join('; '), ...(shown.length ? { lines: shown } : {}), ...(hint ? { hint } : {}) });
  return steps;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(what)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
