// One JSON-RPC frame as it crossed the wire, and how whoever keeps frames (traces, the output
// channel, the session recorder) holds and prints it.

/** One JSON-RPC frame as it crossed the wire, for traces. */
export interface Frame {
  readonly direction: 'send' | 'receive';
  readonly message: unknown;
  /** Size of the frame in bytes (UTF-8, without the newline). */
  readonly bytes: number;
  /** Epoch milliseconds. */
  readonly time: number;
  /**
   * The message's JSON text on one line, when it is at hand: what the connection sent, what a
   * stdio server printed. Kept instead of `message` by whoever keeps frames (a flat string costs
   * the garbage collector far less than the parsed tree), and printed as is (frameJson). A
   * received text is given only when it holds no escape (no `\`): its strings then read exactly
   * as the parsed ones, so redaction finds a secret in it as it would in JSON.stringify's output
   * (a server writing `\/` or `\u0073` could otherwise slip a secret past it).
   */
  readonly text?: string;
}

/** A frame as whoever keeps it holds it: its text alone when it has one (a flat string, not the parsed tree). */
export function frameToKeep(frame: Frame): Frame {
  return frame.text !== undefined ? { direction: frame.direction, message: undefined, text: frame.text, bytes: frame.bytes, time: frame.time } : frame;
}

/** A frame's message as JSON text on one line: its own text when it has one. */
export function frameJson(frame: Pick<Frame, 'message' | 'text'>): string {
  return frame.text ?? JSON.stringify(frame.message) ?? String(frame.message);
}
