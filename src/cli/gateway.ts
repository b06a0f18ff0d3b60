// `mcp-host gateway`: the servers of the command line served to other MCP clients through the
// loopback gateway until a signal (or stdin closes, with --exit-on-stdin-close). The first stdout line (with --json) says where.
import type { McpClient } from '../client/client';
import { GatewayEndpoint, GatewayFrame, McpGateway, SharedServer } from '../gateway';
import { cutDeepJson } from '../protocol/jsonShape';
import { MAX_PRINTED_DEPTH } from './render';
import { timestamp } from './trace';

export interface GatewayRun {
  readonly servers: readonly { readonly name: string; readonly client: McpClient }[];
  readonly port?: number;
  readonly json: boolean;
  readonly trace: boolean;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Ends the run (a signal; stdin closed with --exit-on-stdin-close). */
  readonly signal: AbortSignal;
  /** Removes the servers' secrets from what clients and stderr get (their Redactor). */
  readonly redact: (text: string) => string;
}

/** Serves `servers` until `signal` aborts, then closes every client session and stops listening. */
export async function serveGateway(run: GatewayRun): Promise<void> {
  // The set never changes in a run: built once, not on every request.
  const shared: readonly SharedServer[] = run.servers.map((s) => ({ key: s.name, name: s.name, acquire: () => Promise.resolve(s.client) }));
  const gateway = new McpGateway({
    ...(run.port !== undefined ? { port: run.port } : {}),
    servers: () => shared,
    log: (level, text, key) => {
      if (level !== 'debug' && level !== 'trace') run.stderr(run.redact(`mcp-host: ${key ? `${key}: ` : ''}${text}\n`));
    },
    ...(run.trace ? { onFrame: (frame: GatewayFrame) => run.stderr(run.redact(traceLine(frame))) } : {}),
    redact: run.redact,
  });
  await gateway.start();
  try {
    const endpoints = run.servers.map((s) => gateway.endpoint({ key: s.name, name: s.name }));
    run.stdout(run.json ? JSON.stringify({ servers: endpoints.map(({ name, url, headers }) => ({ name, url, headers })) }) + '\n' : describeEndpoints(endpoints, gateway.port));
    if (!run.signal.aborted) await new Promise<void>((resolve) => run.signal.addEventListener('abort', () => resolve(), { once: true }));
  } finally {
    await gateway.close();
  }
}

/** One trace line for a relayed frame, marked with the gateway client's name. */
function traceLine(frame: GatewayFrame): string {
  const arrow = frame.direction === 'from-client' ? `[${frame.clientName} → ${frame.serverKey}]` : `[${frame.serverKey} → ${frame.clientName}]`;
  return `${timestamp(Date.now())} gateway ${arrow} ${JSON.stringify(cutDeepJson(frame.message, MAX_PRINTED_DEPTH).value)}\n`;
}

/** Readable lines with snippets ready to paste into `.mcp.json` and `.vscode/mcp.json`. */
function describeEndpoints(endpoints: readonly GatewayEndpoint[], port: number): string {
  const entry = (e: GatewayEndpoint) => ({ type: 'http', url: e.url, headers: e.headers });
  const lines = [`MCP Host gateway on 127.0.0.1:${port} (Ctrl-C to stop; the header is a secret for this run only)`, ''];
  for (const e of endpoints) lines.push(`${e.name}: ${e.url}`, ...Object.entries(e.headers).map(([name, value]) => `  ${name}: ${value}`));
  const indent = (value: unknown) => JSON.stringify(value, null, 2);
  lines.push('', 'For .mcp.json (Claude Code, Cursor, ...):', indent({ mcpServers: Object.fromEntries(endpoints.map((e) => [e.name, entry(e)])) }));
  lines.push('', 'For .vscode/mcp.json:', indent({ servers: Object.fromEntries(endpoints.map((e) => [e.name, entry(e)])) }), '');
  return lines.join('\n');
}
