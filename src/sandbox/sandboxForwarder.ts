// The way into a sandbox whose network is a list of hosts: inside the sandbox (its own network
// namespace, nothing but its own loopback), a tiny forwarder listens on 127.0.0.1:port and pipes
// each connection to the host's filtering proxy through the Unix socket bound in, then runs the
// server as its child (stdio shared, exit code passed on, signals forwarded). It is Node code run
// with the host's own Node (`node -e`), so the sandbox needs no extra tool (socat) and no file of
// ours on disk. The server finds the proxy in HTTP_PROXY/HTTPS_PROXY (both spellings), with the
// per-start secret as the URL's password.
import { PROXY_USER } from './filteringProxy';

/** Where the proxy's socket appears inside the sandbox (in its private /tmp). */
export const SANDBOX_PROXY_SOCKET = '/tmp/.mcp-host-proxy.sock';

/** The proxy a sandboxed launch goes through. */
export interface SandboxProxy {
  /** The proxy's Unix socket on the host. */
  readonly hostSocket: string;
  /** The forwarder's port on the sandbox's own loopback. */
  readonly port: number;
  readonly secret: string;
  /** The Node executable that runs the forwarder (the host's: process.execPath). */
  readonly node: string;
  /** The Node executable is Electron's (VS Code): it runs as Node with ELECTRON_RUN_AS_NODE, which the server does not inherit. */
  readonly electron: boolean;
}

// argv: socket, port, whether to drop ELECTRON_RUN_AS_NODE, the server's file and arguments.
const FORWARDER_SOURCE = `'use strict';
const net = require('net');
const { spawn } = require('child_process');
const [sock, port, dropElectron, file, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(sock);
  c.on('error', () => u.destroy());
  u.on('error', () => c.destroy());
  c.pipe(u);
  u.pipe(c);
});
server.on('error', (e) => { process.stderr.write('mcp-host sandbox: the proxy forwarder cannot listen: ' + e.message + '\\n'); process.exit(70); });
server.listen(Number(port), '127.0.0.1', () => {
  const env = Object.assign({}, process.env);
  if (dropElectron === '1') delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(file, args, { stdio: 'inherit', env });
  child.on('error', (e) => { process.stderr.write('mcp-host sandbox: cannot start ' + file + ': ' + e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (require('os').constants.signals[signal] || 1) : code));
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
});
`;

/** The forwarder's command line, which then runs `file args`. */
export function forwarderCommand(proxy: SandboxProxy, file: string, args: readonly string[]): { file: string; args: string[] } {
  return { file: proxy.node, args: ['-e', FORWARDER_SOURCE, '--', SANDBOX_PROXY_SOCKET, String(proxy.port), proxy.electron ? '1' : '0', file, ...args] };
}

/** The variables that point the server at the proxy (both spellings: tools read one or the other). */
export function proxyEnvironment(proxy: SandboxProxy): Record<string, string> {
  const url = `http://${PROXY_USER}:${proxy.secret}@127.0.0.1:${proxy.port}`;
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: '', no_proxy: '', ...(proxy.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) };
}
