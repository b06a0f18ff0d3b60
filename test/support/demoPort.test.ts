// `npm run demo` keeps the workbench's state (trust, layout, server consent: the browser keeps them
// per origin) between runs even when port 8765 is taken: the port it took is remembered and taken
// again (scripts/demo-port.mjs). Real listeners on 127.0.0.1 hold the ports.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

interface DemoPort {
  DEFAULT_DEMO_PORT: number;
  chooseDemoPort(options: { portFile: string; envPort?: string }): Promise<{ port: number; wanted: number }>;
}
const demoPort = (): Promise<DemoPort> => import(pathToFileURL(resolve(__dirname, '..', '..', '..', 'scripts', 'demo-port.mjs')).href) as Promise<DemoPort>;

const dir = mkdtempSync(join(tmpdir(), 'mcp-host-demo-port-'));
const listeners: Server[] = [];
after(async () => {
  await Promise.all(listeners.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

/** Holds 127.0.0.1:`port` (when something else already holds it, it is taken all the same). */
function occupy(port: number): Promise<void> {
  return new Promise((resolveListen) => {
    const server = createServer();
    server.once('error', () => resolveListen());
    server.listen(port, '127.0.0.1', () => {
      listeners.push(server);
      resolveListen();
    });
  });
}

test('with 8765 taken, the second run takes the port the first one took (same origin, same state)', async () => {
  const { DEFAULT_DEMO_PORT, chooseDemoPort } = await demoPort();
  await occupy(DEFAULT_DEMO_PORT);
  const portFile = join(dir, 'port');
  const first = await chooseDemoPort({ portFile, envPort: undefined });
  assert.equal(first.wanted, DEFAULT_DEMO_PORT);
  assert.notEqual(first.port, DEFAULT_DEMO_PORT);
  assert.equal(readFileSync(portFile, 'utf8').trim(), String(first.port), 'remembered');
  const second = await chooseDemoPort({ portFile, envPort: undefined });
  assert.deepEqual(second, { port: first.port, wanted: first.port });
});

test('when the remembered port is taken too, a free one is taken and remembered instead', async () => {
  const { chooseDemoPort } = await demoPort();
  const portFile = join(dir, 'port');
  const remembered = Number(readFileSync(portFile, 'utf8').trim());
  await occupy(remembered);
  const run = await chooseDemoPort({ portFile, envPort: undefined });
  assert.equal(run.wanted, remembered);
  assert.notEqual(run.port, remembered);
  assert.equal(readFileSync(portFile, 'utf8').trim(), String(run.port));
});

test('PORT chooses for one run and is not remembered', async () => {
  const { chooseDemoPort } = await demoPort();
  const portFile = join(dir, 'port-env');
  const free = await new Promise<number>((r) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => r(port));
    });
  });
  const run = await chooseDemoPort({ portFile, envPort: String(free) });
  assert.deepEqual(run, { port: free, wanted: free });
  assert.equal(existsSync(portFile), false);
});
