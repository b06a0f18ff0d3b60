// The filtering proxy of a sandbox whose network is a list of hosts. The sandbox has no network
// of its own (bwrap's new network namespace: only its own loopback); this proxy listens on a Unix
// socket in a private folder (0700) of the host, which is bound into the sandbox, where a small
// forwarder (sandboxForwarder.ts) serves it on the sandbox's loopback as HTTP_PROXY/HTTPS_PROXY.
// It speaks HTTP CONNECT (for https and any TCP) and plain HTTP with absolute URLs, asks for the
// per-start secret the proxy URL carries (Proxy-Authorization: Basic), and refuses every host not
// on the list with a 403 whose text names the host and the setting, so the server can report it.
// Names are resolved here, on the host; a pattern `*.example.com` allows subdomains only.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import { connect, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';

/** The user name of the proxy URL; the password is the secret. */
export const PROXY_USER = 'mcp-host';

/** A running proxy: where it listens, the secret it asks for, and how to stop it. */
export interface FilteringProxy {
  /** The Unix socket on the host. */
  readonly socketPath: string;
  /** The per-start secret, the password of the proxy URL. */
  readonly secret: string;
  /** Stops listening, ends every open connection and removes the socket's folder. */
  close(): Promise<void>;
}

/** Whether `host` (a name or an IP address, no port) is allowed by `allowed` (names, IPs, `*.domain`). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith('*.') ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p || `[${h}]` === p;
  });
}

/** The text a refused host gets, for the server to report. */
export function refusalText(host: string): string {
  return `mcp-host sandbox: the host "${host}" is not allowed (it is not in sandbox.network.allowedDomains)`;
}

/** Starts a proxy for `allowed` on a fresh Unix socket. */
export async function startFilteringProxy(allowed: readonly string[]): Promise<FilteringProxy> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-host-proxy-'));
  const socketPath = path.join(dir, 'proxy.sock');
  const secret = randomBytes(18).toString('base64url');
  const expected = `Basic ${Buffer.from(`${PROXY_USER}:${secret}`).toString('base64')}`;
  const open = new Set<Duplex>();
  const server: Server = createServer((req, res) => forwardPlain(req, res, allowed, expected));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => tunnel(req, client, head, allowed, expected, open));
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    socketPath,
    secret,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/** CONNECT host:port: a tunnel to an allowed host, else 403 (407 without the secret). */
function tunnel(req: IncomingMessage, client: Duplex, head: Buffer, allowed: readonly string[], expected: string, open: Set<Duplex>): void {
  const answer = (status: string, text: string, extra = ''): void => void client.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n${extra}\r\n${text}`);
  client.on('error', () => client.destroy());
  if (req.headers['proxy-authorization'] !== expected) return answer('407 Proxy Authentication Required', 'mcp-host sandbox: the proxy needs the credentials of its URL', 'Proxy-Authenticate: Basic realm="mcp-host sandbox"\r\n');
  const target = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? '');
  if (!target) return answer('400 Bad Request', 'mcp-host sandbox: CONNECT needs host:port');
  const [, host, port] = target;
  if (!hostAllowed(host, allowed)) return answer('403 Forbidden', refusalText(host));
  const upstream = connect({ host, port: Number(port) });
  open.add(upstream);
  upstream.once('close', () => open.delete(upstream));
  upstream.once('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.once('error', (error) => (upstream.readyState === 'opening' ? answer('502 Bad Gateway', `mcp-host sandbox: cannot reach ${host}:${port}: ${error.message}`) : client.destroy()));
  client.once('close', () => upstream.destroy());
}

/** GET http://host/path through the proxy: forwarded when the host is allowed, else 403. */
function forwardPlain(req: IncomingMessage, res: ServerResponse, allowed: readonly string[], expected: string): void {
  const fail = (status: number, text: string, headers: Record<string, string> = {}): void => void res.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(text);
  if (req.headers['proxy-authorization'] !== expected) return fail(407, 'mcp-host sandbox: the proxy needs the credentials of its URL', { 'Proxy-Authenticate': 'Basic realm="mcp-host sandbox"' });
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    return fail(400, 'mcp-host sandbox: the proxy takes absolute http:// URLs (use CONNECT for https)');
  }
  if (url.protocol !== 'http:') return fail(400, 'mcp-host sandbox: the proxy takes absolute http:// URLs (use CONNECT for https)');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!hostAllowed(host, allowed)) return fail(403, refusalText(host));
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const upstream = httpRequest({ host, port: url.port || 80, method: req.method, path: url.pathname + url.search, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => (res.headersSent ? res.destroy() : fail(502, `mcp-host sandbox: cannot reach ${host}: ${error.message}`)));
  req.pipe(upstream);
}
