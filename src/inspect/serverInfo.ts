// Pure text about a server for the server-level actions: its configuration entry as JSON (for
// Copy Server Entry) and the Server Details document. No `vscode` import.
import type { McpClient } from '../client/client';
import type { ServerEntry } from '../config/types';
import type { ResolvedStdioServer } from '../config/variables';
import type { ConnectionStats } from '../protocol/stats';

/** What the details need of a server (the registry's handle has this shape). */
export interface ServerFacts {
  readonly id: string;
  readonly entry: ServerEntry;
  readonly status: { readonly kind: string };
  readonly pid?: number;
  /** Epoch ms when the current process was initialized. */
  readonly startedAt?: number;
  readonly resolved?: ResolvedStdioServer;
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
 * not resolved, so secrets that come from inputs stay references).
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
    body = { type: c.type, url: c.url, ...(c.headers && Object.keys(c.headers).length ? { headers: { ...c.headers } } : {}) };
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
  if (r) {
    out.push('## Command', '', '```', redact([r.command, ...r.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')), '```', '');
    out.push(`- **cwd**: \`${redact(r.cwd)}\``);
    const pathVar = r.env.PATH ?? r.env.Path;
    if (pathVar !== undefined) out.push(`- **PATH**: \`${redact(pathVar)}\``);
    if (r.envFile) out.push(`- **envFile**: \`${redact(r.envFile)}\``);
    if (r.envNames.length) out.push(`- **env set by the config**: ${r.envNames.map((n) => `\`${n}\``).join(', ')} (values not shown)`);
    out.push('');
  } else if (server.entry.config.type === 'stdio') {
    out.push('## Command', '', '```', [server.entry.config.command, ...server.entry.config.args].join(' '), '```', '', '(not resolved yet: the server has not started)', '');
  }
  if (stats) {
    out.push('## Traffic', '', '| | |', '|---|---|');
    out.push(`| Requests | ${stats.requestsSent} (${stats.inFlight} in flight) |`);
    out.push(`| Errors | ${stats.errors} |`, `| Timeouts | ${stats.timeouts} |`, `| Cancelled | ${stats.cancelled} |`);
    out.push(`| Latency p50 / p95 / p99 | ${ms(stats.latency.p50)} / ${ms(stats.latency.p95)} / ${ms(stats.latency.p99)} |`);
    out.push(`| Sent | ${bytes(stats.bytesSent)} in ${stats.messagesSent} messages |`);
    out.push(`| Received | ${bytes(stats.bytesReceived)} in ${stats.messagesReceived} messages |`);
    out.push(`| stdout noise lines | ${stats.noiseLines} |`, '');
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

