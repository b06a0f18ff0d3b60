// An async request handler for node:http's createServer, which ignores the promise a handler
// returns: a failure in it would be an unhandled rejection (the test process ends). Here it drops
// the connection instead, so the client of the test sees it and the test fails where it is.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** `handler` as a callback that createServer can call: its rejection destroys the response. */
export function asyncHandler(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    handler(request, response).catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
  };
}
