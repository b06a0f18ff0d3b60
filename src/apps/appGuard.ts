// What comes from an app's view is untrusted: each message is checked for shape and size before
// the App protocol sees it, and a view that sends faster than a person could make it is cut off
// (a token bucket: a burst, then a steady rate). Both without `vscode`, so tests drive them.

/** The largest message a view may send (a tool call's arguments included). */
export const MAX_APP_MESSAGE_BYTES = 4 * 1024 * 1024;
const MAX_METHOD_LENGTH = 200;

/** A message from the view, as JSON-RPC 2.0 allows it (no batches). */
export type AppInbound =
  | { readonly ok: true; readonly message: Record<string, unknown>; readonly bytes: number; readonly method?: string }
  | { readonly ok: false; readonly reason: string; /** The request's id when one could be read, to answer it with an error. */ readonly id?: string | number };

function idOf(value: Record<string, unknown>): string | number | undefined {
  const id = value.id;
  return typeof id === 'string' ? (id.length <= 200 ? id : undefined) : typeof id === 'number' && Number.isFinite(id) ? id : undefined;
}

/** Checks one message from the view: a JSON-RPC 2.0 request, notification or response, within the size cap. */
export function checkAppMessage(value: unknown): AppInbound {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: Array.isArray(value) ? 'batches are not accepted' : 'not a JSON-RPC object' };
  const message = value as Record<string, unknown>;
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch {
    return { ok: false, reason: 'not serialisable as JSON' };
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  const id = idOf(message);
  if (bytes > MAX_APP_MESSAGE_BYTES) return { ok: false, reason: `larger than ${MAX_APP_MESSAGE_BYTES / 1024 / 1024} MiB (${bytes} bytes)`, ...(id !== undefined ? { id } : {}) };
  if (message.jsonrpc !== '2.0') return { ok: false, reason: 'jsonrpc is not "2.0"', ...(id !== undefined ? { id } : {}) };
  if ('id' in message && id === undefined) return { ok: false, reason: 'the id is neither a string nor a number' };
  if ('method' in message) {
    if (typeof message.method !== 'string' || message.method.length === 0 || message.method.length > MAX_METHOD_LENGTH) return { ok: false, reason: 'the method is not a short string', ...(id !== undefined ? { id } : {}) };
    if ('params' in message && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) return { ok: false, reason: `${message.method}: params is not an object`, ...(id !== undefined ? { id } : {}) };
    return { ok: true, message, bytes, method: message.method };
  }
  if (id === undefined || !('result' in message || 'error' in message)) return { ok: false, reason: 'neither a request, a notification nor a response' };
  return { ok: true, message, bytes };
}

/**
 * A token bucket: `burst` messages at once, then `perSecond` a second. `take()` is false while
 * empty; `drained()` says how many were refused since the last call (one log line per stretch).
 */
export class RateLimiter {
  private tokens: number;
  private last: number;
  private refused = 0;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    this.refused++;
    return false;
  }

  /** Messages refused since the last call, and resets the count. */
  drained(): number {
    const n = this.refused;
    this.refused = 0;
    return n;
  }
}

/** How fast a view may send: 60 at once, then 30 a second (a person clicking is far below it). */
export const APP_RATE = { burst: 60, perSecond: 30 } as const;
