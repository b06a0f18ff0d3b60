// Pure text about a server for the server-level actions: its configuration entry as JSON (for
// Copy Server Entry) and the Server Details document. No `vscode` import.
import type { McpClient } from '../client/client';
import type { RemoteServerConfig, ServerEntry } from '../config/types';
import type { ResolvedRemoteServer, ResolvedServer } from '../config/variables';
import type { ConnectionStats } from '../protocol/stats';
import { formatCommandLine, maskHeaderValue, transportLabel } from '../registry/logText';

/** What the details need of a server (the registry's handle has this shape). */
export interface ServerFacts {
  readonly id: string;
  readonly entry: ServerEntry;
  readonly status: { readonly kind: string };
  readonly pid?: number;
  /** Epoch ms when the current process was initialized. */
  readonly startedAt?: number;
  readonly resolved?: ResolvedServer;
  readonly stderrTail?: readonly string[];
  readonly restarts?: number;
}

/** A periodic ping's verdict (the extension's ServerHealth). */
export type HealthFacts =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'ok'; readonly rttMs: number; readonly time: number }
  | { readonly kind: 'unresponsive'; readonly since: number; readonly failures: number; readonly error: string };

export type EntryFormat = 'mcpServers' | 'vscode';

/**
 * The JSON of a server's configuration entry as written (variables such as `${input:…}` are
 * not resolved, so secrets that come from inputs stay references; a credential written into a
 * header, such as a literal `Authorization` value, is masked).
 */
