// The benchmark's HTTP server and the census of sockets and listeners (test/bench/bench.ts).
import { spawn } from 'node:child_process';
import { EventEmitter, getEventListeners } from 'node:events';
import { gc, SERVER } from './benchScenarios';

export interface SocketCount {
  /** Sockets the server has open now. */
  readonly open: number;
  /** Sockets the server accepted since it started. */
  readonly total: number;
}

/** counter.mjs --http in its own process; it reports its socket counts on request. */
export async function startHttpServer(): Promise<{ url: string; sockets(): Promise<SocketCount>; close(): Promise<void> }> {
  const child = spawn(process.execPath, [SERVER, '--http'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<(line: string) => void> = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      waiting.shift()?.(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      waiting.push(resolve);
      void exited.then(() => reject(new Error('the HTTP server exited')));
    });
  const { port } = JSON.parse(await nextLine()) as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async sockets() {
      const answer = nextLine();
      child.stdin.write('{"command":"stats"}\n');
      return JSON.parse(await answer) as SocketCount;
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * Counts the listeners on every live EventEmitter and EventTarget (AbortSignals included) that
 * was given one since this was installed: a client that forgets to remove its listeners shows a
 * count that grows from run to run. Installed before the client is created, for every client alike.
 */
export function installListenerCensus(): () => Promise<number> {
  const seen = new WeakSet<object>();
  const targets: WeakRef<object>[] = [];
  const types = new WeakMap<object, Set<string>>();
  const note = (target: object) => {
    if (seen.has(target)) return;
    seen.add(target);
    targets.push(new WeakRef(target));
  };
  const emitter = EventEmitter.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['addListener', 'on', 'once', 'prependListener', 'prependOnceListener']) {
    const original = emitter[method];
    emitter[method] = function (this: object, ...args: unknown[]) {
      note(this);
      return original.apply(this, args);
    };
  }
  const target = EventTarget.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const addEventListener = target.addEventListener;
  target.addEventListener = function (this: object, type: unknown, ...rest: unknown[]) {
    note(this);
    let set = types.get(this);
    if (!set) types.set(this, (set = new Set()));
    set.add(String(type));
    return addEventListener.call(this, type, ...rest);
  };
  return async () => {
    // Let finished requests drop their last references, then count only what is still alive.
    // Three rounds: fetch releases a request's signal from a FinalizationRegistry callback,
    // which runs only after the collection that found the request dead.
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc?.();
    }
    let count = 0;
    for (let i = targets.length - 1; i >= 0; i--) {
      const t = targets[i].deref();
      if (!t) {
        targets[i] = targets[targets.length - 1];
        targets.pop();
      } else if (t instanceof EventEmitter) {
        for (const name of t.eventNames()) count += t.listenerCount(name);
      } else {
        for (const type of types.get(t) ?? []) count += getEventListeners(t as EventTarget, type).length;
      }
    }
    return count;
  };
}
