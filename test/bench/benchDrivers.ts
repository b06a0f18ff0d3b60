// The benchmark's drivers (test/bench/bench.ts): each loaded only in its own worker, so no client pays for another's code.
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { CallResult, ClientName, Driver, SERVER } from './benchScenarios';

export const CLIENT_INFO = { name: 'mcp-host-bench', version: '0.0.0' };

export async function ourStdioDriver(): Promise<Driver> {
  // require, not import: esbuild then initialises these modules (and zod) only in this worker.
  const { McpClient } = require('../../src/client/client') as typeof import('../../src/client/client');
  const { StdioTransport } = require('../../src/transport/stdio') as typeof import('../../src/transport/stdio');
  const client = new McpClient({ clientInfo: CLIENT_INFO });
  await client.connect(new StdioTransport({ command: process.execPath, args: [SERVER] }));
  return {
    call: (name, args, timeoutMs) => client.callTool(name, args, { timeoutMs }),
    close: () => client.close(),
  };
}

export async function ourHttpDriver(url: string): Promise<Driver> {
  const { McpClient } = require('../../src/client/client') as typeof import('../../src/client/client');
  const { StreamableHttpTransport } = require('../../src/transport/streamableHttp') as typeof import('../../src/transport/streamableHttp');
  const client = new McpClient({ clientInfo: CLIENT_INFO });
  await client.connect(new StreamableHttpTransport({ url }));
  return {
    call: (name, args, timeoutMs) => client.callTool(name, args, { timeoutMs }),
    close: () => client.close(),
  };
}

export type SdkTransport = import('@modelcontextprotocol/sdk/shared/transport.js').Transport;

/** The SDK's Client over `transport`. */
export async function sdkDriver(transport: SdkTransport): Promise<Driver> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  // The SDK reports a read-buffer overflow through onerror and then closes; the pending call
  // only learns "connection closed", so keep the first error for the report.
  let firstError: Error | undefined;
  await client.connect(transport);
  const previous = client.onerror;
  client.onerror = (error: Error) => {
    firstError ??= error;
    previous?.(error);
  };
  return {
    call: async (name, args, timeoutMs) => {
      try {
        return (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as CallResult;
      } catch (error) {
        throw firstError ? new Error(`${firstError.message} (then: ${(error as Error).message})`) : error;
      }
    },
    close: () => client.close(),
  };
}

export async function sdkStdioDriver(): Promise<Driver> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  return sdkDriver(new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'ignore' }));
}

export async function sdkHttpDriver(url: string): Promise<Driver> {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return sdkDriver(new StreamableHTTPClientTransport(new URL(url)));
}

/** The stdio floor: write request lines, split response lines, JSON.parse them. No validation, no framing checks. */
export async function floorStdioDriver(): Promise<Driver> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const pending = new Map<number, { resolve: (v: CallResult) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      let line = chunk.subarray(start, nl);
      if (chunks.length) {
        chunks.push(line);
        line = Buffer.concat(chunks);
        chunks = [];
      }
      start = nl + 1;
      const message = JSON.parse(line.toString('utf8')) as { id: number; result?: CallResult };
      const entry = pending.get(message.id);
      pending.delete(message.id);
      entry?.resolve(message.result!);
    }
    if (start < chunk.length) chunks.push(chunk.subarray(start));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => {
    for (const entry of pending.values()) entry.reject(new Error('the server exited'));
  });
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<CallResult>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return {
    call: (name, args) => request('tools/call', { name, arguments: args }),
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * The HTTP floor: one keep-alive fetch POST per frame, with the headers a Streamable HTTP client
 * must send (Accept, session id, protocol version); the JSON body parsed, nothing validated.
 */
export async function floorHttpDriver(url: string): Promise<Driver> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let nextId = 1;
  const post = (message: Record<string, unknown>) => fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  const request = async (method: string, params: Record<string, unknown>) => {
    const response = await post({ jsonrpc: '2.0', id: nextId++, method, params });
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${method}`);
    return ((await response.json()) as { result: CallResult }).result;
  };
  const init = await post({ jsonrpc: '2.0', id: nextId++, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
  const session = init.headers.get('mcp-session-id');
  const { result } = (await init.json()) as { result: { protocolVersion: string } };
  if (session) headers['mcp-session-id'] = session;
  headers['mcp-protocol-version'] = result.protocolVersion;
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).arrayBuffer();
  return {
    call: (name, args) => request('tools/call', { name, arguments: args }),
    close: async () => {},
  };
}

export const DRIVERS: { stdio: Record<ClientName, () => Promise<Driver>>; http: Record<ClientName, (url: string) => Promise<Driver>> } = {
  stdio: { ours: ourStdioDriver, sdk: sdkStdioDriver, floor: floorStdioDriver },
  http: { ours: ourHttpDriver, sdk: sdkHttpDriver, floor: floorHttpDriver },
};
