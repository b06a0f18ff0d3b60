// A request's extension scope, in a file of its own so the helpers that send such requests
// (listen.ts, modernTasks.ts) need not import client.ts.

/**
 * What one modern request declares beyond the client's own capabilities: the requests of an
 * extension the client speaks only where it is ready for its results (client/modernTasks.ts).
 */
export interface ExtensionScope {
  /** Declared in this request's `clientCapabilities.extensions`, beside the client's own. */
  readonly extensions: Readonly<Record<string, object>>;
  /** The result types these extensions add (`task`): such a result is returned as it came, unparsed. */
  readonly resultTypes?: readonly string[];
}
