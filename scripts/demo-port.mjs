// Which port `npm run demo` serves code-server on. The browser keeps the workbench's state (trust,
// layout, the servers allowed) per origin, so the port is remembered in the demo's cache folder: a
// run that found 8765 taken takes a free port, and the runs after it take that one again, so they
// keep its state. PORT=N picks one for a run and is not remembered.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

export const DEFAULT_DEMO_PORT = 8765;

/** Whether 127.0.0.1:`port` can be listened on now. */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port of 127.0.0.1 the system says is free. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The port for this run: `envPort` (the PORT variable), else the remembered one, else 8765; a free
 * one when that is taken. Remembers it in `portFile` unless PORT chose. Returns it and what was wanted.
 */
export async function chooseDemoPort({ portFile, envPort }) {
  const remembered = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8').trim()) || undefined : undefined;
  const wanted = Number(envPort ?? remembered ?? DEFAULT_DEMO_PORT);
  const port = (await portIsFree(wanted)) ? wanted : await freePort();
  if (envPort === undefined) writeFileSync(portFile, `${port}\n`);
  return { port, wanted };
}
