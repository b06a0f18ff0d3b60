import type { McpClient } from '../client/client';
import { Disposable, DisposableStore } from '../protocol/disposable';
import { cutDeepJson } from '../protocol/jsonShape';
import { formatBytes } from '../protocol/text';
import { MAX_PRINTED_DEPTH } from './render';

/** Frames longer than this are cut in the trace: a terminal is no place for 100 MiB of JSON. */
const MAX_TRACE_CHARS = 1024 * 1024;

/** `12:03:04.567`, local time. */
export function timestamp(time: number): string {
  const d = new Date(time);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/**
 * Writes every frame (`→` sent, `←` received, with size and time), the server's stderr and
 * transport diagnostics to `write`, one line each.
 */
export function traceClient(client: McpClient, write: (line: string) => void): Disposable {
  const store = new DisposableStore();
  store.add(
    client.onFrame((frame) => {
      const arrow = frame.direction === 'send' ? '→' : '←';
      let json = JSON.stringify(cutDeepJson(frame.message, MAX_PRINTED_DEPTH).value);
      if (json.length > MAX_TRACE_CHARS) json = `${json.slice(0, MAX_TRACE_CHARS)}… (truncated)`;
      write(`${timestamp(frame.time)} ${arrow} ${formatBytes(frame.bytes)} ${json}`);
    }),
  );
  store.add(
    client.onTransportLog((log) => {
      const tag = log.kind === 'stderr' ? 'server stderr' : log.kind;
      write(`${timestamp(Date.now())} [${tag}] ${log.text}`);
    }),
  );
  store.add(client.onDiagnostic((d) => write(`${timestamp(Date.now())} [${d.kind}] ${d.text}`)));
  return store;
}
