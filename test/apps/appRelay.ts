// The official App SDK's end of a view, for tests without a browser: a Transport for `App` of
// @modelcontextprotocol/ext-apps whose other end is a host session, with postMessage's copies.
import type { AppHostSession } from '../../src/apps/appHost';

/** A Transport for the SDK's App; `session()` is the host session its messages go to. */
export function relay(session: () => AppHostSession) {
  const appTransport = {
    onmessage: undefined as undefined | ((m: unknown) => void),
    onclose: undefined as undefined | (() => void),
    onerror: undefined as undefined | ((e: Error) => void),
    async start() {},
    async send(message: unknown) {
      // Structured clone, as postMessage does.
      const copy = structuredClone(message);
      queueMicrotask(() => session().receive(copy));
    },
    async close() {
      appTransport.onclose?.();
    },
  };
  return appTransport;
}
