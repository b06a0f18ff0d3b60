// A gateway in the test process over real McpClients, and the official SDK 1.x client
// (Streamable HTTP) as the gateway's client: the peer a real editor or agent would be.
import { request } from 'node:http';
import { McpClient } from '../../src/client/client';
import { GatewayEndpoint, GatewayFrame, McpGateway, McpGatewayOptions } from '../../src/gateway';

type SdkClient = import('@modelcontextprotocol/sdk/client/index.js', { with: { 'resolution-mode': 'import' } }).Client;

export interface TestGateway {
  readonly gateway: McpGateway;
  readonly frames: GatewayFrame[];
  readonly logs: string[];
  endpoint(key: string): GatewayEndpoint;
  close(): Promise<void>;
}

/** A gateway sharing `servers` (key → name and client); `trusted` is read on every request. */
export async function openGateway(servers: Record<string, { name: string; client: McpClient }>, options: { trusted?: () => boolean; toolHidden?: (key: string, tool: string) => boolean } & Pick<McpGatewayOptions, 'maxBodyBytes' | 'sessionIdleMs' | 'maxSessions' | 'maxSessionsPerClient' | 'refusalLogWindowMs'> = {}): Promise<TestGateway> {
  const frames: GatewayFrame[] = [];
  const logs: string[] = [];
  const shared = () =>
    Object.entries(servers).map(([key, s]) => ({
      key,
      name: s.name,
      acquire: async () => s.client,
      ...(options.toolHidden ? { toolHidden: (tool: string) => options.toolHidden!(key, tool) } : {}),
    }));
  const gateway = new McpGateway({
    servers: shared,
    notServing: () => (options.trusted?.() === false ? 'the workspace is not trusted' : undefined),
    maxBodyBytes: options.maxBodyBytes,
    sessionIdleMs: options.sessionIdleMs,
    maxSessions: options.maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient,
    refusalLogWindowMs: options.refusalLogWindowMs,
    log: (level, text, key) => logs.push(`${level} ${key ?? '-'} ${text}`),
    onFrame: (f) => frames.push(f),
  });
  await gateway.start();
  return {
    gateway,
    frames,
    logs,
    endpoint: (key) => gateway.endpoint({ key, name: servers[key].name }),
    close: () => gateway.close(),
  };
}

/** The SDK 1.x client connected to `endpoint` (URL and headers as a real client is given them). */
export async function sdkClient(endpoint: Pick<GatewayEndpoint, 'url' | 'headers'>, name = 'sdk-test-client', capabilities: Record<string, unknown> = {}): Promise<SdkClient> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name, version: '1.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { ...endpoint.headers } } }));
  return client;
}

/** The SDK 1.x client on stdio, for the direct-connection comparison. */
export async function sdkStdioClient(command: string, args: string[]): Promise<SdkClient> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'sdk-direct', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  return client;
}

/** The SDK 1.x client on Streamable HTTP straight to a server (no gateway). */
export async function sdkHttpClient(url: string): Promise<SdkClient> {
  return sdkClient({ url, headers: {} }, 'sdk-direct');
}

/** One raw HTTP request (node:http, so Host can be set as a rebinding page would send it). */
export function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    req.end(options.body);
  });
}