export function serverEntryJson(entry: ServerEntry, format: EntryFormat): string {
  const c = entry.config;
  let body: Record<string, unknown>;
  if (c.type === 'stdio') {
    body = {
      ...(format === 'vscode' ? { type: 'stdio' } : {}),
      command: c.command,
      ...(c.args.length ? { args: [...c.args] } : {}),
      ...(Object.keys(c.env).length ? { env: { ...c.env } } : {}),
      ...(c.envFile !== undefined ? { envFile: c.envFile } : {}),
      ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
    };
  } else {
    const headers = Object.entries(c.headers ?? {}).map(([name, value]) => [name, maskHeaderValue(name, value)]);
    body = { type: c.type, url: c.url, ...(headers.length ? { headers: Object.fromEntries(headers) } : {}) };
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

/** A table cell: no pipes or line breaks from server text. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

/** Server Details as Markdown: process, protocol, the resolved command, counters, latencies. */
export function serverDetailsMarkdown(input: {
  server: ServerFacts;
  client: Pick<McpClient, 'protocolVersion' | 'serverInfo'> | undefined;
  stats: ConnectionStats | undefined;
  health: HealthFacts | undefined;
  noise: readonly string[];
  redact: (text: string) => string;
  now: number;
}): string {
  const { server, client, stats, health, noise, redact, now } = input;
  const out: string[] = [];
  out.push(`# ${cell(server.entry.name)}`, '');
  out.push('| | |', '|---|---|');
  out.push(`| Status | ${server.status.kind} |`);
  out.push(`| Source | ${cell(server.entry.source.label)} |`);
  const pid = server.pid ?? stats?.process?.pid;
  if (pid !== undefined) out.push(`| PID | ${pid} |`);
  const uptime = stats?.uptimeMs ?? (server.startedAt !== undefined ? now - server.startedAt : undefined);
  if (uptime !== undefined && server.status.kind === 'running') out.push(`| Uptime | ${duration(uptime)} |`);
  if (client?.protocolVersion) out.push(`| Protocol version | ${client.protocolVersion} |`);
  if (client?.serverInfo) out.push(`| Server | ${cell(`${client.serverInfo.name} ${client.serverInfo.version}`)} |`);
  if (server.restarts) out.push(`| Restarts | ${server.restarts} |`);
  if (health && health.kind !== 'unknown') out.push(`| Health | ${health.kind === 'ok' ? `answering (ping ${ms(health.rttMs)})` : `NOT ANSWERING since ${new Date(health.since).toLocaleTimeString()} (${health.failures} failed ping${health.failures === 1 ? '' : 's'}: ${cell(health.error)})`} |`);
  out.push('');
  const r = server.resolved;
  const config = server.entry.config;
  if (r?.type === 'stdio') {
    out.push('## Command', '', '```', redact(formatCommandLine(r.command, r.args)), '```', '');
    out.push(`- **cwd**: \`${redact(r.cwd)}\``);
    const pathVar = r.env.PATH ?? r.env.Path;
    if (pathVar !== undefined) out.push(`- **PATH**: \`${redact(pathVar)}\``);
    if (r.envFile) out.push(`- **envFile**: \`${redact(r.envFile)}\``);
    if (r.envNames.length) out.push(`- **env set by the config**: ${r.envNames.map((n) => `\`${n}\``).join(', ')} (values not shown)`);
    out.push('');
  } else if (config.type === 'stdio') {
    out.push('## Command', '', '```', [config.command, ...config.args].join(' '), '```', '', '(not resolved yet: the server has not started)', '');
  } else {
    out.push(...connectionMarkdown(config, r, stats, redact));
  }
  if (stats) {
    out.push('## Traffic', '', '| | |', '|---|---|');
    out.push(`| Requests | ${stats.requestsSent} (${stats.inFlight} in flight) |`);
    out.push(`| Errors | ${stats.errors} |`, `| Timeouts | ${stats.timeouts} |`, `| Cancelled | ${stats.cancelled} |`);
    out.push(`| Latency p50 / p95 / p99 | ${ms(stats.latency.p50)} / ${ms(stats.latency.p95)} / ${ms(stats.latency.p99)} |`);
    out.push(`| Sent | ${bytes(stats.bytesSent)} in ${stats.messagesSent} messages |`);
    out.push(`| Received | ${bytes(stats.bytesReceived)} in ${stats.messagesReceived} messages |`);
    if (config.type === 'stdio') out.push(`| stdout noise lines | ${stats.noiseLines} |`);
    out.push('');
    const methods = Object.entries(stats.byMethod).sort((a, b) => b[1].requests - a[1].requests);
    if (methods.length) {
      out.push('### Per method', '', '| Method | Requests | Errors | Timeouts | Cancelled | p50 | p95 | max |', '|---|---:|---:|---:|---:|---:|---:|---:|');
      for (const [method, m] of methods) out.push(`| ${cell(method)} | ${m.requests} | ${m.errors} | ${m.timeouts} | ${m.cancelled} | ${ms(m.p50)} | ${ms(m.p95)} | ${ms(m.max)} |`);
      out.push('');
    }
  } else {
    out.push('_No connection statistics: the server is not running._', '');
  }
  if (noise.length) out.push('## Last stdout noise', '', '```', ...noise.map(redact), '```', '');
  const tail = server.stderrTail ?? [];
  if (tail.length) out.push('## Last stderr lines', '', '```', ...tail.slice(-20).map(redact), '```', '');
  return out.join('\n');
}


/**
 * The Connection section of a remote server: URL, transport in use, session, the headers it
 * sends (secret values masked), HTTP status counts and streams.
 */
function connectionMarkdown(config: RemoteServerConfig, resolved: ResolvedRemoteServer | undefined, stats: ConnectionStats | undefined, redact: (text: string) => string): string[] {
  const http = stats?.http;
  const out = ['## Connection', '', '| | |', '|---|---|'];
  out.push(`| URL | ${cell(redact(http?.url ?? resolved?.url ?? config.url))} |`);
  out.push(`| Transport | ${transportLabel(config.type, http?.transport)}${http || config.type === 'sse' ? '' : ' (Streamable HTTP, falling back to HTTP+SSE)'} |`);
  if (http?.sessionId) out.push(`| Session id | \`${cell(http.sessionId)}\` |`);
  const secret = new Set(resolved?.secretHeaderNames ?? []);
  const headers = Object.entries(config.headers ?? {}).map(([name, value]) =>
    resolved && !secret.has(name) ? `\`${name}: ${redact(resolved.headers[name] ?? value)}\`` : `\`${name}: ${maskHeaderValue(name, value)}\``,
  );
  if (headers.length) out.push(`| Headers | ${cell(headers.join(', '))} |`);
  if (http) {
    const statuses = Object.entries(http.statusCounts).sort(([a], [b]) => a.localeCompare(b));
    out.push(`| HTTP statuses | ${statuses.length ? statuses.map(([status, n]) => `${status} × ${n}`).join(', ') : '—'} |`);
    out.push(`| Streams opened | ${http.streamsOpened} (${http.streamResumptions} resumed) |`);
  }
  out.push('');
  return out;
}
