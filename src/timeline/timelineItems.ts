// The timeline's items as data: what an item is, how a span ended, a frame as the timeline keeps
// it. Shared by the model (timelineModel.ts) and the column store of ticks (tickStore.ts), so
// neither imports the other for them. No `vscode`.

/** What an item is: a span of the editor's request, a span of the server's, a tick, progress along a call, the start of a session. */
export type ItemKind = 'call' | 'serverCall' | 'notification' | 'progress' | 'session';

/**
 * How a span ended: `input` when the server answered with an input round (resultType
 * "input_required"), `task` when it answered with a task, `unanswered` when the session ended
 * first. Ticks are `none`, or `error` for a frame that answers nothing known.
 */
export type ItemStatus = 'open' | 'ok' | 'error' | 'cancelled' | 'input' | 'task' | 'unanswered' | 'none';

/**
 * A frame as the timeline keeps it: its `text` when the frame came with one (a flat string costs
 * the garbage collector far less than a parsed tree, 100,000 times over), else its `message`;
 * both undefined once the payload was let go. Read the payload with keptMessage.
 */
export interface KeptFrame {
  readonly direction: 'send' | 'receive';
  readonly time: number;
  readonly bytes: number;
  message: unknown;
  text: string | undefined;
  /** The payload was let go (the server's payload budget), or never kept (larger than it). */
  dropped: boolean;
}

/** A kept frame's message (parsed again from its text); undefined once the payload was let go. */
export function keptMessage(frame: KeptFrame): unknown {
  return frame.text !== undefined ? JSON.parse(frame.text) : frame.message;
}

export interface TimelineItem {
  readonly server: string;
  /** Increasing per server, without gaps: the ring's position of the item. */
  readonly id: number;
  readonly kind: ItemKind;
  /** Who sent the first frame: `send` is the editor. */
  readonly direction: 'send' | 'receive';
  readonly method: string;
  readonly name: string | undefined;
  /** Epoch ms of the first frame. */
  readonly start: number;
  /** Counts the connections of the server: request ids are only unique within one. */
  readonly session: number;
  /** Epoch ms of the answer (or of the cancellation); undefined while open and for ticks. */
  end: number | undefined;
  status: ItemStatus;
  /** Row of a call within its server, so calls that overlap do not cover each other; -1 for others. */
  lane: number;
  /** The call this item belongs to. */
  parent: number | undefined;
  /** Latest progress as a fraction (0…1) of a call, or of a progress tick; undefined without a total. */
  progress: number | undefined;
  errorText: string | undefined;
  readonly first: KeptFrame | undefined;
  second: KeptFrame | undefined;
  /** Items linked to this call, oldest first (ids; some may have left the ring). */
  children: number[] | undefined;
}

/** An item without its frames: what the timeline's page, its filter and its rows need (a tick reads as one without making its frames). */
export type ItemSummary = Omit<TimelineItem, 'first' | 'second'>;
