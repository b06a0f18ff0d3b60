// The most recent frames of a connection, kept while nobody traces them, so turning the trace on
// later still shows how the session began (the `initialize` exchange). Holds the frames' text, or
// references to the message objects the connection already parsed or built: nothing is serialised
// or formatted until someone asks. Bounded by count and by the frames' wire size.
import { frameToKeep, type Frame } from './connection';

/** A frame as the ring keeps it: `message` is undefined when it keeps the frame's `text`, or when the frame alone was over the byte limit. */
export interface RingFrame extends Frame {
  /** Increasing per ring: what was already shown can be told from what was not. */
  readonly seq: number;
  /** True when the frame was larger than the whole ring and only its size was kept. */
  readonly omitted?: boolean;
}

export interface FrameRingLimits {
  /** Most frames kept. */
  readonly maxFrames: number;
  /** Most wire bytes of the frames kept; a bigger single frame keeps only its size. */
  readonly maxBytes: number;
}

export const DEFAULT_FRAME_RING_LIMITS: FrameRingLimits = { maxFrames: 500, maxBytes: 4 * 1024 * 1024 };

export class FrameRing {
  private frames: RingFrame[] = [];
  /** Index of the oldest kept frame in `frames` (dropping from the front without shifting). */
  private head = 0;
  private bytes = 0;
  private nextSeq = 1;

  constructor(private readonly limits: FrameRingLimits = DEFAULT_FRAME_RING_LIMITS) {}

  /** Keeps `frame` (by reference) and drops the oldest past the limits; returns its sequence number. */
  push(frame: Frame): number {
    const seq = this.nextSeq++;
    const omitted = frame.bytes > this.limits.maxBytes;
    const kept: RingFrame = omitted ? { direction: frame.direction, message: undefined, bytes: frame.bytes, time: frame.time, seq, omitted } : { ...frameToKeep(frame), seq };
    this.frames.push(kept);
    if (!omitted) this.bytes += frame.bytes;
    while (this.size > this.limits.maxFrames || this.bytes > this.limits.maxBytes) this.dropOldest();
    // Compact once the dropped front outweighs what is kept.
    if (this.head > 64 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
    return seq;
  }

  get size(): number {
    return this.frames.length - this.head;
  }

  /** The kept frames with a sequence number above `seq`, oldest first. */
  since(seq: number): RingFrame[] {
    const out: RingFrame[] = [];
    for (let i = this.head; i < this.frames.length; i++) if (this.frames[i].seq > seq) out.push(this.frames[i]);
    return out;
  }

  private dropOldest(): void {
    const oldest = this.frames[this.head++];
    if (!oldest.omitted) this.bytes -= oldest.bytes;
  }
}
