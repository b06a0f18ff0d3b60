// The redirect back from the browser: a listener on 127.0.0.1 for one sign-in (RFC 8252 §7.3).
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { AuthError } from './errors';

/** Where the authorization server sends the browser back, for one sign-in. */
export interface Redirect {
  /** The `redirect_uri` to register and to send. */
  readonly uri: string;
  /**
   * Resolves with the callback's query once a request arrives with `expectedState`; rejects
   * with AuthError('redirect') for a wrong or missing state, or when nothing arrives in time,
   * and with AuthError('cancelled') when `signal` aborts. Stops listening either way.
   */
  wait(expectedState: string, signal?: AbortSignal): Promise<URLSearchParams>;
  /** Stops listening. Idempotent. */
  close(): Promise<void>;
}

/** Opens a Redirect; `preferredPort` lets a dynamically registered redirect URI be reused. */
export type RedirectFactory = (options: { readonly preferredPort?: number }) => Promise<Redirect>;

export interface LoopbackOptions {
  /** How long to wait for the browser, in ms. Default 5 minutes. */
  readonly timeoutMs?: number;
  readonly path?: string;
  /** Listen on this port only (a pre-registered client whose redirect URI names a port); else an ephemeral one. */
  readonly port?: number;
}

const PAGE_OK = '<!doctype html><meta charset="utf-8"><title>Signed in</title><p>Sign-in finished. You can close this tab and return to MCP Host.</p>';
const PAGE_REFUSED = '<!doctype html><meta charset="utf-8"><title>Sign-in refused</title><p>This sign-in response was refused. Start the sign-in again from MCP Host.</p>';

/** A RedirectFactory listening on 127.0.0.1 (an ephemeral port unless a preferred one is free). */
export function loopbackRedirect(options: LoopbackOptions = {}): RedirectFactory {
  return async ({ preferredPort }) => {
    const server = createServer();
    const fixed = options.port;
    const port = fixed !== undefined
      ? await listen(server, fixed).catch((error: Error) => {
          throw new AuthError('redirect', `cannot listen on 127.0.0.1:${fixed} for the redirect: ${error.message}`);
        })
      : await listen(server, preferredPort).catch(() => listen(server, 0));
    return new LoopbackRedirect(server, port, options.path ?? '/callback', options.timeoutMs ?? 300_000);
  };
}

function listen(server: ReturnType<typeof createServer>, port: number | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(port ?? 0, '127.0.0.1', () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

class LoopbackRedirect implements Redirect {
  readonly uri: string;
  private closed = false;

  constructor(
    private readonly server: ReturnType<typeof createServer>,
    port: number,
    private readonly path: string,
    private readonly timeoutMs: number,
  ) {
    this.uri = `http://127.0.0.1:${port}${path}`;
  }

  wait(expectedState: string, signal?: AbortSignal): Promise<URLSearchParams> {
    return new Promise<URLSearchParams>((resolve, reject) => {
      const timer = setTimeout(() => finish(new AuthError('redirect', `no answer from the browser within ${Math.round(this.timeoutMs / 1000)} s; sign-in abandoned`)), this.timeoutMs);
      timer.unref();
      const onAbort = () => finish(new AuthError('cancelled', 'cancelled by the user before the browser came back'));
      const finish = (outcome: URLSearchParams | AuthError) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.server.off('request', onRequest);
        void this.close();
        if (outcome instanceof AuthError) reject(outcome);
        else resolve(outcome);
      };
      const onRequest = (request: IncomingMessage, response: ServerResponse) => {
        const url = new URL(request.url ?? '/', this.uri);
        // Browsers also ask for /favicon.ico: only the callback path counts.
        if (request.method !== 'GET' || url.pathname !== this.path) {
          response.writeHead(404).end();
          return;
        }
        const state = url.searchParams.get('state');
        if (state !== expectedState) {
          respond(response, 400, PAGE_REFUSED);
          finish(new AuthError('redirect', state === null ? 'the redirect carried no state; refused' : 'the redirect carried a state that does not belong to this sign-in; refused'));
          return;
        }
        respond(response, 200, PAGE_OK);
        finish(url.searchParams);
      };
      this.server.on('request', onRequest);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

function respond(response: ServerResponse, status: number, page: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'" });
  response.end(page);
}
