// What a caller of JsonRpcConnection.request() can ask of one request: its timeout and how
// progress and the user's waits stretch it, cancellation, and who answers the peer's requests it
// causes.
import type { RequestId } from './messages';
import type { RequestHandler } from './requestHandlers';

/** Progress as reported by `notifications/progress`. */
export interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface RequestOptions {
  /** Milliseconds without an answer before the request fails; defaults to the connection's. */
  timeoutMs?: number;
  /** Restart the timeout whenever progress arrives. */
  resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`: the request fails after this long whatever progress says. */
  maxTotalTimeoutMs?: number;
  /** Aborting sends `notifications/cancelled` and rejects the call. */
  signal?: AbortSignal;
  /** When set, a unique progress token is sent and progress for it is routed here. */
  onProgress?: (progress: Progress) => void;
  /**
   * The peer may ask the user something while answering (a tool call, a prompt, a read): its
   * requests to us that arrive meanwhile belong to this one, and are closed when it ends.
   */
  mayAskUser?: boolean;
  /** Told when the timeout stops (true) and starts again (false) while the peer waits on the user. */
  onTimeoutPaused?: (paused: boolean) => void;
  /** Told the request's id as it is sent (a `subscriptions/listen` id names its notifications). */
  onRequestId?: (id: RequestId) => void;
  /**
   * Answers for the peer's requests (by method) that this one causes, and whose they are. A peer
   * request goes to them rather than to the connection's own handler when it belongs to this
   * request: the transport says it came with it, or every request in flight that may have caused
   * it (`mayAskUser`) has handlers of the same `owner`. Otherwise the connection's handler answers.
   */
  peerRequestHandlers?: PeerRequestHandlers;
  /** The answer's content is shown to frame listeners as its size and digest only (heldFrames.ts): it is verified after it arrives. */
  holdAnswerFromFrames?: boolean;
}

/** See RequestOptions.peerRequestHandlers. */
export interface PeerRequestHandlers {
  /** Whose the handlers are (a gateway client's session): requests of one owner may share them. */
  readonly owner: object;
  readonly handlers: Readonly<Record<string, RequestHandler>>;
}
