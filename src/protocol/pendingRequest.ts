// The connection's records of requests in flight: ours (Pending, with its deadline and the time the
// user spent answering on its behalf) and the peer's (Inbound), and which handlers a peer's
// request caused by ours goes to.
import type * as z from './zod';
import type { RequestId } from './messages';
import type { Progress, PeerRequestHandlers } from './requestOptions';
import type { RequestHandler } from './requestHandlers';

/**
 * One request in flight. A class with plain fields rather than closures: thousands can be in
 * flight at once, and every young-generation collection copies each one that is still alive.
 */
export class Pending {
  /** Epoch ms after which the request times out; checked by the connection's one sweep timer. */
  deadline: number | undefined = undefined;
  /** While the peer waits on the user: the time that was left on the timeout when it paused. */
  pausedRemaining: number | undefined = undefined;
  /** Since when the user has been answering the peer on this request's behalf (a form, a sampling dialog). */
  userWaitSince: number | undefined = undefined;
  /** Milliseconds spent waiting on the user so far: counted apart from the server's latency. */
  userWaitMs = 0;
  /** Open holds of the peer's requests that this one caused (waitOnUser): they pause this timeout alone. */
  holds = 0;
  cleanup: (() => void) | undefined = undefined;
  /** RequestOptions.peerRequestHandlers. */
  peerHandlers: PeerRequestHandlers | undefined = undefined;
  /** RequestOptions.holdAnswerFromFrames. */
  holdAnswer = false;
  resolve: (value: unknown) => void = noop;
  reject: (error: Error) => void = noop;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly started: number,
    readonly schema: z.ZodMiniType | undefined,
    readonly onProgress: ((progress: Progress) => void) | undefined,
    /** Per-call timeout; 0 or Infinity for none. */
    readonly timeoutMs: number,
    readonly maxTotalMs: number | undefined,
    readonly resetOnProgress: boolean,
    readonly mayAskUser: boolean,
    readonly onTimeoutPaused: ((paused: boolean) => void) | undefined,
  ) {}

  get hasTimeout(): boolean {
    return this.timeoutMs > 0 && Number.isFinite(this.timeoutMs);
  }
}

/** Ends a request's wait on the user (if it was waiting), adding it to the time it waited. */
export function endUserWait(entry: Pending, now: number): void {
  if (entry.userWaitSince === undefined) return;
  entry.userWaitMs += Math.max(0, now - entry.userWaitSince);
  entry.userWaitSince = undefined;
}

/** A request's latency without the time the user spent answering, and that time: [server ms, user ms]. */
export function timesOf(entry: Pending): [number, number] {
  const now = Date.now();
  endUserWait(entry, now);
  return [Math.max(0, now - entry.started - entry.userWaitMs), entry.userWaitMs];
}

/** A request from the peer being handled. */
export class Inbound {
  /** Set by waitOnUser(): only a request that asks the user is closed when its call ends. */
  asksUser = false;
  constructor(
    readonly controller: AbortController,
    /** Our requests it arrived during that may have caused it (RequestOptions.mayAskUser). */
    readonly origins: Set<Pending>,
  ) {}
}

function noop(): void {}

/** The handler the requests that may have caused a peer's request give for `method`, when they all belong to one owner. */
export function peerHandlerOf(origins: ReadonlySet<Pending>, method: string): RequestHandler | undefined {
  let owner: object | undefined;
  let handler: RequestHandler | undefined;
  for (const origin of origins) {
    const own = origin.peerHandlers;
    if (!own || (owner !== undefined && own.owner !== owner)) return undefined;
    owner ??= own.owner;
    handler ??= own.handlers[method];
  }
  return handler;
}
