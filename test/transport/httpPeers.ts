// Real HTTP peers for the remote transports: server-everything in its HTTP modes, and fixture
// servers on the official SDK (test/fixtures/servers/http/). Each runs as its own process on a
// free port of 127.0.0.1 and is killed (and waited for) by `close()`.
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { Transport } from '../../src/protocol/transport';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { StdioTransport } from '../../src/transport/stdio';
import { REPO } from '../client/support';

export interface HttpPeer {
  /** The MCP endpoint. */
  readonly url: string;
  /** Lines the server wrote to stdout and stderr. */
  readonly output: string[];
  readonly pid: number;
  close(): Promise<void>;
}

/** What the authorization fixture (authServer.mjs) saw, from its GET /control/stats. */
export interface AuthFixtureStats {
  registrations: number;
  authorizations: Array<{ scope: string | null; resource: string | null }>;
  tokens: number;
  refreshes: number;
  /** Every refresh_token request, refused ones too. */
  refreshRequests: number;
  /** 401 answers of /mcp. */
  unauthorized: number;
  /** How the client authenticated at /token: `client_secret_basic` or `body`. */
  lastTokenAuth?: string;
  metadataDocuments?: number;
}

/** The authorization fixture's stats now. */
export async function authFixtureStats(peer: HttpPeer): Promise<AuthFixtureStats> {
  return (await (await fetch(new URL('/control/stats', peer.url))).json()) as AuthFixtureStats;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const EVERYTHING_MAIN = path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** server-everything in `streamableHttp` (endpoint /mcp) or `sse` (endpoint /sse) mode; on `port` to stand in for one that went away. */
export async function startEverything(mode: 'streamableHttp' | 'sse', port?: number): Promise<HttpPeer> {
  port ??= await freePort();
  return startPeer(EVERYTHING_MAIN, [mode], port, /listening on port|running on port/i, `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`);
}

/** A fixture server from test/fixtures/servers/http/ with `args` (on `port`, else a free one); it prints "listening <port>" when ready. */
export async function startFixture(name: string, args: string[] = [], port?: number): Promise<HttpPeer> {
  port ??= await freePort();
  return startPeer(path.join(REPO, 'test/fixtures/servers/http', name), ['--port', String(port), ...args], port, /^listening \d+/, `http://127.0.0.1:${port}/mcp`);
}

async function startPeer(main: string, args: string[], port: number, ready: RegExp, url: string): Promise<HttpPeer> {
  const child = spawn(process.execPath, [main, ...args], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    // Given up on, the server is stopped too: one that starts late (a loaded machine) would
    // otherwise outlive its test, its pipes keeping the test file's process from ever ending.
    const timer = setTimeout(() => {
      reject(new Error(`${path.basename(main)} did not start within 15 s: ${output.join('\n')}`));
      void stop(child, exited);
    }, 15_000);
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        output.push(line);
        if (ready.test(line)) {
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout!.on('data', onLine);
    child.stderr!.on('data', onLine);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(main)} exited with ${code} before listening: ${output.join('\n')}`));
    });
  });
  return { url, output, pid: child.pid!, close: () => stop(child, exited) };
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}

export type EverythingKind = 'stdio' | 'streamableHttp' | 'sse';

/** A transport to a fresh server-everything over `kind`, and how to end the server afterwards. */
export interface EverythingPeer {
  readonly transport: Transport;
  /** After the client closed: checks nothing is left running (for stdio the process), then stops an HTTP server. */
  stop(): Promise<void>;
}

export async function everythingPeer(kind: EverythingKind): Promise<EverythingPeer> {
  if (kind === 'stdio') {
    const transport = new StdioTransport({ command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'], closeGraceMs: 500, termGraceMs: 500 });
    return {
      transport,
      stop: async () => {
        const pid = transport.stats().process?.pid;
        if (pid) assert.throws(() => process.kill(pid, 0), 'the server process is gone after close()');
      },
    };
  }
  const peer = await startEverything(kind);
  return { transport: createHttpTransport({ url: peer.url, mode: kind === 'sse' ? 'sse' : 'http' }), stop: () => peer.close() };
}
