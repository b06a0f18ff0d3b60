// The most recent frames of a connection, kept while nobody traces them, so turning the trace on
// later still shows how the session began (the `initialize` exchange). Holds the frames' text, or
// references to the message objects the connection already parsed or built: nothing is serialised
// or formatted until someone asks. Bounded by count and by the frames' wire size.
import { frameToKeep, type Frame } from './frame';

/** A frame as the ring keeps it: `message` is undefined when it keeps the frame's `text` (see frameToKeep), or when the frame alone was over the byte limit. */
export interface KeptFrame extends Frame {
  /** True when the frame was larger than the whole ring and only its size was kept. */
  readonly omitted?: boolean;
}

/** A kept frame with its place in the ring, as `since` gives it. */
export interface RingFrame extends KeptFrame {
  /** Increasing per ring: what was already shown can be told from what was not. */
  readonly seq: number;
}

export interface FrameRingLimits {
  /** Most frames kept. */
  readonly maxFrames: number;
  /** Most wire bytes of the frames kept; a bigger single frame keeps only its size. */
  readonly maxBytes: number;
}

export const DEFAULT_FRAME_RING_LIMITS: FrameRingLimits = { maxFrames: 500, maxBytes: 4 * 1024 * 1024 };

export class FrameRing {
  private frames: KeptFrame[] = [];
  /** The sequence number of each kept frame, beside it (a flood pushes 100,000 frames: one object each, not two). */
  private seqs: number[] = [];
  /** Index of the oldest kept frame in `frames` (dropping from the front without shifting). */
  private head = 0;
  private bytes = 0;
  private nextSeq = 1;

  constructor(private readonly limits: FrameRingLimits = DEFAULT_FRAME_RING_LIMITS) {}

  /** Keeps `frame` (see frameToKeep) and drops the oldest past the limits; returns the frame as kept. */
  push(frame: Frame): KeptFrame {
    const omitted = frame.bytes > this.limits.maxBytes;
    const kept: KeptFrame = omitted ? { direction: frame.direction, message: undefined, bytes: frame.bytes, time: frame.time, omitted } : frameToKeep(frame);
    this.frames.push(kept);
    this.seqs.push(this.nextSeq++);
    if (!omitted) this.bytes += frame.bytes;
    while (this.size > this.limits.maxFrames || this.bytes > this.limits.maxBytes) this.dropOldest();
    // Compact once the dropped front outweighs what is kept.
    if (this.head > 64 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
    return kept;
  }

  /** The sequence number the last frame pushed got (0 before any). */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  get size(): number {
    return this.frames.length - this.head;
  }

  /** The kept frames with a sequence number above `seq`, oldest first. */
  since(seq: number): RingFrame[] {
    const out: RingFrame[] = [];
    for (let i = this.head; i < this.frames.length; i++) if (this.seqs[i] > seq) out.push({ ...this.frames[i], seq: this.seqs[i] });
    return out;
  }

  private dropOldest(): void {
    const oldest = this.frames[this.head++];
    if (!oldest.omitted) this.bytes -= oldest.bytes;
  }
}
