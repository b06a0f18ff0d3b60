// The modern era's notification stream: one `subscriptions/listen` request that stays open while
// the server sends the list changes and resource updates asked for, each marked with the
// stream's id. Changing what is asked for opens a new stream and ends the old one. The status of
// tasks (the tasks extension's `taskIds`) is asked for on the same stream.
import type { RequestOptions } from '../protocol/connection';
import { Disposable } from '../protocol/disposable';
import { McpLocalError } from '../protocol/errors';
import type { RequestId } from '../protocol/messages';
import type { ExtensionScope } from './clientContract';
import { META } from './schemas';

/** What the stream asks for (the specification's SubscriptionFilter). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  resourcesListChanged?: boolean;
  promptsListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks extension: `notifications/tasks` for these tasks. */
  taskIds?: string[];
}

/** How the listener sends: the client's modern request path (with `_meta`; `scope` declares the extension asked of). */
export type ListenSend = (params: Record<string, unknown>, options: RequestOptions, scope?: ExtensionScope) => Promise<unknown>;

/** Pause before a stream that ended is opened again, and how many times in a row. */
const REOPEN_DELAY_MS = 1000;
const MAX_REOPENS = 5;

/** One open (or opening) stream. */
interface Stream {
  id?: RequestId;
  readonly abort: AbortController;
  readonly acknowledged: Promise<void>;
  acknowledge(): void;
  fail(error: Error): void;
}

