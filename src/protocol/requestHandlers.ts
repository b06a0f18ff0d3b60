// The contract of a handler of the peer's requests and notifications: what it is given (the
// request's id, an abort signal, a way to say it waits on the user) and what it returns.
import type { Disposable } from './disposable';
import type { RequestId } from './messages';

/** Context handed to handlers of requests the peer sends us. */
export interface RequestContext {
  readonly id: RequestId;
  readonly method: string;
  /**
   * Aborted when the peer cancels the request (reason: its text), the connection closes, or, once
   * it waits on the user, the requests of ours it arrived during all ended (reason: an
   * McpLocalError 'cancelled'; the connection then answers the peer with an error itself).
   */
  readonly signal: AbortSignal;
  /**
   * Marks this request as waiting on the user (a form, an approval). Until the returned
   * Disposable is disposed or this request ends, no timeout of our requests to the peer runs
   * out: the peer may need the user's answer to finish them. Their hard maximum still applies.
   */
  waitOnUser(): Disposable;
}

export type RequestHandler = (params: Record<string, unknown> | undefined, context: RequestContext) => unknown | Promise<unknown>;
export type NotificationHandler = (params: Record<string, unknown> | undefined) => void;
