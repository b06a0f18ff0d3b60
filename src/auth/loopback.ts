// The redirect back from the browser: a listener on 127.0.0.1 for one sign-in (RFC 8252 §7.3).
import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { AuthError } from './errors';

/** Where the authorization server sends the browser back, for one sign-in. */
export interface Redirect {
  /** The `redirect_uri` to register and to send. */
  readonly uri: string;
  /**
   * Resolves with the callback's query once a request arrives with `expectedState`. A request
   * with another or no state (any local process can send one) gets 400 and the wait goes on.
   * Rejects with AuthError('redirect') when nothing right arrives in time, and with
   * AuthError('cancelled') when `signal` aborts. Stops listening either way.
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

/**
 * The pages the browser shows: small, styled inline, under a CSP that allows nothing but that
 * one stylesheet (by its hash): no script, no image, no request back.
 */
const PAGE_STYLE = [
  ':root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}',
  'body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f3f4f6;color:#1f2937}',
  'main{max-width:28rem;margin:1rem;padding:2rem 2.25rem;border-radius:12px;background:#fff;box-shadow:0 4px 24px rgba(0,0,0,.08)}',
  'h1{margin:0 0 .75rem;font-size:1.25rem;display:flex;gap:.6rem;align-items:center}',
  '.mark{display:inline-flex;width:1.6rem;height:1.6rem;border-radius:50%;align-items:center;justify-content:center;color:#fff;font-size:1rem}',
  '.ok .mark{background:#16a34a}.refused .mark{background:#dc2626}',
  'p{margin:.4rem 0;line-height:1.5}small{color:#6b7280}',
  '@media (prefers-color-scheme:dark){body{background:#111827;color:#e5e7eb}main{background:#1f2937;box-shadow:none}small{color:#9ca3af}}',
].join('');
const PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function page(kind: 'ok' | 'refused', title: string, lines: readonly string[]): string {
  const mark = kind === 'ok' ? '&#10003;' : '!';
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} · MCP Host</title><style>${PAGE_STYLE}</style><main class="${kind}"><h1><span class="mark">${mark}</span>${title}</h1>${lines.map((l) => `<p>${l}</p>`).join('')}<small>MCP Host</small></main></html>`;
}

const PAGE_OK = page('ok', 'Signed in', ['Sign-in finished. You can close this window and return to MCP Host.']);
const PAGE_REFUSED = page('refused', 'Not accepted', ['This response does not belong to the sign-in MCP Host is waiting for, so it was ignored.', 'If you started a sign-in, finish it in the window it opened, or start it again from MCP Host.']);

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
      let refused = 0;
      const timer = setTimeout(() => {
        const strays = refused ? ` (${refused} request${refused === 1 ? '' : 's'} with another state refused)` : '';
        finish(new AuthError('redirect', `no answer from the browser within ${Math.round(this.timeoutMs / 1000)} s${strays}; sign-in abandoned`));
      }, this.timeoutMs);
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
        // Not this sign-in's: any local process can reach this port, so a stray request must not
        // end the sign-in the user's browser is about to finish.
        if (state !== expectedState) {
          refused++;
          respond(response, 400, PAGE_REFUSED);
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

function respond(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
  response.end(html);
}