export class SubscriptionListener implements Disposable {
  private readonly uris = new Set<string>();
  private readonly taskIds = new Set<string>();
  /** What asking for task ids declares (the tasks extension), from the last watchTask. */
  private taskScope: ExtensionScope | undefined;
  /** The task ids the server agreed to in the current stream's acknowledgement. */
  private acknowledgedTasks = new Set<string>();
  private current: Stream | undefined;
  /** Ids of streams ended by us whose last notifications may still arrive. */
  private readonly ending = new Set<RequestId>();
  private reopens = 0;
  private disposed = false;
  private reopenTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly lists: Omit<ListenFilter, 'resourceSubscriptions' | 'taskIds'>,
    private readonly send: ListenSend,
    private readonly log: (text: string) => void,
  ) {}

  /** Opens the stream when there is anything to listen for. */
  start(): void {
    if (this.hasInterest()) void this.open().catch(() => {});
  }

  /** Adds `uri` to the stream; resolves once the server acknowledged the new stream. */
  async subscribe(uri: string, options?: RequestOptions): Promise<void> {
    this.uris.add(uri);
    await this.open(options?.timeoutMs);
  }

  async unsubscribe(uri: string, options?: RequestOptions): Promise<void> {
    if (!this.uris.delete(uri)) return;
    if (this.hasInterest()) await this.open(options?.timeoutMs);
    else this.end(this.current);
  }

  /** Adds a task to the stream (opened anew); its status comes as `notifications/tasks`. Failures are the stream's to log. */
  watchTask(taskId: string, scope: ExtensionScope): void {
    this.taskScope = scope;
    this.taskIds.add(taskId);
    void this.open().catch(() => {});
  }

  unwatchTask(taskId: string): void {
    if (!this.taskIds.delete(taskId)) return;
    this.acknowledgedTasks.delete(taskId);
    if (this.hasInterest()) void this.open().catch(() => {});
    else this.end(this.current);
  }

  /** True when the current stream's acknowledgement lists `taskId`. */
  isTaskAcknowledged(taskId: string): boolean {
    return this.acknowledgedTasks.has(taskId);
  }

  /** True for a notification that came on the current stream (or one just replaced), or carries no stream id. */
  accepts(params: Record<string, unknown> | undefined): boolean {
    const meta = params?._meta as Record<string, unknown> | undefined;
    const id = meta?.[META.subscriptionId] as RequestId | undefined;
    if (id === undefined) return true;
    return id === this.current?.id || this.ending.has(id);
  }

  /** `notifications/subscriptions/acknowledged` arrived. */
  acknowledged(params: Record<string, unknown> | undefined): void {
    const id = (params?._meta as Record<string, unknown> | undefined)?.[META.subscriptionId];
    if (this.current && (id === undefined || id === this.current.id)) {
      this.reopens = 0;
      const agreed = (params?.notifications as Record<string, unknown> | undefined)?.taskIds;
      this.acknowledgedTasks = new Set(Array.isArray(agreed) ? agreed.filter((t): t is string => typeof t === 'string' && this.taskIds.has(t)) : []);
      this.current.acknowledge();
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.end(this.current);
  }

  private hasInterest(): boolean {
    return this.uris.size > 0 || this.taskIds.size > 0 || Object.values(this.lists).some(Boolean);
  }

  private filter(): ListenFilter {
    const filter: ListenFilter = {};
    for (const [key, on] of Object.entries(this.lists)) if (on) filter[key as keyof Omit<ListenFilter, 'resourceSubscriptions' | 'taskIds'>] = true;
    if (this.uris.size > 0) filter.resourceSubscriptions = [...this.uris];
    if (this.taskIds.size > 0) filter.taskIds = [...this.taskIds];
    return filter;
  }

  /** A new stream with the current filter; the old one ends once the new one is acknowledged. */
  private open(timeoutMs?: number): Promise<void> {
    if (this.disposed) return Promise.reject(new McpLocalError('closed', 'subscriptions/listen: the client is closed'));
    const previous = this.current;
    let acknowledge!: () => void;
    let fail!: (error: Error) => void;
    const acknowledged = new Promise<void>((resolve, reject) => {
      acknowledge = resolve;
      fail = reject;
    });
    acknowledged.catch(() => {});
    const stream: Stream = { abort: new AbortController(), acknowledged, acknowledge, fail };
    this.current = stream;
    // No timeout: the stream is meant to stay open. Aborting it sends notifications/cancelled.
    const filter = this.filter();
    this.send({ notifications: filter }, { timeoutMs: 0, signal: stream.abort.signal, onRequestId: (id) => (stream.id = id) }, filter.taskIds ? this.taskScope : undefined).then(
      () => this.ended(stream, undefined),
      (error: Error) => this.ended(stream, error),
    );
    let timer: NodeJS.Timeout | undefined;
    const limit = timeoutMs !== undefined && timeoutMs > 0 ? new Promise<void>((_, reject) => (timer = setTimeout(() => reject(new McpLocalError('timeout', `subscriptions/listen was not acknowledged within ${timeoutMs} ms`)), timeoutMs))) : undefined;
    const done = (limit ? Promise.race([acknowledged, limit]) : acknowledged).finally(() => clearTimeout(timer));
    return done.then(() => {
      if (previous && previous !== this.current) this.end(previous);
    });
  }

  private end(stream: Stream | undefined): void {
    if (!stream) return;
    if (stream === this.current) this.current = undefined;
    if (stream.id !== undefined) {
      this.ending.add(stream.id);
      setTimeout(() => this.ending.delete(stream.id!), REOPEN_DELAY_MS).unref?.();
    }
    stream.abort.abort('the subscriptions changed');
  }

  /** The stream's request ended: the server closed it, or it failed. The current one is opened again. */
  private ended(stream: Stream, error: Error | undefined): void {
    stream.fail(error ?? new McpLocalError('closed', 'subscriptions/listen: the server ended the stream before acknowledging it'));
    if (stream !== this.current || this.disposed || McpLocalError.is(error, 'closed') || McpLocalError.is(error, 'server-exited')) return;
    this.current = undefined;
    if (this.reopens >= MAX_REOPENS) {
      this.log(`subscriptions/listen ended ${MAX_REOPENS} times in a row; not listening any more (${error?.message ?? 'closed by the server'})`);
      return;
    }
    this.reopens++;
    this.log(`subscriptions/listen ended (${error?.message ?? 'closed by the server'}); listening again`);
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = undefined;
      if (!this.disposed && !this.current && this.hasInterest()) void this.open().catch(() => {});
    }, REOPEN_DELAY_MS);
    this.reopenTimer.unref?.();
  }
}
