import { Disposable } from './disposable';

/** Subscribe to an event; the returned Disposable unsubscribes. */
export type Event<T> = (listener: (e: T) => void) => Disposable;

export namespace Event {
  export const None: Event<any> = () => Disposable.None;
}

/**
 * Called when an emitter gains its first listener or loses its last: an emitter that forwards a
 * costly source subscribes to it only while someone listens.
 */
export interface EmitterListenerHooks {
  onFirstListener?(): void;
  onLastListener?(): void;
}

/**
 * A minimal event emitter. Listeners are called synchronously in subscription order;
 * a throwing listener is reported through `onListenerError` and does not stop the others.
 */
export class Emitter<T> implements Disposable {
  private listeners: Array<(e: T) => void> = [];
  private disposed = false;

  constructor(
    private readonly onListenerError: (error: unknown) => void = () => {},
    private readonly hooks: EmitterListenerHooks = {},
  ) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return Disposable.None;
    this.listeners.push(listener);
    if (this.listeners.length === 1) this.hooks.onFirstListener?.();
    return Disposable.from(() => {
      const i = this.listeners.indexOf(listener);
      if (i < 0) return;
      this.listeners.splice(i, 1);
      if (this.listeners.length === 0 && !this.disposed) this.hooks.onLastListener?.();
    });
  };

  /** True when at least one listener is subscribed: lets callers skip building costly payloads. */
  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  fire(e: T): void {
    const listeners = this.listeners;
    if (listeners.length === 0) return;
    if (listeners.length === 1) {
      this.call(listeners[0], e);
      return;
    }
    for (const listener of listeners.slice()) this.call(listener, e);
  }

  private call(listener: (e: T) => void, e: T): void {
    try {
      listener(e);
    } catch (error) {
      this.onListenerError(error);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
