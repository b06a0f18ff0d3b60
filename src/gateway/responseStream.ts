// The answer to one POSTed request: plain JSON when the answer is all there is, switched to an
// SSE stream the moment something has to go out before it (progress, a request to the client),
// so the common call costs one JSON body and a long one still streams.
import type { ServerResponse } from 'node:http';

/** Writes `message` as one SSE event. */
export function writeSseEvent(res: ServerResponse, message: unknown): void {
  res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

export class ResponseStream {
  private streaming = false;
  private ended = false;

  constructor(
    /** The HTTP response the answer goes to. */
    readonly response: ServerResponse,
    private readonly headers: Readonly<Record<string, string>>,
  ) {}

  /** False once the answer went out or the client went away: whatever comes later is dropped. */
  get open(): boolean {
    // Read from the response rather than from a 'close' listener: no listener per request.
    return !this.ended && !this.response.destroyed;
  }

  /** A message that belongs to this request but is not its answer (progress, a request to the client). */
  sendBefore(message: unknown): void {
    if (!this.open) return;
    if (!this.streaming) {
      this.streaming = true;
      this.response.writeHead(200, { ...this.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    }
    writeSseEvent(this.response, message);
  }

  /** Ends the response with no answer (the request was cancelled): an event stream with nothing more in it. */
  end(): void {
    if (!this.open) return;
    this.ended = true;
    if (!this.streaming) this.response.writeHead(200, { ...this.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    this.response.end();
  }

  /** The answer: the last message; ends the response. */
  answer(message: unknown): void {
    if (!this.open) return;
    this.ended = true;
    if (this.streaming) {
      writeSseEvent(this.response, message);
      this.response.end();
      return;
    }
    const body = JSON.stringify(message);
    this.response.writeHead(200, { ...this.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    this.response.end(body);
  }
}
